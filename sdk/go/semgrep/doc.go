// Manage Semgrep AppSec Platform configuration (project settings, tags, managed scans, rule modes, SBOM exports) as code with Pulumi.
package semgrep

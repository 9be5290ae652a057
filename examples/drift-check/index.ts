// A deployment's configuration as an adopted program declares it (`npx pulumi-semgrep adopt`
// writes the same in data files, one per area): every value declared exactly as it is live
// (against the bundled emulator's demo preset), so the first `pulumi up` writes nothing. From then on the program is the reference: the scheduled workflow
// (.github/workflows/drift-check.yml) fails when someone changes one of these values elsewhere,
// in the web UI or with a script, and names it.
import { PolicyRuleModes, ProjectSettings } from "pulumi-semgrep";

new ProjectSettings("acme-web-app", {
  deploymentSlug: "acme",
  projectName: "acme/web-app",
  primaryBranch: "refs/heads/main",
  tags: ["team:web", "tier:1"],
  managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
});

new ProjectSettings("acme-payments-api", {
  deploymentSlug: "acme",
  projectName: "acme/payments-api",
  primaryBranch: "refs/heads/main",
  tags: ["team:payments", "pci", "tier:0"],
  managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: false } },
});

// The rules whose modes the security team tuned, one per line (an adopted policy lists them all).
new PolicyRuleModes("default-sast-policy", {
  deploymentId: "1",
  policyId: "10", // Default SAST Policy
  modes: {
    "go.lang.security.injection.tainted-sql-string.tainted-sql-string": "MODE_MONITOR",
    "javascript.browser.security.insecure-document-method.insecure-document-method": "MODE_BLOCK",
    "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw": "MODE_BLOCK",
    "python.lang.security.audit.eval-detected.eval-detected": "MODE_COMMENT",
  },
});

// The stack an AppSec team changes through pull requests, guarded by the package's policy pack
// (see README.md here and the workflow in workflow.yml): critical rules block, the noisy ones
// monitor, every service keeps its diff scans.
import { ManagedScan, PolicyRuleMode } from "pulumi-semgrep";

const deploymentId = "1";
const policyId = "10"; // the default SAST policy

// Critical rules block pull requests: the pack refuses a change that puts one into MODE_MONITOR or MODE_DISABLED.
for (const rulePath of [
  "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw",
  "php.laravel.security.auth.hardcoded-cipher.hardcoded-cipher",
]) {
  new PolicyRuleMode(`block-${rulePath.split(".").pop()}`, { deploymentId, policyId, rulePath, mode: "MODE_BLOCK" });
}

// A noisy best-practice rule only monitors: allowed, it is not critical.
new PolicyRuleMode("monitor-open-never-closed", {
  deploymentId,
  policyId,
  rulePath: "python.lang.best-practice.open-never-closed.open-never-closed",
  mode: "MODE_MONITOR",
});

// Pull requests of every service are scanned (the pack warns about `diffScan: { enabled: false }`).
for (const projectName of ["acme/payments-api", "acme/web-app"]) {
  new ManagedScan(`${projectName.split("/")[1]}-diff-scans`, { deploymentSlug: "acme", projectName, diffScan: { enabled: true } });
}

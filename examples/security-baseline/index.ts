// A security baseline for a deployment: the critical services get full managed scans, a
// protected primary branch and compliance tags; the riskiest rules block pull requests; a noisy
// one only monitors; and each release of the payments API gets an SBOM.
import * as pulumi from "@pulumi/pulumi";
import { ManagedScan, PolicyRuleMode, ProjectSettings, ProjectTags, SbomExport } from "pulumi-semgrep";

const config = new pulumi.Config();
const deploymentSlug = config.get("deploymentSlug") ?? "acme";
const deploymentId = config.get("deploymentId") ?? "1";
const sastPolicyId = config.get("sastPolicyId") ?? "10";
const release = config.get("release") ?? "2026.11.0";

const criticalServices = ["acme/payments-api", "acme/web-app"];
for (const projectName of criticalServices) {
  const name = projectName.split("/")[1];
  new ProjectSettings(`${name}-settings`, {
    deploymentSlug,
    projectName,
    primaryBranch: "main",
    managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
  });
  new ProjectTags(`${name}-baseline-tags`, { deploymentSlug, projectName, tags: ["owner:appsec", "baseline:2026"] });
}

// Pull requests of the mobile app get diff scans; its full scans stay as the team set them.
new ManagedScan("mobile-app-diff-scans", { deploymentSlug, projectName: "acme/mobile-app", diffScan: { enabled: true } });

const blocking = [
  "python.lang.security.audit.eval-detected.eval-detected",
  "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw",
  "javascript.express.security.audit.xss.direct-response-write.direct-response-write",
  "java.lang.security.audit.formatted-sql-string.formatted-sql-string",
  "go.lang.security.injection.tainted-sql-string.tainted-sql-string",
];
const blocked = blocking.map(
  (rulePath) =>
    new PolicyRuleMode(`block-${rulePath.split(".").pop()}`, { deploymentId, policyId: sastPolicyId, rulePath, mode: "MODE_BLOCK" }),
);
new PolicyRuleMode("monitor-assigned-undefined", {
  deploymentId,
  policyId: sastPolicyId,
  rulePath: "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
  mode: "MODE_MONITOR",
});

const sbom = new SbomExport("payments-api-sbom", {
  deploymentId,
  repositoryId: "102",
  ref: "refs/heads/main",
  formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5" },
  triggers: [release],
});

// originalMode is absent where the rule was already blocked: the stack changed nothing, and destroy leaves it.
export const blockedRules = pulumi.all(
  blocked.map((r) =>
    pulumi
      .all([r.rulePath, r.severity, r.originalMode])
      .apply(([rulePath, severity, was]) => `${rulePath} (${severity}, ${was ? `was ${was}` : "already blocked"})`),
  ),
);
export const sbomTask = sbom.taskToken;

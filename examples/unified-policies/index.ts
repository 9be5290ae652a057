// Detection and remediation on a deployment migrated to Semgrep's unified policies (Policies V2,
// beta): the code bundle's rulesets and turned-off rules, the secrets bundle's, one team's own
// exceptions beside everyone else's, and a remediation policy that blocks pull requests on
// critical findings of high-confidence rules. Against the emulator, start it with
// `--policies-v2` (`npx pulumi-semgrep-emulator --preset demo --policies-v2`).
import * as pulumi from "@pulumi/pulumi";
import { DetectionPolicy, DetectionPolicyException, getPolicyVocabularyOutput, RemediationPolicy } from "pulumi-semgrep";

const config = new pulumi.Config();
const deploymentId = config.get("deploymentId") ?? "1";

// The code bundle: the registry rulesets that run everywhere and the rules turned off. Exceptions
// are left out, so they stay with their owners (the teams below, people in Semgrep's UI).
const code = new DetectionPolicy("code", {
  deploymentId,
  product: "code",
  rulesets: ["p/default", "p/owasp-top-ten"],
  disabled: [
    // Noise in our codebase: reviewed by AppSec in 2026-10.
    "python.lang.best-practice.open-never-closed.open-never-closed",
    "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
  ],
});

// Secrets: every rule on, including those someone turned off in the UI.
new DetectionPolicy("secrets", { deploymentId, product: "secrets", disabled: [] });

// The payments team owns its own exceptions: additive, beside everyone else's.
const paymentsExceptions = [
  { rule: "python.flask.security.audit.debug-enabled.debug-enabled", ruleType: "rule" as const },
  { rule: "python.lang.security.audit.exec-detected.exec-detected", ruleType: "rule" as const },
];
for (const { rule, ruleType } of paymentsExceptions) {
  new DetectionPolicyException(`payments-${rule.split(".").pop()}`, {
    deploymentId,
    product: "code",
    exceptionType: "exclude",
    projectName: "acme/payments-api",
    rule,
    ruleType,
  });
}
// Projects tagged pci get the PCI ruleset on top.
new DetectionPolicyException("pci-security-audit", {
  deploymentId,
  product: "code",
  exceptionType: "include",
  projectTagName: "pci",
  rule: "p/security-audit",
  ruleType: "pack",
});

// Pull requests fail on critical findings of high-confidence rules, with a comment saying why
// (`block` needs a `pr_comment` action in the same policy).
const blockCritical = new RemediationPolicy("block-critical", {
  deploymentId,
  slug: "block-critical-high-confidence",
  policyName: "Block critical, high-confidence findings in PRs",
  description: "Critical findings of high-confidence rules fail the pull request, with a comment saying why.",
  active: true,
  filters: {
    mode: "all",
    conditions: [
      { type: "severity", values: ["critical"] },
      { type: "confidence", values: ["high"] },
    ],
  },
  actions: [{ type: "pr_comment" }, { type: "block" }],
});

export const codeStateVersion = code.stateVersion;
export const blockingPolicy = blockCritical.policyName;
// What the deployment's remediation conditions and actions accept, for writing the next policy.
export const remediationConditionTypes = getPolicyVocabularyOutput({ deploymentId, product: "remediation" }).conditionTypes.apply((types) =>
  types.map((t) => t.type),
);

// The mode of single rules in a policy: block what must never merge, monitor what is noisy.
import { PolicyRuleMode } from "pulumi-semgrep";

const deploymentId = "1";
const policyId = "10"; // the default SAST policy

const blockEval = new PolicyRuleMode("block-eval", {
  deploymentId,
  policyId,
  rulePath: "python.lang.security.audit.eval-detected.eval-detected",
  mode: "MODE_BLOCK",
});

new PolicyRuleMode("monitor-assigned-undefined", {
  deploymentId,
  policyId,
  rulePath: "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
  mode: "MODE_MONITOR",
});

export const evalSeverity = blockEval.severity;
export const evalModeBefore = blockEval.originalMode;

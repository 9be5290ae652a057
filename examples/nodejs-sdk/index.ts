// Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies:
// the generated SDK @pulumi-semgrep/semgrep, served by the native plugin pulumi-resource-semgrep.
import * as semgrep from "@pulumi-semgrep/semgrep";

new semgrep.PolicyRuleMode("block-eval", {
  deploymentId: "1",
  policyId: "10",
  rulePath: "python.lang.security.audit.eval-detected.eval-detected",
  mode: "MODE_BLOCK",
});

new semgrep.ProjectTags("web-tags", {
  deploymentSlug: "acme",
  projectName: "acme/web-app",
  tags: ["owner:appsec"],
});

export const policies = semgrep.getPoliciesOutput({ deploymentId: "1" }).policies.apply((found) => found.map((policy) => policy.name));

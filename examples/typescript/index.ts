// Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies:
// the package's own classes (a dynamic provider: nothing to install beside the npm package).
import { getPoliciesOutput, PolicyRuleMode, ProjectTags } from "pulumi-semgrep";

new PolicyRuleMode("block-eval", {
  deploymentId: "1",
  policyId: "10",
  rulePath: "python.lang.security.audit.eval-detected.eval-detected",
  mode: "MODE_BLOCK",
});

new ProjectTags("web-tags", {
  deploymentSlug: "acme",
  projectName: "acme/web-app",
  tags: ["owner:appsec"],
});

export const policies = getPoliciesOutput({ deploymentId: "1" }).policies.apply((found) => found.map((policy) => policy.name));

"""Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies."""
import pulumi
import pulumi_semgrep as semgrep

semgrep.PolicyRuleMode(
    "block-eval",
    deployment_id="1",
    policy_id="10",
    rule_path="python.lang.security.audit.eval-detected.eval-detected",
    mode="MODE_BLOCK",
)

semgrep.ProjectTags(
    "web-tags",
    deployment_slug="acme",
    project_name="acme/web-app",
    tags=["owner:appsec"],
)

policies = semgrep.get_policies_output(deployment_id="1")
pulumi.export("policies", policies.policies.apply(lambda found: [policy.name for policy in found]))

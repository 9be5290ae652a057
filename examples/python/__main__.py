"""Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies."""
import pulumi
import pulumi_semgrep as semgrep

semgrep.PolicyRuleMode(
    "block-sql-injection",
    deployment_id="1",
    policy_id="10",
    rule_path="python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw",
    mode="MODE_BLOCK",
)

semgrep.ProjectTags(
    "web-tags",
    deployment_slug="acme",
    project_name="acme/web-app",
    tags=["team:web"],
)

policies = semgrep.get_policies_output(deployment_id="1")
pulumi.export("policies", policies.policies.apply(lambda found: [policy.name for policy in found]))

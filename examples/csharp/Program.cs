// Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies.
using System.Collections.Generic;
using System.Linq;
using Pulumi;
using Semgrep = PulumiSemgrep.Semgrep;

return await Deployment.RunAsync(() =>
{
    var blockEval = new Semgrep.PolicyRuleMode("block-eval", new()
    {
        DeploymentId = "1",
        PolicyId = "10",
        RulePath = "python.lang.security.audit.eval-detected.eval-detected",
        Mode = "MODE_BLOCK",
    });

    var webTags = new Semgrep.ProjectTags("web-tags", new()
    {
        DeploymentSlug = "acme",
        ProjectName = "acme/web-app",
        Tags = new[] { "owner:appsec" },
    });

    var policies = Semgrep.GetPolicies.Invoke(new()
    {
        DeploymentId = "1",
    });

    return new Dictionary<string, object?>
    {
        ["policies"] = policies.Apply(result => result.Policies.Select(policy => policy.Name).ToList()),
    };
});

// Blocks one rule of a policy, adds a tag to a project, and exports the deployment's policies.
using System.Collections.Generic;
using System.Linq;
using Pulumi;
using Semgrep = PulumiSemgrep.Semgrep;

return await Deployment.RunAsync(() =>
{
    var blockSqlInjection = new Semgrep.PolicyRuleMode("block-sql-injection", new()
    {
        DeploymentId = "1",
        PolicyId = "10",
        RulePath = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw",
        Mode = "MODE_BLOCK",
    });

    var webTags = new Semgrep.ProjectTags("web-tags", new()
    {
        DeploymentSlug = "acme",
        ProjectName = "acme/web-app",
        Tags = new[] { "team:web" },
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

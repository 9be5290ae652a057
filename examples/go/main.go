// Semgrep configuration in Go: the generated SDK github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep
// over the native plugin pulumi-resource-semgrep. Credentials come from the stack's config
// (`pulumi config set --secret semgrep:token …`, `semgrep:url`) or SEMGREP_APP_TOKEN / SEMGREP_APP_URL.
package main

import (
	"github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Set with `pulumi config set --secret ownerTag owner:payments-oncall` (kept encrypted in the
		// stack's config) and read as a secret: every output derived from it is a secret too.
		ownerTag := config.New(ctx, "").RequireSecret("ownerTag")

		// Data sources: the deployment's policies and one project as the service reports them.
		policies, err := semgrep.GetPolicies(ctx, &semgrep.GetPoliciesArgs{DeploymentId: "1"})
		if err != nil {
			return err
		}
		payments, err := semgrep.GetProject(ctx, &semgrep.GetProjectArgs{DeploymentSlug: "acme", ProjectName: "acme/payments-api"})
		if err != nil {
			return err
		}

		// Tags added beside the project's own, one of them secret.
		tags, err := semgrep.NewProjectTags(ctx, "payments-tags", &semgrep.ProjectTagsArgs{
			DeploymentSlug: pulumi.String("acme"),
			ProjectName:    pulumi.String(payments.Name),
			Tags:           pulumi.StringArray{pulumi.String("managed-by:pulumi"), ownerTag},
		})
		if err != nil {
			return err
		}

		// The mobile app's primary branch and managed diff scans.
		mobile, err := semgrep.NewProjectSettings(ctx, "mobile", &semgrep.ProjectSettingsArgs{
			DeploymentSlug:    pulumi.String("acme"),
			ProjectName:       pulumi.String("acme/mobile-app"),
			PrimaryBranch:     pulumi.String("refs/heads/release"),
			ManagedScanConfig: &semgrep.ManagedScanConfigArgs{DiffScan: &semgrep.ScanToggleArgs{Enabled: pulumi.Bool(true)}},
		})
		if err != nil {
			return err
		}

		// Two rules of the SAST policy (id 10): block eval, comment on exec in pull requests.
		rules, err := semgrep.NewPolicyRuleModes(ctx, "sast-rules", &semgrep.PolicyRuleModesArgs{
			DeploymentId: pulumi.String("1"),
			PolicyId:     pulumi.String("10"),
			Modes: pulumi.StringMap{
				"python.lang.security.audit.eval-detected.eval-detected": pulumi.String("MODE_BLOCK"),
				"python.lang.security.audit.exec-detected.exec-detected": pulumi.String("MODE_COMMENT"),
			},
		})
		if err != nil {
			return err
		}

		names := pulumi.StringArray{}
		for _, policy := range policies.Policies {
			names = append(names, pulumi.String(policy.Name))
		}
		ctx.Export("policyNames", names)
		ctx.Export("paymentsTags", tags.ProjectTags)
		ctx.Export("mobileBranch", mobile.PrimaryBranch)
		ctx.Export("ruleModeCounts", rules.ModeCounts)
		return nil
	})
}

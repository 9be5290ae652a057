/**
 * `critical-rules-not-weakened` (mandatory): no rule of a protected severity (default
 * SEVERITY_CRITICAL) put into a weak mode (default MODE_MONITOR, MODE_DISABLED). The severity
 * comes from the API (severities.ts); without credentials the policy cannot check and says so as
 * a violation (fail closed), advisory when its config sets `skipWithoutCredentials: true`.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { POLICY_MODES, SEVERITIES } from "../../client";
import type { ResourceKind } from "../../kinds";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { describe, type Inputs, kindOf } from "../resources";
import { credentialsFrom, severityLookup } from "../severities";

export const NAME = "critical-rules-not-weakened";

/** One rule a resource puts into a mode, and the field of the resource that says so. */
export interface RuleModeClaim {
  deploymentId: string;
  policyId: string;
  rulePath: string;
  mode: string;
  /** The resource's field, as a violation names it: `mode`. */
  field: string;
}

/** How each kind that sets rule modes declares them: adding a kind is one entry. */
export const RULE_MODE_CLAIMS: Partial<Record<ResourceKind, (inputs: Inputs) => RuleModeClaim[]>> = {
  PolicyRuleMode: (inputs) => [
    {
      deploymentId: String(inputs.deploymentId),
      policyId: String(inputs.policyId),
      rulePath: String(inputs.rulePath),
      mode: String(inputs.mode),
      field: "mode",
    },
  ],
};

const configSchema = schemaOf({
  severities: stringList(`Severities whose rules may not be weakened (${SEVERITIES.join(", ")}).`, ["SEVERITY_CRITICAL"]),
  weakModes: stringList(`Modes that weaken a rule (${POLICY_MODES.join(", ")}).`, ["MODE_MONITOR", "MODE_DISABLED"]),
  token: {
    type: "string",
    description: "Semgrep API token for the severity lookups; default SEMGREP_APP_TOKEN. Plain text in the pack config.",
  },
  url: { type: "string", description: "Semgrep API address; default SEMGREP_APP_URL, else https://semgrep.dev/api/v1." },
  skipWithoutCredentials: {
    type: "boolean",
    default: false,
    description: "Without credentials, report that the rules could not be checked as advisory instead of mandatory.",
  },
});

interface Config {
  severities: string[];
  weakModes: string[];
  token?: string;
  url?: string;
  skipWithoutCredentials: boolean;
}

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  const claimsOf = RULE_MODE_CLAIMS[kindOf(args.type) as ResourceKind];
  if (!claimsOf) return;
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const config = withDefaults<Config>(configSchema, given);
  const weak = claimsOf(args.props as Inputs).filter((claim) => config.weakModes.includes(claim.mode));
  if (!weak.length) return;
  const resource = describe(args.type, args.name);
  const credentials = credentialsFrom(config);
  if (!credentials) {
    const message =
      `${resource} puts ${weak.length === 1 ? `rule ${weak[0]!.rulePath}` : `${weak.length} rules`} into ${weak[0]!.mode}, ` +
      `and without Semgrep credentials this policy cannot look up ${weak.length === 1 ? "its severity" : "their severities"}: ` +
      "set SEMGREP_APP_TOKEN (and SEMGREP_APP_URL) in the environment of the Pulumi run, or `token` (and `url`) in this policy's config.";
    // The object form of reportViolation carries its own enforcement level (the string form takes the policy's).
    if (config.skipWithoutCredentials)
      (report as unknown as (v: { message: string; enforcementLevel: "advisory" }) => void)({ message, enforcementLevel: "advisory" });
    else report(message);
    return;
  }
  const severityOf = severityLookup(credentials);
  for (const claim of weak) {
    let severity: string | null | undefined;
    try {
      severity = await severityOf(claim.deploymentId, claim.policyId, claim.rulePath);
    } catch (error) {
      report(
        `${resource}: could not look up the severity of rule ${claim.rulePath} (policy ${claim.policyId}, deployment ${claim.deploymentId}): ${(error as Error).message}`,
      );
      continue;
    }
    if (severity && config.severities.includes(severity)) {
      report(
        `${resource} sets ${claim.field} ${claim.mode} on rule ${claim.rulePath} (policy ${claim.policyId}, deployment ${claim.deploymentId}), ` +
          `a ${severity} rule: rules of severity ${config.severities.join(", ")} may not be put into ${config.weakModes.join(" or ")}.`,
      );
    }
  }
}

export const criticalRulesNotWeakened: ResourceValidationPolicy = {
  name: NAME,
  description: "Rules of a protected severity (default critical) may not be put into a weak mode (default monitor or disabled).",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: validate,
};

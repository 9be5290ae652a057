/**
 * `critical-rules-not-weakened` (mandatory): no rule of a protected severity (default
 * SEVERITY_CRITICAL) put into a weak mode (default MODE_MONITOR, MODE_DISABLED), whether one rule
 * (PolicyRuleMode, an entry of PolicyRuleModes' `modes`) or every rule a selector matches
 * (PolicyRuleModes' `select` and `mode`). The severities come from the API (severities.ts);
 * without credentials the policy cannot check and says so as a violation (fail closed), advisory
 * when its config sets `skipWithoutCredentials: true`.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { POLICY_MODES, SEVERITIES } from "../../client";
import type { ResourceKind } from "../../kinds";
import { meetsCriteria, type RuleCriteria, type RuleFacts } from "../../kinds/rule-criteria";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { describe, type Inputs, kindOf, secretInputsOf } from "../resources";
import { credentialsFrom, policyListing } from "../severities";

export const NAME = "critical-rules-not-weakened";

/**
 * Rules a resource puts into a mode, and the field of the resource that says so: one rule by
 * path, or every rule a selector matches (less its `exclude` and the paths in `except`, which
 * other claims of the resource set).
 */
export interface RuleModeClaim {
  deploymentId: string;
  policyId: string;
  mode: string;
  /** The resource's field, as a violation names it: `mode`, `modes["python.lang…"]`. */
  field: string;
  rulePath?: string;
  select?: RuleCriteria & { exclude?: string[] };
  except?: string[];
  /** The program gave the mode (and, for a `modes` entry, the rule's path) as a secret: violations print `[secret]`. */
  secretMode?: boolean;
  secretPath?: boolean;
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
      secretMode: secretInputsOf(inputs).includes("mode"),
    },
  ],
  PolicyRuleModes: (inputs) => {
    const policy = { deploymentId: String(inputs.deploymentId), policyId: String(inputs.policyId) };
    const modes = (inputs.modes as Record<string, string> | undefined) ?? {};
    const secretModes = secretInputsOf(inputs).includes("modes");
    const explicit = Object.entries(modes).map(([rulePath, mode]) => ({
      ...policy,
      rulePath,
      mode,
      field: secretModes ? "modes" : `modes[${JSON.stringify(rulePath)}]`,
      secretMode: secretModes,
      secretPath: secretModes,
    }));
    const select = inputs.select as RuleModeClaim["select"];
    if (!select || inputs.mode === undefined) return explicit;
    const secretMode = secretInputsOf(inputs).includes("mode");
    return [...explicit, { ...policy, select, except: Object.keys(modes), mode: String(inputs.mode), field: "mode", secretMode }];
  },
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
  const modeOf = (claim: RuleModeClaim) => (claim.secretMode ? "[secret]" : claim.mode);
  const pathOf = (claim: RuleModeClaim) => (claim.secretPath ? "[secret]" : claim.rulePath);
  const credentials = credentialsFrom(config);
  if (!credentials) {
    const what = weak.length === 1 && weak[0]!.rulePath ? `rule ${pathOf(weak[0]!)}` : "rules";
    const message =
      `${resource} puts ${what} into ${modeOf(weak[0]!)}, and without Semgrep credentials this policy cannot look up ` +
      `${what === "rules" ? "their severities" : "its severity"}: set SEMGREP_APP_TOKEN (and SEMGREP_APP_URL) in the environment ` +
      "of the Pulumi run, or `token` (and `url`) in this policy's config.";
    // The object form of reportViolation carries its own enforcement level (the string form takes the policy's).
    if (config.skipWithoutCredentials)
      (report as unknown as (v: { message: string; enforcementLevel: "advisory" }) => void)({ message, enforcementLevel: "advisory" });
    else report(message);
    return;
  }
  const listing = policyListing(credentials);
  const why = `rules of severity ${config.severities.join(", ")} may not be put into ${config.weakModes.join(" or ")}`;
  const isProtected = (rule: RuleFacts | undefined) => !!rule?.severity && config.severities.includes(rule.severity);
  for (const claim of weak) {
    const where = `(policy ${claim.policyId}, deployment ${claim.deploymentId})`;
    let rules: ReadonlyMap<string, RuleFacts>;
    try {
      rules = await listing(claim.deploymentId, claim.policyId);
    } catch (error) {
      const what = claim.rulePath ? `rule ${pathOf(claim)}` : "the rules it selects";
      report(`${resource}: could not look up the severity of ${what} ${where}: ${(error as Error).message}`);
      continue;
    }
    if (claim.rulePath) {
      const rule = rules.get(claim.rulePath);
      if (isProtected(rule))
        report(`${resource} sets ${claim.field} ${modeOf(claim)} on rule ${pathOf(claim)} ${where}, a ${rule!.severity} rule: ${why}.`);
      continue;
    }
    const skipped = new Set([...(claim.select?.exclude ?? []), ...(claim.except ?? [])]);
    const hit = [...rules.values()].filter((r) => !skipped.has(r.path) && meetsCriteria(r, claim.select ?? {}) && isProtected(r));
    if (!hit.length) continue;
    const shown = hit.slice(0, 5).map((r) => `${r.path} (${r.severity})`);
    report(
      `${resource} sets mode ${modeOf(claim)} on every rule its select matches ${where}, ${hit.length} of a protected severity: ` +
        `${shown.join(", ")}${hit.length > 5 ? `, and ${hit.length - 5} more` : ""}: ${why}. Narrow select (severities, exclude) to leave them alone.`,
    );
  }
}

export const criticalRulesNotWeakened: ResourceValidationPolicy = {
  name: NAME,
  description: "Rules of a protected severity (default critical) may not be put into a weak mode (default monitor or disabled).",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: validate,
};

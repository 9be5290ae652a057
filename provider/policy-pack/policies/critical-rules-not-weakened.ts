/**
 * `critical-rules-not-weakened` (mandatory): no rule of a protected severity (default
 * SEVERITY_CRITICAL) put into a weak mode (default MODE_MONITOR, MODE_DISABLED), whether one rule
 * (PolicyRuleMode, an entry of PolicyRuleModes' `modes`) or every rule a selector matches
 * (PolicyRuleModes' `select` and `mode`). The severities come from the API (severities.ts);
 * without credentials the policy cannot check and says so as a violation (fail closed), advisory
 * when its config sets `skipWithoutCredentials: true`.
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { POLICY_MODES, SEVERITIES } from "../../client";
import type { ResourceKind } from "../../core/kinds";
import { meetsCriteria, type RuleCriteria, type RuleFacts } from "../../core/kinds/rule-criteria";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { programResources, recordInputs } from "../program";
import { ownWords } from "../redact";
import { type PutBack, ruleModePutBacks } from "../puts-back";
import { describe, type Inputs, kindOf, secretInputsOf } from "../resources";
import { credentialsFrom, type Credentials, policyListing } from "../severities";
import { stackState } from "../stack-state";

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
  severities: stringList(`Severities whose rules may not be weakened (${SEVERITIES.join(", ")}).`, ["SEVERITY_CRITICAL"], SEVERITIES),
  weakModes: stringList(`Modes that weaken a rule (${POLICY_MODES.join(", ")}).`, ["MODE_MONITOR", "MODE_DISABLED"], POLICY_MODES),
  token: {
    type: "string",
    description:
      "Semgrep API token for the severity lookups; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN. Plain text in the pack config.",
  },
  url: {
    type: "string",
    description:
      "Semgrep's address, e.g. https://semgrep.dev (a trailing /api/v1 is accepted); default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev.",
  },
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

/** The policy's config with its defaults; a key it does not know is reported once per run. */
function configOf(getConfig: () => object, report: ReportViolation): Config {
  const given = getConfig();
  reportUnknownKeys(NAME, configSchema, given, report);
  return withDefaults<Config>(configSchema, given);
}

/** The object form of reportViolation carries its own enforcement level (the string form takes the policy's). */
const advise = (report: ReportViolation, message: string, urn?: string) =>
  (report as unknown as (v: { message: string; urn?: string; enforcementLevel: "advisory" }) => void)({
    message,
    ...(urn ? { urn } : {}),
    enforcementLevel: "advisory",
  });

const protectedBy = (config: Config) => (rule: RuleFacts | undefined) => !!rule?.severity && config.severities.includes(rule.severity);
/** Why a weak mode on a protected rule is a violation: the config's lists, the pack's own words (never redacted). */
const whyOf = (config: Config) =>
  ownWords(`rules of severity ${config.severities.join(", ")} may not be put into ${config.weakModes.join(" or ")}`);

/**
 * The credentials for the severity lookups, or undefined after reporting that the rules cannot be
 * checked (fail closed; advisory with `skipWithoutCredentials`).
 */
function credentialsOrReport(config: Config, report: ReportViolation, what: string, urn?: string): Credentials | undefined {
  const credentials = credentialsFrom(config);
  if (credentials) return credentials;
  const message =
    `${what}, and without Semgrep credentials this policy cannot look up ` +
    `${what.includes("rules") ? "their severities" : "its severity"}: set SEMGREP_APP_TOKEN or SEMGREP_API_TOKEN (and SEMGREP_APP_URL or SEMGREP_URL) in the environment ` +
    "of the Pulumi run, or `token` (and `url`) in this policy's config.";
  if (config.skipWithoutCredentials) advise(report, message, urn);
  else report(message, urn);
  return undefined;
}

/** The rules of a policy, or undefined after reporting (one line, the service's message) why they could not be listed. */
async function rulesOf(credentials: Credentials, claim: { deploymentId: string; policyId: string }, report: ReportViolation, what: string) {
  try {
    return await policyListing(credentials)(claim.deploymentId, claim.policyId);
  } catch (error) {
    report(`${what} (policy ${claim.policyId}, deployment ${claim.deploymentId}): ${(error as Error).message}`);
    return undefined;
  }
}

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  const claimsOf = RULE_MODE_CLAIMS[kindOf(args.type) as ResourceKind];
  if (!claimsOf) return;
  recordInputs(args.urn, args.type, args.props, args.opts?.aliases); // for validateStack: what the program now declares
  const config = configOf(() => args.getConfig<object>(), report);
  const weak = claimsOf(args.props as Inputs).filter((claim) => config.weakModes.includes(claim.mode));
  if (!weak.length) return;
  const resource = describe(args.type, args.name);
  const modeOf = (claim: RuleModeClaim) => (claim.secretMode ? "[secret]" : claim.mode);
  const pathOf = (claim: RuleModeClaim) => (claim.secretPath ? "[secret]" : claim.rulePath);
  const what = weak.length === 1 && weak[0]!.rulePath ? `rule ${pathOf(weak[0]!)}` : "rules";
  const credentials = credentialsOrReport(config, report, `${resource} puts ${what} into ${modeOf(weak[0]!)}`);
  if (!credentials) return;
  const why = whyOf(config);
  const isProtected = protectedBy(config);
  const secretSelect = secretInputsOf(args.props as Inputs).includes("select"); // the matched paths would show the selector
  for (const claim of weak) {
    const where = `(policy ${claim.policyId}, deployment ${claim.deploymentId})`;
    const lookup = `${resource}: could not look up the severity of ${claim.rulePath ? `rule ${pathOf(claim)}` : "the rules it selects"}`;
    const rules = await rulesOf(credentials, claim, report, lookup);
    if (!rules) continue;
    if (claim.rulePath) {
      const rule = rules.get(claim.rulePath);
      if (isProtected(rule))
        report(`${resource} sets ${claim.field} ${modeOf(claim)} on rule ${pathOf(claim)} ${where}, a ${rule!.severity} rule: ${why}.`);
      continue;
    }
    const hit = [...rules.values()].filter((r) => claims(claim, r) && isProtected(r));
    if (!hit.length) continue;
    // Counted by severity, never named: a path could be the secret of another resource of the
    // program (a secret `modes` entry), which this resource's validation cannot see.
    const why2 = secretSelect ? "select is secret" : "another resource may declare one of them as a secret";
    report(
      `${resource} sets mode ${modeOf(claim)} on every rule its select matches ${where}, ${hit.length} of a protected severity: ` +
        `${bySeverity(hit, why2).join(", ")}: ${why}. Narrow select (severities, exclude) to leave them alone ` +
        "(`getPolicyRules` lists the rules a selector matches).",
    );
  }
}

/** `3 SEVERITY_CRITICAL rules (paths not shown: select is secret)`: the rules a selector matches, without their paths. */
function bySeverity(rules: RuleFacts[], why: string): string[] {
  const counts = new Map<string, number>();
  for (const r of rules) counts.set(r.severity ?? "unknown", (counts.get(r.severity ?? "unknown") ?? 0) + 1);
  return [...counts].map(([severity, n]) => `${n} ${severity} rule${n === 1 ? "" : "s"} (paths not shown: ${why})`);
}

/** Whether `claim` sets the mode of `rule`: its path, or its selector (less `exclude` and the resource's explicit rules). */
function claims(claim: RuleModeClaim, rule: RuleFacts): boolean {
  if (claim.rulePath !== undefined) return claim.rulePath === rule.path;
  const skipped = new Set([...(claim.select?.exclude ?? []), ...(claim.except ?? [])]);
  return !skipped.has(rule.path) && meetsCriteria(rule, claim.select ?? {});
}

/** How a violation says what the run does to a put-back rule. */
function putBackText(putBack: PutBack, where: string): string {
  const back = `puts back ${putBack.mode} on rule ${putBack.rulePath} ${where}`;
  if (putBack.how === "removed") return `${putBack.resource} is removed from the program: its delete ${back}`;
  if (putBack.how === "replaced")
    return `${putBack.resource} is replaced (its deployment, policy or rule changes): the old one's delete ${back}`;
  return `${putBack.resource} no longer manages rule ${putBack.rulePath} ${where} (dropped from modes, excluded, or no longer selected): the update ${back.replace(` on rule ${putBack.rulePath} ${where}`, "")}`;
}

/**
 * The stack-level half: what the run puts back. A rule-mode resource removed from the program (or
 * replaced) puts back, on delete, the modes it found; a PolicyRuleModes puts back, on update, the
 * modes of rules it no longer manages. Neither is among the resources the engine shows a policy,
 * so the stack's last state says what was recorded, and a put-back of a weak mode onto a protected
 * rule that no resource of the program still sets is a violation. Without the state the policy
 * cannot tell, and says so (fail closed).
 */
async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const config = configOf(() => args.getConfig<object>(), report);
  const state = await stackState();
  if ("error" in state) {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether a resource this change removes, or a rule a ` +
        `PolicyRuleModes no longer manages, goes back to a weak mode: ${state.error}. The pack runs \`pulumi stack export\` with ` +
        "the environment of the Pulumi run: put the Pulumi CLI on PATH with the backend's credentials (PULUMI_BACKEND_URL, PULUMI_ACCESS_TOKEN).",
    );
    return;
  }
  const program = programResources(args.resources.map((r) => r.urn));
  const { putBacks, secret } = ruleModePutBacks(state.resources, program);
  for (const s of secret) {
    const message =
      `${s.resource} ${s.how === "released" ? "is changed" : `is ${s.how}`}, and the modes it recorded to put back are secret in the state ` +
      "(its modes were given as secrets): this policy cannot tell whether a protected rule goes back to a weak mode. " +
      "Review them (`pulumi stack export --show-secrets`, outputs originals / originalMode) before applying.";
    if (s.how === "released") advise(report, message, s.urn);
    else report(message, s.urn);
  }
  const weak = putBacks.filter((p) => config.weakModes.includes(p.mode));
  if (!weak.length) return;
  const unknown = program.filter((r) => r.unknown && RULE_MODE_CLAIMS[kindOf(r.type) as ResourceKind]);
  if (unknown.length) {
    advise(
      report,
      `${unknown.length} rule-mode resource${unknown.length === 1 ? " has inputs" : "s have inputs"} not known at preview, so this policy ` +
        `cannot tell whether they set the ${weak.length} rule${weak.length === 1 ? "" : "s"} the run puts back to a weak mode; the update checks it.`,
    );
    return;
  }
  const credentials = credentialsOrReport(
    config,
    report,
    `The run puts back a weak mode on ${weak.length === 1 ? "rule" : "rules"} ${weak[0]!.rulePath}`,
  );
  if (!credentials) return;
  const programClaims = program.flatMap((r) => RULE_MODE_CLAIMS[kindOf(r.type) as ResourceKind]?.(r.inputs ?? {}) ?? []);
  const isProtected = protectedBy(config);
  for (const putBack of weak) {
    const where = `(policy ${putBack.policyId}, deployment ${putBack.deploymentId})`;
    const rules = await rulesOf(
      credentials,
      putBack,
      report,
      `${putBack.resource}: could not look up the severity of rule ${putBack.rulePath}`,
    );
    const rule = rules?.get(putBack.rulePath);
    if (!rule || !isProtected(rule)) continue;
    const stillSet = programClaims.some(
      (c) => c.deploymentId === putBack.deploymentId && c.policyId === putBack.policyId && claims(c, rule),
    );
    if (stillSet) continue; // the resource that sets it takes it over: nothing is put back
    report(
      `${putBackText(putBack, where)}, a ${rule.severity} rule: ${whyOf(config)}. ` +
        "Keep a resource that sets the rule's mode (e.g. a PolicyRuleMode with MODE_BLOCK) in the same change.",
      putBack.urn,
    );
  }
}

/** Both halves in one policy (one name, one config): `@pulumi/policy` runs validateResource per resource and validateStack last. */
export const criticalRulesNotWeakened: ResourceAndStackPolicy = {
  name: NAME,
  description: "Rules of a protected severity (default critical) may not be put into a weak mode (default monitor or disabled).",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

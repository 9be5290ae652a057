/**
 * `protected-rules-not-disabled` (mandatory): on unified policies, a DetectionPolicy may not list a
 * protected rule in `disabled`, and neither one of its `exclude` exceptions nor a
 * DetectionPolicyException may exclude a protected rule or pack. Protected: `protectedRules`
 * (exact rule paths, or prefixes ending in `.`) and `protectedPacks` (rule packs, e.g. `p/default`).
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { describe, type Inputs, kindOf, secretInputsOf } from "../resources";
import { isSecretValue, removedFromProgram, stateResourceName } from "../stack-state";

export const NAME = "protected-rules-not-disabled";

const configSchema = schemaOf({
  protectedRules: stringList(
    'Rule paths that may not be turned off: exact paths, or prefixes ending in "." (e.g. "python.django.security.injection.").',
  ),
  protectedPacks: stringList('Rule packs that may not be excluded, e.g. "p/default".'),
});

interface Config {
  protectedRules: string[];
  protectedPacks: string[];
}

/** Why `rule` (a rule path, or a pack with `ruleType` "pack") is protected, or undefined. */
function protection(config: Config, rule: string, ruleType: unknown): string | undefined {
  if (ruleType === "pack") return config.protectedPacks.includes(rule) ? `it is a protected pack (protectedPacks)` : undefined;
  if (config.protectedRules.includes(rule)) return "it is a protected rule (protectedRules)";
  const prefix = config.protectedRules.find((p) => p.endsWith(".") && rule.startsWith(p));
  return prefix ? `it matches the protected prefix ${JSON.stringify(prefix)} (protectedRules)` : undefined;
}

/** An exception as both kinds declare it. */
interface Exception {
  exceptionType?: unknown;
  projectName?: unknown;
  projectTagName?: unknown;
  rule?: unknown;
  ruleType?: unknown;
}

const scopeOf = (e: Exception) =>
  e.projectName !== undefined ? `project ${JSON.stringify(e.projectName)}` : `projects tagged ${JSON.stringify(e.projectTagName)}`;

function validate(args: ResourceValidationArgs, report: ReportViolation): void {
  const kind = kindOf(args.type);
  if (kind !== "DetectionPolicy" && kind !== "DetectionPolicyException") return;
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const config = withDefaults<Config>(configSchema, given);
  const resource = describe(args.type, args.name);
  const props = args.props as Inputs;
  // A DetectionPolicy's lists given as secrets print [secret] (a DetectionPolicyException's rule and scope are its id, never secret).
  const secret = (input: string) => secretInputsOf(props).includes(input);
  const excluded = (e: Exception, field: string, hidden = false) => {
    if (e.exceptionType !== "exclude" || typeof e.rule !== "string") return;
    const why = protection(config, e.rule, e.ruleType);
    const what = hidden ? "[secret] for [secret]" : `${e.rule} for ${scopeOf(e)}`;
    if (why) report(`${resource} excludes ${e.ruleType === "pack" ? "pack" : "rule"} ${what} (${field}): ${why}.`);
  };
  if (kind === "DetectionPolicyException") return excluded(props as Exception, "exceptionType exclude");
  // rulesets is the whole list: a protected pack left out of it is removed (or kept off).
  if (Array.isArray(props.rulesets) && props.product !== "secrets") {
    const rulesets = props.rulesets as string[];
    for (const pack of config.protectedPacks.filter((p) => !rulesets.includes(p)))
      report(
        `${resource} declares rulesets without ${pack} (rulesets is the whole list: the apply removes it, or keeps it off): ` +
          `it is a protected pack (protectedPacks). Add ${JSON.stringify(pack)} to rulesets.`,
      );
  }
  ((props.disabled as string[] | undefined) ?? []).forEach((rule, i) => {
    const why = protection(config, rule, "rule");
    if (why) report(`${resource} disables rule ${secret("disabled") ? "[secret]" : rule} (disabled[${i}]): ${why}.`);
  });
  ((props.exceptions as Exception[] | undefined) ?? []).forEach((e, i) => excluded(e, `exceptions[${i}]`, secret("exceptions")));
}

/**
 * What the delete of a DetectionPolicy removed from the program puts back (its `originals`, the
 * fields as it found them, unless `restoreOnDelete: false`), as violations of `config`: a
 * protected pack dropped from the rulesets, a protected rule disabled or excluded again.
 */
function deletedPolicyViolations(config: Config, resource: string, inputs: Inputs, outputs: Inputs): string[] {
  const originals = outputs.originals;
  if (inputs.restoreOnDelete === false) return [];
  if (isSecretValue(originals))
    return [
      `${resource} is removed from the program and the fields it puts back are secret in the state: this policy cannot tell whether they disable a protected rule or pack. Review them (\`pulumi stack export --show-secrets\`) before applying.`,
    ];
  const found = (originals ?? {}) as { rulesets?: string[]; disabled?: string[]; exceptions?: Exception[] };
  const live = (field: string) => (Array.isArray(outputs[field]) ? (outputs[field] as unknown[]) : []);
  const back = `${resource} is removed from the program: its delete puts back`;
  return [
    ...(found.rulesets ? config.protectedPacks.filter((p) => !found.rulesets!.includes(p) && live("rulesets").includes(p)) : []).map(
      (pack) => `${back} the rulesets it found, without ${pack}: it is a protected pack (protectedPacks).`,
    ),
    ...(found.disabled ?? [])
      .filter((rule) => !live("disabled").includes(rule))
      .flatMap((rule) => {
        const why = protection(config, rule, "rule");
        return why ? [`${back} the disabled rules it found, which disable ${rule}: ${why}.`] : [];
      }),
    ...(found.exceptions ?? [])
      .filter((e) => e.exceptionType === "exclude" && typeof e.rule === "string")
      .flatMap((e) => {
        const why = protection(config, e.rule as string, e.ruleType);
        return why ? [`${back} the exceptions it found, which exclude ${e.rule} for ${scopeOf(e)}: ${why}.`] : [];
      }),
  ];
}

/**
 * The stack-level half: a DetectionPolicy removed from the program puts back, on delete, what it
 * found; the engine does not show a policy the resources a run deletes, so the stack's last state
 * says what it recorded. Without the state (and with something protected) it fails closed.
 */
async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const config = withDefaults<Config>(configSchema, given);
  if (!config.protectedPacks.length && !config.protectedRules.length) return;
  const removed = await removedFromProgram(args.resources, "DetectionPolicy");
  if ("error" in removed) {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether a DetectionPolicy this change removes puts back a ` +
        `disabled protected rule or drops a protected pack: ${removed.error}. The pack runs \`pulumi stack export\` with the environment ` +
        "of the Pulumi run: put the Pulumi CLI on PATH with the backend's credentials (PULUMI_BACKEND_URL, PULUMI_ACCESS_TOKEN).",
    );
    return;
  }
  for (const resource of removed) {
    const name = stateResourceName(resource);
    for (const message of deletedPolicyViolations(config, name, resource.inputs ?? {}, resource.outputs ?? {})) report(message);
  }
}

/** Both halves in one policy (one name, one config): `@pulumi/policy` runs validateResource per resource and validateStack last. */
export const protectedRulesNotDisabled: ResourceAndStackPolicy = {
  name: NAME,
  description: "Protected rules and packs may not be disabled or excluded in a detection policy (unified policies).",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

/**
 * `protected-rules-not-disabled` (mandatory): on unified policies, a DetectionPolicy may not list a
 * protected rule in `disabled`, and neither one of its `exclude` exceptions nor a
 * DetectionPolicyException may exclude a protected rule or pack. Protected: `protectedRules`
 * (exact rule paths, or prefixes ending in `.`) and `protectedPacks` (rule packs, e.g. `p/default`).
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { describe, type Inputs, kindOf, secretInputsOf } from "../resources";

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
  ((props.disabled as string[] | undefined) ?? []).forEach((rule, i) => {
    const why = protection(config, rule, "rule");
    if (why) report(`${resource} disables rule ${secret("disabled") ? "[secret]" : rule} (disabled[${i}]): ${why}.`);
  });
  ((props.exceptions as Exception[] | undefined) ?? []).forEach((e, i) => excluded(e, `exceptions[${i}]`, secret("exceptions")));
}

export const protectedRulesNotDisabled: ResourceValidationPolicy = {
  name: NAME,
  description: "Protected rules and packs may not be disabled or excluded in a detection policy (unified policies).",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: validate,
};

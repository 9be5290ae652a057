/** PolicyRuleModes, declared once: see declare.ts. */
import { z } from "zod";
import { POLICY_MODES, type PolicyMode, rulePath } from "../../client/schemas";
import { isDeepStrictEqual } from "node:util";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, output, typedInput } from "./declare";
import { criteriaSchemas } from "./rule-criteria";

const mode = z.enum(POLICY_MODES, { error: `must be one of ${POLICY_MODES.join(", ")}` });

/** Which rules of the policy a PolicyRuleModes sets to `mode`: every criterion given must hold (within a list, any value). */
export interface RuleSelectorArgs {
  /** Rules whose path starts with any of these, e.g. `["python.django."]`. */
  rulePathPrefixes?: string[];
  /** e.g. `["SEVERITY_HIGH", "SEVERITY_CRITICAL"]` */
  severities?: string[];
  /** e.g. `["CONFIDENCE_HIGH"]` */
  confidences?: string[];
  /** e.g. `["security"]` */
  categories?: string[];
  /** e.g. `["SOURCE_PRO"]` */
  sources?: string[];
  /** Rules for any of these languages, e.g. `["python"]`. */
  languages?: string[];
  /** Rule paths to leave alone, though they match. */
  exclude?: string[];
}

/** A criterion's list, given empty, would restrict nothing: refused, so that a list computed empty cannot widen the selection to every rule. */
const nonEmpty = <S extends z.ZodType<readonly unknown[] | undefined>>(schema: S) =>
  schema.refine((list) => list === undefined || list.length > 0, "must not be empty: an empty list restricts nothing (leave it out)");

const criteria = {
  rulePathPrefixes: nonEmpty(z.array(z.string().min(1, "must not be empty"), { error: "must be a list of rule path prefixes" }).optional()),
  ...(Object.fromEntries(Object.entries(criteriaSchemas).map(([name, schema]) => [name, nonEmpty(schema)])) as typeof criteriaSchemas),
};

const selector = z
  .strictObject(
    { ...criteria, exclude: z.array(rulePath, { error: "must be a list of rule paths" }).optional() },
    { error: "must be a selector: { rulePathPrefixes?, severities?, confidences?, categories?, sources?, languages?, exclude? }" },
  )
  .refine((select) => Object.keys(criteria).some((name) => (select as Record<string, unknown>)[name] !== undefined), {
    message:
      "must give at least one criterion (rulePathPrefixes, severities, confidences, categories, sources, languages): " +
      "a selector without one would set the mode of every rule of the policy",
  });

const sameValue = (live: unknown, declared: unknown) => isDeepStrictEqual(live ?? undefined, declared ?? undefined);

export const policyRuleModesKind = defineKind({
  kind: "PolicyRuleModes",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** Numeric id of the policy. Changing it replaces the resource. */
    policyId: input(id("policy"), { replaces: true }),
    /** Explicit rules and their modes, by rule path, e.g. `{ "python.lang.security.audit.eval-detected.eval-detected": "MODE_BLOCK" }`. They win over `select` for their rules. `{}` without `select` manages no rule: for the one `up` in which a resource hands its rules to another before it is removed (see docs/concepts/ownership.md, "A rule moved between resources"). */
    modes: input(z.record(rulePath, mode, { error: "must map rule paths to modes" }).optional(), { equal: sameValue }),
    /** Every rule of the policy matching this selector gets `mode` (the criteria and their semantics are getPolicyRules' `filter`'s); rules that appear later and match are found by `pulumi refresh` and set by the next `up`. */
    select: typedInput<RuleSelectorArgs | undefined>()(selector.optional(), { equal: sameValue }),
    /** The mode of the rules `select` matches; required with `select`. */
    mode: input(mode.optional()),
    /** Put back the modes this resource changed, as it found them, when it stops managing them: on delete, and for a rule an update drops (default `true`); `false` only stops managing, and leaves the rules as they are. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [
    {
      holds: (declared) => declared.select === undefined || declared.mode !== undefined,
      message: "is required with select: the mode the selected rules get",
      path: "mode",
    },
    {
      holds: (declared) => declared.mode === undefined || declared.select !== undefined,
      message: "needs select: mode is the mode of the rules select matches (give explicit rules in modes)",
      path: "mode",
    },
    {
      // `modes: {}` given explicitly manages no rule (a resource handing its rules to another before it is removed).
      holds: (declared) => declared.select !== undefined || declared.modes !== undefined,
      message: "must name at least one rule, or give select and mode (`modes: {}` manages no rule)",
      path: "modes",
    },
  ],
  outputs: {
    /** How many of the rules this resource manages are in each mode, live, e.g. `{ MODE_BLOCK: 412 }`. */
    modeCounts: output<Record<string, number>>({ derivedFrom: ["modes", "mode"] }),
    /** How many rules this resource manages (its `modes` and the rules `select` matches, less `exclude`). */
    managedRules: output<number>(),
    /** The managed rules whose live mode is not the declared one, by path (empty after an `up`; a refresh fills it with drift and newly matching rules), and the rules it no longer manages but has yet to put back (a failed put-back). */
    deviations: output<Record<string, string>>({ derivedFrom: ["modes", "mode"] }),
    /** The rules this resource changed, grouped by the mode it found them in, put back on delete: `{ MODE_MONITOR: ["python…"] }`. */
    originals: output<Record<string, string[]>>({ derivedFrom: ["modes", "mode"] }),
  },
  // No `managed` (declare.ts): it manages a set of rules, not fields. Its claims are one per rule
  // of `modes`, made at check (handlers/policy-rule-modes.ts `claimOn`); the rules `select`
  // matches are known only from the policy's listing, so the selector is registered whole and
  // checked against the listing (handlers/rule-selectors.ts). Its originals are per rule, grouped
  // by the mode found (`originals`), and a refresh keeps the declared inputs (drift goes to
  // `deviations`): runtime/managed.ts, which reads each field at its path in the inputs and
  // refreshes it from the live value, fits neither.
  id: {
    format: "<deploymentId>/<policyId>/<resource name>",
    parse: (text) => {
      const [deploymentId, policyId, ...name] = text.split("/");
      const digits = (part?: string) => part !== undefined && /^\d+$/.test(part);
      return digits(deploymentId) && digits(policyId) && name.join("/") ? { deploymentId, policyId } : undefined;
    },
  },
  service: {
    create:
      "Lists the policy's rules once per run (shared with every PolicyRuleMode and PolicyRuleModes of that policy), records the mode of " +
      "each rule it changes, and sets the declared mode of each managed rule not already in it: one request per rule that changes.",
    update:
      "Lists the policy (shared), sets the rules whose mode differs from the declared one, and puts back the originals of rules it no " +
      "longer manages (with `restoreOnDelete: false` it leaves them as they are); a PolicyRuleMode the program now declares as a " +
      'PolicyRuleModes (an alias with `type: "pulumi-nodejs:dynamic/semgrep:PolicyRuleMode"`) is updated, keeping its rule\'s ' +
      "original; a no-change `up` compares inputs only and makes no request. A change of `select` or `mode` (or an entry " +
      "dropped from `modes` beside a selector) lists the policy at preview too, to note which rules it sets and puts back. A change of deployment or policy replaces it. When writes fail " +
      "after some landed (create or update), the stack records the resource as those writes left it, originals included, and the " +
      "next `up` makes the writes left.",
    delete: "Puts back the mode it found of each rule it changed (one request per rule), unless `restoreOnDelete` is `false`.",
    read:
      "Lists the policy (shared) and reports the managed rules' live modes: a mode changed elsewhere, or a new rule matching `select`, " +
      "shows in `deviations` and makes the next `up` an update.",
    adoption:
      "Every rule already exists: the resource takes its rules over, recording the modes it changes. " +
      '`PolicyRuleModes.get(name, "<deploymentId>/<policyId>/<name>")` reads nothing it would manage (no rules declared).',
  },
});

export type { PolicyMode };

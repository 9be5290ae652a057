/** RemediationPolicy, declared once: see declare.ts. */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import {
  ACTION_TYPES,
  type ActionType,
  CONDITION_MODES,
  type ConditionMode,
  FILTER_MODES,
  type FilterMode,
  type RemediationPolicyEntry,
} from "../../client/schemas";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";

/** One condition a finding must match. */
export interface RemediationConditionArgs {
  /** What the condition matches on, e.g. `severity`, `confidence`, `repository_tag` (`getPolicyVocabulary` lists them). */
  type: string;
  /** The values it matches, e.g. `["critical"]`. */
  values: string[];
  /** `any` (the default: the finding matches one of the values) or `none` (it matches none of them). */
  mode?: ConditionMode;
}

/** The conditions a finding must match for the policy's actions to fire. */
export interface RemediationFiltersArgs {
  /** `all`: every condition must hold; `any`: one is enough. */
  mode: FilterMode;
  /** The conditions (at least one). */
  conditions: RemediationConditionArgs[];
}

/** One action that fires when a finding matches. */
export interface RemediationActionArgs {
  /** `block`, `pr_comment`, `jira`, `slack_app`, `webhook` or `triage`; `block` needs a `pr_comment` action in the same policy. */
  type: ActionType;
  /** Settings of the action, e.g. a `jira` action's project and credential (by slug or name, never numeric ids). */
  config?: Record<string, string>;
}

/** A remediation policy as the service holds it (the outputs, and what the resource found at create). */
export interface RemediationPolicyState {
  /** The display name. */
  name: string;
  /** The description ("" when none). */
  description: string;
  /** Whether the policy is evaluated. */
  active: boolean;
  /** The conditions. */
  filters: RemediationFiltersArgs;
  /** The actions. */
  actions: RemediationActionArgs[];
}

/**
 * A policy read from the API (snake_case) as the resource's outputs and records, and the
 * `getRemediationPolicies` data source, hold it: a condition's default `mode` (`any`) and an
 * action's empty `config` left out.
 */
export function remediationPolicyState(policy: RemediationPolicyEntry): RemediationPolicyState {
  return {
    name: policy.name,
    description: policy.description,
    active: policy.active,
    filters: {
      mode: policy.filters.mode as FilterMode,
      conditions: policy.filters.conditions.map((c) => ({
        type: c.type,
        values: c.values,
        ...(c.mode !== "any" ? { mode: c.mode as ConditionMode } : {}),
      })),
    },
    actions: policy.actions.map((a) => ({
      type: a.type as ActionType,
      ...(Object.keys(a.config).length ? { config: a.config } : {}),
    })),
  };
}

const text = (what: string) => z.string({ error: `must be a string: ${what}` }).min(1, `must not be empty: give ${what}`);

const condition = z.strictObject({
  type: text("a condition type, e.g. severity"),
  values: z.array(z.string(), { error: "must be a list of strings" }).min(1, "must name at least one value"),
  mode: z.enum(CONDITION_MODES, { error: `must be one of ${CONDITION_MODES.join(", ")}` }).optional(),
});

/** The filters with every condition's mode stated, `any` (the service's default) where none is. */
function withConditionModes(value: unknown): unknown {
  if (!value || typeof value !== "object" || !Array.isArray((value as { conditions?: unknown }).conditions)) return value;
  const { conditions } = value as { conditions: unknown[] };
  return {
    ...value,
    conditions: conditions.map((c) =>
      c && typeof c === "object" && (c as { mode?: unknown }).mode === undefined ? { ...c, mode: "any" } : c,
    ),
  };
}

/**
 * Whether the live filters are the declared ones. The outputs leave a condition's default mode
 * out (remediationPolicyState), so a declared `mode: "any"` is the same as none: compared as
 * given, it would propose an update on every run that changes nothing.
 */
const sameFilters = (live: unknown, declared: unknown) =>
  isDeepStrictEqual(withConditionModes(live ?? undefined), withConditionModes(declared ?? undefined));

const filters = z.strictObject({
  mode: z.enum(FILTER_MODES, { error: `must be one of ${FILTER_MODES.join(", ")}` }),
  conditions: z.array(condition, { error: "must be a list of conditions" }).min(1, "must hold at least one condition"),
});

const action = z.strictObject({
  type: z.enum(ACTION_TYPES, { error: `must be one of ${ACTION_TYPES.join(", ")}` }),
  config: z.record(z.string(), z.string(), { error: "must be a map of strings" }).optional(),
});

/** Lower-case letters, digits, `-` and `_`: what the service takes as a slug. */
const slug = z
  .string({ error: "must be a string: the policy's slug" })
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "must be a slug: lower-case letters, digits, '-' and '_', e.g. \"block-critical\"")
  .max(128, "must be at most 128 characters");

/**
 * A field's part of the policy the resource found, as the state holds it. The policy is recorded
 * whole (`original`), so it holds the fields this resource never changed too: one still as it is
 * live was not changed, and has no original of its own (a dropped field's warning names none).
 */
const changedOnly = (field: string) => (stored: unknown, state: Record<string, unknown>) =>
  Object.is(stored, state[field]) ? undefined : stored;

export const remediationPolicyKind = defineKind({
  kind: "RemediationPolicy",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The policy's stable identity in the deployment, e.g. `"block-critical"`. Immutable: changing it replaces the resource. */
    slug: input(slug, { replaces: true }),
    /** The policy's display name (the API's `name`). */
    policyName: input(text("the policy's display name")),
    /** A free-form description. Not managed when left out. */
    description: input(z.string({ error: "must be a string" }).optional()),
    /** Whether the policy is evaluated (the service's default is `true`). Not managed when left out. */
    active: input(z.boolean({ error: "must be true or false" }).optional()),
    /** The conditions a finding must match: `{ mode: "all" | "any", conditions: [{ type, values, mode? }] }`. */
    filters: typedInput<RemediationFiltersArgs>()(filters, { equal: sameFilters }),
    /** The actions that fire on a match (the whole list): `[{ type, config? }]`. */
    actions: typedInput<RemediationActionArgs[]>()(z.array(action, { error: "must be a list of actions" })),
    /** Put back, on delete, the policy this resource found, or remove the one it created (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [
    {
      holds: (declared) => !declared.actions.some((a) => a.type === "block") || declared.actions.some((a) => a.type === "pr_comment"),
      message: "a block action needs a pr_comment action in the same policy",
      path: "actions",
    },
  ],
  outputs: {
    /** Live display name. */
    policyName: output<string>(),
    /** Live description ("" when none). */
    description: output<string>(),
    /** Live: whether the policy is evaluated. */
    active: output<boolean>(),
    /** Live conditions. */
    filters: output<RemediationFiltersArgs>(),
    /** Live actions. */
    actions: output<RemediationActionArgs[]>(),
    /** The policy this resource found under its slug and changed (at create, or, found as declared then, at the first update that changed it), put back on delete; unset when it created the policy or has not changed the one it found. */
    original: output<RemediationPolicyState | undefined>({ derivedFrom: ["policyName", "description", "active", "filters", "actions"] }),
    /** True when this resource created the policy (its slug was free): delete removes it. */
    created: output<boolean>(),
    /** The deployment's slug, as the service reports it. */
    deploymentSlug: output<string>(),
    /** The bundle's `state_version` at the last read or write. */
    stateVersion: output<string>(),
    /** The optional fields this resource manages (those declared): `description`, `active`. */
    managedFields: output<string[]>(),
  },
  // The required fields are always managed; `managedFields` lists the optional ones declared.
  managed: {
    policyName: managed("original.name"),
    description: managed("original.description", { fromState: changedOnly("description") }),
    active: managed("original.active", { fromState: changedOnly("active") }),
    filters: managed("original.filters"),
    actions: managed("original.actions"),
  },
  id: {
    format: "<deploymentId>/<slug>",
    parse: (text) => {
      const [deploymentId, policySlug, ...rest] = text.split("/");
      return deploymentId && policySlug && rest.length === 0 ? { deploymentId, slug: policySlug } : undefined;
    },
  },
  service: {
    create:
      "Reads the deployment's remediation policies (one read per run, shared by every RemediationPolicy of the deployment), records the " +
      "policy with this slug if there is one, and writes the bundle with the declared policy in one `PUT` with `If-Match` (a conflict " +
      "with another writer re-reads and reapplies this policy only: 20 policies created in parallel lose nothing).",
    update: "Writes the bundle with the declared policy in one `PUT`; a change of `slug` or deployment replaces the resource.",
    delete:
      "Puts back the policy it found (its `description` and `active` only when declared), or removes the one it created, in one `PUT` (unless `restoreOnDelete` is `false`).",
    read: "Reads the bundle (shared as on create); a policy removed elsewhere reads as gone, a changed one as drift.",
    adoption:
      "A policy with the slug is adopted (recorded as `original`; one found already as declared records nothing until an update changes it, and delete then puts back the policy that update found), otherwise created (`created`). System-managed policies reserve their slugs: " +
      'using one fails with the service\'s `RESERVED_SLUG`. `RemediationPolicy.get(name, "<deploymentId>/<slug>")` reads one without managing it.',
  },
});

/**
 * Policies V2 (unified policies, beta): detection policy bundles per product, the remediation
 * policies bundle, their dry runs and the vocabulary. Field names are the OpenAPI's, which are
 * snake_case here (`state_version`, `exception_type`, `project_tag_name`, ...), unlike v1.
 *
 * Request schemas are strict (an undeclared field is refused) and require what the OpenAPI's
 * `required` lists name, except `deployment_id` and `product`, which are path parameters. The
 * rules the OpenAPI states only in prose (allowed values, exactly one scope, no rulesets for
 * secrets, companion actions, at least one condition) are not refused here: they are the service's
 * validation, which a dry run reports all at once; {@link detectionBundleProblems} and
 * {@link remediationBundleProblems} apply the same rules without a request.
 */
import { z } from "zod";
import { describeMissingCompanion } from "../errors";
import { flag, list, text } from "./common";
import {
  ACTION_TYPES,
  CONDITION_MODES,
  DETECTION_PRODUCTS,
  type DetectionProduct,
  EXCEPTION_TYPES,
  FILTER_MODES,
  RULE_TYPES,
  VOCAB_PRODUCTS,
} from "./enums";

const required = z.string().min(1, "must not be empty");
const strings = z.array(z.string());

// ---------------------------------------------------------------------------------------------
// Path and query values

export const detectionProduct = z.enum(DETECTION_PRODUCTS, { error: `must be one of ${DETECTION_PRODUCTS.join(", ")}` });
export const vocabQuery = z.strictObject({
  product: z.enum(VOCAB_PRODUCTS, { error: `must be one of ${VOCAB_PRODUCTS.join(", ")}` }).optional(),
});
export type VocabQuery = z.input<typeof vocabQuery>;

/** The `If-Match` of a strict apply: the bundle's `state_version`, exactly as read. */
export const ifMatch = z
  .string({ error: "must be the bundle's state_version (from a read, a dry run or the last apply)" })
  .min(1, "must be the bundle's state_version (from a read, a dry run or the last apply)")
  .refine((s) => !/[\r\n]/.test(s), "must not contain a line break");
/** The options of an apply, as far as the request is concerned. */
export const applyOptions = z.looseObject({ ifMatch });

// ---------------------------------------------------------------------------------------------
// Requests (strict)

export const detectionPolicyException = z.strictObject({
  /** `include` or `exclude`. */
  exception_type: required,
  /** The project the exception targets (`org/repo`). Exactly one of `project` / `project_tag_name`. */
  project: z.string().optional(),
  /** The project tag the exception targets; an opaque string (spaces and all). */
  project_tag_name: z.string().optional(),
  /** A rule path or a rule pack, as `rule_type` says. */
  rule: required,
  /** `rule` or `pack`. */
  rule_type: required,
});
export type DetectionPolicyExceptionInput = z.input<typeof detectionPolicyException>;

export const detectionPolicyBundle = z.strictObject({
  /** Output only: ignored by the service when sent (accepted so that a bundle read can be sent back). */
  deployment_slug: z.string().optional(),
  /** `code` or `secrets`; when present it must match the product of the path. */
  product: z.string().optional(),
  /** Registry ruleset paths (`p/default`); must be empty for `secrets`. */
  rulesets: strings.optional(),
  /** Registry rule paths added on top of the rulesets. */
  rules: strings.optional(),
  /** Rule paths of the selected rulesets turned off. */
  disabled: strings.optional(),
  exceptions: z.array(detectionPolicyException).optional(),
});
export type DetectionPolicyBundleInput = z.input<typeof detectionPolicyBundle>;

/** The body of both the apply (PUT) and the dry run (POST) of a detection policy. */
export const detectionPolicyRequest = z.strictObject({ bundle: detectionPolicyBundle });

export const remediationPolicyCondition = z.strictObject({
  /** `severity`, `confidence`, `repository_tag`, ...: the vocabulary lists the accepted types. */
  type: required,
  values: strings,
  /** `any` (the default) or `none` (the finding must match none of the values). */
  mode: z.string().optional(),
});
export const remediationPolicyFilters = z.strictObject({
  /** `all` or `any`. */
  mode: required,
  /** At least one (the service's rule). */
  conditions: z.array(remediationPolicyCondition).optional(),
});
export const remediationPolicyAction = z.strictObject({
  /** `block`, `pr_comment`, `jira`, `slack_app`, `webhook` or `triage`. */
  type: required,
  /** Action-specific settings, e.g. a `jira` action's `project_id` and `credential_slug`. */
  config: z.record(z.string(), z.string()).optional(),
});
export const remediationPolicy = z.strictObject({
  /** Stable identity, immutable; derived from `name` when left out on create. */
  slug: z.string().optional(),
  /** The display name. */
  name: required,
  description: z.string().optional(),
  /** `true` when left out. */
  active: z.boolean().optional(),
  filters: remediationPolicyFilters,
  actions: z.array(remediationPolicyAction),
});
export type RemediationPolicyInput = z.input<typeof remediationPolicy>;

export const remediationPoliciesBundle = z.strictObject({
  /** Output only: ignored by the service when sent. */
  deployment_slug: z.string().optional(),
  policies: z.array(remediationPolicy).optional(),
});
export type RemediationPoliciesBundleInput = z.input<typeof remediationPoliciesBundle>;

/** The body of both the apply (PUT) and the dry run (POST) of the remediation policies. */
export const remediationPoliciesRequest = z.strictObject({ bundle: remediationPoliciesBundle });

// ---------------------------------------------------------------------------------------------
// Answers (loose: newer fields pass through; absent fields read as their default)

/** An optional string: absent, null or "" (protobuf's unset) read as undefined. */
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v || undefined);
/** The fingerprint every read and write answers with; an answer without one cannot be used. */
const stateVersion = z.string().min(1, "must be the bundle's state_version");
const config = z
  .record(z.string(), z.string())
  .nullish()
  .transform((v) => v ?? {});

export const detectionPolicyExceptionAnswer = z.looseObject({
  exception_type: text,
  project: optionalText,
  project_tag_name: optionalText,
  rule: text,
  rule_type: text,
});
export type DetectionExceptionEntry = z.output<typeof detectionPolicyExceptionAnswer>;

export const detectionPolicyBundleAnswer = z.looseObject({
  deployment_slug: text,
  product: text,
  rulesets: list(z.string()),
  rules: list(z.string()),
  disabled: list(z.string()),
  exceptions: list(detectionPolicyExceptionAnswer),
});
export type DetectionPolicyBundle = z.output<typeof detectionPolicyBundleAnswer>;

/** A bundle and its `state_version`: the answer of the get and of the apply, and each product of the summary. */
export const detectionPolicyState = z.looseObject({ bundle: detectionPolicyBundleAnswer, state_version: stateVersion });
export type DetectionPolicyState = z.output<typeof detectionPolicyState>;

export const detectionPolicySummary = z.looseObject({
  deployment_slug: text,
  code: detectionPolicyState.nullish().transform((v) => v ?? undefined),
  /** Absent when Secrets is not enabled for the deployment. */
  secrets: detectionPolicyState.nullish().transform((v) => v ?? undefined),
});
export type DetectionPolicySummary = z.output<typeof detectionPolicySummary>;

export const remediationPolicyAnswer = z.looseObject({
  slug: text,
  name: text,
  description: text,
  /** Protobuf leaves `false` out: absent reads as false. */
  active: flag,
  filters: z.looseObject({
    mode: text,
    conditions: list(
      z.looseObject({
        type: text,
        values: list(z.string()),
        mode: z
          .string()
          .nullish()
          .transform((v) => v || "any"),
      }),
    ),
  }),
  actions: list(z.looseObject({ type: text, config })),
});
export type RemediationPolicyEntry = z.output<typeof remediationPolicyAnswer>;

export const remediationPoliciesBundleAnswer = z.looseObject({
  deployment_slug: text,
  policies: list(remediationPolicyAnswer),
});
export type RemediationPoliciesBundle = z.output<typeof remediationPoliciesBundleAnswer>;

export const remediationPoliciesState = z.looseObject({ bundle: remediationPoliciesBundleAnswer, state_version: stateVersion });
export type RemediationPoliciesState = z.output<typeof remediationPoliciesState>;

export const bundleValidationError = z.looseObject({
  /** Stable, machine-readable: `UNSUPPORTED_ACTION_TYPE`, `UNKNOWN_REFERENCE`, ... */
  code: text,
  message: text,
  /** The remediation policy the error is about; "" for a bundle-wide error. */
  policy_slug: text,
  /** Detail depending on `code` (`action_type`, `missing_companion`, `condition_type`, `value`, ...). */
  context: config,
});
export type BundleValidationError = z.output<typeof bundleValidationError>;

const detectionDiffContent = z.looseObject({
  rulesets: list(z.string()),
  rules: list(z.string()),
  disabled: list(z.string()),
  exception_type: optionalText,
});
export const detectionPolicyDiffEntry = z.looseObject({
  /** `DetectionPolicy` (only in updates) or `DetectionPolicyException`. */
  kind: text,
  key: z
    .looseObject({
      product: optionalText,
      scope_type: optionalText,
      scope_target: optionalText,
      rule: optionalText,
      rule_type: optionalText,
    })
    .nullish()
    .transform((v) => v ?? {}),
  /** Absent on creates. */
  before: detectionDiffContent.nullish().transform((v) => v ?? undefined),
  /** Absent on deletes. */
  after: detectionDiffContent.nullish().transform((v) => v ?? undefined),
});
export type DetectionPolicyDiffEntry = z.output<typeof detectionPolicyDiffEntry>;

export const remediationPolicyDiffEntry = z.looseObject({
  kind: text,
  key: z
    .looseObject({ slug: text })
    .nullish()
    .transform((v) => v ?? { slug: "" }),
  before: remediationPolicyAnswer.nullish().transform((v) => v ?? undefined),
  after: remediationPolicyAnswer.nullish().transform((v) => v ?? undefined),
});
export type RemediationPolicyDiffEntry = z.output<typeof remediationPolicyDiffEntry>;

/**
 * A dry run: the diff a strict apply would make (empty when there are validation errors) and every
 * validation error. The live service may leave `state_version` out of a clean dry run (the
 * OpenAPI documents it): then it is undefined, and an apply needs the version of a read.
 */
const dryRunOf = <E extends z.ZodType>(entry: E) =>
  z.looseObject({
    creates: list(entry),
    updates: list(entry),
    deletes: list(entry),
    /** What the diff was computed against, when the answer carries it: send it as If-Match to apply exactly the diff previewed. */
    state_version: optionalText,
    validation_errors: list(bundleValidationError),
  });
export const dryRunDetectionPolicyResponse = dryRunOf(detectionPolicyDiffEntry);
export type DryRunDetectionPolicyResponse = z.output<typeof dryRunDetectionPolicyResponse>;
export const dryRunRemediationPoliciesResponse = dryRunOf(remediationPolicyDiffEntry);
export type DryRunRemediationPoliciesResponse = z.output<typeof dryRunRemediationPoliciesResponse>;

export const vocabResponse = z.looseObject({
  condition_types: list(z.looseObject({ type: text, description: text })),
  action_types: list(z.looseObject({ type: text, description: text, requires: list(z.string()) })),
  /** Only with a `product`. */
  value_enums: list(z.looseObject({ type: text, values: list(z.string()) })),
  /** Only with `product` `code` or `secrets`. */
  detection_constraints: z
    .looseObject({ rulesets_accepted: flag, exception_types: list(z.string()), rule_types: list(z.string()) })
    .nullish()
    .transform((v) => v ?? undefined),
});
export type Vocabulary = z.output<typeof vocabResponse>;

// ---------------------------------------------------------------------------------------------
// From a bundle read to a bundle to send

/** The request form of a detection bundle read back (known fields only): the start of a read-modify-write. */
export function detectionBundleInput(bundle: DetectionPolicyBundle): DetectionPolicyBundleInput {
  return {
    product: bundle.product || undefined,
    rulesets: [...bundle.rulesets],
    rules: [...bundle.rules],
    disabled: [...bundle.disabled],
    exceptions: bundle.exceptions.map((e) => ({
      exception_type: e.exception_type,
      ...(e.project !== undefined ? { project: e.project } : {}),
      ...(e.project_tag_name !== undefined ? { project_tag_name: e.project_tag_name } : {}),
      rule: e.rule,
      rule_type: e.rule_type,
    })),
  };
}

/** The request form of a remediation policy read back (known fields only). */
export function remediationPolicyInput(policy: RemediationPolicyEntry): RemediationPolicyInput {
  return {
    slug: policy.slug,
    name: policy.name,
    description: policy.description,
    active: policy.active,
    filters: {
      mode: policy.filters.mode,
      conditions: policy.filters.conditions.map((c) => ({ type: c.type, values: [...c.values], mode: c.mode })),
    },
    actions: policy.actions.map((a) => ({ type: a.type, ...(Object.keys(a.config).length ? { config: { ...a.config } } : {}) })),
  };
}

// ---------------------------------------------------------------------------------------------
// The rules the OpenAPI states in prose

/** Action types that need another action type in the same policy (the vocabulary's `requires`). */
export const ACTION_COMPANIONS: Readonly<Record<string, readonly string[]>> = { block: ["pr_comment"] };
/** Config keys an action type needs (the OpenAPI's example: a `jira` action takes `project_id` and `credential_slug`). */
export const ACTION_CONFIG_KEYS: Readonly<Record<string, readonly string[]>> = { jira: ["project_id", "credential_slug"] };

/** The slug the service derives from a policy's name when none is given: `Block criticals!` → `block-criticals`. */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A URL-safe slug: lower-case letters, digits, `-` and `_`, starting and ending with a letter or digit. */
export const isSlug = (slug: string): boolean => slug.length <= 128 && /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/.test(slug);

/** The identity of an exception: its scope, rule and rule type (its `exception_type` is its content). */
export function exceptionKey(e: Pick<DetectionPolicyExceptionInput, "project" | "project_tag_name" | "rule" | "rule_type">): {
  scope_type: "project" | "project_tag";
  scope_target: string;
  rule: string;
  rule_type: string;
} {
  return e.project
    ? { scope_type: "project", scope_target: e.project, rule: e.rule, rule_type: e.rule_type }
    : { scope_type: "project_tag", scope_target: e.project_tag_name ?? "", rule: e.rule, rule_type: e.rule_type };
}

/**
 * One problem of a candidate bundle, in the shape of the OpenAPI's `BundleValidationError`;
 * `context.field` names the field (`exceptions[2].rule_type`).
 */
export interface BundleProblem {
  code: string;
  message: string;
  /** The remediation policy's slug (given or derived); "" for a bundle-wide problem. */
  policy_slug: string;
  context: Record<string, string>;
}

const problem = (code: string, field: string, message: string, context: Record<string, string> = {}, slug = ""): BundleProblem => ({
  code,
  message: `${field}: ${message}`,
  policy_slug: slug,
  context: { field, ...context },
});

const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}`;

/**
 * Every problem the OpenAPI's prose states for a detection bundle of `product`, in bundle order:
 * `product` matching the path, no `rulesets` for `secrets`, no empty rule path, each exception's
 * `exception_type` and `rule_type` among the documented values and exactly one of `project` /
 * `project_tag_name`, no two exceptions with the same scope, rule and rule type.
 */
export function detectionBundleProblems(product: DetectionProduct, bundle: DetectionPolicyBundleInput): BundleProblem[] {
  const problems: BundleProblem[] = [];
  if (bundle.product !== undefined && bundle.product !== "" && bundle.product !== product)
    problems.push(
      problem("PRODUCT_MISMATCH", "product", `is ${JSON.stringify(bundle.product)} but the path's product is ${product}`, {
        value: bundle.product,
      }),
    );
  if (product === "secrets" && bundle.rulesets?.length)
    problems.push(problem("RULESETS_NOT_ACCEPTED", "rulesets", "must be empty for secrets: secrets bundles take no rulesets"));
  for (const field of ["rulesets", "rules", "disabled"] as const) {
    (bundle[field] ?? []).forEach((path, i) => {
      if (path.trim() === "") problems.push(problem("EMPTY_VALUE", `${field}[${i}]`, "must not be empty"));
    });
  }
  const seen = new Set<string>();
  (bundle.exceptions ?? []).forEach((e, i) => {
    const at = `exceptions[${i}]`;
    if (!(EXCEPTION_TYPES as readonly string[]).includes(e.exception_type))
      problems.push(
        problem("INVALID_ENUM_VALUE", `${at}.exception_type`, `${JSON.stringify(e.exception_type)} ${oneOf(EXCEPTION_TYPES)}`, {
          value: e.exception_type,
        }),
      );
    if (!(RULE_TYPES as readonly string[]).includes(e.rule_type))
      problems.push(
        problem("INVALID_ENUM_VALUE", `${at}.rule_type`, `${JSON.stringify(e.rule_type)} ${oneOf(RULE_TYPES)}`, { value: e.rule_type }),
      );
    if (Boolean(e.project) === Boolean(e.project_tag_name))
      problems.push(
        problem(
          "INVALID_EXCEPTION_SCOPE",
          at,
          e.project
            ? "sets both project and project_tag_name: set exactly one"
            : "sets neither project nor project_tag_name: set exactly one",
        ),
      );
    else {
      const key = JSON.stringify(exceptionKey(e));
      if (seen.has(key))
        problems.push(
          problem("DUPLICATE_EXCEPTION", at, `repeats the exception of ${e.project ?? e.project_tag_name} for ${e.rule_type} ${e.rule}`),
        );
      seen.add(key);
    }
  });
  return problems;
}

/**
 * Every problem the OpenAPI's prose states for a remediation policies bundle, in bundle order: a
 * URL-safe slug (given or derived from the name), no two policies with one slug, the filters'
 * `mode` and each condition's `mode` among the documented values, at least one condition, each
 * with values, at least one action, action types among the documented ones, companion actions
 * (`block` needs `pr_comment`) and the config an action type needs.
 */
export function remediationBundleProblems(bundle: RemediationPoliciesBundleInput): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const slugs = new Set<string>();
  (bundle.policies ?? []).forEach((policy, i) => {
    const at = `policies[${i}]`;
    const slug = policy.slug || slugFromName(policy.name);
    const say = (code: string, field: string, message: string, context?: Record<string, string>) =>
      problems.push(problem(code, field, message, context, slug));
    if (!isSlug(slug))
      say(
        "INVALID_SLUG",
        policy.slug ? `${at}.slug` : `${at}.name`,
        policy.slug
          ? `${JSON.stringify(policy.slug)} is not a URL-safe slug (lower-case letters, digits, '-' and '_')`
          : `${JSON.stringify(policy.name)} gives no usable slug: set slug`,
        { value: slug },
      );
    else if (slugs.has(slug)) say("DUPLICATE_SLUG", at, `repeats the slug ${slug} of an earlier policy`, { value: slug });
    slugs.add(slug);
    if (!(FILTER_MODES as readonly string[]).includes(policy.filters.mode))
      say("INVALID_ENUM_VALUE", `${at}.filters.mode`, `${JSON.stringify(policy.filters.mode)} ${oneOf(FILTER_MODES)}`, {
        value: policy.filters.mode,
      });
    const conditions = policy.filters.conditions ?? [];
    if (conditions.length === 0) say("NO_CONDITIONS", `${at}.filters.conditions`, "at least one condition is required");
    conditions.forEach((condition, j) => {
      const where = `${at}.filters.conditions[${j}]`;
      if (condition.values.length === 0)
        say("NO_CONDITION_VALUES", `${where}.values`, "at least one value is required", { condition_type: condition.type });
      if (condition.mode !== undefined && condition.mode !== "" && !(CONDITION_MODES as readonly string[]).includes(condition.mode))
        say("INVALID_ENUM_VALUE", `${where}.mode`, `${JSON.stringify(condition.mode)} ${oneOf(CONDITION_MODES)}`, {
          value: condition.mode,
        });
    });
    if (policy.actions.length === 0) say("NO_ACTIONS", `${at}.actions`, "at least one action is required");
    const types = new Set(policy.actions.map((a) => a.type));
    policy.actions.forEach((action, j) => {
      const where = `${at}.actions[${j}]`;
      if (!(ACTION_TYPES as readonly string[]).includes(action.type)) {
        say("UNSUPPORTED_ACTION_TYPE", `${where}.type`, `${JSON.stringify(action.type)} ${oneOf(ACTION_TYPES)}`, {
          action_type: action.type,
        });
        return;
      }
      for (const companion of ACTION_COMPANIONS[action.type] ?? []) {
        if (!types.has(companion))
          say("MISSING_DEPENDENT_ACTION", `${where}.type`, describeMissingCompanion(companion, action.type), {
            action_type: action.type,
            missing_companion: companion,
          });
      }
      for (const key of ACTION_CONFIG_KEYS[action.type] ?? []) {
        if (!action.config?.[key])
          say("MISSING_ACTION_CONFIG", `${where}.config.${key}`, `a ${action.type} action needs config.${key}`, {
            action_type: action.type,
            config_key: key,
          });
      }
    });
  });
  return problems;
}

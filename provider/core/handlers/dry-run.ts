/**
 * The dry run of `check`: Policies V2 validates a whole bundle and reports every problem at once
 * (`validation_errors`), beyond what the schemas check. A new resource gets only `check` at
 * preview, so the dry run is made there, in the preview's and the update's process alike: these
 * resources read during preview (never write). Skipped while an input is unknown.
 *
 * The live service may also refuse an invalid bundle as its apply would (`400`, or `409
 * RESERVED_SLUG`, with the first problem's code and fields) instead of answering `200` with
 * `validation_errors`: {@link dryRunVerdict} takes both forms, and the failures name the
 * resource's field either way (from the problem's path, else from what the refusal names).
 */
import type { CheckFailure, CheckResult, Handler } from "../runtime/handler";
import {
  BadRequestError,
  DeploymentNotMigratedError,
  describeMissingCompanion,
  describeReference,
  MissingDependentActionError,
  ProductNotEnabledError,
  ReservedSlugError,
  UnknownReferenceError,
} from "../../client";
import { containsUnknown, type Props } from "../runtime/check";
import { checkOwned } from "../runtime/owned";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Claim } from "../runtime/ownership";
import type { KINDS, ResourceKind } from "../kinds";
import type { CheckedInputs } from "../kinds/declare";

/** A validation error as the dry run answers it. */
export interface ValidationError {
  code: string;
  message: string;
  policy_slug?: string;
  context?: Record<string, unknown>;
}

/**
 * The resource's field a bundle path points at: `exceptions[2].rule_type` → `exceptions`;
 * under prefix `policies`, `policies[0].filters.conditions` → `filters`. With `index`, a path
 * into another item of the prefix's list (another policy, another team's exception) points at
 * no field of this resource.
 */
function topField(path: string, prefix = "", index?: number): string {
  const item = prefix ? new RegExp(`^${prefix}\\[(\\d+)\\]\\.?`).exec(path) : null;
  if (item && index !== undefined && Number(item[1]) !== index) return "";
  const rest = item ? path.slice(item[0].length) : path;
  const first = rest.split(/[.[]/)[0] ?? "";
  return first.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A dry run's verdict in either form: the answer when it is a 200, and the problems it lists or the refusal stands for. */
export interface DryRunVerdict<A> {
  answer?: A;
  errors: ValidationError[];
}

/**
 * Runs a dry run and takes its verdict in either form the service answers: `200` with
 * `validation_errors`, or a refusal of the bundle (see {@link refusalProblems}). Any other error
 * (a 404 PRODUCT_NOT_ENABLED, a 401, a lost connection) is thrown.
 */
export async function dryRunVerdict<A extends { validation_errors: ValidationError[] }>(run: () => Promise<A>): Promise<DryRunVerdict<A>> {
  try {
    const answer = await run();
    return { answer, errors: answer.validation_errors };
  } catch (error) {
    const errors = refusalProblems(error);
    if (!errors) throw error;
    return { errors };
  }
}

/**
 * The problems a dry run's refusal of the bundle stands for (a 400, or 409 `RESERVED_SLUG`):
 * the `validation_errors` it lists, else one per missing reference (`UNKNOWN_REFERENCE`), else
 * one for the code, each saying what the refusal names (the reference, the companion). Undefined
 * for an error that is no refusal of the bundle.
 */
function refusalProblems(error: unknown): ValidationError[] | undefined {
  if (!(error instanceof BadRequestError || error instanceof ReservedSlugError)) return undefined;
  if (error.validationErrors.length) return [...error.validationErrors];
  const code = error.code ?? `HTTP ${error.status}`;
  const said = error.serviceMessage.replace(/\.+$/, "");
  // What the refusal names is added to the service's message unless the message already says it.
  const problem = (message: string, context: Record<string, unknown> = {}, named = ""): ValidationError => ({
    code,
    message: (named && said.includes(named) ? said : [said, message].filter(Boolean).join(": ")) || code,
    ...(error.policySlug ? { policy_slug: error.policySlug } : {}),
    context,
  });
  if (error instanceof UnknownReferenceError && error.missingReferences.length)
    return error.missingReferences.map((reference) =>
      problem(
        `missing ${describeReference(reference)}`,
        {
          ...(reference.field ? { field: reference.field } : {}),
          ...(reference.type ? { reference_type: reference.type } : {}),
          missing_references: reference.value,
        },
        JSON.stringify(reference.value),
      ),
    );
  if (error instanceof MissingDependentActionError && error.missingCompanion)
    return [
      problem(
        describeMissingCompanion(error.missingCompanion, error.actionType),
        {
          ...(error.actionType ? { action_type: error.actionType } : {}),
          missing_companion: error.missingCompanion,
        },
        error.missingCompanion,
      ),
    ];
  return [problem("")];
}

/** The reference types and the resource fields that may name such a reference, most likely first. */
const REFERENCE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  project: ["projectName", "exceptions"],
  project_tag: ["projectTagName", "exceptions", "filters"],
  rule: ["rule", "rules", "disabled", "exceptions"],
  ruleset: ["rulesets", "rule", "exceptions"],
};

/** Whether a declared value holds `name` (the value itself, or an item, or a field of one, at any depth). */
function holds(value: unknown, name: string): boolean {
  if (typeof value === "string") return value === name;
  if (Array.isArray(value)) return value.some((item) => holds(item, name));
  return !!value && typeof value === "object" && Object.values(value).some((item) => holds(item, name));
}

/**
 * The resource's field a problem without a path is about, from what it names: the declared field
 * that holds a missing reference, `actions` for a missing companion, `filters` for a condition,
 * `slug` for a reserved slug. "" when nothing points at a field.
 */
function fieldNamed(error: ValidationError, props: Props): string {
  const context = error.context ?? {};
  const missing = context.missing_references;
  if (typeof missing === "string") {
    const type = typeof context.reference_type === "string" ? context.reference_type : "";
    const candidates = [...(REFERENCE_FIELDS[type] ?? []), ...Object.keys(props).filter((key) => !key.startsWith("__"))];
    return candidates.find((field) => holds(props[field], missing)) ?? "";
  }
  if (context.missing_companion !== undefined || context.action_type !== undefined) return "actions";
  if (context.condition_type !== undefined) return "filters";
  if (error.code === "RESERVED_SLUG") return "slug";
  return "";
}

/**
 * The check failures for the service's validation errors of a candidate bundle: each names the
 * resource and, where the error's context names a field this resource declares (by its path, or
 * by what it names when it has none), that field.
 */
export function failuresOf(
  ctx: CallContext,
  props: Props,
  errors: readonly ValidationError[],
  options: { prefix?: string; index?: number; rename?: Record<string, string> } = {},
): CheckFailure[] {
  return errors.map((error) => {
    const path = typeof error.context?.field === "string" ? error.context.field : "";
    const field = path ? topField(path, options.prefix, options.index) : "";
    const property = path ? (options.rename?.[field] ?? field) : fieldNamed(error, props);
    const declared = property !== "" && props[property] !== undefined;
    return {
      property: declared ? property : "",
      reason: `${ctx.name}: Semgrep refuses the bundle (dry run): ${error.message} [${error.code}]`,
    };
  });
}

/**
 * `check` of a Policies V2 resource: its inputs and claims (owned.ts checkOwned), then, when they
 * pass and no input is unknown, the service's dry run of the bundle `dryRun` builds. A product the
 * deployment lacks fails the check on `product`, naming it, rather than the preview at large; a
 * deployment still on v1 policies fails it on `deploymentId`.
 */
export async function checkWithDryRun<K extends ResourceKind>(
  kind: K,
  ctx: CallContext,
  news: Props,
  claimsOf: (inputs: CheckedInputs<(typeof KINDS)[K]>) => Claim[],
  dryRun: (declared: CheckedInputs<(typeof KINDS)[K]>) => Promise<CheckFailure[]>,
): Promise<CheckResult> {
  const result = checkOwned(kind, ctx, news, claimsOf);
  const declared = result.inputs as CheckedInputs<(typeof KINDS)[K]>;
  if (result.failures?.length || containsUnknown(declared)) return result;
  try {
    const failures = await dryRun(declared);
    return failures.length ? { ...result, failures } : result;
  } catch (error) {
    if (error instanceof DeploymentNotMigratedError) return { ...result, failures: [notMigrated(ctx, declared, error)] };
    if (!(error instanceof ProductNotEnabledError)) throw error;
    return { ...result, failures: [{ property: "product", reason: `${ctx.name}: ${error.message}` }] };
  }
}

/**
 * The `claims` and `check` of a Policies V2 kind: what it claims (`claimsOf`, which an import's
 * check uses too: stack-claims.ts), and the check those claims and the service's dry run make
 * (checkWithDryRun).
 */
export function claimsWithDryRun<K extends ResourceKind>(
  kind: K,
  claimsOf: (secrecy: Secrecy, declared: Props) => Claim[],
  dryRun: (declared: CheckedInputs<(typeof KINDS)[K]>, ctx: CallContext) => Promise<CheckFailure[]>,
): Pick<Handler<(typeof KINDS)[K]>, "claims" | "check"> {
  return {
    claims: (declared, secrecy) => claimsOf(secrecy, declared),
    check: (_olds, news, ctx) =>
      checkWithDryRun(
        kind,
        ctx,
        news,
        (declared) => claimsOf(ctx, declared),
        (declared) => dryRun(declared, ctx),
      ),
  };
}

/**
 * The check failure of a Policies V2 resource whose deployment still uses v1 policies (403
 * `DEPLOYMENT_NOT_MIGRATED`): on `deploymentId`, naming the resource, at preview and before any
 * write, as the v1 kinds fail on a migrated deployment (410 `DEPLOYMENT_MIGRATED`) before theirs.
 */
function notMigrated(ctx: CallContext, declared: Props, error: DeploymentNotMigratedError): CheckFailure {
  return {
    property: "deploymentId",
    reason:
      `${ctx.name}: deployment ${String(declared.deploymentId)} still uses v1 policies ` +
      `(not migrated to Semgrep's unified policies), so ${ctx.kind} cannot manage it: ${error.message}`,
  };
}

/**
 * The dry run of `check`: Policies V2 validates a whole bundle and reports every problem at once
 * (`validation_errors`), beyond what the schemas check. A new resource gets only `check` at
 * preview, so the dry run is made there, in the preview's and the update's process alike: these
 * resources read during preview (never write). Skipped while an input is unknown.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DeploymentNotMigratedError, ProductNotEnabledError } from "../client";
import { containsUnknown, type Props } from "./check";
import { checkOwned, describeResource } from "./owned";
import type { Claim } from "./ownership";
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

/**
 * The check failures for the service's validation errors of a candidate bundle: each names the
 * resource and, where the error's context names a field this resource declares, that field.
 */
export function failuresOf(
  kind: ResourceKind,
  props: Props,
  errors: readonly ValidationError[],
  options: { prefix?: string; index?: number; rename?: Record<string, string> } = {},
): pulumi.dynamic.CheckFailure[] {
  return errors.map((error) => {
    const path = typeof error.context?.field === "string" ? error.context.field : "";
    const field = path ? topField(path, options.prefix, options.index) : "";
    const property = options.rename?.[field] ?? field;
    const declared = property !== "" && props[property] !== undefined;
    return {
      property: declared ? property : "",
      reason: `${describeResource(kind, props)}: Semgrep refuses the bundle (dry run): ${error.message} [${error.code}]`,
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
  news: Props,
  claimsOf: (inputs: CheckedInputs<(typeof KINDS)[K]>) => Claim[],
  dryRun: (declared: CheckedInputs<(typeof KINDS)[K]>) => Promise<pulumi.dynamic.CheckFailure[]>,
): Promise<pulumi.dynamic.CheckResult> {
  const result = checkOwned(kind, news, claimsOf);
  const declared = result.inputs as CheckedInputs<(typeof KINDS)[K]>;
  if (result.failures?.length || containsUnknown(declared)) return result;
  try {
    const failures = await dryRun(declared);
    return failures.length ? { ...result, failures } : result;
  } catch (error) {
    if (error instanceof DeploymentNotMigratedError) return { ...result, failures: [notMigrated(kind, declared, error)] };
    if (!(error instanceof ProductNotEnabledError)) throw error;
    return { ...result, failures: [{ property: "product", reason: `${describeResource(kind, declared)}: ${error.message}` }] };
  }
}

/**
 * The check failure of a Policies V2 resource whose deployment still uses v1 policies (403
 * `DEPLOYMENT_NOT_MIGRATED`): on `deploymentId`, naming the resource, at preview and before any
 * write, as the v1 kinds fail on a migrated deployment (410 `DEPLOYMENT_MIGRATED`) before theirs.
 */
function notMigrated(kind: ResourceKind, declared: Props, error: DeploymentNotMigratedError): pulumi.dynamic.CheckFailure {
  return {
    property: "deploymentId",
    reason:
      `${describeResource(kind, declared)}: deployment ${String(declared.deploymentId)} still uses v1 policies ` +
      `(not migrated to Semgrep's unified policies), so ${kind} cannot manage it: ${error.message}`,
  };
}

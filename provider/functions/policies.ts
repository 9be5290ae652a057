/** Data sources: the policies of a deployment, and one policy picked by its fields. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { id, PRODUCT_TYPES } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { type PolicyInfo, policyInfo } from "./shapes";

export interface GetPoliciesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
}

/** {@link GetPoliciesArgs} as `getPoliciesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetPoliciesOutputArgs = OutputArgs<GetPoliciesArgs>;

export interface GetPoliciesResult {
  /** Every policy of the deployment, by id. */
  policies: PolicyInfo[];
}

const policiesArgs = z.strictObject({ deploymentId: id("deployment") });

const byId = (a: PolicyInfo, b: PolicyInfo) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id);

/**
 * The policies of a deployment.
 *
 * @example
 * ```ts
 * import { getPolicies } from "pulumi-semgrep";
 * const { policies } = await getPolicies({ deploymentId: "1" });
 * const sast = policies.filter((p) => p.productType === "PRODUCT_TYPE_SAST");
 * ```
 */
export async function getPolicies(args: GetPoliciesArgs, opts?: SemgrepInvokeOptions): Promise<GetPoliciesResult> {
  const { deploymentId } = parseArgs("getPolicies", policiesArgs, args);
  const policies = await (await clientFor(opts)).policies.list(deploymentId);
  return { policies: policies.map(policyInfo).sort(byId) };
}

/**
 * {@link getPolicies} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getPoliciesOutput } from "pulumi-semgrep";
 * export const policyNames = getPoliciesOutput({ deploymentId: "1" }).policies.apply((ps) => ps.map((p) => p.name));
 * ```
 */
export const getPoliciesOutput: (args: GetPoliciesOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetPoliciesResult> =
  outputForm(getPolicies);

export interface GetPolicyArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** The policy's id, digits as a string or a number, e.g. `"10"`. */
  id?: string | number;
  /** The policy's machine-readable name, exactly, e.g. `"global_policy"`. */
  slug?: string;
  /** The policy's name, exactly (case included), e.g. `"Global Policy"`. */
  name?: string;
  /** `PRODUCT_TYPE_SAST` (Code rules) or `PRODUCT_TYPE_SECRETS` (Secrets rules). */
  productType?: string;
  /** `true`: only a default policy (one that applies to every repository); `false`: only a policy that is not a default. */
  isDefault?: boolean;
}

/** {@link GetPolicyArgs} as `getPolicyOutput` takes them: every field may be a `pulumi.Input`. */
export type GetPolicyOutputArgs = OutputArgs<GetPolicyArgs>;

/** The one policy matching the criteria (fields at the top level). */
export type GetPolicyResult = PolicyInfo;

const policyArgs = z.strictObject({
  deploymentId: id("deployment"),
  id: id("policy").optional(),
  slug: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  productType: z.enum(PRODUCT_TYPES, { error: `must be one of ${PRODUCT_TYPES.join(", ")}` }).optional(),
  isDefault: z.boolean().optional(),
});

/**
 * The one policy of a deployment that matches every given criterion; an error naming the
 * criteria when none or several do.
 *
 * @example
 * ```ts
 * import { getPolicy } from "pulumi-semgrep";
 * const sast = await getPolicy({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST", isDefault: true });
 * ```
 */
export async function getPolicy(args: GetPolicyArgs, opts?: SemgrepInvokeOptions): Promise<GetPolicyResult> {
  const { deploymentId, ...criteria } = parseArgs("getPolicy", policyArgs, args);
  const { policies } = await getPolicies({ deploymentId }, opts);
  const wanted = Object.entries(criteria).filter(([, v]) => v !== undefined) as Array<[keyof PolicyInfo, unknown]>;
  const matches = policies.filter((p) => wanted.every(([key, value]) => p[key] === value));
  if (matches.length === 1) return matches[0]!;
  const described = wanted.length ? wanted.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ") : "no criteria";
  const list = (ps: PolicyInfo[]) =>
    ps.map((p) => `${p.id} "${p.name}" (${p.productType ?? "?"}${p.isDefault ? ", default" : ""})`).join("; ");
  if (!matches.length)
    throw new Error(`getPolicy: no policy of deployment ${deploymentId} matches ${described}; its policies: ${list(policies) || "none"}`);
  throw new Error(
    `getPolicy: ${matches.length} policies of deployment ${deploymentId} match ${described}: ${list(matches)}; ` +
      "add criteria (id, slug, name, productType, isDefault) to pick one",
  );
}

/**
 * {@link getPolicy} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getPolicyOutput } from "pulumi-semgrep";
 * export const defaultSastPolicyId = getPolicyOutput({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST", isDefault: true }).id;
 * ```
 */
export const getPolicyOutput: (args: GetPolicyOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetPolicyResult> =
  outputForm(getPolicy);

/**
 * Data sources on Semgrep's unified policies (Policies V2, beta): a product's detection policy,
 * every product's at once, the remediation policies, and the vocabulary the API accepts. They
 * work on deployments migrated to unified policies, where the v1 policy data sources answer 410.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ProductNotEnabledError } from "../client";
import { type DetectionProduct, detectionProduct, id, VOCAB_PRODUCTS, type VocabProduct } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import {
  type DetectionPolicyInfo,
  detectionPolicyInfo,
  type PolicyVocabulary,
  type RemediationPolicyInfo,
  remediationPolicyInfo,
  vocabularyInfo,
} from "./shapes";

// ---------------------------------------------------------------------------------------------
// getDetectionPolicy

export interface GetDetectionPolicyArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** `code` or `secrets`: the product whose detection policy to read. */
  product: DetectionProduct;
}

/** {@link GetDetectionPolicyArgs} as `getDetectionPolicyOutput` takes them: every field may be a `pulumi.Input`. */
export type GetDetectionPolicyOutputArgs = OutputArgs<GetDetectionPolicyArgs>;

/** The product's detection policy (fields at the top level). */
export type GetDetectionPolicyResult = DetectionPolicyInfo;

const detectionPolicyArgs = z.strictObject({ deploymentId: id("deployment"), product: detectionProduct });

/**
 * The detection policy of one product (Policies V2, beta): the rulesets that run deployment-wide,
 * the rules added one by one, the rules turned off, the per-project and per-tag exceptions (as
 * DetectionPolicy declares them), and the bundle's `stateVersion`. One request. A product the
 * deployment does not have fails with an error naming it.
 *
 * @example
 * ```ts
 * import { getDetectionPolicy } from "pulumi-semgrep";
 * const code = await getDetectionPolicy({ deploymentId: "1", product: "code" });
 * console.log(code.rulesets, `${code.disabled.length} rules turned off`);
 * const tagExceptions = code.exceptions.filter((e) => e.projectTagName !== undefined);
 * ```
 */
export async function getDetectionPolicy(args: GetDetectionPolicyArgs, opts?: SemgrepInvokeOptions): Promise<GetDetectionPolicyResult> {
  const { deploymentId, product } = parseArgs("getDetectionPolicy", detectionPolicyArgs, args);
  try {
    return detectionPolicyInfo(await (await clientFor(opts)).policiesV2.getDetectionPolicy(deploymentId, product));
  } catch (error) {
    if (!(error instanceof ProductNotEnabledError)) throw error;
    throw new Error(
      `getDetectionPolicy: the ${product} product is not enabled for deployment ${deploymentId}, so it has no ${product} ` +
        `detection policy (PRODUCT_NOT_ENABLED); getDetectionPolicies reads the policies of the products it has. ${error.message}`,
      { cause: error },
    );
  }
}

/**
 * {@link getDetectionPolicy} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getDetectionPolicyOutput } from "pulumi-semgrep";
 * const code = getDetectionPolicyOutput({ deploymentId: "1", product: "code" });
 * export const codeRulesets = code.rulesets;
 * export const disabledCount = code.disabled.apply((rules) => rules.length);
 * ```
 */
export const getDetectionPolicyOutput: (
  args: GetDetectionPolicyOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetDetectionPolicyResult> = outputForm(getDetectionPolicy);

// ---------------------------------------------------------------------------------------------
// getDetectionPolicies

export interface GetDetectionPoliciesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
}

/** {@link GetDetectionPoliciesArgs} as `getDetectionPoliciesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetDetectionPoliciesOutputArgs = OutputArgs<GetDetectionPoliciesArgs>;

export interface GetDetectionPoliciesResult {
  /** The deployment's slug, as the service reports it. */
  deploymentSlug: string;
  /** The detection policy of Code; unset when the deployment does not have Code. */
  code?: DetectionPolicyInfo;
  /** The detection policy of Secrets; unset when the deployment does not have Secrets. */
  secrets?: DetectionPolicyInfo;
}

const deploymentArgs = z.strictObject({ deploymentId: id("deployment") });

/**
 * The detection policy of every product the deployment has (Policies V2, beta), in one request:
 * `code` and, when Secrets is enabled, `secrets`, each as {@link getDetectionPolicy} returns it.
 *
 * @example
 * ```ts
 * import { getDetectionPolicies } from "pulumi-semgrep";
 * const { code, secrets } = await getDetectionPolicies({ deploymentId: "1" });
 * console.log(code?.rulesets, secrets ? `${secrets.disabled.length} secrets rules off` : "no Secrets");
 * ```
 */
export async function getDetectionPolicies(
  args: GetDetectionPoliciesArgs,
  opts?: SemgrepInvokeOptions,
): Promise<GetDetectionPoliciesResult> {
  const { deploymentId } = parseArgs("getDetectionPolicies", deploymentArgs, args);
  const summary = await (await clientFor(opts)).policiesV2.getDetectionPolicySummary(deploymentId);
  return {
    deploymentSlug: summary.deployment_slug,
    ...(summary.code ? { code: detectionPolicyInfo(summary.code) } : {}),
    ...(summary.secrets ? { secrets: detectionPolicyInfo(summary.secrets) } : {}),
  };
}

/**
 * {@link getDetectionPolicies} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getDetectionPoliciesOutput } from "pulumi-semgrep";
 * export const secretsEnabled = getDetectionPoliciesOutput({ deploymentId: "1" }).apply((p) => p.secrets !== undefined);
 * ```
 */
export const getDetectionPoliciesOutput: (
  args: GetDetectionPoliciesOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetDetectionPoliciesResult> = outputForm(getDetectionPolicies);

// ---------------------------------------------------------------------------------------------
// getRemediationPolicies

export interface GetRemediationPoliciesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
}

/** {@link GetRemediationPoliciesArgs} as `getRemediationPoliciesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetRemediationPoliciesOutputArgs = OutputArgs<GetRemediationPoliciesArgs>;

export interface GetRemediationPoliciesResult {
  /** The deployment's remediation policies, in the bundle's order (system-managed ones are never in it). */
  policies: RemediationPolicyInfo[];
  /** The deployment's slug, as the service reports it. */
  deploymentSlug: string;
  /** The bundle's `state_version`: a fingerprint of its content, which changes only when the content does. */
  stateVersion: string;
}

/**
 * The remediation policies of a deployment (Policies V2, beta): which findings each matches and
 * what it does with them, with the fields named as RemediationPolicy names them (`policyName` is
 * the API's `name`). System-managed policies are not in the list: the API leaves them out. One
 * request.
 *
 * @example
 * ```ts
 * import { getRemediationPolicies } from "pulumi-semgrep";
 * const { policies } = await getRemediationPolicies({ deploymentId: "1" });
 * const blocking = policies.filter((p) => p.active && p.actions.some((a) => a.type === "block"));
 * ```
 */
export async function getRemediationPolicies(
  args: GetRemediationPoliciesArgs,
  opts?: SemgrepInvokeOptions,
): Promise<GetRemediationPoliciesResult> {
  const { deploymentId } = parseArgs("getRemediationPolicies", deploymentArgs, args);
  const { bundle, state_version } = await (await clientFor(opts)).policiesV2.getRemediationPolicies(deploymentId);
  return { policies: bundle.policies.map(remediationPolicyInfo), deploymentSlug: bundle.deployment_slug, stateVersion: state_version };
}

/**
 * {@link getRemediationPolicies} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getRemediationPoliciesOutput } from "pulumi-semgrep";
 * export const remediationSlugs = getRemediationPoliciesOutput({ deploymentId: "1" }).policies.apply((ps) => ps.map((p) => p.slug));
 * ```
 */
export const getRemediationPoliciesOutput: (
  args: GetRemediationPoliciesOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetRemediationPoliciesResult> = outputForm(getRemediationPolicies);

// ---------------------------------------------------------------------------------------------
// getPolicyVocabulary

export interface GetPolicyVocabularyArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /**
   * `code`, `secrets` or `remediation`: adds that product's value enums and, for `code` and
   * `secrets`, the detection constraints. Without it, only the condition and action types.
   */
  product?: VocabProduct;
}

/** {@link GetPolicyVocabularyArgs} as `getPolicyVocabularyOutput` takes them: every field may be a `pulumi.Input`. */
export type GetPolicyVocabularyOutputArgs = OutputArgs<GetPolicyVocabularyArgs>;

/** The vocabulary (fields at the top level). */
export type GetPolicyVocabularyResult = PolicyVocabulary;

const vocabularyArgs = z.strictObject({
  deploymentId: id("deployment"),
  product: z.enum(VOCAB_PRODUCTS, { error: `must be one of ${VOCAB_PRODUCTS.join(", ")}` }).optional(),
});

/**
 * What the Policies V2 API (beta) accepts, to check a policy before writing it: the condition
 * types of remediation filters, the action types with the companions each requires (`block`
 * needs `pr_comment`), and, with a `product`, its value enums and (for `code` and `secrets`) the
 * detection constraints. One request.
 *
 * @example
 * ```ts
 * import { getPolicyVocabulary } from "pulumi-semgrep";
 * const vocabulary = await getPolicyVocabulary({ deploymentId: "1", product: "remediation" });
 * const severities = vocabulary.valueEnums.find((e) => e.type === "severity")?.values;
 * const blockNeeds = vocabulary.actionTypes.find((a) => a.type === "block")?.requires;
 * ```
 */
export async function getPolicyVocabulary(args: GetPolicyVocabularyArgs, opts?: SemgrepInvokeOptions): Promise<GetPolicyVocabularyResult> {
  const { deploymentId, product } = parseArgs("getPolicyVocabulary", vocabularyArgs, args);
  return vocabularyInfo(await (await clientFor(opts)).policiesV2.getVocab(deploymentId, product ? { product } : {}));
}

/**
 * {@link getPolicyVocabulary} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getPolicyVocabularyOutput } from "pulumi-semgrep";
 * export const conditionTypes = getPolicyVocabularyOutput({ deploymentId: "1" }).conditionTypes.apply((ts) => ts.map((t) => t.type));
 * ```
 */
export const getPolicyVocabularyOutput: (
  args: GetPolicyVocabularyOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetPolicyVocabularyResult> = outputForm(getPolicyVocabulary);

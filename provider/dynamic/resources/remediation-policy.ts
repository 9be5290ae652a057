import type { ArgsOf } from "../../core/kinds/declare";
import { remediationPolicyKind } from "../../core/kinds";
import provider from "../shims/RemediationPolicy";
import { type ResourceClass, resourceClass } from "./resource-class";
export type {
  RemediationActionArgs,
  RemediationConditionArgs,
  RemediationFiltersArgs,
  RemediationPolicyState,
} from "../../core/kinds/remediation-policy";

/** Arguments of a {@link RemediationPolicy}. */
export type RemediationPolicyArgs = ArgsOf<typeof remediationPolicyKind>;

/**
 * One remediation policy of a deployment (Policies V2, beta), by its slug: which findings it
 * matches and what it does with them (block the pull request, comment, open a ticket...). Adopts
 * the policy with that slug if one exists, creates it otherwise; delete puts back the adopted
 * policy or removes the created one. Writes never lose another writer's policy.
 *
 * @example
 * ```ts
 * import { RemediationPolicy } from "pulumi-semgrep";
 *
 * new RemediationPolicy("block-critical", {
 *   deploymentId: "1",
 *   slug: "block-critical",
 *   policyName: "Block critical, high-confidence findings in PRs",
 *   filters: {
 *     mode: "all",
 *     conditions: [
 *       { type: "severity", values: ["critical"] },
 *       { type: "confidence", values: ["high"] },
 *     ],
 *   },
 *   actions: [{ type: "pr_comment" }, { type: "block" }],
 * });
 * ```
 */
export const RemediationPolicy: ResourceClass<typeof remediationPolicyKind> = resourceClass(remediationPolicyKind, provider);
export type RemediationPolicy = InstanceType<typeof RemediationPolicy>;

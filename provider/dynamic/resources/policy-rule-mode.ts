import type { ArgsOf } from "../../core/kinds/declare";
import { policyRuleModeKind } from "../../core/kinds";
import provider from "../shims/PolicyRuleMode";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link PolicyRuleMode}. */
export type PolicyRuleModeArgs = ArgsOf<typeof policyRuleModeKind>;

/**
 * The mode of one rule in one policy: monitor, comment, block, or disabled.
 *
 * @example
 * ```ts
 * import { PolicyRuleMode } from "pulumi-semgrep";
 *
 * new PolicyRuleMode("block-eval", {
 *   deploymentId: "1",
 *   policyId: "10",
 *   rulePath: "python.lang.security.audit.eval-detected.eval-detected",
 *   mode: "MODE_BLOCK",
 * });
 * ```
 */
export const PolicyRuleMode: ResourceClass<typeof policyRuleModeKind> = resourceClass(policyRuleModeKind, provider);
export type PolicyRuleMode = InstanceType<typeof PolicyRuleMode>;

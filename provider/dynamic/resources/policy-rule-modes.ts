import type { ArgsOf } from "../../core/kinds/declare";
import { policyRuleModesKind } from "../../core/kinds";
import provider from "../shims/PolicyRuleModes";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link PolicyRuleModes}. */
export type PolicyRuleModesArgs = ArgsOf<typeof policyRuleModesKind>;

/**
 * The modes of many rules of one policy, as one resource: explicit `modes`, and `mode` for every
 * rule `select` matches (rules that appear later and match are found by `pulumi refresh`). For a
 * policy's hundreds or thousands of rules, where one PolicyRuleMode per rule would make the stack
 * slow and its state large.
 *
 * @example
 * ```ts
 * import { PolicyRuleModes } from "pulumi-semgrep";
 *
 * new PolicyRuleModes("block-high-severity", {
 *   deploymentId: "1",
 *   policyId: "10",
 *   select: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"], categories: ["security"] },
 *   mode: "MODE_BLOCK",
 *   // Explicit rules win over the selector.
 *   modes: { "javascript.lang.best-practice.assigned-undefined.assigned-undefined": "MODE_MONITOR" },
 * });
 * ```
 */
export const PolicyRuleModes: ResourceClass<typeof policyRuleModesKind> = resourceClass(policyRuleModesKind, provider);
export type PolicyRuleModes = InstanceType<typeof PolicyRuleModes>;

import type { ArgsOf } from "../../core/kinds/declare";
import { detectionPolicyExceptionKind } from "../../core/kinds";
import provider from "../shims/DetectionPolicyException";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link DetectionPolicyException}. */
export type DetectionPolicyExceptionArgs = ArgsOf<typeof detectionPolicyExceptionKind>;

/**
 * One exception of a product's detection policy (Policies V2, beta), beside any others: a rule or
 * rule pack forced to run (`include`) or skipped (`exclude`) on one project or one project tag.
 * For teams that own their own exceptions; a DetectionPolicy that declares `exceptions` on the
 * same product is a conflict, caught before any write.
 *
 * @example
 * ```ts
 * import { DetectionPolicyException } from "pulumi-semgrep";
 *
 * new DetectionPolicyException("legacy-skips-eval", {
 *   deploymentId: "1",
 *   product: "code",
 *   exceptionType: "exclude",
 *   projectName: "acme/legacy-app",
 *   rule: "python.lang.security.audit.eval-detected.eval-detected",
 *   ruleType: "rule",
 * });
 * ```
 */
export const DetectionPolicyException: ResourceClass<typeof detectionPolicyExceptionKind> = resourceClass(
  detectionPolicyExceptionKind,
  provider,
);
export type DetectionPolicyException = InstanceType<typeof DetectionPolicyException>;

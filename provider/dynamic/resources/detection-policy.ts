import type { ArgsOf } from "../../core/kinds/declare";
import { detectionPolicyKind } from "../../core/kinds";
import provider from "../shims/DetectionPolicy";
import { type ResourceClass, resourceClass } from "./resource-class";
export type { DetectionExceptionArgs } from "../../core/kinds/detection-exceptions";
export type { DetectionPolicyOriginals } from "../../core/kinds/detection-policy";

/** Arguments of a {@link DetectionPolicy}. */
export type DetectionPolicyArgs = ArgsOf<typeof detectionPolicyKind>;

/**
 * The detection policy of one product (`code` or `secrets`) on Semgrep's unified policies
 * (Policies V2, beta): the rulesets that run deployment-wide, rules added one by one, rules turned
 * off, and per-project or per-tag exceptions. Each field is managed only when declared; the
 * resource adopts the policy, records what it found of each declared field, and puts it back on
 * delete. `check` dry-runs the bundle, so the service's validation errors fail the preview.
 *
 * @example
 * ```ts
 * import { DetectionPolicy } from "pulumi-semgrep";
 *
 * new DetectionPolicy("code", {
 *   deploymentId: "1",
 *   product: "code",
 *   rulesets: ["p/default", "p/owasp-top-ten"],
 *   disabled: ["python.lang.best-practice.open-never-closed.open-never-closed"],
 *   exceptions: [
 *     { exceptionType: "exclude", projectName: "acme/legacy-app", rule: "p/owasp-top-ten", ruleType: "pack" },
 *   ],
 * });
 * ```
 */
export const DetectionPolicy: ResourceClass<typeof detectionPolicyKind> = resourceClass(detectionPolicyKind, provider);
export type DetectionPolicy = InstanceType<typeof DetectionPolicy>;

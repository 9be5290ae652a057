import type { ArgsOf } from "../../core/kinds/declare";
import { managedScanKind } from "../../core/kinds";
import provider from "../shims/ManagedScan";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link ManagedScan}. */
export type ManagedScanArgs = ArgsOf<typeof managedScanKind>;

/**
 * Semgrep-managed scans of one project: diff scans and full scans, each on or off.
 *
 * @example
 * ```ts
 * import { ManagedScan } from "pulumi-semgrep";
 *
 * new ManagedScan("mobile-app-scans", {
 *   deploymentSlug: "acme",
 *   projectName: "acme/mobile-app",
 *   diffScan: { enabled: true },
 *   fullScan: { enabled: true },
 * });
 * ```
 */
export const ManagedScan: ResourceClass<typeof managedScanKind> = resourceClass(managedScanKind, provider);
export type ManagedScan = InstanceType<typeof ManagedScan>;

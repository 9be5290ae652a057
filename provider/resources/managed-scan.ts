import * as pulumi from "@pulumi/pulumi";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/ManagedScan";
import type { ScanToggle } from "./project-settings";

export interface ManagedScanArgs {
  /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
  deploymentSlug: pulumi.Input<string>;
  /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
  projectName: pulumi.Input<string>;
  /** Managed diff scans (on pull requests). Not managed when left out. */
  diffScan?: pulumi.Input<ScanToggle>;
  /** Managed full scans (of the primary branch). Not managed when left out. */
  fullScan?: pulumi.Input<ScanToggle>;
  /** Put back, on delete, the toggles this resource changed, as it found them (default `true`); `false` only stops managing. */
  restoreOnDelete?: pulumi.Input<boolean>;
}

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
export class ManagedScan extends pulumi.dynamic.Resource {
  declare readonly deploymentSlug: pulumi.Output<string>;
  declare readonly projectName: pulumi.Output<string>;
  /** Live diff-scan toggle. */
  declare readonly diffScan: pulumi.Output<ScanToggle>;
  /** Live full-scan toggle. */
  declare readonly fullScan: pulumi.Output<ScanToggle>;
  declare readonly projectId: pulumi.Output<number>;
  declare readonly restoreOnDelete: pulumi.Output<boolean | undefined>;
  /** The diff-scan toggle this resource found and changed, put back on delete; unset when it found it as declared. */
  declare readonly originalDiffScan: pulumi.Output<ScanToggle | undefined>;
  /** The full-scan toggle this resource found and changed, put back on delete; unset when it found it as declared. */
  declare readonly originalFullScan: pulumi.Output<ScanToggle | undefined>;
  /** The toggles this resource manages (those declared): `diffScan`, `fullScan`. */
  declare readonly managedFields: pulumi.Output<string[]>;

  constructor(name: string, args: ManagedScanArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        ...args,
        diffScan: args.diffScan,
        fullScan: args.fullScan,
        projectId: undefined,
        managedFields: undefined,
        ...metaInputs("ManagedScan", name, args, opts),
      },
      resourceOptions("ManagedScan", name, args, opts),
      TYPE_MODULE,
      "ManagedScan",
    );
  }
}

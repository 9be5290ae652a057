import * as pulumi from "@pulumi/pulumi";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/ProjectSettings";

/** A managed-scan toggle. */
export interface ScanToggle {
  enabled: boolean;
}

export interface ManagedScanConfig {
  diffScan?: ScanToggle;
  fullScan?: ScanToggle;
}

export interface ProjectSettingsArgs {
  /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
  deploymentSlug: pulumi.Input<string>;
  /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
  projectName: pulumi.Input<string>;
  /** `"main"`, `"refs/heads/main"`, or `"None"` to follow the default branch. Not managed when left out. */
  primaryBranch?: pulumi.Input<string>;
  /** The project's whole tag set (authoritative). Not managed when left out; use ProjectTags to add tags instead. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Managed-scan toggles; a toggle left out is not managed. */
  managedScanConfig?: pulumi.Input<{ diffScan?: pulumi.Input<ScanToggle>; fullScan?: pulumi.Input<ScanToggle> }>;
  /** Put back, on delete, the values this resource changed, as it found them (default `true`); `false` only stops managing. */
  restoreOnDelete?: pulumi.Input<boolean>;
}

/**
 * The settings of one Semgrep project: primary branch, tags (the whole set) and managed-scan
 * configuration. The project must exist (projects appear with their first scan); the resource
 * adopts it, records what it found, and applies only the fields you declare. Deleting the
 * resource puts those fields back as they were found.
 *
 * @example
 * ```ts
 * import { ProjectSettings } from "pulumi-semgrep";
 *
 * new ProjectSettings("web-app", {
 *   deploymentSlug: "acme",
 *   projectName: "acme/web-app",
 *   primaryBranch: "main",
 *   tags: ["team:web", "tier:1"],
 *   managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
 * });
 * ```
 */
export class ProjectSettings extends pulumi.dynamic.Resource {
  declare readonly deploymentSlug: pulumi.Output<string>;
  declare readonly projectName: pulumi.Output<string>;
  /** The project's numeric id. */
  declare readonly projectId: pulumi.Output<number>;
  /** Live primary branch (a full ref). */
  declare readonly primaryBranch: pulumi.Output<string>;
  /** True when `primaryBranch: "None"` was declared (the primary branch follows the default branch). */
  declare readonly followsDefaultBranch: pulumi.Output<boolean | undefined>;
  /** Live default branch (a full ref). */
  declare readonly defaultBranch: pulumi.Output<string>;
  /** Live tags. */
  declare readonly tags: pulumi.Output<string[]>;
  /** Live managed-scan configuration, both toggles. */
  declare readonly managedScanConfig: pulumi.Output<Required<ManagedScanConfig>>;
  declare readonly url: pulumi.Output<string | undefined>;
  declare readonly latestScanAt: pulumi.Output<string | undefined>;
  declare readonly restoreOnDelete: pulumi.Output<boolean | undefined>;
  /** The primary branch this resource found and changed, put back on delete; unset when not managed or found as declared. */
  declare readonly originalPrimaryBranch: pulumi.Output<string | undefined>;
  /** The tags this resource found and changed, put back on delete; unset when not managed or found as declared. */
  declare readonly originalTags: pulumi.Output<string[] | undefined>;
  /** The managed-scan toggles this resource found and changed, put back on delete. */
  declare readonly originalManagedScanConfig: pulumi.Output<ManagedScanConfig | undefined>;
  /** The fields this resource manages (those declared): `primaryBranch`, `tags`, `managedScanConfig.diffScan`, `managedScanConfig.fullScan`. */
  declare readonly managedFields: pulumi.Output<string[]>;

  constructor(name: string, args: ProjectSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        ...args,
        projectId: undefined,
        defaultBranch: undefined,
        url: undefined,
        latestScanAt: undefined,
        managedFields: undefined,
        primaryBranch: args.primaryBranch,
        tags: args.tags,
        managedScanConfig: args.managedScanConfig,
        ...metaInputs("ProjectSettings", name, args, opts),
      },
      resourceOptions("ProjectSettings", name, args, opts),
      TYPE_MODULE,
      "ProjectSettings",
    );
  }
}

import * as pulumi from "@pulumi/pulumi";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/ProjectTags";

export interface ProjectTagsArgs {
  /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
  deploymentSlug: pulumi.Input<string>;
  /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
  projectName: pulumi.Input<string>;
  /** Tags to add (at least one). */
  tags: pulumi.Input<pulumi.Input<string>[]>;
  /** Remove, on delete, the tags this resource added (default `true`); `false` leaves them. */
  restoreOnDelete?: pulumi.Input<boolean>;
}

/**
 * Tags added to a Semgrep project, beside whatever tags it already has. Safe to use several
 * times on one project and next to other owners of its tags: on delete it removes only the tags
 * it added that were not there before.
 *
 * @example
 * ```ts
 * import { ProjectTags } from "pulumi-semgrep";
 *
 * new ProjectTags("payments-compliance", {
 *   deploymentSlug: "acme",
 *   projectName: "acme/payments-api",
 *   tags: ["pci", "owner:appsec"],
 * });
 * ```
 */
export class ProjectTags extends pulumi.dynamic.Resource {
  declare readonly deploymentSlug: pulumi.Output<string>;
  declare readonly projectName: pulumi.Output<string>;
  /** The declared tags the project has. */
  declare readonly tags: pulumi.Output<string[]>;
  /** The tags this resource added (those not on the project before it). */
  declare readonly addedTags: pulumi.Output<string[]>;
  /** Every tag of the project at the last read or write. */
  declare readonly projectTags: pulumi.Output<string[]>;
  declare readonly projectId: pulumi.Output<number>;
  declare readonly restoreOnDelete: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: ProjectTagsArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = { ...args, projectId: undefined, projectTags: undefined, ...metaInputs("ProjectTags", name, args, opts) };
    super(provider, name, inputs, resourceOptions("ProjectTags", name, args, opts), TYPE_MODULE, "ProjectTags");
  }
}

import type { ArgsOf } from "../../core/kinds/declare";
import { projectTagsKind } from "../../core/kinds";
import provider from "../shims/ProjectTags";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link ProjectTags}. */
export type ProjectTagsArgs = ArgsOf<typeof projectTagsKind>;

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
export const ProjectTags: ResourceClass<typeof projectTagsKind> = resourceClass(projectTagsKind, provider);
export type ProjectTags = InstanceType<typeof ProjectTags>;

import type { ArgsOf } from "../../core/kinds/declare";
import { projectSettingsSetKind } from "../../core/kinds";
import provider from "../shims/ProjectSettingsSet";
import { type ResourceClass, resourceClass } from "./resource-class";
export type { ProjectEntryArgs, ProjectOriginals, ProjectSetSettingsArgs } from "../../core/kinds/project-settings-set";

/** Arguments of a {@link ProjectSettingsSet}. */
export type ProjectSettingsSetArgs = ArgsOf<typeof projectSettingsSetKind>;

/**
 * The settings of many projects of one deployment, as one resource: explicit `projects` (the
 * fields ProjectSettings manages, by project name), and `settings` for every project `select`
 * matches, applied at each `up` (a project created since and matching is converged by the next
 * one; one that stops matching gets back what was found). For deployments of hundreds or thousands
 * of projects, where one ProjectSettings per project makes the stack slow and its state large:
 * one listing, one write per project that changes, and a state that records only what it changed.
 *
 * @example
 * ```ts
 * import { ProjectSettingsSet } from "pulumi-semgrep";
 *
 * new ProjectSettingsSet("acme-projects", {
 *   deploymentSlug: "acme",
 *   select: { namePatterns: ["acme/*-api"], exclude: ["acme/legacy-api"] },
 *   settings: { managedScanConfig: { diffScan: { enabled: true } }, addTags: ["tier:1"] },
 *   // Explicit entries win over the selector for their fields.
 *   projects: { "acme/web-app": { primaryBranch: "main", tags: ["team:web"] } },
 * });
 * ```
 */
export const ProjectSettingsSet: ResourceClass<typeof projectSettingsSetKind> = resourceClass(projectSettingsSetKind, provider);
export type ProjectSettingsSet = InstanceType<typeof ProjectSettingsSet>;

import type { ArgsOf } from "../../core/kinds/declare";
import { projectSettingsKind } from "../../core/kinds";
import provider from "../shims/ProjectSettings";
import { type ResourceClass, resourceClass } from "./resource-class";
export type { ManagedScanConfig } from "../../core/kinds/project-settings";
export type { ScanToggle } from "../../core/kinds/projects";

/** Arguments of a {@link ProjectSettings}. */
export type ProjectSettingsArgs = ArgsOf<typeof projectSettingsKind>;

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
export const ProjectSettings: ResourceClass<typeof projectSettingsKind> = resourceClass(projectSettingsKind, provider);
export type ProjectSettings = InstanceType<typeof ProjectSettings>;

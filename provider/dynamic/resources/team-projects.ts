import type { ArgsOf } from "../../core/kinds/declare";
import { teamProjectsKind } from "../../core/kinds";
import provider from "../shims/TeamProjects";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link TeamProjects}. */
export type TeamProjectsArgs = ArgsOf<typeof teamProjectsKind>;

/**
 * Projects a Semgrep team sees (Teams API, beta), beside its others: several may share a team, and
 * a project of it. On delete it removes only the projects it added that no other resource of the
 * stack still declares.
 *
 * @example
 * ```ts
 * import { TeamProjects } from "pulumi-semgrep";
 *
 * new TeamProjects("appsec-sees-mobile", {
 *   deploymentId: "1",
 *   teamId: "201",
 *   projects: ["acme/mobile-app"],
 * });
 * ```
 */
export const TeamProjects: ResourceClass<typeof teamProjectsKind> = resourceClass(teamProjectsKind, provider);
export type TeamProjects = InstanceType<typeof TeamProjects>;

import type { ArgsOf } from "../../core/kinds/declare";
import { teamMembersKind } from "../../core/kinds";
import provider from "../shims/TeamMembers";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link TeamMembers}. */
export type TeamMembersArgs = ArgsOf<typeof teamMembersKind>;

/**
 * Members of a Semgrep team (Teams API, beta), beside its others: several may share a team. On
 * delete it removes only the members it added and puts back the roles it changed. A user is
 * declared by one resource only: a Team's `members` and a TeamMembers naming the same user are
 * refused before any write.
 *
 * @example
 * ```ts
 * import { TeamMembers } from "pulumi-semgrep";
 *
 * new TeamMembers("payments-auditor", {
 *   deploymentId: "1",
 *   teamId: "202",
 *   members: { "105": "TEAM_ROLE_READONLY" },
 * });
 * ```
 */
export const TeamMembers: ResourceClass<typeof teamMembersKind> = resourceClass(teamMembersKind, provider);
export type TeamMembers = InstanceType<typeof TeamMembers>;

import type { ArgsOf } from "../../core/kinds/declare";
import { teamKind } from "../../core/kinds";
import provider from "../shims/Team";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link Team}. */
export type TeamArgs = ArgsOf<typeof teamKind>;

/**
 * A Semgrep role-based access control team (Teams API, beta): who sees which projects, in which
 * role. Creates the team, or adopts the existing team of that name (its members and projects are
 * put back on destroy, which then leaves the team). `members` and `projects`, when given, are
 * authoritative: any other member or project found is removed, but those a TeamMembers or
 * TeamProjects of the stack declares.
 *
 * @example
 * ```ts
 * import { Team } from "pulumi-semgrep";
 *
 * const payments = new Team("payments", {
 *   deploymentId: "1",
 *   name: "payments",
 *   members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" },
 *   projects: ["acme/payments-api"],
 * });
 * export const paymentsTeamId = payments.teamId;
 * ```
 */
export const Team: ResourceClass<typeof teamKind> = resourceClass(teamKind, provider);
export type Team = InstanceType<typeof Team>;

/** TeamMembers, declared once: see declare.ts. */
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, output } from "./declare";
import { coversMembers, declaredMembers, TEAM_ID, type TeamRole } from "./team-inputs";

export const teamMembersKind = defineKind({
  kind: "TeamMembers",
  stability: "beta",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The team's id (a Team's `teamId`, or a number). Changing it replaces the resource. */
    teamId: input(id("team"), { replaces: true }),
    /**
     * Members to have on the team, beside its others: user id → `TEAM_ROLE_MEMBER`,
     * `TEAM_ROLE_MANAGER` or `TEAM_ROLE_READONLY`. A user may be declared by one resource only (a
     * Team's `members` or one TeamMembers): two are refused before any write.
     */
    members: input(declaredMembers, { equal: coversMembers }),
    /** Whether delete should undo what it added or changed (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** Live roles of the declared members the team has. */
    members: output<Record<string, TeamRole>>(),
    /** The members this resource added (not on the team before it): removed on delete. */
    addedMembers: output<string[]>({ derivedFrom: "members" }),
    /** The roles this resource changed, as they were: put back on delete. */
    originalRoles: output<Record<string, TeamRole>>({ derivedFrom: "members" }),
  },
  // No `managed` (declare.ts): it claims each member exclusively (handlers/team-access.ts), and
  // records per member whether it added it (`addedMembers`) or the role it changed (`originalRoles`).
  id: TEAM_ID,
  service: {
    create:
      "Reads the team's members (one read per team and process, shared by the team's resources) and adds the declared members it lacks " +
      "and sets the roles that differ, in one update; a member found as declared records nothing.",
    update:
      "Adds and re-roles as on create; a member no longer declared is removed if this resource added it, or its role put back if it " +
      "changed it, unless another resource of the stack declares it.",
    delete:
      "Removes the members it added and puts back the roles it changed, except where another resource of the stack now holds the member.",
    read: "Reads the team's members: a declared member removed, or its role changed, elsewhere shows as drift.",
    adoption:
      'Members already on the team as declared are adopted, and left on delete. `TeamMembers.get(name, "<deploymentId>/<teamId>")` reads a team\'s members without managing them.',
  },
});

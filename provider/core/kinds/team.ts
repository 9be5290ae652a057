/** Team, declared once: see declare.ts. */
import { z } from "zod";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, output } from "./declare";
import { memberMap, projectList, sameMembers, sameSet, TEAM_ID, type TeamRole } from "./team-inputs";

export const teamKind = defineKind({
  kind: "Team",
  stability: "beta",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The team's name, unique in the deployment. A change renames the team. */
    name: input(z.string({ error: "must be a string: the team's name" }).trim().min(1, "must not be empty: give the team's name")),
    /**
     * The id of the team to nest this one under (at most 3 levels), e.g. another Team's `teamId`.
     * Changing it replaces the resource: the API cannot move a team.
     */
    parentTeamId: input(id("team").optional(), { replaces: true }),
    /**
     * The team's members, authoritative when given: user id → `TEAM_ROLE_MEMBER`,
     * `TEAM_ROLE_MANAGER` or `TEAM_ROLE_READONLY` (`getUsers` gives the ids). After `up` the team
     * has exactly these members, plus those a TeamMembers of the stack declares; any other is
     * removed. Not managed when left out.
     */
    members: input(memberMap.optional(), { equal: sameMembers }),
    /**
     * The projects the team sees, authoritative when given (project names; the provider maps them
     * to repository ids), beside those a TeamProjects of the stack declares. Not managed when left out.
     */
    projects: input(projectList.optional(), { equal: sameSet }),
    /** Whether delete should remove the team it created, or put back the team it adopted (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The team's id. */
    teamId: output<string>(),
    /** The team's slug, as the service derives it from the name. */
    slug: output<string>(),
    /** Live: the team's members, but those another resource of the stack declares (`otherMembers`). */
    members: output<Record<string, TeamRole>>(),
    /** Live: the team's projects, but those another resource of the stack declares (`otherProjects`). */
    projects: output<string[]>(),
    /** Members of the team that another resource of the stack (a TeamMembers) declares: left to it. */
    otherMembers: output<string[]>({ sharedSet: true }),
    /** Projects of the team that another resource of the stack (a TeamProjects) declares: left to it. */
    otherProjects: output<string[]>({ sharedSet: true }),
    /** True when this resource created the team (delete removes it); false when it adopted one of that name. */
    created: output<boolean>(),
    /** The adopted team's name, put back on delete if a rename changed it; unset when it created the team. */
    originalName: output<string | undefined>({ derivedFrom: "name" }),
    /** The adopted team's members when `members` was first managed, put back on delete; unset when it created the team. */
    originalMembers: output<Record<string, TeamRole> | undefined>({ derivedFrom: "members" }),
    /** The adopted team's projects when `projects` was first managed, put back on delete; unset when it created the team. */
    originalProjects: output<string[] | undefined>({ derivedFrom: "projects" }),
    /** The optional fields this resource manages (those declared): `members`, `projects`. */
    managedFields: output<string[]>(),
  },
  // No `managed` (declare.ts): its claims are one per member and one per project of the team
  // (handlers/team-access.ts), exclusive against a TeamMembers or TeamProjects that declares the
  // same user or project, and what it records is the whole team it adopted.
  id: TEAM_ID,
  service: {
    create:
      "Looks the name up in the deployment's teams (one listing per process, shared by every Team of the deployment). A free name: " +
      "creates the team with its members, projects and parent in one request. A taken one: adopts that team, recording its members " +
      "and projects as originals, and writes the declared ones in one update (requests of at most 500 users or repositories).",
    update:
      "Reads the team's members and repositories and writes the difference in one update: a new name renames the team; members and " +
      "projects not declared (nor declared by another resource of the stack) are removed. A new deployment or parent replaces the team.",
    delete:
      "Deletes the team it created (the service refuses while it has child teams: the stack deletes those first). An adopted team is " +
      "left in place with its name, members and projects put back as they were, except those another resource of the stack now holds.",
    read:
      "Reads the team, its members and its repositories; a member removed or added, a role changed, or a project added or removed " +
      "elsewhere shows as drift, which `up` corrects. A team deleted elsewhere reads as gone.",
    adoption:
      'A team of the declared name is adopted (its members and projects recorded, and put back on destroy, which leaves the team). `Team.get(name, "<deploymentId>/<teamId>")` reads a team without managing it.',
  },
});

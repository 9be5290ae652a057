/** TeamProjects, declared once: see declare.ts. */
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, output } from "./declare";
import { coversProjects, declaredProjects, TEAM_ID } from "./team-inputs";

export const teamProjectsKind = defineKind({
  kind: "TeamProjects",
  stability: "beta",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The team's id (a Team's `teamId`, or a number). Changing it replaces the resource. */
    teamId: input(id("team"), { replaces: true }),
    /**
     * Projects the team sees, beside its others (project names). Several TeamProjects may declare
     * one project of a team; a Team that declares it in its `projects` is refused beside them.
     */
    projects: input(declaredProjects, { equal: coversProjects }),
    /** Whether delete should undo what it added or changed (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The declared projects the team has. */
    projects: output<string[]>(),
    /** The projects this resource added (not on the team before it): removed on delete. */
    addedProjects: output<string[]>({ derivedFrom: "projects" }),
  },
  // No `managed` (declare.ts): its claims are one per project, shared with any other TeamProjects
  // of the team (as a tag among ProjectTags), recording only whether it added the project.
  id: TEAM_ID,
  service: {
    create:
      "Reads the team's repositories (shared as TeamMembers' members) and the deployment's project listing (one per process), and adds " +
      "the declared projects the team lacks in one update; one found already there is recorded as not added.",
    update: "Adds newly declared projects; removes those it added that no resource of the stack declares any more.",
    delete: "Removes the projects it added, except those another resource of the stack still declares; a project found on the team stays.",
    read: "Reads the team's repositories: a declared project removed elsewhere shows as drift.",
    adoption:
      'Projects already on the team are adopted, and left on delete. `TeamProjects.get(name, "<deploymentId>/<teamId>")` reads a team\'s projects without managing them.',
  },
});

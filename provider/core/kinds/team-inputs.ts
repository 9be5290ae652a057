/** What the team kinds (Team, TeamMembers, TeamProjects) declare alike: roles, member maps, project lists and the id. */
import { z } from "zod";
import { TEAM_ROLES, type TeamRole } from "../../client/schemas/teams";
import { isRecord, sameSet } from "../runtime/diff";
import { projectName } from "./inputs";

export { TEAM_ROLES, type TeamRole };

const role = z.enum(TEAM_ROLES, { error: `must be a team role: ${TEAM_ROLES.join(", ")}` });
const userId = z.string().regex(/^\d+$/, 'must be a user id: digits, e.g. "101" (getUsers lists them)');

/** Members: user id → team role. */
export const memberMap = z.record(userId, role, { error: 'must be a map of user ids to team roles, e.g. { "101": "TEAM_ROLE_MANAGER" }' });
/** Members a resource adds: at least one. */
export const declaredMembers = memberMap.refine((m) => Object.keys(m).length > 0, "must name at least one member");

/** Project names, each once. */
export const projectList = z
  .array(projectName, { error: 'must be a list of project names, e.g. ["acme/payments-api"]' })
  .refine((names) => new Set(names).size === names.length, "must name each project once");
/** Projects a resource adds: at least one. */
export const declaredProjects = projectList.refine((names) => names.length > 0, "must name at least one project");

/** Two member maps hold the same users with the same roles. */
export function sameMembers(live: unknown, declared: unknown): boolean {
  if (!isRecord(live) || !isRecord(declared)) return false;
  const keys = Object.keys(declared);
  return Object.keys(live).length === keys.length && keys.every((k) => live[k] === declared[k]);
}

/** The live roles cover the declared ones (a map that names only some of the team's members: TeamMembers). */
export function coversMembers(live: unknown, declared: unknown): boolean {
  return isRecord(live) && isRecord(declared) && Object.entries(declared).every(([k, v]) => live[k] === v);
}

/** The live projects include the declared ones. */
export function coversProjects(live: unknown, declared: unknown): boolean {
  return Array.isArray(live) && Array.isArray(declared) && declared.every((name) => live.includes(name));
}

export { sameSet };

/** `<deploymentId>/<teamId>`: several additive resources on one team share it, as several ProjectTags share a project's. */
export const TEAM_ID = {
  format: "<deploymentId>/<teamId>",
  parse: (id: string) => {
    const [deploymentId, teamId, ...rest] = id.split("/");
    return deploymentId && teamId && /^\d+$/.test(deploymentId) && /^\d+$/.test(teamId) && rest.length === 0
      ? { deploymentId, teamId }
      : undefined;
  },
};

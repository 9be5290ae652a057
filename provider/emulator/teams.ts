/**
 * The Teams API (`TeamsService`, beta in Semgrep's OpenAPI) over the emulator's state, with the
 * validation a careful reading of the OpenAPI implies:
 * - a team's name is required and unique in the deployment (409 `ALREADY_EXISTS` for a taken one);
 * - a user must be a user of the deployment, a repository a project of it (400, naming it);
 * - adding a user, or changing its role, needs the role; `UPDATE` of a user the team lacks is 400;
 * - `UPDATE` is refused for repositories ("UPDATE is not supported"), and an update naming more
 *   than 500 unique users or repositories is refused (400), as the request schema says;
 * - nesting is at most 3 levels: a parent that is already on the third level is refused (400);
 * - a team with child teams cannot be deleted (400 `FAILED_PRECONDITION`): the API has no way to
 *   move a team, so deleting a parent would either delete its children unasked or leave them
 *   pointing at nothing; refusing is the reading that loses nothing, and the caller deletes the
 *   children first (a Pulumi stack does: a child depends on its parent's id);
 * - listings page with an opaque cursor (base64 of the offset), 100 entries by default.
 */
import { z } from "zod";
import {
  createTeamRequest,
  listTeamsRequest,
  MAX_TEAM_UPDATE_ENTRIES,
  TEAM_PAGE_SIZE,
  TEAM_ROLES,
  type TeamRole,
  teamUpdate,
} from "../client/schemas/teams";
import { type ApiRequest, deploymentById, HttpError, parse, type Route } from "./api";
import type { EmulatorState, StoredTeam } from "./model";

const TEAMS = "/api/permissions/v2/deployments/(?<deployment>[^/]+)/teams";
const TEAM = `${TEAMS}/(?<team>[^/]+)`;

export const teamsRoutes: Route[] = [
  { method: "POST", pattern: new RegExp(`^${TEAMS}$`), operation: "teams.create", handle: createTeam, stability: "beta" },
  { method: "POST", pattern: new RegExp(`^${TEAMS}/list$`), operation: "teams.list", handle: listTeams, stability: "beta" },
  { method: "GET", pattern: new RegExp(`^${TEAM}/members$`), operation: "teams.members", handle: listMembers, stability: "beta" },
  { method: "GET", pattern: new RegExp(`^${TEAM}/repos$`), operation: "teams.repositories", handle: listRepos, stability: "beta" },
  {
    method: "GET",
    pattern: new RegExp(`^${TEAM}/teams$`),
    operation: "teams.childTeams",
    handle: listChildTeams,
    stability: "experimental",
  },
  { method: "GET", pattern: new RegExp(`^${TEAM}$`), operation: "teams.get", handle: getTeam, stability: "beta" },
  { method: "PATCH", pattern: new RegExp(`^${TEAM}$`), operation: "teams.update", handle: updateTeam, stability: "beta" },
  { method: "DELETE", pattern: new RegExp(`^${TEAM}$`), operation: "teams.delete", handle: deleteTeam, stability: "beta" },
];

/** The deepest nesting the service supports: an organization-level team is level 1. */
export const MAX_TEAM_LEVELS = 3;

/** A team's slug: its name in lower case, each run of other characters a `-`. */
export const teamSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const teamsOf = (state: EmulatorState, deploymentId: number) => state.teams.filter((t) => t.deploymentId === deploymentId);

export function renderTeam(state: EmulatorState, team: StoredTeam) {
  return {
    id: String(team.id),
    deploymentId: String(team.deploymentId),
    name: team.name,
    slug: team.slug,
    ...(team.parentTeamId !== null ? { parentTeamId: String(team.parentTeamId) } : {}),
    repositoryCount: String(team.repositoryIds.length),
    userCount: String(team.members.length),
    childTeamCount: String(state.teams.filter((t) => t.parentTeamId === team.id).length),
    isProjectDefault: false,
    isUserDefault: false,
    authorizedScopes: ["TEAM_SCOPE_MANAGE"],
  };
}

function teamOf(req: ApiRequest): StoredTeam {
  const deployment = deploymentById(req);
  const raw = req.params.team ?? "";
  const team = /^\d+$/.test(raw) ? teamsOf(req.state, deployment.id).find((t) => t.id === Number(raw)) : undefined;
  if (!team) throw new HttpError(404, `team ${raw} not found in deployment ${deployment.id}`, "NOT_FOUND");
  return team;
}

function checkUser(state: EmulatorState, deploymentId: number, userId: string): void {
  if (!state.users.some((u) => u.deploymentId === deploymentId && u.id === userId))
    throw new HttpError(400, `invalid request: user ${userId} is not a user of deployment ${deploymentId}`, "INVALID_ARGUMENT");
}

function checkRepository(state: EmulatorState, deploymentId: number, repositoryId: string): number {
  const project = state.projects.find((p) => p.deploymentId === deploymentId && p.id === Number(repositoryId));
  if (!project)
    throw new HttpError(
      400,
      `invalid request: repository ${repositoryId} does not exist in deployment ${deploymentId}`,
      "INVALID_ARGUMENT",
    );
  return project.id;
}

function checkNameFree(state: EmulatorState, deploymentId: number, name: string, except?: number): void {
  if (teamsOf(state, deploymentId).some((t) => t.name === name && t.id !== except))
    throw new HttpError(409, `a team named ${JSON.stringify(name)} already exists in deployment ${deploymentId}`, "ALREADY_EXISTS");
}

/** How deep `team` sits: 1 for an organization-level team. */
function levelOf(state: EmulatorState, team: StoredTeam): number {
  let level = 1;
  for (let parent = team.parentTeamId; parent !== null; level++) parent = state.teams.find((t) => t.id === parent)?.parentTeamId ?? null;
  return level;
}

function createTeam(req: ApiRequest) {
  const deployment = deploymentById(req);
  const { team: wanted } = parse(createTeamRequest, req.body ?? {});
  checkNameFree(req.state, deployment.id, wanted.name);
  const users = wanted.users ?? [];
  const seen = new Set<string>();
  for (const user of users) {
    if (seen.has(user.userId)) throw new HttpError(400, `invalid request: user ${user.userId} is named twice`, "INVALID_ARGUMENT");
    seen.add(user.userId);
    checkUser(req.state, deployment.id, user.userId);
  }
  const repositoryIds = [...new Set((wanted.repositoryIds ?? []).map((id) => checkRepository(req.state, deployment.id, id)))];
  let parentTeamId: number | null = null;
  if (wanted.parentTeamId !== undefined) {
    const parent = teamsOf(req.state, deployment.id).find((t) => t.id === Number(wanted.parentTeamId));
    if (!parent) throw new HttpError(400, `invalid request: parent team ${wanted.parentTeamId} does not exist`, "INVALID_ARGUMENT");
    if (levelOf(req.state, parent) >= MAX_TEAM_LEVELS)
      throw new HttpError(
        400,
        `invalid request: teams nest at most ${MAX_TEAM_LEVELS} levels deep, and team ${parent.id} is on level ${MAX_TEAM_LEVELS}`,
        "INVALID_ARGUMENT",
      );
    parentTeamId = parent.id;
  }
  const team: StoredTeam = {
    id: Math.max(200, ...req.state.teams.map((t) => t.id)) + 1,
    deploymentId: deployment.id,
    name: wanted.name,
    slug: teamSlug(wanted.name),
    parentTeamId,
    members: users.map((u) => ({ userId: u.userId, role: u.role })),
    repositoryIds,
  };
  req.state.teams.push(team);
  req.changed();
  return { team: renderTeam(req.state, team) };
}

function getTeam(req: ApiRequest) {
  return { team: renderTeam(req.state, teamOf(req)) };
}

function updateTeam(req: ApiRequest) {
  const team = teamOf(req);
  const body = parse(z.looseObject({ team: teamUpdate }), req.body ?? {});
  const changes = body.team;
  const users = changes.users ?? [];
  const repositories = changes.repositories ?? [];
  if (new Set(users.map((u) => u.userId)).size > MAX_TEAM_UPDATE_ENTRIES)
    throw new HttpError(
      400,
      `invalid request: team.users: at most ${MAX_TEAM_UPDATE_ENTRIES} unique users per request`,
      "INVALID_ARGUMENT",
    );
  if (new Set(repositories.map((r) => r.repositoryId)).size > MAX_TEAM_UPDATE_ENTRIES)
    throw new HttpError(
      400,
      `invalid request: team.repositories: at most ${MAX_TEAM_UPDATE_ENTRIES} unique repositories per request`,
      "INVALID_ARGUMENT",
    );
  // Everything is checked before anything changes: a refused update changes nothing.
  if (changes.name !== undefined) checkNameFree(req.state, team.deploymentId, changes.name, team.id);
  const members = new Map(team.members.map((m) => [m.userId, m.role]));
  for (const user of users) {
    checkUser(req.state, team.deploymentId, user.userId);
    if (user.action === "UPDATE_ACTION_UPDATE" && !members.has(user.userId))
      throw new HttpError(
        400,
        `invalid request: user ${user.userId} is not a member of team ${team.id}: add it instead`,
        "INVALID_ARGUMENT",
      );
    if (user.action === "UPDATE_ACTION_REMOVE") members.delete(user.userId);
    else members.set(user.userId, user.role as TeamRole);
  }
  const repos = new Set(team.repositoryIds);
  for (const repository of repositories) {
    const id = checkRepository(req.state, team.deploymentId, repository.repositoryId);
    if (repository.action === "UPDATE_ACTION_REMOVE") repos.delete(id);
    else repos.add(id);
  }
  if (changes.name !== undefined) {
    team.name = changes.name;
    team.slug = teamSlug(changes.name);
  }
  team.members = [...members].map(([userId, role]) => ({ userId, role }));
  team.repositoryIds = [...repos];
  req.changed();
  return { team: renderTeam(req.state, team) };
}

function deleteTeam(req: ApiRequest) {
  const team = teamOf(req);
  const children = req.state.teams.filter((t) => t.parentTeamId === team.id);
  if (children.length)
    throw new HttpError(
      400,
      `team ${team.id} has ${children.length} child team${children.length > 1 ? "s" : ""} (${children.map((c) => c.id).join(", ")}): delete or re-create them first`,
      "FAILED_PRECONDITION",
    );
  req.state.teams.splice(req.state.teams.indexOf(team), 1);
  req.changed();
  return {};
}

/** A page of `items` from an opaque cursor (base64url of `<what>:<offset>`). */
function page<T>(items: readonly T[], what: string, limit: number | undefined, cursor: string | undefined) {
  let start = 0;
  if (cursor) {
    const match = new RegExp(`^${what}:(\\d+)$`).exec(Buffer.from(cursor, "base64url").toString());
    if (!match) throw new HttpError(400, "invalid request: cursor: not a cursor this listing gave", "INVALID_ARGUMENT");
    start = Number(match[1]);
  }
  const size = limit && limit > 0 ? Math.min(limit, 1000) : TEAM_PAGE_SIZE;
  const next = start + size < items.length ? Buffer.from(`${what}:${start + size}`).toString("base64url") : "";
  return { items: items.slice(start, start + size), cursor: next, limit: String(size) };
}

const pageQuery = z.strictObject({
  limit: z.coerce.number({ error: "must be a number" }).int().min(0).optional(),
  cursor: z.string().optional(),
});

function queryOf(req: ApiRequest) {
  return parse(pageQuery, Object.fromEntries(req.query));
}

function listTeams(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(listTeamsRequest, req.body ?? {});
  const name = body.filter?.name;
  const teams = teamsOf(req.state, deployment.id).filter((t) => name === undefined || t.name === name);
  const { items, cursor } = page(teams, "teams", body.limit === undefined ? undefined : Number(body.limit), body.cursor);
  return { teams: items.map((t) => renderTeam(req.state, t)), cursor };
}

function listMembers(req: ApiRequest) {
  const team = teamOf(req);
  const { limit, cursor } = queryOf(req);
  const result = page(team.members, `members-${team.id}`, limit, cursor);
  return {
    deploymentId: String(team.deploymentId),
    teamId: String(team.id),
    users: result.items.map((m) => ({ userId: m.userId, role: m.role })),
    limit: result.limit,
    cursor: result.cursor,
  };
}

function listRepos(req: ApiRequest) {
  const team = teamOf(req);
  const { limit, cursor } = queryOf(req);
  const result = page(team.repositoryIds, `repos-${team.id}`, limit, cursor);
  return {
    deploymentId: String(team.deploymentId),
    teamId: String(team.id),
    repositoryIds: result.items.map(String),
    limit: result.limit,
    cursor: result.cursor,
  };
}

function listChildTeams(req: ApiRequest) {
  const team = teamOf(req);
  const { limit, cursor } = queryOf(req);
  const children = req.state.teams.filter((t) => t.parentTeamId === team.id).map((t) => String(t.id));
  const result = page(children, `children-${team.id}`, limit, cursor);
  return {
    deploymentId: String(team.deploymentId),
    teamId: String(team.id),
    childTeamIds: result.items,
    limit: result.limit,
    cursor: result.cursor,
  };
}

/** The roles a team member may have, for presets and tests. */
export const ROLES: readonly TeamRole[] = TEAM_ROLES;

/**
 * Teams (`TeamsService`, beta): a deployment's role-based access control teams, under
 * `/api/permissions/v2/deployments/{deploymentId}/teams`. Listings are async iterators that
 * follow the service's opaque cursor; an update naming more than 500 users or repositories (the
 * most one request may name) is sent as several requests of at most 500 each.
 */
import { numericId } from "../schemas/common";
import {
  createTeamRequest,
  listTeamChildTeamsResponse,
  type ListTeamChildTeamsResponse,
  listTeamReposResponse,
  type ListTeamReposResponse,
  listTeamsRequest,
  listTeamsResponse,
  type ListTeamsResponse,
  listTeamUsersResponse,
  type ListTeamUsersResponse,
  MAX_TEAM_UPDATE_ENTRIES,
  type Team,
  type TeamCreate,
  teamEnvelope,
  TEAM_PAGE_SIZE,
  type TeamRepositoryActionInput,
  type TeamUpdate,
  type TeamUser,
  type TeamUserActionInput,
  updateTeamRequest,
} from "../schemas/teams";
import { byCursor, type Paginated } from "../pagination";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";
import { z } from "zod";

const PREFIX = "/api/permissions/v2";

export interface ListTeamsOptions extends RequestOptions {
  /** Only the team of this exact name. */
  name?: string;
  /** Teams per page (default 100). */
  pageSize?: number;
}

export interface TeamPageOptions extends RequestOptions {
  /** Entries per page (default 100). */
  pageSize?: number;
}

export class Teams {
  constructor(private readonly transport: Transport) {}

  /** `POST .../teams`: creates a team (the name must be free in the deployment) with its repositories, users and parent. */
  async create(deploymentId: string | number, team: TeamCreate, options?: RequestOptions): Promise<Team> {
    const operation = "teams.create";
    const path = `${this.#deployment(operation, deploymentId)}/teams`;
    const body = validateRequest(operation, createTeamRequest, { team });
    return (
      await this.transport.request({
        operation,
        method: "POST",
        prefix: PREFIX,
        path,
        body,
        response: teamEnvelope,
        stability: "beta",
        repeatEffect: "the team may have been created already (a repeat is refused: its name is taken)",
        options,
      })
    ).team;
  }

  /** `GET .../teams/{teamId}`: one team (`NotFoundError` when there is none). */
  async get(deploymentId: string | number, teamId: string | number, options?: RequestOptions): Promise<Team> {
    const operation = "teams.get";
    const path = this.#team(operation, deploymentId, teamId);
    return (
      await this.transport.request({
        operation,
        method: "GET",
        prefix: PREFIX,
        path,
        response: teamEnvelope,
        stability: "beta",
        addresses: `team ${teamId}`,
        options,
      })
    ).team;
  }

  /**
   * `PATCH .../teams/{teamId}`: renames the team and adds, updates or removes users and adds or
   * removes repositories. More than 500 unique users or repositories go in several requests of
   * at most 500 each (the name with the first); the answer is the team after the last.
   */
  async update(deploymentId: string | number, teamId: string | number, changes: TeamUpdate, options?: RequestOptions): Promise<Team> {
    const operation = "teams.update";
    const path = this.#team(operation, deploymentId, teamId);
    const batches = splitUpdate(changes);
    let answer: Team | undefined;
    for (const batch of batches) {
      const body = validateRequest(operation, updateTeamRequest, { team: batch });
      answer = (
        await this.transport.request({
          operation,
          method: "PATCH",
          prefix: PREFIX,
          path,
          body,
          response: teamEnvelope,
          stability: "beta",
          addresses: `team ${teamId}`,
          options,
        })
      ).team;
    }
    return answer!;
  }

  /** `DELETE .../teams/{teamId}`. */
  async delete(deploymentId: string | number, teamId: string | number, options?: RequestOptions): Promise<void> {
    const operation = "teams.delete";
    const path = this.#team(operation, deploymentId, teamId);
    await this.transport.request({
      operation,
      method: "DELETE",
      prefix: PREFIX,
      path,
      response: z.unknown(),
      stability: "beta",
      addresses: `team ${teamId}`,
      options,
    });
  }

  /** One page of `POST .../teams/list`. */
  async listPage(deploymentId: string | number, cursor?: string, options: ListTeamsOptions = {}): Promise<ListTeamsResponse> {
    const operation = "teams.list";
    const path = `${this.#deployment(operation, deploymentId)}/teams/list`;
    const { name, pageSize = TEAM_PAGE_SIZE, ...call } = options;
    const body = validateRequest(operation, listTeamsRequest, {
      limit: String(pageSize),
      ...(cursor ? { cursor } : {}),
      ...(name !== undefined ? { filter: { name } } : {}),
    });
    return this.transport.request({
      operation,
      method: "POST",
      prefix: PREFIX,
      path,
      body,
      response: listTeamsResponse,
      stability: "beta",
      options: call,
    });
  }

  /** Every team of the deployment (or the one of `options.name`), page by page as the caller iterates. */
  list(deploymentId: string | number, options: ListTeamsOptions = {}): Paginated<Team, string, ListTeamsResponse> {
    return byCursor((cursor) => this.listPage(deploymentId, cursor, options), "teams");
  }

  /** The team's users with their roles (`GET .../teams/{teamId}/members`), page by page. */
  members(
    deploymentId: string | number,
    teamId: string | number,
    options: TeamPageOptions = {},
  ): Paginated<TeamUser, string, ListTeamUsersResponse> {
    const operation = "teams.members";
    const path = `${this.#team(operation, deploymentId, teamId)}/members`;
    return byCursor((cursor) => this.#page(operation, path, cursor, options, listTeamUsersResponse, `team ${teamId}`, "beta"), "users");
  }

  /** The ids of the team's repositories (a repository id is the project's id; `GET .../teams/{teamId}/repos`), page by page. */
  repositories(
    deploymentId: string | number,
    teamId: string | number,
    options: TeamPageOptions = {},
  ): Paginated<string, string, ListTeamReposResponse> {
    const operation = "teams.repositories";
    const path = `${this.#team(operation, deploymentId, teamId)}/repos`;
    return byCursor(
      (cursor) => this.#page(operation, path, cursor, options, listTeamReposResponse, `team ${teamId}`, "beta"),
      "repositoryIds",
    );
  }

  /** The ids of the team's child teams (`GET .../teams/{teamId}/teams`, experimental), page by page. */
  childTeams(
    deploymentId: string | number,
    teamId: string | number,
    options: TeamPageOptions = {},
  ): Paginated<string, string, ListTeamChildTeamsResponse> {
    const operation = "teams.childTeams";
    const path = `${this.#team(operation, deploymentId, teamId)}/teams`;
    return byCursor(
      (cursor) => this.#page(operation, path, cursor, options, listTeamChildTeamsResponse, `team ${teamId}`, "experimental"),
      "childTeamIds",
    );
  }

  #page<S extends z.ZodType>(
    operation: string,
    path: string,
    cursor: string | undefined,
    options: TeamPageOptions,
    response: S,
    addresses: string,
    stability: "beta" | "experimental",
  ): Promise<z.output<S>> {
    const { pageSize = TEAM_PAGE_SIZE, ...call } = options;
    return this.transport.request({
      operation,
      method: "GET",
      prefix: PREFIX,
      path,
      query: { limit: pageSize, cursor },
      response,
      stability,
      addresses,
      options: call,
    });
  }

  #deployment(operation: string, deploymentId: string | number): string {
    return `/deployments/${segment(validateRequest(operation, numericId, deploymentId))}`;
  }

  #team(operation: string, deploymentId: string | number, teamId: string | number): string {
    return `${this.#deployment(operation, deploymentId)}/teams/${segment(validateRequest(operation, numericId, teamId))}`;
  }
}

/**
 * An update as requests of at most {@link MAX_TEAM_UPDATE_ENTRIES} unique users and as many
 * unique repositories each, in order (the name goes with the first); one request when it fits.
 */
export function splitUpdate(changes: TeamUpdate): TeamUpdate[] {
  const users = chunks(changes.users ?? [], (u: TeamUserActionInput) => String(u.userId));
  const repositories = chunks(changes.repositories ?? [], (r: TeamRepositoryActionInput) => String(r.repositoryId));
  const count = Math.max(1, users.length, repositories.length);
  return Array.from({ length: count }, (_, i) => ({
    ...(i === 0 && changes.name !== undefined ? { name: changes.name } : {}),
    ...(users[i] ? { users: users[i] } : {}),
    ...(repositories[i] ? { repositories: repositories[i] } : {}),
  }));
}

/** Entries in groups of at most {@link MAX_TEAM_UPDATE_ENTRIES} unique keys, in order. */
function chunks<T>(entries: readonly T[], key: (entry: T) => string): T[][] {
  const groups: T[][] = [];
  let keys = new Set<string>();
  for (const entry of entries) {
    const k = key(entry);
    if (!keys.has(k) && keys.size === MAX_TEAM_UPDATE_ENTRIES) {
      groups.push([]);
      keys = new Set();
    }
    if (!groups.length) groups.push([]);
    groups.at(-1)!.push(entry);
    keys.add(k);
  }
  return groups;
}

/**
 * Data sources on a deployment's teams (Teams API, beta): the teams, and one team with its
 * members and projects, for programs that reference a team they do not manage.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ExperimentalEndpointError, type SemgrepClient, type TeamEntry, type TeamRole } from "../client";
import { id } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";

/** One team as the team data sources give it. */
export interface TeamInfo {
  /** The team's id (what TeamMembers and TeamProjects take as `teamId`). */
  teamId: string;
  /** The team's name. */
  name: string;
  /** The team's slug. */
  slug: string;
  /** The parent team's id; unset for an organization-level team. */
  parentTeamId?: string;
  /** How many users are members of the team itself. */
  userCount: number;
  /** How many repositories (projects) are assigned to the team itself. */
  repositoryCount: number;
  /** How many teams are nested directly under it. */
  childTeamCount: number;
}

/** A member of a team, with the user's name where the deployment's user listing gives it. */
export interface TeamMemberInfo {
  /** The user's id. */
  userId: string;
  /** `TEAM_ROLE_MEMBER`, `TEAM_ROLE_MANAGER` or `TEAM_ROLE_READONLY`. */
  role: TeamRole;
  /** The user's name; unset where the service does not serve the (experimental) user listing. */
  name?: string;
  /** The user's login; unset as `name`. */
  login?: string;
}

const teamInfo = (team: TeamEntry): TeamInfo => ({
  teamId: team.id,
  name: team.name,
  slug: team.slug,
  ...(team.parentTeamId ? { parentTeamId: team.parentTeamId } : {}),
  userCount: team.userCount,
  repositoryCount: team.repositoryCount,
  childTeamCount: team.childTeamCount,
});

// ---------------------------------------------------------------------------------------------
// getTeams

export interface GetTeamsArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** Only the team of this exact name. */
  name?: string;
}

/** {@link GetTeamsArgs} as `getTeamsOutput` takes them: every field may be a `pulumi.Input`. */
export type GetTeamsOutputArgs = OutputArgs<GetTeamsArgs>;

export interface GetTeamsResult {
  /** The deployment's teams (or the one of `name`), in the service's order. */
  teams: TeamInfo[];
}

const teamsArgs = z.strictObject({
  deploymentId: id("deployment"),
  name: z.string({ error: "must be a string: a team's exact name" }).min(1, "must not be empty").optional(),
});

/**
 * The deployment's teams (Teams API, beta), or the one of an exact `name`: a page of 100 per
 * request.
 *
 * @beta
 * @example
 * ```ts
 * import { getTeams } from "pulumi-semgrep";
 * const { teams } = await getTeams({ deploymentId: "1" });
 * console.log(teams.map((t) => `${t.name}: ${t.userCount} members`));
 * ```
 */
export async function getTeams(args: GetTeamsArgs, opts?: SemgrepInvokeOptions): Promise<GetTeamsResult> {
  const { deploymentId, name } = parseArgs("getTeams", teamsArgs, args);
  const client = await clientFor(opts);
  return { teams: (await client.teams.list(deploymentId, name === undefined ? {} : { name }).toArray()).map(teamInfo) };
}

/**
 * {@link getTeams} with `pulumi.Input` arguments, as an Output.
 *
 * @beta
 * @example
 * ```ts
 * import { getTeamsOutput } from "pulumi-semgrep";
 * export const teamNames = getTeamsOutput({ deploymentId: "1" }).teams.apply((teams) => teams.map((t) => t.name));
 * ```
 */
export const getTeamsOutput: (args: GetTeamsOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetTeamsResult> =
  outputForm(getTeams);

// ---------------------------------------------------------------------------------------------
// getTeam

export interface GetTeamArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** The team's id; give this or `name`. */
  teamId?: string | number;
  /** The team's exact name; give this or `teamId`. */
  name?: string;
}

/** {@link GetTeamArgs} as `getTeamOutput` takes them: every field may be a `pulumi.Input`. */
export type GetTeamOutputArgs = OutputArgs<GetTeamArgs>;

export interface GetTeamResult extends TeamInfo {
  /** The team's members with their roles (and names). */
  members: TeamMemberInfo[];
  /** The names of the team's projects; a repository the project listing lacks (archived) as `#<id>`. */
  projects: string[];
}

const teamArgs = z
  .strictObject({
    deploymentId: id("deployment"),
    teamId: id("team").optional(),
    name: z.string({ error: "must be a string: the team's exact name" }).min(1, "must not be empty").optional(),
  })
  .refine((a) => (a.teamId === undefined) !== (a.name === undefined), { message: "give exactly one of teamId and name", path: ["teamId"] });

/** The deployment's users by id; empty where the service does not serve the (experimental) listing. */
async function userNames(client: SemgrepClient, deploymentId: string) {
  try {
    return new Map((await client.users.list(deploymentId).toArray()).map((u) => [u.id, u]));
  } catch (error) {
    if (error instanceof ExperimentalEndpointError) return new Map();
    throw error;
  }
}

/**
 * One team (Teams API, beta), by `teamId` or by exact `name`, with its members (their roles, and
 * their names from the deployment's user listing) and its projects by name. A name no team has
 * fails, naming it.
 *
 * @beta
 * @example
 * ```ts
 * import { getTeam } from "pulumi-semgrep";
 * const payments = await getTeam({ deploymentId: "1", name: "payments" });
 * console.log(payments.teamId, payments.projects, payments.members.map((m) => `${m.login}: ${m.role}`));
 * ```
 */
export async function getTeam(args: GetTeamArgs, opts?: SemgrepInvokeOptions): Promise<GetTeamResult> {
  const { deploymentId, teamId, name } = parseArgs("getTeam", teamArgs, args);
  const client = await clientFor(opts);
  let team: TeamEntry | undefined;
  if (teamId !== undefined) team = await client.teams.get(deploymentId, teamId);
  else {
    [team] = await client.teams.list(deploymentId, { name }).toArray();
    if (!team) throw new Error(`getTeam: deployment ${deploymentId} has no team named ${JSON.stringify(name)} (getTeams lists its teams)`);
  }
  const [members, repositoryIds, users, deployments] = await Promise.all([
    client.teams.members(deploymentId, team.id).toArray(),
    client.teams.repositories(deploymentId, team.id).toArray(),
    userNames(client, deploymentId),
    client.deployments.list(),
  ]);
  const slug = deployments.find((d) => String(d.id) === deploymentId)?.slug;
  const byId = new Map<string, string>();
  if (slug && repositoryIds.length) for await (const project of client.projects.list(slug)) byId.set(String(project.id), project.name);
  return {
    ...teamInfo(team),
    members: members.map((m) => {
      const user = users.get(m.userId);
      return { userId: m.userId, role: m.role as TeamRole, ...(user ? { name: user.name, login: user.login } : {}) };
    }),
    projects: repositoryIds.map((rid) => byId.get(rid) ?? `#${rid}`),
  };
}

/**
 * {@link getTeam} with `pulumi.Input` arguments, as an Output.
 *
 * @beta
 * @example
 * ```ts
 * import { getTeamOutput } from "pulumi-semgrep";
 * export const appsecProjects = getTeamOutput({ deploymentId: "1", name: "appsec" }).projects;
 * ```
 */
export const getTeamOutput: (args: GetTeamOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetTeamResult> =
  outputForm(getTeam);

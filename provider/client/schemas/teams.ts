/**
 * The Teams API (`TeamsService`, beta): a deployment's role-based access control teams, their
 * members (users with a team role) and their repositories (a repository id is the project's id),
 * under `/api/permissions/v2/deployments/{deploymentId}/teams`. Ids are int64s, which protobuf's
 * JSON mapping writes as strings: read as either, kept as strings.
 */
import { z } from "zod";
import { count, flag, list, looseId, text } from "./common";

/** A user's role in a team. */
export const TEAM_ROLES = ["TEAM_ROLE_MEMBER", "TEAM_ROLE_MANAGER", "TEAM_ROLE_READONLY"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** What an update does to one user or repository of a team (`UPDATE` only for users: it changes a role). */
export const TEAM_UPDATE_ACTIONS = ["UPDATE_ACTION_ADD", "UPDATE_ACTION_UPDATE", "UPDATE_ACTION_REMOVE"] as const;
export type TeamUpdateAction = (typeof TEAM_UPDATE_ACTIONS)[number];

/** The most unique users, and the most unique repositories, one update may name (the OpenAPI's `TeamUpdate`). */
export const MAX_TEAM_UPDATE_ENTRIES = 500;
/** The page size the client asks for (the OpenAPI's default; it names no maximum). */
export const TEAM_PAGE_SIZE = 100;

/** An int64 id the service may send as a string or a number, or leave out ("0" and "" are "unset"). */
const optionalId = looseId.nullish().transform((v) => (v === undefined || v === null || v === "" || v === "0" ? undefined : v));

const digits = z.string().regex(/^\d+$/, "must be a numeric id (digits only)").max(20, "must be at most 20 digits");
/** An int64 id in a request: digits, sent as a string (protobuf's JSON form of an int64). */
const requestId = z.union([digits, z.number().int().nonnegative().transform(String)]).pipe(digits);

const role = z.enum(TEAM_ROLES, { error: `must be one of ${TEAM_ROLES.join(", ")}` });
const action = z.enum(TEAM_UPDATE_ACTIONS, { error: `must be one of ${TEAM_UPDATE_ACTIONS.join(", ")}` });

/** One team as the service answers it. */
export const team = z.looseObject({
  id: looseId,
  deploymentId: optionalId,
  name: text,
  slug: text,
  /** Unset for an organization-level team. */
  parentTeamId: optionalId,
  repositoryCount: count,
  userCount: count,
  childTeamCount: count,
  isProjectDefault: flag,
  isUserDefault: flag,
  authorizedScopes: list(z.string()),
});
export type Team = z.output<typeof team>;

/** A user of a team, with the role. */
export const teamUser = z.looseObject({ userId: looseId, role: z.union([role, z.string()]) });
export type TeamUser = z.output<typeof teamUser>;

/** `TeamCreate`: the name (required), and optionally the repositories, the users with their roles and the parent team. */
export const teamCreate = z.strictObject({
  name: z.string({ error: "must be a string: the team's name" }).trim().min(1, "must not be empty: give the team's name"),
  repositoryIds: z.array(requestId).optional(),
  users: z.array(z.strictObject({ userId: requestId, role })).optional(),
  parentTeamId: requestId.optional(),
});
export type TeamCreate = z.input<typeof teamCreate>;
export const createTeamRequest = z.strictObject({ team: teamCreate });

/** One change to a team's users: `ADD` and `UPDATE` need the role; `REMOVE` takes none. */
export const teamUserAction = z
  .strictObject({ userId: requestId, action, role: role.optional() })
  .refine((u) => u.action === "UPDATE_ACTION_REMOVE" || u.role !== undefined, {
    message: "role: required to add a user or change its role",
    path: ["role"],
  });
export type TeamUserActionInput = z.input<typeof teamUserAction>;

/** One change to a team's repositories: `ADD` or `REMOVE` (the service does not support `UPDATE` for repositories). */
export const teamRepositoryAction = z.strictObject({
  repositoryId: requestId,
  action: action.refine(
    (a) => a !== "UPDATE_ACTION_UPDATE",
    "must be UPDATE_ACTION_ADD or UPDATE_ACTION_REMOVE: a repository has nothing to update",
  ),
});
export type TeamRepositoryActionInput = z.input<typeof teamRepositoryAction>;

/** `TeamUpdate`: a new name, and changes to the users and repositories. */
export const teamUpdate = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").optional(),
  repositories: z.array(teamRepositoryAction).optional(),
  users: z.array(teamUserAction).optional(),
});
export type TeamUpdate = z.input<typeof teamUpdate>;

/** The body of one update request: at most {@link MAX_TEAM_UPDATE_ENTRIES} unique users and repositories. */
export const updateTeamRequest = z.strictObject({
  team: teamUpdate
    .refine((t) => new Set((t.users ?? []).map((u) => u.userId)).size <= MAX_TEAM_UPDATE_ENTRIES, {
      message: `must name at most ${MAX_TEAM_UPDATE_ENTRIES} unique users per request`,
      path: ["users"],
    })
    .refine((t) => new Set((t.repositories ?? []).map((r) => r.repositoryId)).size <= MAX_TEAM_UPDATE_ENTRIES, {
      message: `must name at most ${MAX_TEAM_UPDATE_ENTRIES} unique repositories per request`,
      path: ["repositories"],
    }),
});

export const teamEnvelope = z.looseObject({ team });

/** `ListDeploymentTeamsRequest`: `limit` is an int64 (a string on the wire). */
export const listTeamsRequest = z.strictObject({
  limit: z.string().regex(/^\d+$/).optional(),
  cursor: z.string().optional(),
  filter: z.strictObject({ name: z.string().optional() }).optional(),
});
export const listTeamsResponse = z.looseObject({ teams: list(team), cursor: text });
export type ListTeamsResponse = z.output<typeof listTeamsResponse>;

export const listTeamUsersResponse = z.looseObject({ users: list(teamUser), cursor: text });
export type ListTeamUsersResponse = z.output<typeof listTeamUsersResponse>;
export const listTeamReposResponse = z.looseObject({ repositoryIds: list(looseId), cursor: text });
export type ListTeamReposResponse = z.output<typeof listTeamReposResponse>;
export const listTeamChildTeamsResponse = z.looseObject({ childTeamIds: list(looseId), cursor: text });
export type ListTeamChildTeamsResponse = z.output<typeof listTeamChildTeamsResponse>;

/** A page query of the team listings read with GET (members, repositories, child teams). */
export const teamPageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1, "must be at least 1").optional(),
  cursor: z.string().optional(),
});

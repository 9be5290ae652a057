/**
 * The deployment's users and their org roles (experimental in Semgrep's OpenAPI): the way to find
 * a user's id, which UserRole (and a Team's `members`) take.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ORG_ROLES, type OrgRole } from "../client";
import { id } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";

export interface GetUsersArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** Only the users whose name, login or email contains this text (case-insensitive), e.g. `"alice@acme.example"`. */
  query?: string;
  /** Only the users with this org role, e.g. `ORG_ROLE_ADMIN`. */
  orgRole?: OrgRole;
}

/** {@link GetUsersArgs} as `getUsersOutput` takes them: every field may be a `pulumi.Input`. */
export type GetUsersOutputArgs = OutputArgs<GetUsersArgs>;

/** One user of the deployment. */
export interface UserInfo {
  /** The user's id in the deployment: what UserRole's `userId` and a Team's `members` take. */
  id: string;
  /** The display name. */
  name: string;
  /** The login. */
  login: string;
  /** The email address. */
  email: string;
  /** The org role: `ORG_ROLE_ADMIN`, `ORG_ROLE_MEMBER`, `ORG_ROLE_READONLY` (or Semgrep's own `ORG_ROLE_IMPERSONATOR`). */
  orgRole: string;
  /** Whether the user is active. */
  active: boolean;
}

export interface GetUsersResult {
  /** The matching users, in the service's order. */
  users: UserInfo[];
}

const usersArgs = z.strictObject({
  deploymentId: id("deployment"),
  query: z.string({ error: "must be a string" }).min(1, "must not be empty: leave it out to list every user").optional(),
  orgRole: z.enum(ORG_ROLES, { error: `must be one of ${ORG_ROLES.join(", ")}` }).optional(),
});

/**
 * The users of a deployment with their org roles: the way to find a user's id, by email, login or
 * name. Read page by page (100 a page); `query` is matched by the service, `orgRole` filters what
 * it answers. The endpoint is experimental in Semgrep's OpenAPI.
 *
 * @experimental
 * @example
 * ```ts
 * import { getUsers, UserRole } from "pulumi-semgrep";
 *
 * // Find a user by email, then make them read-only (or name the id in a Team's `members`).
 * const [erin] = (await getUsers({ deploymentId: "1", query: "erin@acme.example" })).users;
 * new UserRole("erin-read-only", { deploymentId: "1", userId: erin!.id, role: "ORG_ROLE_READONLY" });
 * const admins = await getUsers({ deploymentId: "1", orgRole: "ORG_ROLE_ADMIN" });
 * console.log(admins.users.map((u) => `${u.login} <${u.email}>`));
 * ```
 */
export async function getUsers(args: GetUsersArgs, opts?: SemgrepInvokeOptions): Promise<GetUsersResult> {
  const { deploymentId, query, orgRole } = parseArgs("getUsers", usersArgs, args);
  const client = await clientFor(opts);
  const users: UserInfo[] = [];
  for await (const user of client.users.list(deploymentId, query === undefined ? undefined : { query })) {
    if (orgRole !== undefined && user.orgRole !== orgRole) continue;
    users.push({ id: String(user.id), name: user.name, login: user.login, email: user.email, orgRole: user.orgRole, active: user.active });
  }
  return { users };
}

/**
 * {@link getUsers} with `pulumi.Input` arguments, as an Output.
 *
 * @experimental
 * @example
 * ```ts
 * import { getUsersOutput } from "pulumi-semgrep";
 * export const adminLogins = getUsersOutput({ deploymentId: "1", orgRole: "ORG_ROLE_ADMIN" }).users.apply((us) => us.map((u) => u.login));
 * ```
 */
export const getUsersOutput: (args: GetUsersOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetUsersResult> =
  outputForm(getUsers);

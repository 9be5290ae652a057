import type { ArgsOf } from "../../core/kinds/declare";
import { userRoleKind } from "../../core/kinds";
import provider from "../shims/UserRole";
import { type ResourceClass, resourceClass } from "./resource-class";

/** Arguments of a {@link UserRole}. */
export type UserRoleArgs = ArgsOf<typeof userRoleKind>;

/**
 * One user's org role in a deployment: `ORG_ROLE_ADMIN`, `ORG_ROLE_MEMBER` or `ORG_ROLE_READONLY`.
 * Takes the user over, recording the role it replaces, and puts that role back on delete (the
 * deployment-user endpoints are experimental in Semgrep's OpenAPI). Refused at preview, before
 * any write: an unknown user id, two UserRoles of one user, a change that would leave the
 * deployment without an org admin (counting every UserRole of the stack), and removing the admin
 * role of the user the provider's token belongs to. Find a user's id with `getUsers`.
 *
 * @example
 * ```ts
 * import { getUsersOutput, UserRole } from "pulumi-semgrep";
 *
 * // The auditor's id, found by email: user ids are the deployment's own.
 * const erin = getUsersOutput({ deploymentId: "1", query: "erin@acme.example" }).apply((r) => r.users[0]!.id);
 *
 * new UserRole("auditor-read-only", { deploymentId: "1", userId: erin, role: "ORG_ROLE_READONLY" });
 * new UserRole("security-lead-admin", { deploymentId: "1", userId: "102", role: "ORG_ROLE_ADMIN" });
 * ```
 */
export const UserRole: ResourceClass<typeof userRoleKind> = resourceClass(userRoleKind, provider);
export type UserRole = InstanceType<typeof UserRole>;

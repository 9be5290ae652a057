/**
 * A deployment's users and their org roles (`DeploymentService`, experimental in Semgrep's
 * OpenAPI): `POST /api/agent/deployments/{id}/users/list` and
 * `PATCH /api/agent/deployments/{id}/users/{userId}/roles`.
 */
import { z } from "zod";
import { flag, list, looseId, numericId, openEnum, text } from "./common";

/** The org roles the API names. `ORG_ROLE_IMPERSONATOR` is Semgrep's own support role. */
export const ORG_ROLES = ["ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY", "ORG_ROLE_IMPERSONATOR"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** The largest page the client asks for. */
export const MAX_USER_PAGE_SIZE = 100;

/** One user of a deployment, as the listing answers it. */
export const deploymentUser = z.looseObject({
  id: looseId,
  orgRole: openEnum(ORG_ROLES)
    .nullish()
    .transform((v) => v ?? "ORG_ROLE_MEMBER"),
  name: text,
  login: text,
  email: text,
  active: flag,
  scimManaged: flag,
});
export type DeploymentUser = z.output<typeof deploymentUser>;

export const listDeploymentUsersRequest = z.strictObject({
  deploymentId: numericId.optional(),
  options: z
    .strictObject({
      pageToken: z.string().optional(),
      pageSize: z.number().int().min(1).max(1000).optional(),
      sortBy: z.string().optional(),
    })
    .optional(),
  filters: z
    .strictObject({
      query: z.string().optional(),
      pruneGithub: z.boolean().optional(),
      showActive: z.boolean().optional(),
      filterMembers: z.enum(["MEMBER_FILTER_TYPE_ADMIN_ONLY", "MEMBER_FILTER_TYPE_NON_ADMIN_ONLY"]).optional(),
      memberIds: z.array(z.string()).optional(),
    })
    .optional(),
});
export type ListDeploymentUsersRequest = z.input<typeof listDeploymentUsersRequest>;

export const listDeploymentUsersResponse = z.looseObject({
  users: list(deploymentUser),
  pageToken: z.string().nullish(),
});
export type ListDeploymentUsersResponse = z.output<typeof listDeploymentUsersResponse>;

export const patchDeploymentUserRequest = z.strictObject({
  deploymentId: numericId.optional(),
  userId: numericId.optional(),
  newRole: z.enum(ORG_ROLES, { error: `must be one of ${ORG_ROLES.join(", ")}` }),
});
export type PatchDeploymentUserRequest = z.input<typeof patchDeploymentUserRequest>;

export const patchDeploymentUserResponse = z.looseObject({});

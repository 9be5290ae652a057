/** A deployment's users and their org roles (experimental in Semgrep's OpenAPI). */
import { numericId } from "../schemas/common";
import {
  type DeploymentUser,
  listDeploymentUsersRequest,
  type ListDeploymentUsersRequest,
  listDeploymentUsersResponse,
  type ListDeploymentUsersResponse,
  MAX_USER_PAGE_SIZE,
  type OrgRole,
  patchDeploymentUserRequest,
  patchDeploymentUserResponse,
} from "../schemas/users";
import { Paginated } from "../pagination";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

const PREFIX = "/api/agent";

export class Users {
  constructor(private readonly transport: Transport) {}

  /** One page of `POST /api/agent/deployments/{deploymentId}/users/list`. */
  async listPage(
    deploymentId: string | number,
    params: Omit<ListDeploymentUsersRequest, "deploymentId"> = {},
    options?: RequestOptions,
  ): Promise<ListDeploymentUsersResponse> {
    const operation = "users.list";
    const id = validateRequest(operation, numericId, deploymentId);
    const body = validateRequest(operation, listDeploymentUsersRequest, {
      ...params,
      deploymentId: id,
      options: { pageSize: MAX_USER_PAGE_SIZE, ...params.options },
    });
    return this.transport.request({
      operation,
      method: "POST",
      prefix: PREFIX,
      path: `/deployments/${segment(id)}/users/list`,
      body,
      response: listDeploymentUsersResponse,
      stability: "experimental",
      options,
    });
  }

  /** Every user of the deployment (matching `filters`), read page by page. */
  list(
    deploymentId: string | number,
    filters?: ListDeploymentUsersRequest["filters"],
    options?: RequestOptions,
  ): Paginated<DeploymentUser, string, ListDeploymentUsersResponse> {
    return new Paginated(async (pageToken) => {
      const answer = await this.listPage(deploymentId, { filters, options: pageToken ? { pageToken } : {} }, options);
      return { items: answer.users, next: answer.pageToken ?? undefined, answer };
    });
  }

  /** `PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`: sets the user's org role. */
  async setRole(deploymentId: string | number, userId: string | number, role: OrgRole, options?: RequestOptions): Promise<void> {
    const operation = "users.setRole";
    const id = validateRequest(operation, numericId, deploymentId);
    const user = validateRequest(operation, numericId, userId);
    const body = validateRequest(operation, patchDeploymentUserRequest, { deploymentId: id, userId: user, newRole: role });
    await this.transport.request({
      operation,
      method: "PATCH",
      prefix: PREFIX,
      path: `/deployments/${segment(id)}/users/${segment(user)}/roles`,
      body,
      response: patchDeploymentUserResponse,
      stability: "experimental",
      addresses: `user ${user}`,
      options,
    });
  }
}

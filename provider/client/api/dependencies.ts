/** Dependency inventory: repositories with dependencies and their lockfiles. */
import { numericId } from "../schemas/common";
import {
  listLockfilesRequest,
  type ListLockfilesRequest,
  listLockfilesResponse,
  type ListLockfilesResponse,
  listRepositoriesRequest,
  type ListRepositoriesRequest,
  listRepositoriesResponse,
  type ListRepositoriesResponse,
  type LockfileSummary,
  MAX_DEPENDENCY_PAGE_SIZE,
  type RepositorySummary,
} from "../schemas/dependencies";
import { byCursor, type Paginated } from "../pagination";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

export class Dependencies {
  constructor(private readonly transport: Transport) {}

  /** One page of `POST /deployments/{deploymentId}/dependencies/repositories`. */
  async listRepositoriesPage(
    deploymentId: string | number,
    params: ListRepositoriesRequest = {},
    options?: RequestOptions,
  ): Promise<ListRepositoriesResponse> {
    const operation = "dependencies.listRepositories";
    const id = validateRequest(operation, numericId, deploymentId);
    const body = validateRequest(operation, listRepositoriesRequest, { pageSize: MAX_DEPENDENCY_PAGE_SIZE, ...params, deploymentId: id });
    return this.transport.request({
      operation,
      method: "POST",
      path: `/deployments/${segment(id)}/dependencies/repositories`,
      body,
      response: listRepositoriesResponse,
      options,
    });
  }

  /** Every repository with dependencies matching the filter, page by page (100 a page by default). */
  listRepositories(
    deploymentId: string | number,
    params: Omit<ListRepositoriesRequest, "cursor"> = {},
    options?: RequestOptions,
  ): Paginated<RepositorySummary, number, ListRepositoriesResponse> {
    const fetch = (cursor?: number) => this.listRepositoriesPage(deploymentId, { ...params, cursor }, options);
    return byCursor(fetch, "repositorySummaries", (page) => !page.hasMore);
  }

  /** One page of `POST /deployments/{deploymentId}/dependencies/repositories/{repositoryId}/lockfiles`. */
  async listLockfilesPage(
    deploymentId: string | number,
    repositoryId: string | number,
    params: Omit<ListLockfilesRequest, "repositoryId"> = {},
    options?: RequestOptions,
  ): Promise<ListLockfilesResponse> {
    const operation = "dependencies.listLockfiles";
    const id = validateRequest(operation, numericId, deploymentId);
    const repo = validateRequest(operation, numericId, repositoryId);
    const body = validateRequest(operation, listLockfilesRequest, {
      pageSize: MAX_DEPENDENCY_PAGE_SIZE,
      ...params,
      deploymentId: id,
      repositoryId: repo,
    });
    const path = `/deployments/${segment(id)}/dependencies/repositories/${segment(repo)}/lockfiles`;
    return this.transport.request({ operation, method: "POST", path, body, response: listLockfilesResponse, options });
  }

  /** Every lockfile of one repository matching the filter, page by page. */
  listLockfiles(
    deploymentId: string | number,
    repositoryId: string | number,
    params: Omit<ListLockfilesRequest, "cursor" | "repositoryId"> = {},
    options?: RequestOptions,
  ): Paginated<LockfileSummary, string, ListLockfilesResponse> {
    const fetch = (cursor?: string) => this.listLockfilesPage(deploymentId, repositoryId, { ...params, cursor }, options);
    return byCursor(fetch, "lockfileSummaries", (page) => !page.hasMore);
  }
}

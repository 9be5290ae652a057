/** Projects: details, settings, managed scans and tags. */
import { z } from "zod";
import { nonEmpty } from "../schemas/common";
import {
  addTagsRequest,
  managedScanRequest,
  type ManagedScanRequest,
  MAX_PROJECT_PAGE_SIZE,
  type Project,
  projectEnvelope,
  projectListResponse,
  type ProjectListResponse,
  tagList,
  updateProjectRequest,
  type UpdateProjectRequest,
} from "../schemas/projects";
import { Paginated } from "../pagination";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

const projectAddress = z.object({ deploymentSlug: nonEmpty, projectName: nonEmpty });

/**
 * The longest URL the client sends. Proxies refuse longer request lines (414 or 431; 8 KiB is
 * common), so removing many tags at once is split into several requests below this length.
 */
export const MAX_URL_LENGTH = 2_000;

export class Projects {
  constructor(private readonly transport: Transport) {}

  /** `GET /deployments/{deploymentSlug}/projects/{projectName}`. */
  async get(deploymentSlug: string, projectName: string, options?: RequestOptions): Promise<Project> {
    const operation = "projects.get";
    return (
      await this.transport.request({
        operation,
        method: "GET",
        path: this.#path(operation, deploymentSlug, projectName),
        response: projectEnvelope,
        options,
      })
    ).project;
  }

  /** `PATCH /deployments/{deploymentSlug}/projects/{projectName}`: primary branch, tags (the whole set), managed-scan config. */
  async update(deploymentSlug: string, projectName: string, changes: UpdateProjectRequest, options?: RequestOptions): Promise<Project> {
    const operation = "projects.update";
    const path = this.#path(operation, deploymentSlug, projectName);
    const body = validateRequest(operation, updateProjectRequest, { ...changes, deploymentSlug, projectName });
    return (await this.transport.request({ operation, method: "PATCH", path, body, response: projectEnvelope, options })).project;
  }

  /** `PATCH .../managed-scan`: turn diff and/or full managed scans on or off. */
  async updateManagedScans(
    deploymentSlug: string,
    projectName: string,
    toggles: ManagedScanRequest,
    options?: RequestOptions,
  ): Promise<Project> {
    const operation = "projects.updateManagedScans";
    const path = `${this.#path(operation, deploymentSlug, projectName)}/managed-scan`;
    const body = validateRequest(operation, managedScanRequest, { ...toggles, deploymentSlug, projectName });
    return (await this.transport.request({ operation, method: "PATCH", path, body, response: projectEnvelope, options })).project;
  }

  /** `PUT .../tags`: adds tags (tags the project has already stay as they are). */
  async addTags(deploymentSlug: string, projectName: string, tags: readonly string[], options?: RequestOptions): Promise<Project> {
    const operation = "projects.addTags";
    const path = `${this.#path(operation, deploymentSlug, projectName)}/tags`;
    // The OpenAPI's body is the object `AddProjectTagsRequest`; only its example is a bare array.
    const body = validateRequest(operation, addTagsRequest, { tags: [...tags] });
    return (await this.transport.request({ operation, method: "PUT", path, body, response: projectEnvelope, options })).project;
  }

  /**
   * `DELETE .../tags?tags=a&tags=b`: removes tags; removing a tag the project lacks is not an
   * error. Many tags go in several requests, each URL within {@link MAX_URL_LENGTH}; the answer
   * is the project after the last one.
   */
  async removeTags(deploymentSlug: string, projectName: string, tags: readonly string[], options?: RequestOptions): Promise<Project> {
    const operation = "projects.removeTags";
    const path = `${this.#path(operation, deploymentSlug, projectName)}/tags`;
    const all = validateRequest(operation, tagList, [...tags]);
    let project: Project | undefined;
    for (const batch of this.transport.splitRepeatedQuery(path, "tags", all, MAX_URL_LENGTH)) {
      project = (
        await this.transport.request({ operation, method: "DELETE", path, query: { tags: batch }, response: projectEnvelope, options })
      ).project;
    }
    return project!;
  }

  /** One page (numbered from 0) of `GET /deployments/{deploymentSlug}/projects` (a helper of the live service). */
  async listPage(
    deploymentSlug: string,
    page = 0,
    pageSize = MAX_PROJECT_PAGE_SIZE,
    options?: RequestOptions,
  ): Promise<ProjectListResponse> {
    const operation = "projects.list";
    const slug = validateRequest(operation, nonEmpty, deploymentSlug);
    const path = `/deployments/${segment(slug)}/projects`;
    return this.transport.request({
      operation,
      method: "GET",
      path,
      query: { page, page_size: pageSize },
      response: projectListResponse,
      options,
    });
  }

  /** Every project of the deployment, read page by page (3,000 a page, the maximum) only as far as the caller iterates; a short page is the last. */
  list(
    deploymentSlug: string,
    pageSize = MAX_PROJECT_PAGE_SIZE,
    options?: RequestOptions,
  ): Paginated<Project, number, ProjectListResponse> {
    return new Paginated(async (page = 0) => {
      const answer = await this.listPage(deploymentSlug, page, pageSize, options);
      return { items: answer.projects, next: answer.projects.length < pageSize ? undefined : page + 1, answer };
    });
  }

  #path(operation: string, deploymentSlug: string, projectName: string): string {
    const address = validateRequest(operation, projectAddress, { deploymentSlug, projectName });
    return `/deployments/${segment(address.deploymentSlug)}/projects/${segment(address.projectName)}`;
  }
}

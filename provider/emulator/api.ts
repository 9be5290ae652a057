/**
 * The operations of Semgrep's web API (v1) that the client uses, over the emulator's state.
 * Requests are validated with the client's own zod schemas; a bad one is answered 400.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { z } from "zod";
import {
  addTagsRequest,
  createSbomExportAsRead,
  cyclonedxSpecVersion,
  DEFAULT_CYCLONEDX_VERSION,
  listLockfilesRequest,
  listRepositoriesRequest,
  listRulesQuery,
  managedScanRequest,
  isSystemTag,
  MANAGED_SCAN_TAG,
  MAX_PROJECT_PAGE_SIZE,
  PRIMARY_BRANCH_FOLLOWS_DEFAULT,
  scanSearchAsRead,
  tagList,
  updateProjectRequest,
  updateRuleModeRequest,
} from "../client/schemas";
import type { DetectionProduct } from "../client/schemas/enums";
import { dependencyCount, lockfileCounts } from "./dependencies";
import type { EmulatorState, StoredProject, StoredScan } from "./model";
import { renderListProject, renderPolicy, renderProject, renderRule, renderScanDetail, renderScanSummary, scanStatus } from "./render";

/** An answer other than 200, with the service's `{"error": "..."}` body (and `code`, where the service sends one). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** What a v1 policy operation answers once the deployment uses unified policies (Policies V2). */
export class DeploymentMigrated extends HttpError {
  constructor() {
    super(410, "This deployment has been migrated to Unified Policies; use the Policies V2 API", "DEPLOYMENT_MIGRATED");
  }
}

/**
 * What every Policies V2 operation answers while the deployment still uses v1 policies (not
 * migrated to unified policies): the mirror of {@link DeploymentMigrated}.
 */
export class DeploymentNotMigrated extends HttpError {
  constructor() {
    super(
      403,
      "This deployment has not been migrated to Unified Policies; the Policies V2 API is not available for it (emulator: started without --policies-v2)",
      "DEPLOYMENT_NOT_MIGRATED",
    );
  }
}

export interface ApiRequest {
  state: EmulatorState;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when there is none). */
  body: unknown;
  /** The request's headers (`if-match` for the Policies V2 applies). Never logged. */
  headers: IncomingHttpHeaders;
  /** The Policies V2 products the deployment has (`--detection-products`); any other answers 404 PRODUCT_NOT_ENABLED. */
  detectionProducts: readonly DetectionProduct[];
  /** Policies V2 dry runs refuse an invalid bundle with 400 and a code (`--dry-run-refusals`); see policies-v2.ts. */
  dryRunRefusals: boolean;
  /** Address of the emulator, for URLs in answers. */
  baseUrl: string;
  now: number;
  /** Called after a change to the state, so it can be persisted. */
  changed: () => void;
}

export interface Route {
  method: string;
  pattern: RegExp;
  /** Operation name, for the request log. */
  operation: string;
  handle: (req: ApiRequest) => unknown;
  /** A deprecated v1 policy operation: gone (410) on a deployment migrated to Policies V2. */
  replacedByPoliciesV2?: true;
  /** What another client's write does to the object this operation writes (the `concurrent-write` fault), just before it is handled. */
  concurrentWrite?: (req: ApiRequest) => void;
  /** Its standing in Semgrep's OpenAPI (`x-badges`): an experimental route answers 404 when the emulator serves none. */
  stability?: "beta" | "experimental";
}

const DEP = "/api/v1/deployments/(?<deployment>[^/]+)";
const PROJECT = `${DEP}/projects/(?<project>.+?)`;

export const routes: Route[] = [
  { method: "GET", pattern: /^\/api\/v1\/deployments$/, operation: "deployments.list", handle: listDeployments },
  { method: "POST", pattern: new RegExp(`^${DEP}/scans/search$`), operation: "scans.search", handle: searchScans },
  { method: "GET", pattern: new RegExp(`^${DEP}/scan/(?<scan>[^/]+)$`), operation: "scans.get", handle: getScan },
  {
    method: "POST",
    pattern: new RegExp(`^${DEP}/dependencies/repositories$`),
    operation: "dependencies.listRepositories",
    handle: listRepositories,
  },
  {
    method: "POST",
    pattern: new RegExp(`^${DEP}/dependencies/repositories/(?<repository>[^/]+)/lockfiles$`),
    operation: "dependencies.listLockfiles",
    handle: listLockfiles,
  },
  { method: "GET", pattern: new RegExp(`^${DEP}/policies$`), operation: "policies.list", handle: listPolicies, replacedByPoliciesV2: true },
  {
    method: "GET",
    pattern: new RegExp(`^${DEP}/policies/(?<policy>[^/]+)$`),
    operation: "policies.listRules",
    handle: listRules,
    replacedByPoliciesV2: true,
  },
  {
    method: "PUT",
    pattern: new RegExp(`^${DEP}/policies/(?<policy>[^/]+)$`),
    operation: "policies.updateRuleMode",
    handle: updateRuleMode,
    replacedByPoliciesV2: true,
  },
  { method: "GET", pattern: new RegExp(`^${DEP}/projects$`), operation: "projects.list", handle: listProjects },
  {
    method: "PATCH",
    pattern: new RegExp(`^${PROJECT}/managed-scan$`),
    operation: "projects.updateManagedScans",
    handle: updateManagedScans,
  },
  { method: "PUT", pattern: new RegExp(`^${PROJECT}/tags$`), operation: "projects.addTags", handle: addTags },
  { method: "DELETE", pattern: new RegExp(`^${PROJECT}/tags$`), operation: "projects.removeTags", handle: removeTags },
  { method: "GET", pattern: new RegExp(`^${PROJECT}$`), operation: "projects.get", handle: getProject },
  { method: "PATCH", pattern: new RegExp(`^${PROJECT}$`), operation: "projects.update", handle: updateProject },
  { method: "DELETE", pattern: new RegExp(`^${PROJECT}$`), operation: "projects.delete", handle: deleteProject },
  { method: "POST", pattern: new RegExp(`^${DEP}/sbom/export$`), operation: "sbom.createExport", handle: createSbomExport },
  { method: "GET", pattern: new RegExp(`^${DEP}/sbom/export/(?<task>[^/]+)$`), operation: "sbom.getExport", handle: getSbomExport },
];

// ---------------------------------------------------------------------------------------------
// Helpers

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(withoutEmptyStrings(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new HttpError(400, `invalid request: ${where}${issue?.message ?? "bad value"}`);
}

/**
 * A request body as the service reads it: protobuf reads a string field sent as "" as not set
 * (an empty cursor, `version: ""` in a dependency filter), so such fields are dropped before
 * validation. Lists and their items are kept as sent.
 */
function withoutEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyStrings);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== "")
      .map(([k, v]) => [k, withoutEmptyStrings(v)]),
  );
}

export function deploymentById(req: ApiRequest) {
  const raw = req.params.deployment ?? "";
  const deployment = /^\d+$/.test(raw) ? req.state.deployments.find((d) => d.id === Number(raw)) : undefined;
  if (!deployment) throw new HttpError(404, `deployment ${raw} not found`);
  return deployment;
}

function deploymentBySlug(req: ApiRequest) {
  const slug = req.params.deployment ?? "";
  const deployment = req.state.deployments.find((d) => d.slug === slug);
  if (!deployment) throw new HttpError(404, `deployment ${slug} not found`);
  return deployment;
}

/** Where a body repeats the path (field → path parameter), as the OpenAPI's request bodies do. */
const PROJECT_IN_BODY = { deploymentSlug: "deployment", projectName: "project" } as const;
const DEPLOYMENT_ID_IN_BODY = { deploymentId: "deployment" } as const;

/** Body fields that repeat a path parameter must say the same, when given. */
export function matchesPath(req: ApiRequest, body: object, fields: Readonly<Record<string, string>>): void {
  for (const [field, param] of Object.entries(fields)) {
    const given = (body as Record<string, unknown>)[field];
    const value = req.params[param];
    if (given !== undefined && String(given) !== value) {
      throw new HttpError(400, `invalid request: ${field} ${JSON.stringify(given)} does not match the path (${JSON.stringify(value)})`);
    }
  }
}

function findProject(req: ApiRequest): StoredProject {
  const deployment = deploymentBySlug(req);
  const name = req.params.project ?? "";
  const project = req.state.projects.find((p) => p.deploymentId === deployment.id && p.name === name);
  if (!project) throw new HttpError(404, `project ${name} not found`);
  return project;
}

/** Cursors are opaque to clients: an offset, encoded. */
function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new HttpError(400, "invalid request: cursor is not a cursor this service issued");
  return Number(match[1]);
}

/** One page of `items` from `offset`; the next cursor is empty on the last page. */
function page<T>(items: T[], offset: number, limit: number): { items: T[]; cursor: string } {
  const slice = items.slice(offset, offset + limit);
  const end = offset + slice.length;
  return { items: slice, cursor: end < items.length ? encodeCursor(end) : "" };
}

// ---------------------------------------------------------------------------------------------
// Deployments and scans

function listDeployments(req: ApiRequest) {
  return { deployments: req.state.deployments.map(({ id, name, slug }) => ({ id, name, slug })) };
}

const PRODUCT_NAMES: Record<string, string> = {
  PRODUCT_SAST: "sast",
  PRODUCT_SCA: "sca",
  PRODUCT_SECRETS: "secrets",
  PRODUCT_AI_SAST: "ai_sast",
};

/**
 * `body` with each key given in lowerCamelCase (`isFullScan`) under its field's proto name
 * (`is_full_scan`): protobuf's JSON parser reads both. Where unknown keys are ignored, a camelCase
 * key left as it is would be dropped, and the search answered without its filter. A field given
 * both ways is refused, as protobuf refuses it.
 */
function underProtoNames(body: unknown, fields: readonly string[]): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const byJsonName = new Map(fields.map((field) => [field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), field]));
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const field = byJsonName.get(key) ?? key;
    if (field in named)
      throw new HttpError(400, `invalid request: ${field} is given twice (as ${field} and as ${byJsonName.has(key) ? key : field})`);
    named[field] = value;
  }
  return named;
}

function searchScans(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(scanSearchAsRead, underProtoNames(req.body ?? {}, Object.keys(scanSearchAsRead.shape)));
  matchesPath(req, body, DEPLOYMENT_ID_IN_BODY);
  const since = body.since ? Date.parse(body.since) : undefined;
  const products = (body.products ?? []).filter((p) => p !== "PRODUCT_UNSPECIFIED").map((p) => PRODUCT_NAMES[p]);
  // UNSPECIFIED, the enum's zero value, asks for no particular status: it is left out, like PRODUCT_UNSPECIFIED.
  const statuses = (body.statuses ?? []).filter((s) => s !== "SCAN_STATUS_UNSPECIFIED");
  const matches = (scan: StoredScan) =>
    scan.deploymentId === deployment.id &&
    (body.branch === undefined || scan.branch === body.branch || scan.branch === `refs/heads/${body.branch}`) &&
    (body.repository_id === undefined || scan.repositoryId === body.repository_id) &&
    (body.is_full_scan === undefined || scan.isFullScan === body.is_full_scan) &&
    (since === undefined || Date.parse(scan.startedAt) > since) &&
    (statuses.length === 0 || statuses.includes(scanStatus(scan, req.now) as never)) &&
    products.every((p) => p !== undefined && scan.enabledProducts.includes(p)) &&
    (body.total_time?.min === undefined || scan.totalTime >= body.total_time.min) &&
    (body.total_time?.max === undefined || scan.totalTime <= body.total_time.max);
  const result = page(req.state.scans.filter(matches), decodeCursor(body.cursor), body.limit ?? 100);
  return { cursor: result.cursor, scans: result.items.map((s) => renderScanSummary(s, req.now)) };
}

function getScan(req: ApiRequest) {
  const deployment = deploymentById(req);
  const id = req.params.scan ?? "";
  const scan = /^\d+$/.test(id) ? req.state.scans.find((s) => s.id === Number(id) && s.deploymentId === deployment.id) : undefined;
  if (!scan) throw new HttpError(404, `scan ${id} not found`);
  return renderScanDetail(scan);
}

// ---------------------------------------------------------------------------------------------
// Dependencies

function listRepositories(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(listRepositoriesRequest, req.body ?? {});
  matchesPath(req, body, DEPLOYMENT_ID_IN_BODY);
  const rows = req.state.repositories
    .filter((r) => r.deploymentId === deployment.id)
    .map((r) => ({ repo: r, count: dependencyCount(r, body.dependencyFilter) }))
    .filter((row) => row.count > 0);
  const offset = body.cursor ?? 0;
  const slice = rows.slice(offset, offset + (body.pageSize ?? 5));
  const end = offset + slice.length;
  return {
    ...dependencyPageEnd(end, end < rows.length),
    repositorySummaries: slice.map(({ repo, count }) => ({
      id: repo.id,
      name: repo.name,
      numDependencies: count,
      hasDependencyPathScan: repo.hasDependencyPathScan,
    })),
  };
}

function listLockfiles(req: ApiRequest) {
  const deployment = deploymentById(req);
  const id = req.params.repository ?? "";
  const repo = /^\d+$/.test(id) ? req.state.repositories.find((r) => r.id === Number(id) && r.deploymentId === deployment.id) : undefined;
  if (!repo) throw new HttpError(404, `repository ${id} not found`);
  const body = parse(listLockfilesRequest, req.body ?? {});
  matchesPath(req, body, { ...DEPLOYMENT_ID_IN_BODY, repositoryId: "repository" });
  const rows = lockfileCounts(repo, body.dependencyFilter).filter((row) => row.numDependencies > 0);
  const offset = decodeCursor(body.cursor);
  const result = page(rows, offset, body.pageSize ?? 5);
  return { ...dependencyPageEnd(encodeCursor(offset + result.items.length), result.cursor !== ""), lockfileSummaries: result.items };
}

/**
 * Where a dependency listing's page ends. The live service sends `cursor` on every page, the
 * last one included (with `hasMore: false`), and scripts read it unconditionally: the end signal
 * is `hasMore` alone.
 */
function dependencyPageEnd<C>(cursor: C, hasMore: boolean): { cursor: C; hasMore: boolean } {
  return { cursor, hasMore };
}

// ---------------------------------------------------------------------------------------------
// Policies and rules

function findPolicy(req: ApiRequest) {
  const deployment = deploymentById(req);
  const id = req.params.policy ?? "";
  const policy = req.state.policies.find((p) => p.id === id && p.deploymentId === deployment.id);
  if (!policy) throw new HttpError(404, `policy ${id} not found`);
  return policy;
}

function listPolicies(req: ApiRequest) {
  const deployment = deploymentById(req);
  return { policies: req.state.policies.filter((p) => p.deploymentId === deployment.id).map(renderPolicy) };
}

function listRules(req: ApiRequest) {
  const policy = findPolicy(req);
  const rawLimit = req.query.get("limit");
  const query = parse(listRulesQuery, {
    cursor: req.query.get("cursor") ?? undefined,
    limit: rawLimit === null ? undefined : /^\d+$/.test(rawLimit) ? Number(rawLimit) : rawLimit,
  });
  const result = page(policy.rules, decodeCursor(query.cursor), query.limit ?? 500);
  return { cursor: result.cursor, policy: renderPolicy(policy), rules: result.items.map((r) => renderRule(r, req.baseUrl)) };
}

function updateRuleMode(req: ApiRequest) {
  const policy = findPolicy(req);
  const body = parse(updateRuleModeRequest, req.body);
  matchesPath(req, body, { ...DEPLOYMENT_ID_IN_BODY, policyId: "policy" });
  const rule = policy.rules.find((r) => r.path === body.rulePath);
  if (!rule) throw new HttpError(404, `rule ${body.rulePath} not found in policy ${policy.id}`);
  if (rule.policyMode !== body.policyMode) {
    rule.policyMode = body.policyMode;
    rule.lastChangeAt = new Date(req.now).toISOString();
    rule.lastChangeBy = "api-token";
    req.changed();
  }
  return { policyId: policy.id, updatedRule: renderRule(rule, req.baseUrl) };
}

// ---------------------------------------------------------------------------------------------
// Projects and tags

function listProjects(req: ApiRequest) {
  const deployment = deploymentBySlug(req);
  const pageNumber = Number(req.query.get("page") ?? "0");
  const pageSize = Number(req.query.get("page_size") ?? "100");
  if (!Number.isInteger(pageNumber) || pageNumber < 0 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PROJECT_PAGE_SIZE) {
    throw new HttpError(400, `invalid request: page must be 0 or more and page_size 1 to ${MAX_PROJECT_PAGE_SIZE}`);
  }
  const projects = req.state.projects.filter((p) => p.deploymentId === deployment.id);
  return { projects: projects.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize).map(renderListProject) };
}

function getProject(req: ApiRequest) {
  return { project: renderProject(findProject(req)) };
}

function updateProject(req: ApiRequest) {
  const project = findProject(req);
  const body = parse(updateProjectRequest, req.body ?? {});
  matchesPath(req, body, PROJECT_IN_BODY);
  if (body.primary_branch !== undefined) {
    project.primaryBranch = body.primary_branch === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? null : body.primary_branch;
  }
  // The whole set, but the system tags: those the project has stay, those it lacks are not added.
  if (body.tags !== undefined) project.tags = [...body.tags.filter((t) => !isSystemTag(t)), ...project.tags.filter(isSystemTag)];
  const scanning = managedScansOn(project);
  if (body.managed_scan_config?.diff_scan) project.managedScanConfig.diff_scan = switched(body.managed_scan_config.diff_scan);
  if (body.managed_scan_config?.full_scan) project.managedScanConfig.full_scan = switched(body.managed_scan_config.full_scan);
  settleManagedScanTag(project, scanning);
  req.changed();
  return { project: renderProject(project) };
}

/**
 * Removes a project, as the live service's DELETE does (users' own clean-up scripts call it; the
 * client has no use for it). Its scans and dependency data stay, as the emulator keeps no findings.
 */
function deleteProject(req: ApiRequest) {
  const project = findProject(req);
  req.state.projects = req.state.projects.filter((p) => p !== project);
  req.changed();
  return { project_name: project.name };
}

function updateManagedScans(req: ApiRequest) {
  const project = findProject(req);
  const body = parse(managedScanRequest, req.body ?? {});
  matchesPath(req, body, PROJECT_IN_BODY);
  const scanning = managedScansOn(project);
  if (body.diff_scan) project.managedScanConfig.diff_scan = switched(body.diff_scan);
  if (body.full_scan) project.managedScanConfig.full_scan = switched(body.full_scan);
  settleManagedScanTag(project, scanning);
  req.changed();
  return { project: renderProject(project) };
}

/**
 * Whether the project has managed scans: diff scans or full scans enabled, either one (a project
 * Semgrep scans only on pull requests is a managed-scan project too).
 */
export function managedScansOn(project: StoredProject): boolean {
  return project.managedScanConfig.diff_scan.enabled || project.managedScanConfig.full_scan.enabled;
}

/**
 * The system tag `managed-scan` follows a switch of the project's managed scans: the service adds
 * it when a write turns them on (none enabled before, one at least after) and drops it when a write
 * turns both off, since Semgrep's scripts find the projects it scans by that tag and a project it no
 * longer scans must not be among them (and a ManagedScan's destroy then leaves the tags as found).
 * A write that leaves them on or off changes nothing: the demo preset's projects were onboarded
 * before the tag and keep the tag sets the examples show until their scans are switched.
 */
function settleManagedScanTag(project: StoredProject, wasOn: boolean): void {
  const on = managedScansOn(project);
  if (on === wasOn) return;
  const others = project.tags.filter((t) => t !== MANAGED_SCAN_TAG);
  project.tags = on ? [...others, MANAGED_SCAN_TAG] : others;
}

/** `{}` is how protobuf's JSON mapping writes `{enabled: false}`. */
function switched(toggle: { enabled?: boolean }): { enabled: boolean } {
  return { enabled: toggle.enabled ?? false };
}

function addTags(req: ApiRequest) {
  const project = findProject(req);
  // A system tag is the service's to set: asking for it adds nothing.
  const fresh = tagsInBody(req).filter((t) => !project.tags.includes(t) && !isSystemTag(t));
  if (fresh.length) {
    project.tags = [...project.tags, ...fresh];
    req.changed();
  }
  return { project: renderProject(project) };
}

/**
 * The tags a body names, none without a body. The OpenAPI's body is the object
 * `{deploymentSlug?, projectName?, tags}` (the names repeat the path); its example is a bare
 * array, which the service takes too. No `tags` is an empty list in protobuf.
 */
function tagsInBody(req: ApiRequest): string[] {
  if (req.body === undefined) return [];
  const body = Array.isArray(req.body) ? { tags: parse(tagList, req.body) } : parse(addTagsRequest, req.body);
  matchesPath(req, body, PROJECT_IN_BODY);
  return body.tags ?? [];
}

/**
 * Removes the tags of the query (`?tags=a&tags=b`, the OpenAPI's form, which the client sends)
 * and of a JSON body `{"tags": [...]}` (the form Semgrep's own scripts send). Naming no tag at
 * all removes nothing and answers 200, as the live service does.
 */
function removeTags(req: ApiRequest) {
  const project = findProject(req);
  const tags = [...parse(tagList, req.query.getAll("tags")), ...tagsInBody(req)];
  // A system tag stays whatever the request names (Semgrep's scripts allow-list it).
  const kept = project.tags.filter((t) => !tags.includes(t) || isSystemTag(t));
  if (kept.length !== project.tags.length) {
    project.tags = kept;
    req.changed();
  }
  return { project: renderProject(project) };
}

// ---------------------------------------------------------------------------------------------
// SBOM export

function createSbomExport(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(createSbomExportAsRead, req.body ?? {});
  matchesPath(req, body, DEPLOYMENT_ID_IN_BODY);
  const repositoryId = Number(body.repositoryId);
  if (!req.state.projects.some((p) => p.id === repositoryId && p.deploymentId === deployment.id)) {
    throw new HttpError(404, `repository ${body.repositoryId} not found`);
  }
  const taskToken = randomUUID();
  req.state.sbomExports.push({
    taskToken,
    deploymentId: deployment.id,
    repositoryId,
    ref: body.ref,
    specVersion: cyclonedxSpecVersion(body.formatVersion?.cyclonedxVersion ?? DEFAULT_CYCLONEDX_VERSION),
    // As sent (a deprecated `formatVersion.version` included), for tests of what a client sends.
    request: req.body as Record<string, unknown>,
    createdAt: new Date(req.now).toISOString(),
    statusReads: 0,
  });
  req.changed();
  return { taskToken };
}

function getSbomExport(req: ApiRequest) {
  const deployment = deploymentById(req);
  const job = req.state.sbomExports.find((j) => j.taskToken === req.params.task && j.deploymentId === deployment.id);
  if (!job) throw new HttpError(404, `SBOM export ${req.params.task ?? ""} not found`);
  job.statusReads += 1;
  req.changed();
  if (job.statusReads === 1) return { status: "SBOM_EXPORT_STATUS_IN_PROGRESS" };
  return { status: "SBOM_EXPORT_STATUS_COMPLETED", downloadUrl: `${req.baseUrl}/_emulator/sbom/${job.taskToken}.json` };
}

/**
 * What `adopt` reads of a live deployment, at the API's minimum: one listing of the deployments,
 * the projects at 3,000 a page and one read of each (for its managed scans), one listing of the
 * v1 policies and one listing of each policy's rules at 2,000 a page, or, on a migrated
 * deployment, the detection-policy summary (every product in one read) and the remediation
 * policies. The client bounds concurrency (8 requests at a time) and retries.
 */
import {
  type DetectionPolicySummary,
  type Deployment,
  type Policy,
  type Project,
  type RemediationPoliciesState,
  type Rule,
} from "../client/schemas";
import { DeploymentMigratedError, DeploymentNotMigratedError, NotFoundError } from "../client/errors";
import type { SemgrepClient } from "../client";

/** The areas `--skip` can leave out. */
export const AREAS = ["projects", "policies", "unified-policies"] as const;
export type Area = (typeof AREAS)[number];

/** A v1 policy and every one of its rules. */
export interface LivePolicy {
  policy: Policy;
  rules: Rule[];
}

/** What was read; an area skipped, or absent from the deployment (v1 or unified policies), is undefined. */
export interface LiveDeployment {
  deployment: { id: string; slug: string; name?: string };
  projects?: Project[];
  /** Projects listed but deleted before adopt read them. */
  goneProjects?: string[];
  /** The v1 policies read (those `--policies` names, or all); undefined on a migrated deployment. */
  policies?: LivePolicy[];
  /** The unified policies (Policies V2); undefined on a deployment not migrated. */
  unified?: { detection: DetectionPolicySummary; remediation: RemediationPoliciesState };
}

export interface ReadRequest {
  /** The deployment (from {@link findDeployment}). */
  deployment: LiveDeployment["deployment"];
  skip: readonly Area[];
  /** Project-name patterns (`*`, `?`); a project is read when it matches any. None: every project. */
  projects: readonly string[];
  /** v1 policy ids or slugs; none: every policy. */
  policies: readonly string[];
}

/** One line of progress: an area, the objects read and, where known, how many there are. */
export type Progress = (area: string, read: number, known?: number) => void;

/** The request names something the deployment does not have: a usage error (exit status 2). */
export class AdoptRequestError extends Error {}

/** `*` any characters (`/` too), `?` one: a project name pattern as a shell user writes it. */
export function projectPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** The deployment named by slug or id, among those the token sees. */
export async function findDeployment(client: SemgrepClient, wanted: string): Promise<LiveDeployment["deployment"]> {
  const deployments = await client.deployments.list();
  const match = deployments.find((d: Deployment) => d.slug === wanted || String(d.id) === wanted);
  if (!match) {
    const known = deployments.map((d) => `${d.slug} (${d.id})`).join(", ") || "none";
    throw new AdoptRequestError(`deployment ${JSON.stringify(wanted)} is not one this token can read; it reads: ${known}`);
  }
  return { id: String(match.id), slug: match.slug, ...(match.name ? { name: match.name } : {}) };
}

/** Reads every area the request does not skip, in parallel. */
export async function readDeployment(client: SemgrepClient, request: ReadRequest, progress: Progress): Promise<LiveDeployment> {
  const { deployment } = request;
  const wants = (area: Area) => !request.skip.includes(area);
  // The listings first, which check what the request names (`--projects` patterns, `--policies`):
  // a request the deployment cannot serve fails in one line, before anything is read at length
  // (and before any progress line, which would bury that line).
  const [listedProjects, listedPolicies] = await Promise.all([
    wants("projects") ? listProjects(client, deployment.slug, request.projects) : undefined,
    wants("policies") ? listPolicies(client, deployment, request.policies) : undefined,
  ]);
  const [projectsRead, policies, unified] = await Promise.all([
    listedProjects && readProjects(client, deployment.slug, listedProjects, progress),
    listedPolicies && readPolicies(client, deployment.id, listedPolicies, progress),
    wants("unified-policies") ? readUnified(client, deployment.id, progress) : undefined,
  ]);
  return { deployment, projects: projectsRead?.projects, goneProjects: projectsRead?.gone, policies, unified };
}

/** The projects `patterns` choose (all without one), from the listing (3,000 a page); an unmatched pattern is an error. */
async function listProjects(client: SemgrepClient, slug: string, patterns: readonly string[]): Promise<Project[]> {
  const matchers = patterns.map(projectPattern);
  const all = await client.projects.list(slug).toArray();
  // A pattern that matches nothing is a typo far more often than a wish: said, rather than a program without those projects.
  const unmatched = patterns.filter((_, i) => !all.some((p) => matchers[i]!.test(p.name)));
  if (unmatched.length) {
    const names = all.map((p) => p.name).sort();
    const some = names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : "");
    throw new AdoptRequestError(
      `--projects ${unmatched.map((u) => JSON.stringify(u)).join(", ")} matches none of the deployment's ${names.length} projects` +
        (names.length ? ` (${some})` : ""),
    );
  }
  // Each project once: a listing by page number repeats one when a project is added while it is
  // read, and two ProjectSettings of one project would be refused as a conflict at the first preview.
  const seen = new Set<string>();
  return all.filter((p) => !seen.has(p.name) && seen.add(p.name) && (!matchers.length || matchers.some((m) => m.test(p.name))));
}

/**
 * Each listed project on its own: the listing has no managed-scan configuration (the OpenAPI's
 * `ListProject`), which only the project's own read gives.
 */
async function readProjects(client: SemgrepClient, slug: string, listed: readonly Project[], progress: Progress) {
  let done = 0;
  progress("projects", 0, listed.length);
  const read = await Promise.all(
    listed.map(async (project) => {
      // A project deleted between the listing and its own read is gone, not an error of the whole adoption.
      const full = await client.projects.get(slug, project.name).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      done++;
      if (done % 50 === 0 || done === listed.length) progress("projects", done, listed.length);
      return full ?? project.name;
    }),
  );
  return {
    projects: read.filter((p): p is Project => typeof p !== "string"),
    gone: read.filter((p): p is string => typeof p === "string"),
  };
}

/**
 * The v1 policies `wanted` names (all without one); undefined when the deployment is migrated
 * (the listing answers 410). A policy the deployment does not have is an error.
 */
async function listPolicies(
  client: SemgrepClient,
  deployment: LiveDeployment["deployment"],
  wanted: readonly string[],
): Promise<Policy[] | undefined> {
  let all: Policy[];
  try {
    all = await client.policies.list(deployment.id);
  } catch (error) {
    if (!(error instanceof DeploymentMigratedError)) throw error;
    // Policies named for a deployment that has none: said, rather than a program silently without them.
    if (wanted.length) {
      throw new AdoptRequestError(
        `--policies names v1 policies, but deployment ${deployment.slug} uses unified policies (it has none): leave --policies out`,
      );
    }
    return undefined;
  }
  const unknown = wanted.filter((w) => !all.some((p) => String(p.id) === w || p.slug === w));
  if (unknown.length) {
    const known = all.map((p) => `${p.id} (${p.slug ?? p.name})`).join(", ") || "none";
    throw new AdoptRequestError(
      `--policies: no v1 policy ${unknown.map((u) => JSON.stringify(u)).join(", ")} in this deployment; it has ${known}`,
    );
  }
  return all.filter((p) => !wanted.length || wanted.some((w) => String(p.id) === w || p.slug === w));
}

/** Every rule of each chosen policy: one listing each, at 2,000 a page. */
async function readPolicies(client: SemgrepClient, deploymentId: string, chosen: readonly Policy[], progress: Progress) {
  let done = 0;
  progress("policies", 0, chosen.length);
  return Promise.all(
    chosen.map(async (policy): Promise<LivePolicy> => {
      const rules = await client.policies.listRules(deploymentId, policy.id).toArray();
      progress("policies", ++done, chosen.length);
      return { policy, rules };
    }),
  );
}

/**
 * The unified policies; undefined when the deployment still uses v1 policies (403
 * DEPLOYMENT_NOT_MIGRATED). The detection summary first and the remediation policies only once it
 * answers: a deployment not migrated then costs one refused request, not two.
 */
async function readUnified(client: SemgrepClient, deploymentId: string, progress: Progress) {
  let detection: DetectionPolicySummary;
  try {
    detection = await client.policiesV2.getDetectionPolicySummary(deploymentId);
  } catch (error) {
    if (error instanceof DeploymentNotMigratedError) return undefined;
    throw error;
  }
  progress("unified policies", 1, 2);
  const remediation = await client.policiesV2.getRemediationPolicies(deploymentId);
  progress("unified policies", 2, 2);
  return { detection, remediation };
}

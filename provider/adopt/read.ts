/**
 * What `adopt` reads of a live deployment, at the API's minimum: one listing of the deployments,
 * the projects at 3,000 a page and one read of each (for its managed scans), one listing of the
 * v1 policies and one listing of each policy's rules at 2,000 a page, or, on a migrated
 * deployment, the detection-policy summary (every product in one read) and the remediation
 * policies. The access settings: the teams at 100 a page and, for each team, its members and its
 * repositories (one page each up to 100; a repository id is a project's id, named from the one
 * project listing); the product configuration (one read); the notification rules (one listing,
 * which has no pages); the users at 100 a page. The client bounds concurrency (8 requests at a
 * time) and retries.
 */
import type { DeploymentUser, NotificationRuleEntry, ProductConfig, TeamEntry, TeamUser } from "../client";
import {
  type DetectionPolicySummary,
  type Deployment,
  type Policy,
  type Project,
  type RemediationPoliciesState,
  type Rule,
} from "../client/schemas";
import { DeploymentMigratedError, DeploymentNotMigratedError, ExperimentalEndpointError, NotFoundError } from "../client/errors";
import type { SemgrepClient } from "../client";

/** The areas `--skip` can leave out. */
export const AREAS = ["projects", "policies", "unified-policies", "teams", "settings", "notifications", "users"] as const;
export type Area = (typeof AREAS)[number];

/** A v1 policy and every one of its rules. */
export interface LivePolicy {
  policy: Policy;
  rules: Rule[];
}

/** A team with its members and the names of the projects it sees. */
export interface LiveTeam {
  team: TeamEntry;
  members: TeamUser[];
  /** Project names (`#<id>` for a repository id the project listing does not name). */
  projects: string[];
}

/**
 * What was read; an area skipped, absent from the deployment (v1 or unified policies), or whose
 * endpoint the service does not serve (`unserved`), is undefined.
 */
export interface LiveDeployment {
  deployment: { id: string; slug: string; name?: string };
  projects?: Project[];
  /** Projects listed but deleted before adopt read them. */
  goneProjects?: string[];
  /** The v1 policies read (those `--policies` names, or all); undefined on a migrated deployment. */
  policies?: LivePolicy[];
  /** The unified policies (Policies V2); undefined on a deployment not migrated. */
  unified?: { detection: DetectionPolicySummary; remediation: RemediationPoliciesState };
  /** The deployment's teams (Teams API, beta). */
  teams?: LiveTeam[];
  /** The product configuration (experimental endpoint). */
  settings?: ProductConfig;
  /** The notification rules (experimental endpoint). */
  notificationRules?: NotificationRuleEntry[];
  /** The users and their org roles (experimental endpoint). */
  users?: DeploymentUser[];
  /** Areas left out because the service does not serve their endpoint (404/501 of an experimental endpoint), each with why. */
  unserved?: string[];
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
  // One listing of the projects serves both the projects and the teams (which name projects by id).
  const allProjects = wants("projects") || wants("teams") ? client.projects.list(deployment.slug).toArray() : undefined;
  // The listings first, which check what the request names (`--projects` patterns, `--policies`):
  // a request the deployment cannot serve fails in one line, before anything is read at length
  // (and before any progress line, which would bury that line).
  const [listedProjects, listedPolicies] = await Promise.all([
    wants("projects") ? allProjects!.then((all) => chooseProjects(all, request.projects)) : undefined,
    wants("policies") ? listPolicies(client, deployment, request.policies) : undefined,
  ]);
  const unserved: string[] = [];
  const [projectsRead, policies, unified, teams, settings, notificationRules, users] = await Promise.all([
    listedProjects && readProjects(client, deployment.slug, listedProjects, progress),
    listedPolicies && readPolicies(client, deployment.id, listedPolicies, progress),
    wants("unified-policies") ? readUnified(client, deployment.id, progress) : undefined,
    wants("teams") ? served(unserved, "teams", readTeams(client, deployment.id, allProjects!, progress)) : undefined,
    wants("settings") ? served(unserved, "settings", client.products.get(deployment.id)) : undefined,
    wants("notifications") ? served(unserved, "notifications", client.notificationRules.list(deployment.id)) : undefined,
    wants("users") ? served(unserved, "users", client.users.list(deployment.id).toArray()) : undefined,
  ]);
  return {
    deployment,
    projects: projectsRead?.projects,
    goneProjects: projectsRead?.gone,
    policies,
    unified,
    ...(teams ? { teams } : {}),
    ...(settings ? { settings } : {}),
    ...(notificationRules ? { notificationRules } : {}),
    ...(users ? { users } : {}),
    ...(unserved.length ? { unserved: unserved.sort() } : {}),
  };
}

/** What each area's endpoint is, for the summary's line when the service does not serve it. */
const AREA_ENDPOINTS: Partial<Record<Area, string>> = {
  teams: "the teams (Teams API, beta)",
  settings: "the product configuration (DeploymentProductsService, experimental)",
  notifications: "the notification rules (NotificationRulesService, experimental)",
  users: "the users' org roles (DeploymentService users, experimental)",
};

/**
 * The area's read, or undefined with a line in `unserved` when the service does not serve its
 * endpoint (an experimental endpoint answered 404 or 501): that area is left out, the rest adopted.
 */
async function served<T>(unserved: string[], area: Area, read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof ExperimentalEndpointError)) throw error;
    unserved.push(`${AREA_ENDPOINTS[area]}: the service does not serve ${error.operation} (HTTP ${error.status}), so none is declared`);
    return undefined;
  }
}

/**
 * Every team, then each one's members and repositories (pages of 100: one request each for a
 * team of up to 100 members and 100 projects), the repository ids named from the project listing.
 */
async function readTeams(
  client: SemgrepClient,
  deploymentId: string,
  projects: Promise<Project[]>,
  progress: Progress,
): Promise<LiveTeam[]> {
  const [teams, all] = await Promise.all([client.teams.list(deploymentId).toArray(), projects]);
  const names = new Map(all.map((p) => [String(p.id), p.name]));
  let done = 0;
  progress("teams", 0, teams.length);
  return Promise.all(
    teams.map(async (team): Promise<LiveTeam> => {
      const [members, repositories] = await Promise.all([
        client.teams.members(deploymentId, team.id).toArray(),
        client.teams.repositories(deploymentId, team.id).toArray(),
      ]);
      done++;
      if (done % 50 === 0 || done === teams.length) progress("teams", done, teams.length);
      return { team, members, projects: repositories.map((id) => names.get(String(id)) ?? `#${id}`) };
    }),
  );
}

/** The projects `patterns` choose (all without one), from the listing (3,000 a page); an unmatched pattern is an error. */
function chooseProjects(all: readonly Project[], patterns: readonly string[]): Project[] {
  const matchers = patterns.map(projectPattern);
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

/** Data sources: the dependency inventory: repositories with dependencies, and a repository's lockfiles. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type DependencyFilter, dependencyFilter, id, MAX_DEPENDENCY_PAGE_SIZE } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { type LockfileInfo, lockfileInfo, type RepositoryInfo, repositoryInfo } from "./shapes";

export type { DependencyFilter };

export interface GetDependencyRepositoriesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /**
   * Only repositories with dependencies matching this filter, e.g. `{ name: "lodash" }` or
   * `{ ecosystem: ["npm"], transitivity: ["DIRECT"], licensePolicySettings: ["LICENSE_POLICY_SETTING_BLOCK"] }`.
   * Archived repositories are left out unless `includeArchived: true`, which lists only them.
   */
  dependencyFilter?: DependencyFilter;
  /** Stop after this many repositories; no further page is read. */
  maxResults?: number;
}

/** {@link GetDependencyRepositoriesArgs} as `getDependencyRepositoriesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetDependencyRepositoriesOutputArgs = OutputArgs<GetDependencyRepositoriesArgs>;

export interface GetDependencyRepositoriesResult {
  /** In the service's order; `numDependencies` counts the matching dependencies. */
  repositories: RepositoryInfo[];
}

const repositoriesArgs = z.strictObject({
  deploymentId: id("deployment"),
  dependencyFilter: dependencyFilter.optional(),
  maxResults: z.number().int().positive().optional(),
});

/**
 * Repositories that have dependencies (matching the filter), every page read (100 a page) up to
 * `maxResults`.
 *
 * @example
 * ```ts
 * import { getDependencyRepositories } from "pulumi-semgrep";
 * const { repositories } = await getDependencyRepositories({
 *   deploymentId: "1",
 *   dependencyFilter: { packageFilters: [{ name: "log4j-core", exactNameMatch: true, versionUpperBound: "2.16.0" }] },
 * });
 * ```
 */
export async function getDependencyRepositories(
  args: GetDependencyRepositoriesArgs,
  opts?: SemgrepInvokeOptions,
): Promise<GetDependencyRepositoriesResult> {
  const { deploymentId, dependencyFilter: filter, maxResults } = parseArgs("getDependencyRepositories", repositoriesArgs, args);
  const pageSize = Math.min(MAX_DEPENDENCY_PAGE_SIZE, maxResults ?? MAX_DEPENDENCY_PAGE_SIZE);
  const listing = (await clientFor(opts)).dependencies.listRepositories(deploymentId, { dependencyFilter: filter, pageSize });
  return { repositories: (await listing.toArray(maxResults)).map(repositoryInfo) };
}

/**
 * {@link getDependencyRepositories} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getDependencyRepositoriesOutput } from "pulumi-semgrep";
 * export const usingLodash = getDependencyRepositoriesOutput({ deploymentId: "1", dependencyFilter: { name: "lodash" } })
 *   .repositories.apply((rs) => rs.map((r) => r.name));
 * ```
 */
export const getDependencyRepositoriesOutput: (
  args: GetDependencyRepositoriesOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetDependencyRepositoriesResult> = outputForm(getDependencyRepositories);

export interface GetLockfilesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** Numeric id of the repository. */
  repositoryId: string | number;
  /**
   * Only lockfiles with dependencies matching this filter. The lockfiles of an archived
   * repository are listed only with `includeArchived: true` (the service's default leaves
   * archived repositories out).
   */
  dependencyFilter?: DependencyFilter;
}

/** {@link GetLockfilesArgs} as `getLockfilesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetLockfilesOutputArgs = OutputArgs<GetLockfilesArgs>;

export interface GetLockfilesResult {
  /** By path. */
  lockfiles: LockfileInfo[];
}

const lockfilesArgs = z.strictObject({
  deploymentId: id("deployment"),
  repositoryId: id("repository"),
  dependencyFilter: dependencyFilter.optional(),
});

/**
 * The lockfiles of one repository (matching the filter), every page read.
 *
 * @example
 * ```ts
 * import { getLockfiles } from "pulumi-semgrep";
 * const { lockfiles } = await getLockfiles({ deploymentId: "1", repositoryId: "101" });
 * const direct = await getLockfiles({ deploymentId: "1", repositoryId: "101", dependencyFilter: { transitivity: ["DIRECT"] } });
 * ```
 */
export async function getLockfiles(args: GetLockfilesArgs, opts?: SemgrepInvokeOptions): Promise<GetLockfilesResult> {
  const { deploymentId, repositoryId, dependencyFilter: filter } = parseArgs("getLockfiles", lockfilesArgs, args);
  const lockfiles = await (
    await clientFor(opts)
  ).dependencies
    .listLockfiles(deploymentId, repositoryId, { dependencyFilter: filter })
    .toArray();
  return { lockfiles: lockfiles.map(lockfileInfo).sort((a, b) => a.lockfilePath.localeCompare(b.lockfilePath)) };
}

/**
 * {@link getLockfiles} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getLockfilesOutput } from "pulumi-semgrep";
 * export const lockfilePaths = getLockfilesOutput({ deploymentId: "1", repositoryId: "101" })
 *   .lockfiles.apply((ls) => ls.map((l) => l.lockfilePath));
 * ```
 */
export const getLockfilesOutput: (args: GetLockfilesOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetLockfilesResult> =
  outputForm(getLockfiles);

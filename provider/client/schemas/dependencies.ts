/** Dependency inventory: repositories with dependencies, lockfiles of a repository (operations 3, 4). */
import { z } from "zod";
import { count, flag, list, looseInt, text } from "./common";

export const MAX_DEPENDENCY_PAGE_SIZE = 100;

export const packageFilter = z.strictObject({
  name: z.string().optional(),
  exactNameMatch: z.boolean().optional(),
  exactVersion: z.string().optional(),
  versionLowerBound: z.string().optional(),
  versionUpperBound: z.string().optional(),
});

export const dependencyFilter = z.strictObject({
  license: z.array(z.string().min(1)).optional(),
  lockfilePath: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  version: z.string().min(1).optional(),
  repositoryId: z.array(z.number().int().nonnegative()).optional(),
  packageFilters: z.array(packageFilter).optional(),
});
export type DependencyFilter = z.input<typeof dependencyFilter>;

const pageSize = z.number().int().min(1).max(MAX_DEPENDENCY_PAGE_SIZE);

export const listRepositoriesRequest = z.strictObject({
  deploymentId: z.string().optional(),
  cursor: z.number().int().nonnegative().optional(),
  dependencyFilter: dependencyFilter.optional(),
  pageSize: pageSize.optional(),
});
export type ListRepositoriesRequest = z.input<typeof listRepositoriesRequest>;

export const repositorySummary = z.looseObject({
  id: looseInt,
  name: text,
  numDependencies: count,
  hasDependencyPathScan: flag,
});
export type RepositorySummary = z.output<typeof repositorySummary>;

export const listRepositoriesResponse = z.looseObject({
  cursor: looseInt.nullish(),
  hasMore: flag,
  repositorySummaries: list(repositorySummary),
});
export type ListRepositoriesResponse = z.output<typeof listRepositoriesResponse>;

export const listLockfilesRequest = z.strictObject({
  deploymentId: z.string().optional(),
  repositoryId: z.string().optional(),
  cursor: z.string().optional(),
  dependencyFilter: dependencyFilter.optional(),
  pageSize: pageSize.optional(),
});
export type ListLockfilesRequest = z.input<typeof listLockfilesRequest>;

export const lockfileSummary = z.looseObject({
  lockfilePath: text,
  numDependencies: count,
});
export type LockfileSummary = z.output<typeof lockfileSummary>;

export const listLockfilesResponse = z.looseObject({
  cursor: z.string().nullish(),
  hasMore: flag,
  lockfileSummaries: list(lockfileSummary),
});
export type ListLockfilesResponse = z.output<typeof listLockfilesResponse>;

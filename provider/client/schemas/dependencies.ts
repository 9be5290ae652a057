/** Dependency inventory: repositories with dependencies, lockfiles of a repository (operations 3, 4). */
import { z } from "zod";
import { count, flag, list, looseInt, oneOf, text } from "./common";
import { ECOSYSTEMS, LICENSE_POLICY_SETTINGS, TRANSITIVITIES } from "./enums";

export const MAX_DEPENDENCY_PAGE_SIZE = 100;

/** One package of `packageFilters`: a name and, optionally, an exact version or version bounds. */
export const packageFilter = z.strictObject({
  /** Package name, e.g. `"lodash"`: matched exactly with `exactNameMatch: true`, else as a part of the name. */
  name: z.string().optional(),
  /** `true`: `name` must match the whole package name. `false` or unset (the service's default): any name containing it. */
  exactNameMatch: z.boolean().optional(),
  /** Only this version, e.g. `"1.0.0"`; takes precedence over the version bounds. */
  exactVersion: z.string().optional(),
  /** Lower version bound, as the service's description writes it, e.g. `">=1.0.0"`; ignored with `exactVersion`. */
  versionLowerBound: z.string().optional(),
  /** Upper version bound, as the service's description writes it, e.g. `"<2.0.0"`; ignored with `exactVersion`. */
  versionUpperBound: z.string().optional(),
});
export type PackageFilter = z.input<typeof packageFilter>;

/**
 * What dependencies to count, in both listings. Every field given must hold; a list matches when
 * any of its values does; an empty list filters nothing.
 */
export const dependencyFilter = z.strictObject({
  /** Licenses, e.g. `["MIT"]`. */
  license: z.array(z.string().min(1)).optional(),
  /** Path of the lockfile, e.g. `foo/bar/package-lock.json`. */
  lockfilePath: z.string().min(1).optional(),
  /** Deprecated by the service in favour of `packageFilters`. */
  name: z.string().min(1).optional(),
  /** Dependency version, e.g. `"1.0.1"`. Deprecated by the service in favour of `packageFilters`. */
  version: z.string().min(1).optional(),
  /** Repository ids; leave out where the operation has the repository in its path. */
  repositoryId: z.array(z.number().int().nonnegative()).optional(),
  /** Packages by name and version bounds; a dependency matching any one of them counts. */
  packageFilters: z.array(packageFilter).optional(),
  /** Package ecosystems, e.g. `["npm", "pypi"]`. */
  ecosystem: oneOf(ECOSYSTEMS),
  /** `DIRECT`, `TRANSITIVE` or `UNKNOWN_TRANSITIVITY` dependencies. */
  transitivity: oneOf(TRANSITIVITIES),
  /**
   * Outcomes of the license policy, e.g. `["LICENSE_POLICY_SETTING_BLOCK"]`;
   * `LICENSE_POLICY_SETTING_UNSPECIFIED` (the enum's zero value) asks for none and is left out.
   */
  licensePolicySettings: oneOf(LICENSE_POLICY_SETTINGS),
  /**
   * `true`: only dependencies of archived repositories. `false` or unset: archived repositories
   * are left out (the service's default).
   */
  includeArchived: z.boolean().optional(),
});
export type DependencyFilter = z.input<typeof dependencyFilter>;

/**
 * The body of either dependency listing: the deployment, the listing's own fields (where the page
 * starts, which repository), then the filter and the page size both take.
 */
const listingRequest = <Own extends z.ZodRawShape>(own: Own) =>
  z.strictObject({
    deploymentId: z.string().optional(),
    ...own,
    dependencyFilter: dependencyFilter.optional(),
    pageSize: z.number().int().min(1).max(MAX_DEPENDENCY_PAGE_SIZE).optional(),
  });

export const listRepositoriesRequest = listingRequest({
  /**
   * The previous page's `cursor`: an int64, which protobuf's JSON mapping takes as a number or as
   * a numeric string (the form it writes int64 in), so a script may send either back.
   */
  cursor: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "expected a whole number").transform(Number)]).optional(),
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

export const listLockfilesRequest = listingRequest({
  repositoryId: z.string().optional(),
  cursor: z.string().optional(),
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

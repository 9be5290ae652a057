/**
 * The dependency filter of both dependency listings over the stored repositories. Every field
 * given must hold; a list matches when any of its values does; an empty list filters nothing.
 */
import type { z } from "zod";
import type { dependencyFilter, PackageFilter } from "../client/schemas/dependencies";
import type { StoredDependency, StoredLockfile, StoredRepository } from "./model";

export type Filter = z.output<typeof dependencyFilter>;

/** Matching dependencies of each lockfile of `repo`, those with none included. */
export function lockfileCounts(
  repo: StoredRepository,
  filter: Filter | undefined,
): Array<{ lockfilePath: string; numDependencies: number }> {
  if (!repositoryMatches(repo, filter)) return [];
  return repo.lockfiles.map((l) => ({ lockfilePath: l.lockfilePath, numDependencies: matchingDependencies(l, filter).length }));
}

/** Matching dependencies of `repo` in all its lockfiles. */
export function dependencyCount(repo: StoredRepository, filter: Filter | undefined): number {
  return lockfileCounts(repo, filter).reduce((n, l) => n + l.numDependencies, 0);
}

function repositoryMatches(repo: StoredRepository, filter: Filter | undefined): boolean {
  // The OpenAPI: true gives only archived repositories; false or unset leaves them out.
  // `=== true` also reads a state file written before repositories had the flag.
  if ((repo.archived === true) !== (filter?.includeArchived === true)) return false;
  return anyOf(filter?.repositoryId, (id) => id === repo.id);
}

function matchingDependencies(lockfile: StoredLockfile, filter: Filter | undefined): StoredDependency[] {
  if (!filter) return lockfile.dependencies;
  if (filter.lockfilePath !== undefined && lockfile.lockfilePath !== filter.lockfilePath) return [];
  return lockfile.dependencies.filter((d) => dependencyMatches(d, filter));
}

function dependencyMatches(dep: StoredDependency, filter: Filter): boolean {
  return (
    (filter.name === undefined || dep.name.includes(filter.name)) &&
    (filter.version === undefined || dep.version === filter.version) &&
    anyOf(filter.license, (license) => license === dep.license) &&
    anyOf(filter.packageFilters, (pf) => packageMatches(dep, pf)) &&
    anyOf(filter.ecosystem, (ecosystem) => ecosystem === dep.ecosystem) &&
    anyOf(filter.transitivity, (transitivity) => transitivity === dep.transitivity) &&
    // UNSPECIFIED, the enum's zero value, asks for no particular outcome: it is left out.
    anyOf(
      filter.licensePolicySettings?.filter((setting) => setting !== "LICENSE_POLICY_SETTING_UNSPECIFIED"),
      (setting) => setting === dep.licensePolicySetting,
    )
  );
}

/** A list filter: absent or empty filters nothing, otherwise one value must match. */
function anyOf<T>(values: readonly T[] | undefined, matches: (value: T) => boolean): boolean {
  return !values?.length || values.some(matches);
}

function packageMatches(dep: StoredDependency, pf: PackageFilter): boolean {
  return (
    (pf.name === undefined || (pf.exactNameMatch ? dep.name === pf.name : dep.name.includes(pf.name))) &&
    (pf.exactVersion === undefined || dep.version === pf.exactVersion) &&
    (pf.versionLowerBound === undefined || compareVersions(dep.version, pf.versionLowerBound) >= 0) &&
    (pf.versionUpperBound === undefined || compareVersions(dep.version, pf.versionUpperBound) <= 0)
  );
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

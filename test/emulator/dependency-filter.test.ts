/**
 * The emulator's dependency filter, checked against its own stored data: every field given must
 * hold, a list matches when any of its values does, archived repositories only on request.
 */
import { describe, expect, it } from "vitest";
import type { DependencyFilter } from "../../provider/client";
import type { StoredDependency, StoredRepository } from "../../provider/emulator/model";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });

type Wanted = (dep: StoredDependency, lockfilePath: string) => boolean;

const stored = (): StoredRepository[] => env.emulator.state().repositories;

/** What the listing should answer: matching dependencies per repository, in stored order. */
function expectedRepositories(wanted: Wanted, archived = false): Array<[number, number]> {
  return stored()
    .filter((r) => r.archived === archived)
    .map((r): [number, number] => [r.id, expectedLockfiles(r, wanted).reduce((n, [, count]) => n + count, 0)])
    .filter(([, count]) => count > 0);
}

function expectedLockfiles(repo: StoredRepository, wanted: Wanted): Array<[string, number]> {
  return repo.lockfiles
    .map((l): [string, number] => [l.lockfilePath, l.dependencies.filter((d) => wanted(d, l.lockfilePath)).length])
    .filter(([, count]) => count > 0);
}

async function repositories(dependencyFilter?: DependencyFilter): Promise<Array<[number, number]>> {
  const repos = await env.client().dependencies.listRepositories(1, { dependencyFilter }).toArray();
  return repos.map((r) => [r.id, r.numDependencies]);
}

async function lockfiles(repositoryId: number, dependencyFilter?: DependencyFilter): Promise<Array<[string, number]>> {
  const files = await env.client().dependencies.listLockfiles(1, repositoryId, { dependencyFilter }).toArray();
  return files.map((l) => [l.lockfilePath, l.numDependencies]);
}

const total = (rows: Array<[unknown, number]>) => rows.reduce((n, [, count]) => n + count, 0);
const BLOCK = "LICENSE_POLICY_SETTING_BLOCK";

describe("each field narrows, lists match any value, fields all hold", () => {
  const cases: Array<[string, DependencyFilter, Wanted]> = [
    ["an ecosystem", { ecosystem: ["cargo"] }, (d) => d.ecosystem === "cargo"],
    ["either of two ecosystems", { ecosystem: ["cargo", "gem"] }, (d) => d.ecosystem === "cargo" || d.ecosystem === "gem"],
    ["a transitivity", { transitivity: ["DIRECT"] }, (d) => d.transitivity === "DIRECT"],
    ["unknown transitivity", { transitivity: ["UNKNOWN_TRANSITIVITY"] }, (d) => d.transitivity === "UNKNOWN_TRANSITIVITY"],
    ["a license policy outcome", { licensePolicySettings: [BLOCK] }, (d) => d.licensePolicySetting === BLOCK],
    [
      "two license policy outcomes",
      { licensePolicySettings: [BLOCK, "LICENSE_POLICY_SETTING_COMMENT"] },
      (d) => d.licensePolicySetting === BLOCK || d.licensePolicySetting === "LICENSE_POLICY_SETTING_COMMENT",
    ],
    [
      "ecosystem, transitivity and license policy together",
      { ecosystem: ["npm"], transitivity: ["DIRECT"], licensePolicySettings: [BLOCK] },
      (d) => d.ecosystem === "npm" && d.transitivity === "DIRECT" && d.licensePolicySetting === BLOCK,
    ],
    [
      "a new field with an older one",
      { license: ["MIT"], transitivity: ["TRANSITIVE"] },
      (d) => d.license === "MIT" && d.transitivity === "TRANSITIVE",
    ],
    [
      "a new field with a lockfile path",
      { lockfilePath: "package-lock.json", ecosystem: ["pypi"] },
      (d, path) => path === "package-lock.json" && d.ecosystem === "pypi",
    ],
    [
      "either of two package filters",
      {
        packageFilters: [
          { name: "lodash", exactNameMatch: true },
          { name: "django", exactNameMatch: true },
        ],
      },
      (d) => d.name === "lodash" || d.name === "django",
    ],
  ];

  it.each(cases)("%s", async (_name, filter, wanted) => {
    const all = await repositories();
    const expected = expectedRepositories(wanted);
    expect(total(expected)).toBeGreaterThan(0);
    expect(total(expected)).toBeLessThan(total(all));
    expect(await repositories(filter)).toEqual(expected);
    for (const repo of stored()
      .filter((r) => !r.archived)
      .slice(0, 4)) {
      expect(await lockfiles(repo.id, filter)).toEqual(expectedLockfiles(repo, wanted));
    }
  });

  it("narrows the repositories themselves, not only their counts", async () => {
    const blockedDirect = await repositories({ transitivity: ["DIRECT"], licensePolicySettings: [BLOCK] });
    expect(blockedDirect.length).toBeGreaterThan(0);
    expect(blockedDirect.length).toBeLessThan((await repositories()).length);
    const repo = stored().find((r) => r.lockfiles.some((l) => l.lockfilePath.endsWith("requirements.txt")))!;
    const unknown = await lockfiles(repo.id, { transitivity: ["UNKNOWN_TRANSITIVITY"] });
    expect(unknown.map(([path]) => path)).toEqual(repo.lockfiles.map((l) => l.lockfilePath).filter((p) => p.endsWith("requirements.txt")));
  });

  it("leaves LICENSE_POLICY_SETTING_UNSPECIFIED out of the filter, and reads empty lists as no filter", async () => {
    const all = await repositories();
    expect(await repositories({ licensePolicySettings: ["LICENSE_POLICY_SETTING_UNSPECIFIED"] })).toEqual(all);
    expect(await repositories({ licensePolicySettings: [BLOCK, "LICENSE_POLICY_SETTING_UNSPECIFIED"] })).toEqual(
      await repositories({ licensePolicySettings: [BLOCK] }),
    );
    expect(await repositories({ ecosystem: [], transitivity: [], licensePolicySettings: [] })).toEqual(all);
  });
});

describe("includeArchived", () => {
  const archivedIds = () =>
    stored()
      .filter((r) => r.archived)
      .map((r) => r.id);

  it("leaves archived repositories out when false or unset, and gives only them when true", async () => {
    expect(archivedIds()).toEqual([9001, 9002]);
    const active = await repositories();
    expect(active).toHaveLength(14);
    expect(active).toEqual(expectedRepositories(() => true));
    expect(await repositories({ includeArchived: false })).toEqual(active);
    expect(await repositories({ includeArchived: true })).toEqual(expectedRepositories(() => true, true));
    expect((await repositories({ includeArchived: true })).map(([id]) => id)).toEqual(archivedIds());
    expect(await repositories({ includeArchived: true, ecosystem: ["npm"] })).toEqual(
      expectedRepositories((d) => d.ecosystem === "npm", true),
    );
  });

  it("applies to the lockfiles of one repository too", async () => {
    const [archived] = stored().filter((r) => r.archived);
    expect(await lockfiles(archived!.id)).toEqual([]);
    expect(await lockfiles(archived!.id, { includeArchived: false })).toEqual([]);
    expect(await lockfiles(archived!.id, { includeArchived: true })).toEqual(expectedLockfiles(archived!, () => true));
    expect(await lockfiles(101, { includeArchived: true })).toEqual([]);
    expect((await lockfiles(101)).length).toBeGreaterThan(0);
  });

  it("keeps archived repositories out of the project listing, as the OpenAPI says", async () => {
    const projects = await env.client().projects.list("acme").toArray();
    const names = new Set(projects.map((p) => p.name));
    for (const repo of stored().filter((r) => r.archived)) expect(names.has(repo.name)).toBe(false);
  });
});

/** Every data-source function and its Output twin against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  getDependencyRepositories,
  getDependencyRepositoriesOutput,
  getLockfiles,
  getLockfilesOutput,
  getPolicies,
  getPoliciesOutput,
  getPolicy,
  getPolicyOutput,
  getPolicyRules,
  getPolicyRulesOutput,
  getProject,
  getProjectOutput,
  getProjects,
  getProjectsOutput,
  getScan,
  getScanOutput,
  getScans,
  getScansOutput,
  type DependencyFilter,
  InvalidRequestError,
} from "../../provider";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "large" });
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

/** The value of an Output, and whether it is secret (test-only: reads Pulumi's internals). */
async function resolve<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const internal = output as unknown as { promise(): Promise<T>; isSecret: Promise<boolean> };
  return { value: await internal.promise(), secret: await internal.isSecret };
}

const count = (operation: string) => env.requests(operation).length;

describe("policies", () => {
  it("getPolicies / getPoliciesOutput list every policy by id", async () => {
    const { policies } = await getPolicies({ deploymentId: 1 });
    expect(policies.map((p) => p.id)).toEqual(["10", "11", "12"]);
    expect((await resolve(getPoliciesOutput({ deploymentId: pulumi.output("1") }))).value).toEqual({ policies });
  });

  it("getPolicy picks the default SAST policy by its fields", async () => {
    const policy = await getPolicy({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST", isDefault: true });
    expect(policy).toEqual({
      id: "10",
      name: "Default SAST Policy",
      slug: "default-sast-policy",
      isDefault: true,
      productType: "PRODUCT_TYPE_SAST",
    });
    expect((await resolve(getPolicyOutput({ deploymentId: "1", slug: pulumi.output("strict-sast-pilot") }))).value.id).toBe("12");
  });

  it("getPolicy names the criteria when none or several policies match", async () => {
    await expect(getPolicy({ deploymentId: "1", name: "Nope" })).rejects.toThrow(
      /no policy of deployment 1 matches name="Nope"; its policies: 10 "Default SAST Policy"/,
    );
    await expect(getPolicy({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST" })).rejects.toThrow(
      /2 policies of deployment 1 match productType="PRODUCT_TYPE_SAST": 10 "Default SAST Policy" \(PRODUCT_TYPE_SAST, default\); 12/,
    );
  });
});

describe("getPolicyRules", () => {
  it("reads all 5,000 rules of a policy in 3 requests, sorted by path", async () => {
    const { policy, rules } = await getPolicyRules({ deploymentId: "1", policyId: SAST_POLICY_ID });
    expect(policy.id).toBe(SAST_POLICY_ID);
    expect(rules).toHaveLength(5000);
    expect(rules.map((r) => r.path)).toEqual([...rules.map((r) => r.path)].sort((a, b) => a.localeCompare(b)));
    expect(count("policies.listRules")).toBe(3);
  });

  it("filters by every criterion", async () => {
    const filter = {
      rulePathPrefix: "python.",
      severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"],
      confidences: ["CONFIDENCE_HIGH"],
      categories: ["security"],
      sources: ["SOURCE_COMMUNITY"],
      languages: ["python"],
      modes: ["MODE_BLOCK", "MODE_COMMENT"],
    };
    const { rules } = await getPolicyRules({ deploymentId: "1", policyId: SAST_POLICY_ID, filter });
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.path.startsWith("python.")).toBe(true);
      expect(filter.severities).toContain(rule.severity);
      expect(rule).toMatchObject({ confidence: "CONFIDENCE_HIGH", category: "security", source: "SOURCE_COMMUNITY" });
      expect(rule.languages).toContain("python");
      expect(filter.modes).toContain(rule.mode);
    }
    const viaOutput = await resolve(
      getPolicyRulesOutput({ deploymentId: "1", policyId: getPolicyOutput({ deploymentId: "1", slug: "default-sast-policy" }).id, filter }),
    );
    expect(viaOutput.value.rules).toEqual(rules);
    // Nested fields may be Inputs too: a filter list built from Outputs and Promises.
    const nested = {
      ...filter,
      severities: [pulumi.output("SEVERITY_HIGH"), Promise.resolve("SEVERITY_CRITICAL")],
      categories: pulumi.output(["security"]),
    };
    expect((await resolve(getPolicyRulesOutput({ deploymentId: "1", policyId: SAST_POLICY_ID, filter: nested }))).value.rules).toEqual(
      rules,
    );
  });

  it("refuses an unknown filter value, naming the field, before any request", async () => {
    await expect(getPolicyRules({ deploymentId: "1", policyId: "10", filter: { severities: ["SEVERITY_HUGE"] } })).rejects.toThrow(
      /getPolicyRules: invalid request: filter\.severities\.0: must be one of SEVERITY_LOW/,
    );
    await expect(getPolicyRules({ deploymentId: "1", policyId: "10", filter: { mode: ["MODE_BLOCK"] } as never })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(env.requests()).toEqual([]);
  });
});

describe("scans", () => {
  it("getScans reads every scan in 4 requests of 500, newest first, numbers as numbers", async () => {
    const { scans } = await getScans({ deploymentId: "1" });
    expect(scans).toHaveLength(2000);
    expect(count("scans.search")).toBe(4);
    expect(typeof scans[0]!.id).toBe("number");
    expect(scans[0]!.id).toBeGreaterThan(scans[1]!.id);
    expect(typeof scans[0]!.findingsCounts.total).toBe("number");
  });

  it("getScans stops at maxResults without reading further pages", async () => {
    const { scans } = await getScans({ deploymentId: "1", maxResults: 30 });
    expect(scans).toHaveLength(30);
    expect(count("scans.search")).toBe(1);
    const [request] = env.requests("scans.search");
    expect(request).toBeDefined();
  });

  it("getScans applies every filter", async () => {
    const { scans } = await getScans({
      deploymentId: "1",
      branch: "refs/heads/main",
      repositoryId: 101,
      statuses: ["SCAN_STATUS_COMPLETED"],
      products: ["PRODUCT_SAST"],
      since: "2026-01-01T00:00:00Z",
      isFullScan: true,
      totalTime: { min: 1 },
    });
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans)
      expect(scan).toMatchObject({ branch: "refs/heads/main", repositoryId: 101, status: "SCAN_STATUS_COMPLETED", isFullScan: true });
    const output = await resolve(getScansOutput({ deploymentId: "1", statuses: ["SCAN_STATUS_ERROR"], maxResults: 5 }));
    expect(output.value.scans.map((s) => s.status)).toEqual(Array(5).fill("SCAN_STATUS_ERROR"));
  });

  it("getScans refuses a bad status or date before any request", async () => {
    await expect(getScans({ deploymentId: "1", statuses: ["FINE"] })).rejects.toThrow(
      /statuses\.0: must be one of SCAN_STATUS_UNSPECIFIED, SCAN_STATUS_RUNNING/,
    );
    await expect(getScans({ deploymentId: "1", since: "yesterday" })).rejects.toThrow(/since: must be an ISO 8601 date-time/);
    expect(env.requests()).toEqual([]);
  });

  it("getScan returns the details; getScanOutput makes the personal data secret", async () => {
    const [latest] = (await getScans({ deploymentId: "1", statuses: ["SCAN_STATUS_COMPLETED"], maxResults: 1 })).scans;
    const scan = await getScan({ deploymentId: "1", scanId: latest!.id });
    expect(scan).toMatchObject({
      id: latest!.id,
      repositoryId: latest!.repositoryId,
      meta: { commitAuthorEmail: expect.stringContaining("@") },
    });
    const output = getScanOutput({ deploymentId: "1", scanId: pulumi.output(latest!.id) });
    const email = await resolve(output.meta.commitAuthorEmail as unknown as pulumi.Output<string>);
    expect(email).toEqual({ value: scan.meta.commitAuthorEmail, secret: true });
    for (const field of ["commitAuthorName", "commitAuthorUsername"] as const)
      expect((await resolve(output.meta[field] as unknown as pulumi.Output<string>)).secret).toBe(true);
    expect(await resolve(output.stats.findings as pulumi.Output<number | undefined>)).toEqual({
      value: scan.stats.findings,
      secret: false,
    });
    expect(await resolve(output.meta.repository as pulumi.Output<string | undefined>)).toEqual({
      value: scan.meta.repository,
      secret: false,
    });
  });
});

describe("projects and dependencies", () => {
  it("getProject / getProjectOutput", async () => {
    const project = await getProject({ deploymentSlug: "acme", projectName: "acme/web-app" });
    expect(project).toMatchObject({
      id: 101,
      name: "acme/web-app",
      // The large preset's projects with managed scans carry the system tag, reported as live.
      tags: ["team:web", "tier:1", "managed-scan"],
      managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
    });
    const output = getProjectOutput({ deploymentSlug: "acme", projectName: pulumi.output("acme/web-app") });
    expect((await resolve(output.apply((p) => p.primaryBranch))).value).toEqual(project.primaryBranch);
    // The whole tag set is a secret: it may hold a tag some resource declares as one.
    expect(await resolve(output.tags)).toEqual({ value: project.tags, secret: true });
    expect((await resolve(output.name)).secret).toBe(false);
  });

  it("getProjects lists every project by name in one read of the listing, and none of a single project", async () => {
    const { projects, names } = await getProjects({ deploymentSlug: "acme" });
    expect(projects).toHaveLength(300);
    expect(names).toEqual(projects.map((p) => p.name));
    expect(names).toEqual([...names].sort());
    const webApp = projects.find((p) => p.name === "acme/web-app")!;
    expect(webApp).toEqual({
      id: 101,
      name: "acme/web-app",
      tags: ["team:web", "tier:1", "managed-scan"],
      createdAt: expect.any(String),
      defaultBranch: "refs/heads/main",
      primaryBranch: "refs/heads/main",
      latestScanAt: expect.any(String),
      url: "https://github.com/acme/web-app",
    });
    // 300 projects: one page of 3,000, short, so the last.
    expect(count("projects.list")).toBe(1);
    expect(count("projects.get")).toBe(0);
  });

  it("getProjects / getProjectsOutput pick what a select picks: any pattern, any tag, both when both, less exclude", async () => {
    const live = env.emulator.state().projects;
    const select = { namePatterns: ["acme/*-1?", "acme/payments-*"], tags: ["team:data", "tier:0"], exclude: ["acme/infra-12"] };
    const expected = live
      .filter((p) => /^acme\/([^/]*-1[^/]|payments-[^/]*)$/.test(p.name))
      .filter((p) => p.tags.includes("team:data") || p.tags.includes("tier:0"))
      .filter((p) => p.name !== "acme/infra-12")
      .map((p) => p.name)
      .sort();
    expect(expected.length).toBeGreaterThan(1);
    expect((await getProjects({ deploymentSlug: "acme", select })).names).toEqual(expected);
    const output = getProjectsOutput({
      deploymentSlug: pulumi.output("acme"),
      select: { ...select, tags: [pulumi.output("team:data"), "tier:0"] },
    });
    expect(await resolve(output.names)).toEqual({ value: expected, secret: false });
    // Each project's whole tag set is a secret, as getProjectOutput's.
    const [first] = (await resolve(output.projects)).value;
    expect(await resolve(first!.tags)).toEqual({ value: live.find((p) => p.name === expected[0])!.tags, secret: true });
    expect(count("projects.list")).toBe(2);
    expect(count("projects.get")).toBe(0);
  });

  it("getProjects refuses a select that would pick every project, before any request", async () => {
    await expect(getProjects({ deploymentSlug: "acme", select: { exclude: ["acme/web-app"] } })).rejects.toThrow(
      /getProjects.*select: must give at least one criterion/s,
    );
    await expect(getProjects({ deploymentSlug: "acme", select: { tags: [] } })).rejects.toThrow(/select\.tags: must not be empty/);
    expect(env.requests()).toEqual([]);
  });

  it("getDependencyRepositories reads 300 repositories in 3 requests, and stops at maxResults", async () => {
    expect((await getDependencyRepositories({ deploymentId: "1" })).repositories).toHaveLength(300);
    expect(count("dependencies.listRepositories")).toBe(3);
    const few = await getDependencyRepositories({ deploymentId: "1", maxResults: 7 });
    expect(few.repositories).toHaveLength(7);
    expect(count("dependencies.listRepositories")).toBe(4);
    const filtered = await resolve(
      getDependencyRepositoriesOutput({
        deploymentId: "1",
        dependencyFilter: { packageFilters: [{ name: "log4j-core", exactNameMatch: true }] },
      }),
    );
    expect(filtered.value.repositories.length).toBeGreaterThan(0);
    expect(filtered.value.repositories.length).toBeLessThan(300);
  });

  it("getLockfiles / getLockfilesOutput, sorted by path", async () => {
    const { lockfiles } = await getLockfiles({ deploymentId: "1", repositoryId: 101 });
    expect(lockfiles.length).toBeGreaterThan(0);
    expect(lockfiles.map((l) => l.lockfilePath)).toEqual([...lockfiles.map((l) => l.lockfilePath)].sort((a, b) => a.localeCompare(b)));
    expect((await resolve(getLockfilesOutput({ deploymentId: "1", repositoryId: "101" }))).value).toEqual({ lockfiles });
    await expect(getLockfiles({ deploymentId: "1", repositoryId: 101, dependencyFilter: { licence: ["MIT"] } as never })).rejects.toThrow(
      /Unrecognized key: "licence"/,
    );
  });

  it("getDependencyRepositories / getLockfiles filter by ecosystem, transitivity, license policy and archived state", async () => {
    const filter: DependencyFilter = {
      ecosystem: ["npm"],
      transitivity: ["DIRECT"],
      licensePolicySettings: ["LICENSE_POLICY_SETTING_BLOCK"],
    };
    const all = await getDependencyRepositories({ deploymentId: "1" });
    const blocked = await getDependencyRepositories({ deploymentId: "1", dependencyFilter: filter });
    expect(blocked.repositories.length).toBeGreaterThan(0);
    expect(blocked.repositories.length).toBeLessThan(100);
    expect(count("dependencies.listRepositories")).toBe(4); // 3 for every repository, 1 for the few matching
    const [first] = blocked.repositories;
    expect(first!.numDependencies).toBeLessThan(all.repositories.find((r) => r.id === first!.id)!.numDependencies);
    // Both listings count the same dependencies.
    const viaLockfiles = await resolve(
      getLockfilesOutput({ deploymentId: "1", repositoryId: pulumi.output(String(first!.id)), dependencyFilter: filter }),
    );
    expect(viaLockfiles.value.lockfiles.reduce((n, l) => n + l.numDependencies, 0)).toBe(first!.numDependencies);

    const archived = await resolve(getDependencyRepositoriesOutput({ deploymentId: "1", dependencyFilter: { includeArchived: true } }));
    expect(archived.value.repositories).toHaveLength(10);
    expect(count("dependencies.listRepositories")).toBe(5);
    const allIds = new Set(all.repositories.map((r) => r.id));
    for (const repo of archived.value.repositories) expect(allIds.has(repo.id)).toBe(false);
    const archivedId = archived.value.repositories[0]!.id;
    expect((await getLockfiles({ deploymentId: "1", repositoryId: archivedId })).lockfiles).toEqual([]);
    expect(
      (await getLockfiles({ deploymentId: "1", repositoryId: archivedId, dependencyFilter: { includeArchived: true } })).lockfiles.length,
    ).toBeGreaterThan(0);
  });

  it("refuses an unknown ecosystem, transitivity or license policy outcome, naming the field, before any request", async () => {
    await expect(getDependencyRepositories({ deploymentId: "1", dependencyFilter: { ecosystem: ["npmjs" as never] } })).rejects.toThrow(
      /getDependencyRepositories: invalid request: dependencyFilter\.ecosystem\.0: must be one of no_package_manager, npm, /,
    );
    await expect(
      getLockfiles({ deploymentId: "1", repositoryId: 101, dependencyFilter: { transitivity: ["INDIRECT" as never] } }),
    ).rejects.toThrow(
      /getLockfiles: invalid request: dependencyFilter\.transitivity\.0: must be one of UNKNOWN_TRANSITIVITY, TRANSITIVE, DIRECT/,
    );
    await expect(
      getDependencyRepositories({ deploymentId: "1", dependencyFilter: { licensePolicySettings: ["ALLOW" as never] } }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(
      getLockfiles({ deploymentId: "1", repositoryId: 101, dependencyFilter: { includeArchived: "yes" as never } }),
    ).rejects.toThrow(/dependencyFilter\.includeArchived: Invalid input: expected boolean/);
    expect(env.requests()).toEqual([]);
  });

  it("takes the token and address from the call's options over the environment", async () => {
    const { policies } = await getPolicies({ deploymentId: "1" }, { url: env.emulator.url, token: env.emulator.token });
    expect(policies).toHaveLength(3);
    await expect(getPolicies({ deploymentId: "1" }, { token: "wrong" })).rejects.toThrow(/401/);
  });
});

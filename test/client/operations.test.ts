/** Every v1 operation the client implements, through the client, against the emulator over HTTP. */
import { describe, expect, it } from "vitest";
import { NotFoundError, type SbomFormatVersion } from "../../provider/client";
import { MAX_URL_LENGTH } from "../../provider/client/api/projects";
import { SAST_POLICY_ID, SECRETS_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { startRecordingProxy } from "../support/recording-proxy";

const env = useEmulator({ preset: "demo" });

describe("scans", () => {
  it("searches scans (1) with filters, ids and counts parsed from strings", async () => {
    const client = env.client();
    const page = await client.scans.searchPage(1, { limit: 5, statuses: ["SCAN_STATUS_ERROR"] });
    expect(page.scans).toHaveLength(5);
    for (const scan of page.scans) {
      expect(scan.status).toBe("SCAN_STATUS_ERROR");
      expect(typeof scan.exit_code).toBe("number");
      expect([0, 1]).not.toContain(scan.exit_code);
      expect(typeof scan.findings_counts?.total).toBe("number");
      expect(scan.deployment_id).toBe("1");
    }
    expect(page.cursor).toBeTruthy();
    expect(env.requests("scans.search")).toHaveLength(1);
  });

  it("sends is_full_scan as a boolean, the form Semgrep's scan-health script sends, also when given the OpenAPI's 1 or 0", async () => {
    const proxy = await startRecordingProxy(env.emulator.url);
    try {
      const client = env.client({ baseUrl: proxy.url });
      const full = await client.scans.searchPage(1, { is_full_scan: 1 });
      const diff = await client.scans.searchPage(1, { is_full_scan: false });
      expect(proxy.exchanges.map((e) => (e.body as { is_full_scan: unknown }).is_full_scan)).toEqual([true, false]);
      expect(full.scans.length).toBeGreaterThan(0);
      expect(full.scans.every((s) => s.is_full_scan)).toBe(true);
      expect(diff.scans.length).toBeGreaterThan(0);
      expect(diff.scans.every((s) => !s.is_full_scan)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it("keeps completed scans at exit code 0 or 1 (the spec's state table)", async () => {
    const completed = await env
      .client()
      .scans.search(1, { statuses: ["SCAN_STATUS_COMPLETED"] })
      .toArray();
    expect(completed.length).toBeGreaterThan(50);
    expect(new Set(completed.map((s) => s.exit_code))).toEqual(new Set([0, 1]));
  });

  it("filters by branch, repository, full scans, products, since and total time", async () => {
    const client = env.client();
    const all = await client.scans.search(1).toArray();
    const filtered = await client.scans
      .search(1, {
        branch: "refs/heads/main",
        repository_id: 101,
        is_full_scan: 1,
        products: ["PRODUCT_SAST"],
        since: "2026-01-01T00:00:00Z",
        total_time: { min: 10 },
      })
      .toArray();
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(all.length);
    for (const scan of filtered) {
      expect(scan).toMatchObject({ branch: "refs/heads/main", repository_id: "101", is_full_scan: true });
      expect(scan.enabled_products).toContain("sast");
      expect(Date.parse(scan.started_at!)).toBeGreaterThan(Date.parse("2026-01-01T00:00:00Z"));
      expect(scan.total_time).toBeGreaterThanOrEqual(10);
    }
  });

  it("reads one scan's details (2), with the space-separated timestamp form", async () => {
    const client = env.client();
    const [summary] = await client.scans.search(1, { statuses: ["SCAN_STATUS_COMPLETED"] }).toArray(1);
    const detail = await client.scans.get(1, summary!.id);
    expect(detail.id).toBe(Number(summary!.id));
    expect(detail.started_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(detail.meta?.on).toMatch(/push|pull_request/);
    expect(detail.meta?.commit_author_email).toContain("@");
    expect(detail.stats?.findings).toBeGreaterThanOrEqual(0);
    await expect(client.scans.get(1, 999_999)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("dependencies", () => {
  it("lists repositories with dependencies (3) with a filter", async () => {
    const client = env.client();
    const all = await client.dependencies.listRepositories(1).toArray();
    expect(all).toHaveLength(14);
    const lodash = await client.dependencies.listRepositories(1, { dependencyFilter: { name: "lodash" } }).toArray();
    expect(lodash.length).toBeGreaterThan(0);
    expect(lodash.length).toBeLessThan(all.length);
    const gpl = await client.dependencies.listRepositories(1, { dependencyFilter: { license: ["GPL-3.0-only"] } }).toArray();
    for (const repo of gpl) expect(repo.numDependencies).toBeGreaterThan(0);
  });

  it("lists the lockfiles of a repository (4)", async () => {
    const client = env.client();
    const [repo] = await client.dependencies.listRepositories(1).toArray(1);
    const lockfiles = await client.dependencies.listLockfiles(1, repo!.id).toArray();
    expect(lockfiles.length).toBeGreaterThan(0);
    expect(lockfiles.reduce((n, l) => n + l.numDependencies, 0)).toBe(repo!.numDependencies);
    await expect(client.dependencies.listLockfiles(1, 424242).toArray()).rejects.toBeInstanceOf(NotFoundError);
  });

  it("sends ecosystem, transitivity, license policy and archived filters (3, 4)", async () => {
    const client = env.client();
    const total = (repos: Array<{ numDependencies: number }>) => repos.reduce((n, r) => n + r.numDependencies, 0);
    const all = await client.dependencies.listRepositories(1).toArray();
    const npm = await client.dependencies.listRepositories(1, { dependencyFilter: { ecosystem: ["npm"] } }).toArray();
    const npmDirect = await client.dependencies
      .listRepositories(1, { dependencyFilter: { ecosystem: ["npm"], transitivity: ["DIRECT"] } })
      .toArray();
    expect(total(npm)).toBeLessThan(total(all));
    expect(total(npmDirect)).toBeGreaterThan(0);
    expect(total(npmDirect)).toBeLessThan(total(npm));
    const unspecified = await client.dependencies
      .listRepositories(1, { dependencyFilter: { licensePolicySettings: ["LICENSE_POLICY_SETTING_UNSPECIFIED"] } })
      .toArray();
    expect(unspecified).toEqual(all);

    const archived = await client.dependencies.listRepositories(1, { dependencyFilter: { includeArchived: true } }).toArray();
    expect(archived.map((r) => r.name)).toEqual(["acme/legacy-monolith", "acme/old-website"]);
    expect(all.map((r) => r.id)).not.toContain(archived[0]!.id);
    expect(await client.dependencies.listLockfiles(1, archived[0]!.id).toArray()).toEqual([]);
    const lockfiles = await client.dependencies
      .listLockfiles(1, archived[0]!.id, { dependencyFilter: { includeArchived: true } })
      .toArray();
    expect(lockfiles.reduce((n, l) => n + l.numDependencies, 0)).toBe(archived[0]!.numDependencies);
  });
});

describe("policies and rules", () => {
  it("lists policies (5)", async () => {
    const policies = await env.client().policies.list(1);
    expect(policies.map((p) => p.id)).toEqual([SAST_POLICY_ID, SECRETS_POLICY_ID, "12"]);
    expect(policies.find((p) => p.isDefault && p.productType === "PRODUCT_TYPE_SAST")?.name).toBe("Default SAST Policy");
  });

  it("lists a policy's rules (6) with vulnerabilityClass always a list", async () => {
    const page = await env.client().policies.listRulesPage(1, SAST_POLICY_ID, { limit: 10 });
    expect(page.policy?.id).toBe(SAST_POLICY_ID);
    expect(page.rules).toHaveLength(10);
    expect(page.rules[0]?.path).toBe("python.lang.security.audit.eval-detected.eval-detected");
    for (const rule of page.rules) expect(Array.isArray(rule.vulnerabilityClass)).toBe(true);
  });

  it("changes one rule's mode (7); the update answer's single-string vulnerabilityClass becomes a list", async () => {
    const client = env.client();
    const rulePath = "python.lang.security.audit.eval-detected.eval-detected";
    const answer = await client.policies.updateRuleMode(1, SAST_POLICY_ID, { rulePath, policyMode: "MODE_DISABLED" });
    expect(answer.policyId).toBe(SAST_POLICY_ID);
    expect(answer.updatedRule).toMatchObject({ path: rulePath, policyMode: "MODE_DISABLED", lastChangeBy: "api-token" });
    expect(answer.updatedRule.vulnerabilityClass).toHaveLength(1);
    const reread = await client.policies.listRules(1, SAST_POLICY_ID).toArray();
    expect(reread.find((r) => r.path === rulePath)?.policyMode).toBe("MODE_DISABLED");
    await expect(client.policies.updateRuleMode(1, SAST_POLICY_ID, { rulePath: "no.such.rule", policyMode: "MODE_BLOCK" })).rejects.toThrow(
      /rule no\.such\.rule not found in policy 10/,
    );
  });
});

describe("projects", () => {
  it("reads a project (8)", async () => {
    const project = await env.client().projects.get("acme", "acme/web-app");
    // managed-scan: the system tag the service sets on a project with managed scans.
    expect(project).toMatchObject({
      id: 101,
      name: "acme/web-app",
      tags: ["team:web", "tier:1", "managed-scan"],
      default_branch: "refs/heads/main",
    });
    expect(project.managed_scan_config?.diff_scan?.enabled).toBe(true);
  });

  it("updates primary branch, the whole tag set and managed-scan config (9)", async () => {
    const client = env.client();
    const updated = await client.projects.update("acme", "acme/payments-api", {
      primary_branch: "refs/heads/release",
      tags: ["pci"],
      managed_scan_config: { full_scan: { enabled: true } },
    });
    expect(updated.primary_branch).toBe("refs/heads/release");
    expect(updated.tags).toEqual(["pci", "managed-scan"]); // the system tag stays whatever the write sends
    expect(updated.managed_scan_config).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: true } });
    const follows = await client.projects.update("acme", "acme/payments-api", { primary_branch: "None" });
    expect(follows.primary_branch).toBe(follows.default_branch);
  });

  it("toggles managed scans (10), leaving the other toggle as it was", async () => {
    const project = await env.client().projects.updateManagedScans("acme", "acme/mobile-app", { diff_scan: { enabled: true } });
    expect(project.managed_scan_config).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: false } });
  });

  it("adds tags (11) and removes tags (12) as a set", async () => {
    const client = env.client();
    const added = await client.projects.addTags("acme", "acme/web-app", ["owner:appsec", "tier:1"]);
    expect(added.tags).toEqual(["team:web", "tier:1", "managed-scan", "owner:appsec"]);
    const removed = await client.projects.removeTags("acme", "acme/web-app", ["tier:1", "not-there"]);
    expect(removed.tags).toEqual(["team:web", "managed-scan", "owner:appsec"]);
    const [request] = env.requests("projects.removeTags");
    expect(request?.path).toBe("/api/v1/deployments/acme/projects/acme%2Fweb-app/tags");
  });

  it("adds tags with the OpenAPI's body, {tags}, not the bare array of its example", async () => {
    const proxy = await startRecordingProxy(env.emulator.url);
    try {
      await env.client({ baseUrl: proxy.url }).projects.addTags("acme", "acme/web-app", ["pci"]);
      expect(proxy.exchanges.map((e) => [e.method, e.body])).toEqual([["PUT", { tags: ["pci"] }]]);
    } finally {
      await proxy.close();
    }
  });

  it("removes 1,200 tags in as many requests as keep each URL within MAX_URL_LENGTH", async () => {
    const client = env.client();
    const tags = Array.from({ length: 1200 }, (_, i) => `release:2026.${String(i).padStart(4, "0")}`);
    await client.projects.addTags("acme", "acme/mobile-app", tags);
    const removed = await client.projects.removeTags("acme", "acme/mobile-app", tags);
    expect(removed.tags).toEqual([]);
    const deletes = env.requests("projects.removeTags");
    // Each tag takes `&tags=release%3A2026.0000` (25 characters): about 70 fit in a URL of 2,000.
    expect(deletes.length).toBe(
      Math.ceil(
        1200 / Math.floor((MAX_URL_LENGTH - `${env.emulator.url}/api/v1/deployments/acme/projects/acme%2Fmobile-app/tags`.length) / 25),
      ),
    );
    expect(deletes.every((r) => r.status === 200)).toBe(true);
  });

  it("reports an unknown project as NotFoundError naming the operation and path", async () => {
    const error = await env
      .client()
      .projects.get("acme", "acme/nope")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, method: "GET", operation: "projects.get", serviceMessage: "project acme/nope not found" });
    expect((error as Error).message).toContain("/api/v1/deployments/acme/projects/acme%2Fnope");
    expect((error as Error).message).toMatch(/lacks Web API access/);
  });

  it("lists projects and deployments (live-service helpers)", async () => {
    const client = env.client();
    expect(await client.deployments.list()).toEqual([{ id: 1, name: "Acme Corp", slug: "acme" }]);
    // By default 3,000 a page, the largest the live service takes: the demo's 14 projects in one request.
    expect(await client.projects.list("acme").toArray()).toHaveLength(14);
    expect(env.requests("projects.list")).toHaveLength(1);
    const projects = await client.projects.list("acme", 5).toArray();
    expect(projects).toHaveLength(14);
    expect(env.requests("projects.list")).toHaveLength(1 + 3);
    // Lazy, as every listing: the first 5 cost one page.
    await client.projects.list("acme", 5).toArray(5);
    expect(env.requests("projects.list")).toHaveLength(1 + 3 + 1);
  });
});

describe("SBOM export", () => {
  it("starts an export job (13) and reads its status until completed", async () => {
    const client = env.client();
    const { taskToken } = await client.sbom.createExport(1, {
      repositoryId: "101",
      ref: "refs/heads/main",
      formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" },
      sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON",
      metadataComponentType: "SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_APPLICATION",
      metadataSupplier: { name: "Acme", contact: { email: "appsec@acme.example" } },
    });
    expect(taskToken).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.sbom.getExport(1, taskToken)).status).toBe("SBOM_EXPORT_STATUS_IN_PROGRESS");
    const done = await client.sbom.getExport(1, taskToken);
    expect(done.status).toBe("SBOM_EXPORT_STATUS_COMPLETED");
    const document = (await (await fetch(done.downloadUrl!)).json()) as { bomFormat: string; specVersion: string; components: unknown[] };
    expect(document).toMatchObject({ bomFormat: "CycloneDX", specVersion: "1.6" });
    expect(document.components.length).toBeGreaterThan(0);
    // The OpenAPI's spelling, exactly: no `version` beside `cyclonedxVersion`.
    expect(env.emulator.state().sbomExports[0]?.request.formatVersion).toStrictEqual({
      format: "SBOM_FORMAT_CYCLONEDX",
      cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6",
    });
  });

  it("exports CycloneDX 1.4 when the request names no version, as the service does", async () => {
    const client = env.client();
    const { taskToken } = await client.sbom.createExport(1, { repositoryId: "101", ref: "refs/heads/main" });
    expect(env.emulator.state().sbomExports[0]).toMatchObject({ taskToken, specVersion: "1.4" });
  });

  it("refuses the version string the OpenAPI no longer has, before sending anything", async () => {
    const client = env.client();
    const legacy = { format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" } as unknown as SbomFormatVersion;
    await expect(client.sbom.createExport(1, { repositoryId: "101", ref: "refs/heads/main", formatVersion: legacy })).rejects.toThrow(
      /version/,
    );
    expect(env.requests()).toEqual([]);
  });
});

/** Listings read every page at the maximum page size, lazily, and always end. */
import { afterEach, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { json, type StubServer, startStub } from "../support/stub-server";

const env = useEmulator({ preset: "large" });

describe("full listings of the large preset", () => {
  it("reads 5,000 rules of one policy in 3 requests of 2,000", async () => {
    const rules = await env.client().policies.listRules(1, SAST_POLICY_ID).toArray();
    expect(rules).toHaveLength(5000);
    expect(new Set(rules.map((r) => r.id)).size).toBe(5000);
    const requests = env.requests("policies.listRules");
    expect(requests).toHaveLength(3);
  });

  it("reads 2,000 scans in 4 requests of 500", async () => {
    const scans = await env.client().scans.search(1).toArray();
    expect(scans).toHaveLength(2000);
    expect(new Set(scans.map((s) => s.id)).size).toBe(2000);
    expect(env.requests("scans.search")).toHaveLength(4);
  });

  it("reads 300 repositories with dependencies in 3 requests of 100, and their lockfiles in one request each", async () => {
    const client = env.client();
    const repositories = await client.dependencies.listRepositories(1).toArray();
    expect(repositories).toHaveLength(300);
    expect(env.requests("dependencies.listRepositories")).toHaveLength(3);
    const lockfiles = await Promise.all(repositories.slice(0, 20).map((r) => client.dependencies.listLockfiles(1, r.id).toArray()));
    expect(lockfiles.every((l) => l.length > 0)).toBe(true);
    expect(env.requests("dependencies.listLockfiles")).toHaveLength(20);
  });

  it("stops reading pages once enough items are collected", async () => {
    const scans = await env.client().scans.search(1).toArray(501);
    expect(scans).toHaveLength(501);
    expect(env.requests("scans.search")).toHaveLength(2);
  });

  it("walks pages of a smaller size when asked", async () => {
    const client = env.client();
    const pages: number[] = [];
    for await (const page of client.policies.listRules(1, SAST_POLICY_ID, { limit: 1000 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([1000, 1000, 1000, 1000, 1000]);
  });
});

describe("guards against endless listings", () => {
  let stub: StubServer | undefined;
  afterEach(async () => stub?.close());

  const policy = { id: "1", name: "p", slug: "p", isDefault: true, productType: "PRODUCT_TYPE_SAST" };
  const rule = (id: number) => ({ id: String(id), path: `a.rule-${id}`, policyMode: "MODE_MONITOR" });

  it("stops when the service repeats a cursor", async () => {
    stub = await startStub((_req, res, index) => json(res, 200, { cursor: "same", policy, rules: [rule(index)] }));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    const rules = await client.policies.listRules(1, 1).toArray();
    expect(rules.map((r) => r.id)).toEqual(["0", "1"]);
    expect(stub.received).toHaveLength(2);
    expect(stub.received[1]).toContain("cursor=same");
    await client.close();
  });

  it("stops on an empty page even when a cursor is given", async () => {
    stub = await startStub((_req, res, index) => json(res, 200, { cursor: `c${index}`, policy, rules: index === 0 ? [rule(0)] : [] }));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    expect(await client.policies.listRules(1, 1).toArray()).toHaveLength(1);
    expect(stub.received).toHaveLength(2);
    await client.close();
  });

  it("stops when the cursor is absent", async () => {
    stub = await startStub((_req, res) =>
      json(res, 200, { scans: [{ id: "1", deployment_id: "1", repository_id: "1", status: "SCAN_STATUS_PENDING" }] }),
    );
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    const scans = await client.scans.search(1).toArray();
    // A status newer than the first v1 description is read, not refused (docs/live-service.md, "Scans").
    expect(scans.map((s) => s.status)).toEqual(["SCAN_STATUS_PENDING"]);
    expect(stub.received).toHaveLength(1);
    await client.close();
  });

  it("reads the project list 3,000 a page, the largest page the live service takes", async () => {
    const projects = (page: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ id: page * 3000 + i, name: `acme/p${page * 3000 + i}`, tags: [] }));
    stub = await startStub((_req, res, index) => json(res, 200, { projects: projects(index, index === 0 ? 3000 : 7) }));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    expect(await client.projects.list("acme").toArray()).toHaveLength(3007);
    expect(stub.received).toEqual([
      "GET /api/v1/deployments/acme/projects?page=0&page_size=3000",
      "GET /api/v1/deployments/acme/projects?page=1&page_size=3000",
    ]);
    await client.close();
  });

  it("stops on hasMore: false for dependency listings", async () => {
    stub = await startStub((_req, res) =>
      json(res, 200, {
        cursor: 5,
        hasMore: false,
        repositorySummaries: [{ id: 1, name: "a/b", numDependencies: "3", hasDependencyPathScan: true }],
      }),
    );
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    const repos = await client.dependencies.listRepositories(1).toArray();
    expect(repos).toEqual([{ id: 1, name: "a/b", numDependencies: 3, hasDependencyPathScan: true }]);
    expect(stub.received).toHaveLength(1);
    await client.close();
  });
});

/** The emulator straight over HTTP, as Semgrep's API description and the live service's behaviour say. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });

async function call(method: string, path: string, options: { body?: unknown; raw?: string; token?: string | null } = {}) {
  const headers: Record<string, string> = {};
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? env.emulator.token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${env.emulator.url}/api/v1${path}`, { method, headers, body });
  const text = await response.text();
  const json = response.headers.get("content-type") === "application/json";
  return { status: response.status, body: (json ? JSON.parse(text) : { text }) as Record<string, unknown> & { error?: string } };
}

describe("authentication", () => {
  it("answers 401 with an error body without a token or with a wrong one", async () => {
    for (const token of [null, "wrong"]) {
      const answer = await call("GET", "/deployments/1/policies", { token });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toMatch(/token/);
    }
  });
});

describe("bad input answers 400", () => {
  const cases: Array<[string, string, string, { body?: unknown; raw?: string }, RegExp]> = [
    ["malformed JSON", "POST", "/deployments/1/scans/search", { raw: "{not json" }, /not valid JSON/],
    [
      "a bad enum",
      "PUT",
      `/deployments/1/policies/${SAST_POLICY_ID}`,
      { body: { policyMode: "MODE_LOUD", rulePath: "a.b" } },
      /policyMode/,
    ],
    ["a scan page over 500", "POST", "/deployments/1/scans/search", { body: { limit: 501 } }, /limit/],
    ["a rule page over 2000", "GET", `/deployments/1/policies/${SAST_POLICY_ID}?limit=2001`, {}, /limit/],
    ["a dependency page size of 0", "POST", "/deployments/1/dependencies/repositories", { body: { pageSize: 0 } }, /pageSize/],
    [
      "a dependency page size of 101",
      "POST",
      "/deployments/1/dependencies/repositories/101/lockfiles",
      { body: { pageSize: 101 } },
      /pageSize/,
    ],
    [
      "an unknown ecosystem",
      "POST",
      "/deployments/1/dependencies/repositories",
      { body: { dependencyFilter: { ecosystem: ["npmjs"] } } },
      /dependencyFilter\.ecosystem\.0: must be one of/,
    ],
    [
      "an unknown transitivity",
      "POST",
      "/deployments/1/dependencies/repositories/101/lockfiles",
      { body: { dependencyFilter: { transitivity: ["INDIRECT"] } } },
      /dependencyFilter\.transitivity\.0/,
    ],
    ["a cursor it never issued", "GET", `/deployments/1/policies/${SAST_POLICY_ID}?cursor=xyz`, {}, /cursor/],
    [
      "a primary branch that is not a ref",
      "PATCH",
      "/deployments/acme/projects/acme%2Fweb-app",
      { body: { primary_branch: "main" } },
      /primary_branch/,
    ],
    ["tags that are not strings", "PUT", "/deployments/acme/projects/acme%2Fweb-app/tags", { body: [1, 2] }, /expected string/],
    [
      "tags for another project than the path's",
      "PUT",
      "/deployments/acme/projects/acme%2Fweb-app/tags",
      { body: { deploymentSlug: "acme", projectName: "acme/other", tags: ["x"] } },
      /projectName "acme\/other" does not match the path/,
    ],
    [
      "a toggle for another deployment than the path's",
      "PATCH",
      "/deployments/acme/projects/acme%2Fweb-app/managed-scan",
      { body: { deploymentSlug: "other", diff_scan: { enabled: true } } },
      /deploymentSlug "other" does not match the path/,
    ],
    ["an SBOM ref that is not a ref", "POST", "/deployments/1/sbom/export", { body: { repositoryId: "101", ref: "main" } }, /ref/],
    [
      "an SBOM formatVersion.version (deprecated) naming no CycloneDX version the service supports",
      "POST",
      "/deployments/1/sbom/export",
      { body: { repositoryId: "101", ref: "refs/heads/main", formatVersion: { version: "9.9" } } },
      /formatVersion\.version: must be a CycloneDX version the service supports: one of 1\.4, 1\.5, 1\.6, 1\.7/,
    ],
    [
      "an SBOM formatVersion.version naming another version than its cyclonedxVersion",
      "POST",
      "/deployments/1/sbom/export",
      {
        body: {
          repositoryId: "101",
          ref: "refs/heads/main",
          formatVersion: { version: "1.5", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" },
        },
      },
      /formatVersion\.version: names another version/,
    ],
    [
      "an is_full_scan neither boolean nor 0 or 1",
      "POST",
      "/deployments/1/scans/search",
      { body: { is_full_scan: "yes" } },
      /is_full_scan/,
    ],
    ["a project page over 3,000", "GET", "/deployments/acme/projects?page_size=3001", {}, /page_size 1 to 3000/],
    [
      "a tag removal with tags that are not strings",
      "DELETE",
      "/deployments/acme/projects/acme%2Fweb-app/tags",
      { body: { tags: [1] } },
      /tags\.0/,
    ],
  ];
  it.each(cases)("%s", async (_name, method, path, options, message) => {
    const answer = await call(method, path, options);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(message);
  });
});

describe("unknown objects answer 404", () => {
  const cases: Array<[string, string, string, unknown?]> = [
    ["a deployment", "GET", "/deployments/2/policies"],
    ["a deployment slug", "GET", "/deployments/umbrella/projects/umbrella%2Fweb"],
    ["a project", "GET", "/deployments/acme/projects/acme%2Fnope"],
    ["a policy", "GET", "/deployments/1/policies/77"],
    ["a rule", "PUT", `/deployments/1/policies/${SAST_POLICY_ID}`, { policyMode: "MODE_BLOCK", rulePath: "no.such-rule" }],
    ["a scan", "GET", "/deployments/1/scan/1"],
    ["a repository", "POST", "/deployments/1/dependencies/repositories/5/lockfiles", {}],
    ["an SBOM repository", "POST", "/deployments/1/sbom/export", { repositoryId: "5", ref: "refs/heads/main" }],
    ["an SBOM job", "GET", "/deployments/1/sbom/export/nope"],
    ["a path", "GET", "/nothing/here"],
  ];
  it.each(cases)("%s", async (_name, method, path, body) => {
    const answer = await call(method, path, { body });
    expect(answer.status).toBe(404);
    expect(typeof answer.body.error).toBe("string");
  });
});

describe("projects and tags", () => {
  it("accepts the project name URL-encoded or literal", async () => {
    const encoded = await call("GET", "/deployments/acme/projects/acme%2Fweb-app");
    const literal = await call("GET", "/deployments/acme/projects/acme/web-app");
    expect(literal).toEqual(encoded);
    expect(encoded.status).toBe(200);
  });

  it("adds tags from a bare array, {tags} or the full documented object, as a set", async () => {
    await call("PUT", "/deployments/acme/projects/acme%2Fmobile-app/tags", { body: ["a", "b"] });
    await call("PUT", "/deployments/acme/projects/acme%2Fmobile-app/tags", { body: { tags: ["b", "c"] } });
    const answer = await call("PUT", "/deployments/acme/projects/acme%2Fmobile-app/tags", {
      body: { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["d"] },
    });
    expect((answer.body.project as { tags: string[] }).tags).toEqual(["a", "b", "c", "d"]);
  });

  it("removes tags named by repeated query keys; a tag the project lacks is no error", async () => {
    const answer = await call("DELETE", "/deployments/acme/projects/acme%2Fweb-app/tags?tags=tier%3A1&tags=absent");
    expect(answer.status).toBe(200);
    expect((answer.body.project as { tags: string[] }).tags).toEqual(["team:web", "managed-scan"]);
  });

  it("answers 414 to a request line longer than a proxy takes, and logs it like any request", async () => {
    const tags = Array.from({ length: 700 }, (_, i) => `tags=tag-${String(i).padStart(4, "0")}`).join("&");
    const answer = await call("DELETE", `/deployments/acme/projects/acme%2Fweb-app/tags?${tags}`);
    expect(answer.status).toBe(414);
    expect(answer.body.error).toMatch(/request URI too long \(\d+ bytes; at most 8192\)/);
    expect(env.requests()).toEqual([expect.objectContaining({ method: "DELETE", status: 414, operation: "projects.removeTags" })]);
    expect(env.emulator.state().projects.find((p) => p.name === "acme/web-app")!.tags).toEqual(["team:web", "tier:1", "managed-scan"]);
  });

  it("replaces the whole tag set with PATCH, and primary_branch None follows the default branch", async () => {
    const path = "/deployments/acme/projects/acme%2Fmobile-app";
    await call("PATCH", path, { body: { tags: ["x"], primary_branch: "refs/heads/release" } });
    expect((await call("GET", path)).body.project).toMatchObject({ tags: ["x"], primary_branch: "refs/heads/release" });
    await call("PATCH", path, { body: { primary_branch: "None" } });
    expect((await call("GET", path)).body.project).toMatchObject({
      primary_branch: "refs/heads/develop",
      default_branch: "refs/heads/develop",
    });
  });

  it("toggles one managed scan and leaves the other", async () => {
    const answer = await call("PATCH", "/deployments/acme/projects/acme%2Fweb-app/managed-scan", {
      body: { full_scan: { enabled: false } },
    });
    expect((answer.body.project as Record<string, unknown>).managed_scan_config).toEqual({
      diff_scan: { enabled: true },
      full_scan: { enabled: false },
    });
  });

  it("persists every one of many concurrent writes to --data: a restart from the file loses none", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "semgrep-contract-")), "state.json");
    const first = await startEmulator({ dataFile });
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${first.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${first.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const rules = first
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.slice(0, 50);
    await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => send("PUT", "/deployments/acme/projects/acme%2Fmobile-app/tags", { tags: [`tag-${i}`] })),
      ...rules.map((r) => send("PUT", `/deployments/1/policies/${SAST_POLICY_ID}`, { policyMode: "MODE_DISABLED", rulePath: r.path })),
    ]);
    // Stop at once, while writes to the file may still be scheduled, then start again from it.
    await first.close();
    const second = await startEmulator({ dataFile });
    try {
      const project = second.state().projects.find((p) => p.name === "acme/mobile-app")!;
      expect(new Set(project.tags)).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `tag-${i}`)));
      const modes = new Map(
        second
          .state()
          .policies.find((p) => p.id === SAST_POLICY_ID)!
          .rules.map((r) => [r.path, r.policyMode]),
      );
      expect(rules.every((r) => modes.get(r.path) === "MODE_DISABLED")).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe("listings", () => {
  it("ends rule and scan listings with an empty cursor", async () => {
    const rules = await call("GET", `/deployments/1/policies/${SAST_POLICY_ID}?limit=2000`);
    expect(rules.body.cursor).toBe("");
    expect(rules.body.rules).toHaveLength(320);
    const first = await call("POST", "/deployments/1/scans/search", { body: { limit: 200 } });
    expect(first.body.cursor).not.toBe("");
    const last = await call("POST", "/deployments/1/scans/search", { body: { limit: 200, cursor: first.body.cursor } });
    expect(last.body.scans).toHaveLength(100);
    expect(last.body.cursor).toBe("");
  });

  it("pages dependency listings with hasMore and a numeric cursor (default page size 5)", async () => {
    const first = await call("POST", "/deployments/1/dependencies/repositories", { body: {} });
    expect(first.body).toMatchObject({ hasMore: true, cursor: 5 });
    expect(first.body.repositorySummaries).toHaveLength(5);
    const last = await call("POST", "/deployments/1/dependencies/repositories", { body: { cursor: 10 } });
    // The last page has a cursor too, as on the live service (scripts read it unconditionally).
    expect(last.body).toMatchObject({ hasMore: false, cursor: 14 });
    expect(last.body.repositorySummaries).toHaveLength(4);
  });

  it("writes scan-search numbers as strings and scan-detail numbers as numbers", async () => {
    const search = await call("POST", "/deployments/1/scans/search", { body: { limit: 1, statuses: ["SCAN_STATUS_COMPLETED"] } });
    const [scan] = search.body.scans as Array<Record<string, unknown>>;
    expect(scan).toMatchObject({ id: expect.any(String), exit_code: expect.stringMatching(/^[01]$/) });
    const detail = await call("GET", `/deployments/1/scan/${String(scan!.id)}`);
    expect(detail.body).toMatchObject({ id: Number(scan!.id), exit_code: Number(scan!.exit_code) });
  });

  it("derives every scan status from the spec's state table", async () => {
    const scans = env.emulator.state().scans;
    const answer = await call("POST", "/deployments/1/scans/search", { body: { limit: 500 } });
    const statuses = new Map((answer.body.scans as Array<{ id: string; status: string }>).map((s) => [Number(s.id), s.status]));
    expect(new Set(statuses.values())).toEqual(
      new Set([
        "SCAN_STATUS_RUNNING",
        "SCAN_STATUS_COMPLETED",
        "SCAN_STATUS_ERROR",
        "SCAN_STATUS_NEVER_FINISHED",
        "SCAN_STATUS_PENDING",
        "SCAN_STATUS_CANCELLED",
      ]),
    );
    for (const scan of scans) {
      const status = statuses.get(scan.id);
      if (scan.status) expect(status).toBe(scan.status);
      else if (scan.completedAt === null) expect(status).toMatch(/RUNNING|NEVER_FINISHED/);
      else expect(status).toBe(scan.exitCode === 0 || scan.exitCode === 1 ? "SCAN_STATUS_COMPLETED" : "SCAN_STATUS_ERROR");
    }
  });
});

describe("admin endpoints", () => {
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${env.emulator.url}/_emulator/${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("logs requests oldest first, without query strings or headers", async () => {
    await call("GET", `/deployments/1/policies/${SAST_POLICY_ID}?limit=3`);
    await call("GET", "/deployments/1/policies", { token: "a-secret-token-value" });
    const { body } = await admin("GET", "requests");
    expect(body.requests).toEqual([
      expect.objectContaining({
        method: "GET",
        path: `/api/v1/deployments/1/policies/${SAST_POLICY_ID}`,
        status: 200,
        operation: "policies.listRules",
      }),
      expect.objectContaining({ method: "GET", path: "/api/v1/deployments/1/policies", status: 401 }),
    ]);
    expect(JSON.stringify(body)).not.toMatch(/a-secret-token-value|emulator-token|limit=/);
  });

  it("resets the state and the log", async () => {
    await call("PUT", "/deployments/acme/projects/acme%2Fweb-app/tags", { body: ["new"] });
    expect((await admin("POST", "reset")).status).toBe(200);
    expect((await admin("GET", "requests")).body.requests).toEqual([]);
    const state = (await admin("GET", "state")).body as { projects: Array<{ name: string; tags: string[] }> };
    expect(state.projects.find((p) => p.name === "acme/web-app")?.tags).toEqual(["team:web", "tier:1", "managed-scan"]);
  });

  it("changes fault rate and latency while running, and refuses bad settings", async () => {
    expect((await admin("POST", "faults", { faultRate: 1, kinds: ["503"] })).body).toMatchObject({ faultRate: 1, kinds: ["503"] });
    expect((await call("GET", "/deployments/1/policies")).status).toBe(503);
    await admin("POST", "faults", { faultRate: 0 });
    expect((await call("GET", "/deployments/1/policies")).status).toBe(200);
    expect((await admin("POST", "faults", { faultRate: 2 })).status).toBe(400);
    expect((await admin("POST", "faults", { latency: 5 })).status).toBe(400);
    expect((await admin("POST", "faults", { maxFaults: -1 })).status).toBe(400);
  });

  it("slowFromFirstWrite delays answers only from the next write on, that write included, the POST listings reading", async () => {
    const latencyMs = 2_000;
    expect((await admin("POST", "faults", { latencyMs, slowFromFirstWrite: true })).body).toMatchObject({ slowFromFirstWrite: true });
    await call("GET", "/deployments/1/policies");
    await call("POST", "/deployments/1/scans/search", { body: {} }); // a listing by POST: a read
    await call("PUT", "/deployments/acme/projects/acme%2Fweb-app/tags", { body: ["held"] });
    await call("GET", "/deployments/1/policies");
    // Set again, it waits for a write again.
    await admin("POST", "faults", { slowFromFirstWrite: true });
    await call("GET", "/deployments/1/policies");
    const log = (await admin("GET", "requests")).body.requests as Array<{ operation: string; durationMs: number }>;
    expect(log.map((r) => [r.operation, r.durationMs >= latencyMs])).toEqual([
      ["policies.list", false],
      ["scans.search", false],
      ["projects.addTags", true],
      ["policies.list", true],
      ["policies.list", false],
    ]);
    expect((await admin("POST", "faults", { slowFromFirstWrite: "yes" })).status).toBe(400);
  });

  it("injects faults into the named operations only, and at most maxFaults of them", async () => {
    await admin("POST", "faults", { faultRate: 1, kinds: ["503"], operations: ["policies.list"], maxFaults: 2 });
    expect((await call("GET", `/deployments/1/policies/${SAST_POLICY_ID}`)).status).toBe(200);
    expect([(await call("GET", "/deployments/1/policies")).status, (await call("GET", "/deployments/1/policies")).status]).toEqual([
      503, 503,
    ]);
    expect((await call("GET", "/deployments/1/policies")).status).toBe(200);
    expect((await admin("POST", "faults", {})).body).toMatchObject({ operations: ["policies.list"], maxFaults: 0 });
  });
});

/**
 * Real clients, leniency: request forms that public clients of the live service send where they
 * depart from Semgrep's OpenAPI (docs/live-service.md, "From real clients"), replayed as raw
 * HTTP against the emulator, as a user's own script would send them. The live service takes each
 * of them, so the emulator must too (a 400 here is a script that works live and fails against the
 * emulator), and each answer carries the fields those scripts read.
 * Written from that page's description of each form; no client's code is copied.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../../provider/client";
import { buildPreset, DEMO_DEPLOYMENT, type RunningEmulator, startEmulator } from "../../../provider/emulator";

const DEPLOYMENT = DEMO_DEPLOYMENT.id;
const SLUG = DEMO_DEPLOYMENT.slug;
/** A GitLab project in a subgroup: a name with several slashes. */
const SUBGROUP_PROJECT = "acme-group/platform/payments-api";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Sends one request as a script does: JSON in, JSON out, the token as a bearer. */
async function send(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${emulator.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tagsOf = (answer: Answer) => (answer.body.project as { tags: string[] }).tags;

/** The demo preset with one more project, named as GitLab names a project in a subgroup. */
function dataFileWithSubgroupProject(): string {
  const state = buildPreset("demo");
  const [first] = state.projects;
  state.projects.push({
    ...first!,
    id: 900,
    name: SUBGROUP_PROJECT,
    tags: ["team:payments"],
    url: `https://gitlab.com/${SUBGROUP_PROJECT}`,
  });
  const file = join(mkdtempSync(join(tmpdir(), "leniency-")), "state.json");
  writeFileSync(file, JSON.stringify(state));
  return file;
}

let emulator: RunningEmulator;
let sparse: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ dataFile: dataFileWithSubgroupProject() });
  sparse = await startEmulator({ preset: "demo", omitEmpty: true });
});
beforeEach(() => {
  // The data file's state is not a preset: only the second emulator is reset between tests.
  sparse.reset();
});
afterAll(async () => {
  await emulator?.close();
  await sparse?.close();
});

describe("removing tags (Semgrep's tag scripts)", () => {
  const tags = `/deployments/${SLUG}/projects/acme%2Fweb-app/tags`;

  it('takes the tags in a JSON body {"tags": [...]}, and removes them', async () => {
    const answer = await send(sparse, "DELETE", tags, { tags: ["team:web"] });
    expect(answer.status).toBe(200);
    expect(tagsOf(answer)).toEqual(["tier:1", "managed-scan"]);
    expect(sparse.state().projects.find((p) => p.name === "acme/web-app")!.tags).toEqual(["tier:1", "managed-scan"]);
  });

  it("still takes the OpenAPI's query form, and both at once", async () => {
    expect(tagsOf(await send(sparse, "DELETE", `${tags}?tags=tier%3A1`))).toEqual(["team:web", "managed-scan"]);
    await send(sparse, "PUT", tags, { tags: ["a", "b"] });
    const both = await send(sparse, "DELETE", `${tags}?tags=a`, { tags: ["b"] });
    expect(both.status).toBe(200);
    expect(tagsOf(both)).toEqual(["team:web", "managed-scan"]);
  });

  it("answers 200 to a removal naming no tag, and removes nothing", async () => {
    for (const body of [undefined, {}, { tags: [] }]) {
      const answer = await send(sparse, "DELETE", tags, body);
      expect({ body, status: answer.status }).toEqual({ body, status: 200 });
      expect(tagsOf(answer)).toEqual(["team:web", "tier:1", "managed-scan"]);
    }
  });
});

describe("dependency listings (scripts read cursor on every page)", () => {
  /** Pages through a listing as the scripts do: the cursor read unconditionally, hasMore as the end. */
  async function everyPage(target: RunningEmulator, path: string, pageSize: number): Promise<Array<Record<string, unknown>>> {
    const pages: Array<Record<string, unknown>> = [];
    let cursor: unknown;
    for (;;) {
      const answer = await send(target, "POST", path, { pageSize, ...(cursor === undefined ? {} : { cursor }) });
      expect(answer.status).toBe(200);
      pages.push(answer.body);
      expect(answer.body).toHaveProperty("cursor");
      cursor = answer.body.cursor;
      if (answer.body.hasMore !== true) return pages;
      expect(pages.length).toBeLessThan(100);
    }
  }

  for (const omitEmpty of [false, true]) {
    const target = () => (omitEmpty ? sparse : emulator);
    const mode = omitEmpty ? " (--omit-empty)" : "";

    it(`repositories: a numeric cursor on every page, the last one included, with hasMore false${mode}`, async () => {
      const pages = await everyPage(target(), `/deployments/${DEPLOYMENT}/dependencies/repositories`, 5);
      expect(pages.length).toBeGreaterThan(1);
      for (const page of pages) expect(typeof page.cursor).toBe("number");
      const last = pages.at(-1)!;
      expect(last).toMatchObject({ hasMore: false });
      const ids = pages.flatMap((p) => (p.repositorySummaries as Array<{ id: number }>).map((r) => r.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(last.cursor).toBe(ids.length);
    });

    it(`lockfiles: a string cursor on every page, the last one included, with hasMore false${mode}`, async () => {
      const repo = target()
        .state()
        .repositories.find((r) => !r.archived && r.lockfiles.length > 1)!;
      const pages = await everyPage(target(), `/deployments/${DEPLOYMENT}/dependencies/repositories/${repo.id}/lockfiles`, 1);
      expect(pages.length).toBeGreaterThan(1);
      for (const page of pages) expect(page.cursor).toEqual(expect.stringMatching(/.+/));
      expect(pages.at(-1)).toMatchObject({ hasMore: false });
      expect(new Set(pages.map((p) => p.cursor)).size).toBe(pages.length);
    });
  }

  it("repositories: takes the cursor back as a numeric string too (an int64 in protobuf's JSON form), with the same page", async () => {
    const path = `/deployments/${DEPLOYMENT}/dependencies/repositories`;
    const first = await send(emulator, "POST", path, { pageSize: 5 });
    const asNumber = await send(emulator, "POST", path, { pageSize: 5, cursor: first.body.cursor });
    const asString = await send(emulator, "POST", path, { pageSize: 5, cursor: String(first.body.cursor) });
    expect(asString.status).toBe(200);
    expect(asString.body).toEqual(asNumber.body);
  });

  it("the client still stops on hasMore false, reading each page once", async () => {
    const client = new SemgrepClient({ baseUrl: sparse.url, token: sparse.token, env: {} });
    const repositories = await client.dependencies.listRepositories(DEPLOYMENT, { pageSize: 5 }).toArray();
    const repo = sparse.state().repositories.find((r) => !r.archived && r.lockfiles.length > 1)!;
    const lockfiles = await client.dependencies.listLockfiles(DEPLOYMENT, repo.id, { pageSize: 1 }).toArray();
    await client.close();
    const count = (operation: string) => sparse.requests().filter((r) => r.operation === operation).length;
    expect(count("dependencies.listRepositories")).toBe(Math.ceil(repositories.length / 5));
    expect(count("dependencies.listLockfiles")).toBe(lockfiles.length);
  });
});

describe("the project list (page_size=3000, 'maximum allowed by API' in two clients)", () => {
  it("takes page_size=3000 and answers every project in one page", async () => {
    const answer = await send(sparse, "GET", `/deployments/${SLUG}/projects?page=0&page_size=3000`);
    expect(answer.status).toBe(200);
    const names = (answer.body.projects as Array<{ name: string }>).map((p) => p.name);
    expect(names).toEqual(sparse.state().projects.map((p) => p.name));
  });
});

describe("scan search (Semgrep's scan-health script)", () => {
  const search = `/deployments/${DEPLOYMENT}/scans/search`;
  const fullScans = (full: boolean) =>
    sparse
      .state()
      .scans.filter((s) => s.isFullScan === full)
      .map((s) => String(s.id));
  const ids = (answer: Answer) => (answer.body.scans as Array<{ id: string }>).map((s) => s.id);

  it("takes is_full_scan as a boolean, and ignores keys it does not know", async () => {
    const full = await send(sparse, "POST", search, { is_full_scan: true, limit: 500, page_token_hint: "x", sort: { by: "started_at" } });
    expect(full.status).toBe(200);
    expect(ids(full).sort()).toEqual(fullScans(true).sort());
    expect(fullScans(true).length).toBeGreaterThan(0);
    const diff = await send(sparse, "POST", search, { is_full_scan: false, limit: 500 });
    expect(ids(diff).sort()).toEqual(fullScans(false).sort());
    expect(fullScans(false).length).toBeGreaterThan(0);
  });

  it("reads lowerCamelCase keys as their fields (isFullScan, repositoryId), as protobuf's JSON parser does, instead of ignoring them", async () => {
    const camel = await send(sparse, "POST", search, { isFullScan: true, limit: 500 });
    expect(ids(camel).sort()).toEqual(fullScans(true).sort());
    const repository = sparse.state().scans[0]!.repositoryId;
    const byCamel = await send(sparse, "POST", search, { repositoryId: repository, limit: 500 });
    const bySnake = await send(sparse, "POST", search, { repository_id: repository, limit: 500 });
    expect(byCamel.body).toEqual(bySnake.body);
    expect(ids(bySnake).length).toBeLessThan(sparse.state().scans.length);
    const twice = await send(sparse, "POST", search, { isFullScan: true, is_full_scan: false });
    expect(twice.status).toBe(400);
  });

  it("still takes the OpenAPI's integer, with the same answer", async () => {
    const integer = await send(sparse, "POST", search, { is_full_scan: 1, limit: 500 });
    const boolean = await send(sparse, "POST", search, { is_full_scan: true, limit: 500 });
    expect(integer.status).toBe(200);
    expect(integer.body).toEqual(boolean.body);
  });
});

describe("SBOM export (the seed's documented request, formatVersion.version)", () => {
  it('takes formatVersion.version "1.5" as cyclonedxVersion V1_5 and exports CycloneDX 1.5', async () => {
    const request = { repositoryId: "101", ref: "refs/heads/main", formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" } };
    const started = await send(sparse, "POST", `/deployments/${DEPLOYMENT}/sbom/export`, request);
    expect(started.status).toBe(200);
    const taskToken = started.body.taskToken as string;
    expect(taskToken).toEqual(expect.stringMatching(/.+/));
    let status: Answer;
    do status = await send(sparse, "GET", `/deployments/${DEPLOYMENT}/sbom/export/${taskToken}`);
    while (status.body.status === "SBOM_EXPORT_STATUS_IN_PROGRESS");
    expect(status.body.status).toBe("SBOM_EXPORT_STATUS_COMPLETED");
    const document = (await (await fetch(status.body.downloadUrl as string)).json()) as { specVersion: string };
    expect(document.specVersion).toBe("1.5");
  });
});

describe("project names with several slashes (GitLab subgroups)", () => {
  const encoded = `/deployments/${SLUG}/projects/${encodeURIComponent(SUBGROUP_PROJECT)}`;
  const literal = `/deployments/${SLUG}/projects/${SUBGROUP_PROJECT}`;

  it("are read, updated and tagged, the name encoded or literal", async () => {
    const read = await send(emulator, "GET", encoded);
    expect(read.status).toBe(200);
    expect(read.body.project).toMatchObject({ name: SUBGROUP_PROJECT });
    expect(await send(emulator, "GET", literal)).toEqual(read);
    const patched = await send(emulator, "PATCH", literal, { primary_branch: "refs/heads/release" });
    expect(patched.body.project).toMatchObject({ name: SUBGROUP_PROJECT, primary_branch: "refs/heads/release" });
    expect(tagsOf(await send(emulator, "PUT", `${literal}/tags`, { tags: ["gitlab"] }))).toEqual(["team:payments", "gitlab"]);
    expect(tagsOf(await send(emulator, "DELETE", `${literal}/tags`, { tags: ["gitlab"] }))).toEqual(["team:payments"]);
  });

  it("work through the client: get, update, add and remove tags", async () => {
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    expect((await client.projects.get(SLUG, SUBGROUP_PROJECT)).name).toBe(SUBGROUP_PROJECT);
    const updated = await client.projects.update(SLUG, SUBGROUP_PROJECT, { primary_branch: "refs/heads/main", tags: ["a", "b"] });
    expect(updated).toMatchObject({ name: SUBGROUP_PROJECT, primary_branch: "refs/heads/main", tags: ["a", "b"] });
    expect((await client.projects.addTags(SLUG, SUBGROUP_PROJECT, ["c"])).tags).toEqual(["a", "b", "c"]);
    expect((await client.projects.removeTags(SLUG, SUBGROUP_PROJECT, ["a", "c"])).tags).toEqual(["b"]);
    await client.close();
    const sent = emulator.requests().slice(-4);
    expect(sent.map((r) => [r.operation, r.status])).toEqual([
      ["projects.get", 200],
      ["projects.update", 200],
      ["projects.addTags", 200],
      ["projects.removeTags", 200],
    ]);
    const path = `/api/v1${encoded}`;
    expect(sent.map((r) => r.path)).toEqual([path, path, `${path}/tags`, `${path}/tags`]);
  });

  it("are deleted by DELETE …/projects/{name}, which the live service has (last: the project is gone after it)", async () => {
    const deleted = await send(emulator, "DELETE", literal);
    expect(deleted).toEqual({ status: 200, body: { project_name: SUBGROUP_PROJECT } });
    expect((await send(emulator, "GET", encoded)).status).toBe(404);
    const list = await send(emulator, "GET", `/deployments/${SLUG}/projects?page_size=3000`);
    expect((list.body.projects as Array<{ name: string }>).map((p) => p.name)).not.toContain(SUBGROUP_PROJECT);
    expect((await send(emulator, "DELETE", encoded)).status).toBe(404);
  });
});

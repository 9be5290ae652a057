/**
 * The emulator at a deployment's scale (`projects`, `--projects N`): the `large` preset's 300
 * projects ten times over, listed 3,000 a page (the largest page the live service allows), and
 * that page checked against Semgrep's OpenAPI when the file is given.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { MAX_PROJECT_PAGE_SIZE } from "../../provider/client/schemas";
import { projectMatcher } from "../../provider/core/kinds/project-selector";
import { buildPreset, type EmulatorState, startEmulator } from "../../provider/emulator";
import { scaleProjects } from "../../provider/emulator/scale";
import { Contract, contractFileFrom, OPENAPI_V1_ENV } from "../support/openapi";
import { useEmulators } from "../support/emulator";

const emulators = useEmulators({ preset: "large" });
const large = buildPreset("large", Date.parse("2026-11-01T00:00:00Z"));

describe("scaleProjects", () => {
  const scaled = scaleProjects(large, 3000);

  it("repeats the large preset's 300 projects ten times, each copy named by its number, ids and names unique", () => {
    expect(large.projects).toHaveLength(300);
    expect(scaled.projects).toHaveLength(3000);
    expect(new Set(scaled.projects.map((p) => p.name)).size).toBe(3000);
    expect(new Set(scaled.projects.map((p) => p.id)).size).toBe(3000);
    const webApp = large.projects[0]!;
    const copies = scaled.projects.filter((p) => p.name.startsWith(`${webApp.name}-`));
    expect(copies.map((p) => p.name)).toEqual(Array.from({ length: 10 }, (_, k) => `${webApp.name}-${k}`));
    for (const copy of copies) {
      expect(copy).toMatchObject({ tags: webApp.tags, managedScanConfig: webApp.managedScanConfig, defaultBranch: webApp.defaultBranch });
    }
  });

  it("makes a selector such as acme/*-3 pick a tenth of the projects, at any size", () => {
    const pick = projectMatcher({ namePatterns: ["acme/*-3"] });
    expect(scaled.projects.filter(pick)).toHaveLength(300);
    expect(scaleProjects(large, 30).projects.filter(pick)).toHaveLength(3);
  });

  it("keeps what named a preset project pointing at a project that exists, and no id of an archived repository", () => {
    const ids = new Set(scaled.projects.map((p) => p.id));
    const names = new Set(scaled.projects.map((p) => p.name));
    expect(scaled.scans.length).toBeGreaterThan(0);
    for (const scan of scaled.scans) expect(names.has(scan.repository) && ids.has(scan.repositoryId), scan.repository).toBe(true);
    for (const repository of scaled.repositories) {
      if (repository.archived) expect(ids.has(repository.id), repository.name).toBe(false);
      else expect(names.has(repository.name), repository.name).toBe(true);
    }
    const small = scaleProjects(large, 30);
    const smallIds = new Set(small.projects.map((p) => p.id));
    for (const scan of small.scans) expect(smallIds.has(scan.repositoryId)).toBe(true);
  });

  it("is deterministic and refuses a count that is not a whole number of 1 or more", () => {
    expect(scaleProjects(large, 3000).projects).toEqual(scaled.projects);
    expect(() => scaleProjects(large, 0)).toThrow(/whole number of 1 or more/);
    expect(() => scaleProjects(large, 2.5)).toThrow(/whole number of 1 or more/);
  });
});

describe("an emulator of 3,000 projects", () => {
  it("lists them 3,000 a page (the largest): 3,000 projects in two requests, the second empty, since a full page may not be the last; 2,999 in one", async () => {
    const emulator = await startEmulator({ preset: "large", projects: 3000, retryAfterSeconds: 0 });
    const client = clientFor(emulator.url, emulator.token);
    try {
      expect(await client.projects.list("acme").toArray()).toHaveLength(3000);
      const listings = () => emulator.requests().filter((r) => r.operation === "projects.list");
      // The client asks for the largest page (the emulator refuses a larger one); the listing
      // gives no total, so only a short page ends it.
      expect(listings()).toHaveLength(2);
      emulator.reset();
      expect(emulator.state().projects).toHaveLength(3000);
    } finally {
      await client.close();
      await emulator.close();
    }
    const fewer = await emulators.start({ projects: 2999 });
    const second = clientFor(fewer.url, fewer.token);
    try {
      expect(await second.projects.list("acme").toArray()).toHaveLength(2999);
      expect(fewer.requests().filter((r) => r.operation === "projects.list")).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("writes the generated data file at start (--projects with --data), which a later run loads as it is", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "semgrep-scale-")), "projects-300.json");
    const cli = join(__dirname, "../../dist/emulator/cli.js");
    const child = spawn(process.execPath, [cli, "--preset", "large", "--projects", "300", "--data", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(/(http:\/\/\S+)/.exec(line)?.[1] ?? line));
      child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(url).toMatch(/^http:/);
    const written = JSON.parse(readFileSync(file, "utf8")) as EmulatorState;
    expect(written.projects).toHaveLength(300);
    expect(written.projects.filter(projectMatcher({ namePatterns: ["acme/*-3"] }))).toHaveLength(30);
    const loaded = await emulators.start({ dataFile: file });
    expect(loaded.state().projects.map((p) => p.name)).toEqual(written.projects.map((p) => p.name));
  });

  const openapi = contractFileFrom(process.env, OPENAPI_V1_ENV);
  (openapi ? it : it.skip)(
    `sends the page request and answers the 3,000-project page as the OpenAPI documents them${openapi ? "" : ` (did not run: set ${OPENAPI_V1_ENV})`}`,
    async () => {
      const contract = new Contract(openapi!);
      for (const omitEmpty of [false, true]) {
        const emulator = await emulators.start({ projects: 3000, omitEmpty });
        const path = `/api/v1/deployments/acme/projects?page=0&page_size=${MAX_PROJECT_PAGE_SIZE}`;
        const response = await fetch(`${emulator.url}${path}`, { headers: { authorization: `Bearer ${emulator.token}` } });
        const answer = (await response.json()) as { projects: unknown[] };
        expect(response.status).toBe(200);
        expect(answer.projects).toHaveLength(3000);
        expect(contract.checkRequest({ method: "GET", url: path })).toEqual([]);
        const operation = contract.match("GET", "/api/v1/deployments/acme/projects")!;
        expect(operation.operationId).toBe("ProjectsService_ListProjects");
        expect(contract.checkAnswer(operation, answer)).toEqual([]);
      }
    },
  );
});

function clientFor(baseUrl: string, token: string) {
  return new SemgrepClient({ baseUrl, token, retryBaseDelayMs: 5, maxRetryDelayMs: 50, env: {} });
}

/**
 * The pull-request workflow (.github/workflows/ci.yml) cannot run here either: it is linted with
 * actionlint together with release.yml, which calls it, and its jobs are checked against what they
 * must do: run only this repository's own commands (npm scripts and test/tools/ scripts, so that
 * each runs here too), cover every step of .ci/run, fetch the OpenAPI files before the tier that
 * reads them, and run each SDK example through the example runner with its language's released
 * toolchain and a released Pulumi CLI. `.ci/run` itself stops, naming them, without the OpenAPI files.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { actionlint, lint, workflowFiles } from "../tools/actionlint.mjs";
import { REPO } from "../tools/release.mjs";
import { tierOf } from "../tools/tiers.mjs";

const CI = join(REPO, ".github/workflows/ci.yml");
const RELEASE = join(REPO, ".github/workflows/release.yml");

type Step = { run?: string; uses?: string; if?: string; with?: Record<string, unknown> };
type Job = {
  steps?: Step[];
  uses?: string;
  needs?: string | string[];
  strategy?: { matrix?: { include?: Array<Record<string, string>> } };
};
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };

const workflow = (file: string) => parse(readFileSync(file, "utf8")) as Workflow;
const ci = workflow(CI);
const scripts = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const runsOf = (job: Job) => (job.steps ?? []).flatMap((s) => (s.run === undefined ? [] : [s.run.trim()]));
/** The npm scripts a list of `run:` lines call (`npm run -s <script> [-- args]`). */
const npmScripts = (runs: string[]) => runs.flatMap((run) => /^npm run -s ([\w:-]+)(?: -- .+)?$/.exec(run)?.[1] ?? []);

describe("ci.yml", () => {
  let binary: string;
  const dirs: string[] = [];
  beforeAll(() => {
    binary = actionlint();
  }, 600_000);
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("passes actionlint with release.yml, the workflows `npm run actionlint` lints", () => {
    expect(workflowFiles()).toEqual([CI, RELEASE]);
    expect(lint([CI, RELEASE], binary)).toEqual({ status: 0, output: "" });
  });

  it("actionlint fails on a broken ci.yml: an unknown input, an unknown matrix field, and release.yml's call once it is not callable", () => {
    // A project of its own (actionlint finds the called workflow from the root, which holds .git).
    const root = mkdtempSync(join(tmpdir(), "ci-lint-"));
    dirs.push(root);
    mkdirSync(join(root, ".git"));
    cpSync(join(REPO, ".github"), join(root, ".github"), { recursive: true });
    const broken = join(root, ".github/workflows/ci.yml");
    const text = readFileSync(CI, "utf8");
    const edited = text
      .replace("  workflow_call:\n", "")
      .replace("${{ matrix.example }}", "${{ matrix.exmaple }}")
      .replace("node-version: 24\n          cache: npm\n      - run: npm ci --no-audit --no-fund\n      - run: npm run -s lint", (m) =>
        m.replace("node-version", "node-versoin"),
      );
    expect(edited.split("\n").length).toBe(text.split("\n").length - 1);
    writeFileSync(broken, edited);
    const result = lint([broken, join(root, ".github/workflows/release.yml")], binary);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/input "node-versoin" is not defined in action "actions\/setup-node@v6"/);
    expect(result.output).toMatch(/property "exmaple" is not defined in object type \{example: string; language: string\}/);
    expect(result.output).toMatch(
      /release\.yml:\d+:\d+: error while parsing reusable workflow "\.\/\.github\/workflows\/ci\.yml": "workflow_call" event trigger is not found/,
    );
  });

  it("runs on pull requests, on pushes to main, and when the release calls it", () => {
    expect(ci.on).toEqual({ pull_request: null, push: { branches: ["main"] }, workflow_call: null });
  });

  it("runs only `npm ci`, npm scripts of package.json and scripts of test/tools/", () => {
    const runs = Object.values(ci.jobs).flatMap(runsOf);
    const known = (run: string) => {
      if (run === "npm ci --no-audit --no-fund") return true;
      const script = npmScripts([run])[0];
      if (script) return script in scripts;
      const tool = /^node (test\/tools\/[\w-]+\.mjs)(?: .+)?$/.exec(run)?.[1];
      return tool !== undefined && existsSync(join(REPO, tool));
    };
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.filter((run) => !known(run))).toEqual([]);
    // The check can fail: a shell command, a script that is not there.
    expect(["curl -fsSL https://get.pulumi.com | sh", "npm run -s tets", "node test/tools/nothing.mjs"].filter(known)).toEqual([]);
  });

  it("covers every step of .ci/run: its npm scripts, and npm test as typecheck and the two tiers", () => {
    const steps = readFileSync(join(REPO, ".ci/run"), "utf8")
      .split("\n")
      .filter((line) => /^npm /.test(line));
    expect(steps).toContain("npm test");
    const called = new Set(npmScripts(Object.values(ci.jobs).flatMap(runsOf)));
    const needed = steps.flatMap((line) => (line === "npm test" ? ["typecheck", "test:unit", "test:e2e"] : npmScripts([line])));
    expect(needed.length).toBeGreaterThan(5);
    expect(needed.filter((script) => !called.has(script))).toEqual([]);
    expect(steps.filter((line) => line !== "npm test" && line !== "npm ci --no-audit --no-fund" && !npmScripts([line]).length)).toEqual([]);
    // The e2e tier runs with the CLI .ci/run builds, cached as .ci/run keeps it: the CLI and Go's caches.
    const e2e = ci.jobs.e2e!;
    expect(runsOf(e2e)).toEqual(["npm ci --no-audit --no-fund", "npm run -s pulumi:cli", "npm run -s test:e2e"]);
    const cache = e2e.steps!.find((s) => s.uses?.startsWith("actions/cache@"))!;
    expect(String(cache.with!.path).trim().split("\n")).toEqual(["~/.cache/pulumi-semgrep", "~/.cache/go-build", "~/go/pkg/mod"]);
  });

  it("fetches the OpenAPI files before the unit tier, which holds the conformance tier", () => {
    expect(tierOf("test/conformance/openapi-v1.test.ts")).toBe("unit");
    expect(tierOf("test/conformance/openapi-v2.test.ts")).toBe("unit");
    expect(runsOf(ci.jobs.unit!)).toEqual([
      "npm ci --no-audit --no-fund",
      'node test/tools/openapi-files.mjs --out "${{ runner.temp }}/openapi"',
      "npm run -s test:unit",
    ]);
  });

  it("runs each SDK example through `npm run example`, one job per language, with its released toolchain and a released Pulumi CLI at package-lock's version", () => {
    const job = ci.jobs.example!;
    const matrix = job.strategy!.matrix!.include!;
    expect(matrix).toEqual([
      { language: "python", example: "examples/python" },
      { language: "csharp", example: "examples/csharp" },
      { language: "go", example: "examples/go" },
      { language: "nodejs-sdk", example: "examples/nodejs-sdk" },
    ]);
    for (const { example } of matrix) expect(existsSync(join(REPO, example!, "Pulumi.yaml")), example).toBe(true);
    expect(runsOf(job)).toEqual(["npm ci --no-audit --no-fund", "npm run -s example -- ${{ matrix.example }}"]);
    const uses = (action: string) => job.steps!.find((s) => s.uses?.startsWith(`${action}@`));
    expect(uses("actions/setup-python")?.if).toBe("matrix.language == 'python'");
    expect(uses("actions/setup-dotnet")?.if).toBe("matrix.language == 'csharp'");
    expect(uses("actions/setup-go")?.if).toBe("matrix.language == 'go'");
    const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
    expect(uses("pulumi/actions")?.with).toEqual({ "pulumi-version": lock.packages["node_modules/@pulumi/pulumi"]!.version });
  });
});

describe("release.yml runs only on a commit CI passed", () => {
  it("calls ci.yml as a job, and every other job needs it, directly or through another", () => {
    const release = workflow(RELEASE);
    expect(release.jobs.ci).toEqual({ name: "CI on the tagged commit", uses: "./.github/workflows/ci.yml" });
    const needs = (name: string): string[] => [release.jobs[name]!.needs ?? []].flat();
    const reaches = (name: string): boolean => needs(name).includes("ci") || needs(name).some(reaches);
    const jobs = Object.keys(release.jobs).filter((name) => name !== "ci");
    expect(jobs.length).toBeGreaterThan(5);
    expect(jobs.filter((name) => !reaches(name))).toEqual([]);
    expect(needs("verify")).toEqual(["ci"]);
  });
});

describe(".ci/run", () => {
  /** .ci/run copied into a directory of its own (`<root>/repo/.ci/run`), run with `env` and no OpenAPI variables but those given. */
  function ciRun(env: Record<string, string>) {
    const root = mkdtempSync(join(tmpdir(), "ci-run-"));
    try {
      mkdirSync(join(root, "repo/.ci"), { recursive: true });
      cpSync(join(REPO, ".ci/run"), join(root, "repo/.ci/run"));
      const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SEMGREP_OPENAPI_")));
      // A PATH holding only what the script needs before its Go check (dirname): a run that gets past
      // the OpenAPI files stops there, doing nothing, whether or not the machine has Go in /usr/bin.
      const bin = join(root, "bin");
      mkdirSync(bin);
      symlinkSync(spawnSync("bash", ["-c", "command -v dirname"], { encoding: "utf8" }).stdout.trim(), join(bin, "dirname"));
      const bash = spawnSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim();
      const result = spawnSync(bash, [join(root, "repo/.ci/run")], { encoding: "utf8", env: { ...base, PATH: bin, ...env } });
      return { ...result, root };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  it("stops first, naming the file and how to get it, without Semgrep's OpenAPI files", () => {
    const run = ciRun({});
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `CI needs Semgrep's published OpenAPI v1 for the conformance tier: ${run.root}/shared/spec/semgrep-public-v1.openapi.yaml is missing. ` +
        "Set SEMGREP_OPENAPI_V1 to the file, or put it there (node test/tools/openapi-files.mjs --out DIR downloads both).\n",
    );
  });

  it("goes on with the files the variables name", () => {
    const dir = mkdtempSync(join(tmpdir(), "ci-run-openapi-"));
    try {
      for (const v of ["v1", "v2"]) writeFileSync(join(dir, `${v}.yaml`), "openapi: 3.0.3\n");
      const run = ciRun({ SEMGREP_OPENAPI_V1: join(dir, "v1.yaml"), SEMGREP_OPENAPI_V2: join(dir, "v2.yaml") });
      expect(run.stderr).not.toContain("OpenAPI");
      expect(run.stderr).toContain("CI needs Go");
      expect(run.status).toBe(1);
      const half = ciRun({ SEMGREP_OPENAPI_V1: join(dir, "v1.yaml"), SEMGREP_OPENAPI_V2: join(dir, "gone.yaml") });
      expect(half.stderr).toContain(
        `CI needs Semgrep's published OpenAPI v2 for the conformance tier: ${join(dir, "gone.yaml")} is missing.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

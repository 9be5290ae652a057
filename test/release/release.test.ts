/**
 * The release workflow (.github/workflows/release.yml) cannot run here: it is linted with
 * actionlint (built from the Go module proxy, test/tools/actionlint.mjs), each of its `run:` steps
 * must be a step of test/tools/release.mjs, and each step but `verify` is dry-run here: its builds
 * done, its publish commands printed, never run (`verify` runs schema:check and sdk:check, which
 * CI runs on their own and test/sdk covers). Runs against dist/ (`npm test` builds first).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { actionlint } from "../tools/actionlint.mjs";
import { expectPluginReference, hasTool, packageVersion, pyprojectFields, REPO, runStep, STEPS } from "../tools/release.mjs";

const WORKFLOW = join(REPO, ".github/workflows/release.yml");
const SCRIPT = join(REPO, "test/tools/release.mjs");
const version = packageVersion();

type Packed = { tarball: string; name: string; version: string; files: string[] };
type Run = { skipped: string[]; version: string; log: string[] };

let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "release-dry-run-"));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** One step's dry run into the temporary output directory: its result and the lines it logged. */
async function dryRun<T>(step: string): Promise<T & Run> {
  const log: string[] = [];
  const result = await runStep(step, { dryRun: true, out, log: (line: string) => log.push(line) });
  return { ...(result as unknown as T & Run), log };
}

/** The command line: `node test/tools/release.mjs …` with the environment given (no GitHub variables otherwise). */
function cli(args: string[], env: Record<string, string> = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GITHUB_")));
  return spawnSync(process.execPath, [SCRIPT, ...args], { cwd: REPO, encoding: "utf8", env: { ...base, ...env } });
}

/** Every publish is printed in a dry run, never run: no log line runs (`$ …`) a publishing command. */
function expectNothingPublished(log: string[]) {
  expect(log.filter((l) => /^\$ .*\b(publish|upload|push|release create)\b/.test(l))).toEqual([]);
}

describe("release.yml", () => {
  let binary: string;
  // A cold build of actionlint from the module proxy took 17 s here; later runs use the cache.
  beforeAll(() => {
    binary = actionlint();
  }, 600_000);

  /**
   * actionlint on a file. ShellCheck and pyflakes are left out whatever is installed, so the answer
   * is the same on every machine (each `run:` is one `node` command: nothing for them to find).
   */
  const lint = (file: string) => spawnSync(binary, ["-no-color", "-shellcheck=", "-pyflakes=", file], { encoding: "utf8" });

  it("passes actionlint", () => {
    const result = lint(WORKFLOW);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("actionlint fails on a workflow error (a job needing one that does not exist, an unknown input)", () => {
    const dir = mkdtempSync(join(tmpdir(), "release-lint-"));
    try {
      const broken = join(dir, "release.yml");
      const text = readFileSync(WORKFLOW, "utf8")
        .replace("needs: verify", "needs: verfy")
        .replace("node-version: 24\n          cache: npm", "node-versoin: 24\n          cache: npm");
      writeFileSync(broken, text);
      const result = lint(broken);
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/job "github-release" needs job "verfy" which does not exist/);
      expect(result.stdout).toMatch(/input "node-versoin" is not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs only steps of test/tools/release.mjs, and every one of them", () => {
    type Step = { run?: string };
    // The job `ci` has no steps of its own: it calls ci.yml (test/release/ci.test.ts).
    const workflow = parse(readFileSync(WORKFLOW, "utf8")) as { jobs: Record<string, { steps?: Step[] }> };
    const runs = Object.values(workflow.jobs).flatMap((job) =>
      (job.steps ?? []).flatMap((s) => (s.run === undefined ? [] : [s.run.trim()])),
    );
    const called = runs.map((run) => {
      const match = /^node test\/tools\/release\.mjs ([a-z-]+)$/.exec(run);
      expect(match, `run: ${run}`).not.toBeNull();
      return match![1]!;
    });
    expect(called.filter((step) => !(step in STEPS))).toEqual([]);
    expect(Object.keys(STEPS).filter((step) => !called.includes(step))).toEqual([]);
  });
});

describe("the release's version", () => {
  it("refuses a tag that differs from package.json's version, naming both", () => {
    for (const [args, env] of [
      [["plugins", "--dry-run", "--tag", "v9.9.9"], {}],
      [["npm"], { GITHUB_REF_TYPE: "tag", GITHUB_REF_NAME: "v9.9.9" }], // as the workflow passes it
    ] as const) {
      const result = cli([...args], env);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`the tag v9.9.9 does not match package.json's version ${version}: push the tag v${version}`);
      expect(result.stdout).toBe("");
    }
  });

  it("refuses the version without its v, saying so", () => {
    const result = cli(["go-tag", "--dry-run", "--tag", version]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`the tag ${version} lacks the v: a release's tag is v${version}`);
  });

  it("refuses to publish without a tag, and accepts the tag v<version>", () => {
    const untagged = cli(["npm"]);
    expect(untagged.status).toBe(1);
    expect(untagged.stderr).toContain(`no tag: a release runs on a pushed tag v${version}`);
    const tagged = cli(["install", "--dry-run", "--tag", `v${version}`]);
    expect(tagged.stderr).toContain("dry run: would run: npm ci --no-audit --no-fund");
    expect(tagged.status).toBe(0);
  });
});

describe("what each SDK names", () => {
  const server = "github://api.github.com/pulumi-semgrep/pulumi-semgrep";

  it("refuses an SDK whose plugin reference is not this release's plugin, naming both values", () => {
    const reference = { resource: true, name: "semgrep", version, server };
    expect(() => expectPluginReference("sdk/x/pulumi-plugin.json", reference, version)).not.toThrow();
    expect(() => expectPluginReference("sdk/x/pulumi-plugin.json", { ...reference, version: "0.0.0" }, version)).toThrow(
      `sdk/x/pulumi-plugin.json: the plugin's version is "0.0.0", the release wants "${version}" (run \`npm run sdk\`)`,
    );
    expect(() =>
      expectPluginReference("sdk/x/pulumi-plugin.json", { ...reference, server: "github://api.github.com/else/where" }, version),
    ).toThrow(
      /the plugin's server is "github:\/\/api.github.com\/else\/where", the release wants "github:\/\/api.github.com\/pulumi-semgrep\/pulumi-semgrep"/,
    );
  });

  it("reads the committed pyproject.toml's name, version and readme", () => {
    expect(pyprojectFields(readFileSync(join(REPO, "sdk/python/pyproject.toml"), "utf8"))).toMatchObject({
      name: "pulumi_semgrep",
      version,
      readme: "README.md",
    });
  });
});

describe("dry runs", () => {
  it("plugins: the tarballs named as the Pulumi CLI downloads them from the GitHub release", async () => {
    const run = await dryRun<{ tarballs: string[]; names: string[]; tag: string; repository: string }>("plugins");
    // pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz (pulumi's workspace/plugins.go standardAssetName)
    const expected = ["darwin", "linux", "windows"].flatMap((os) =>
      ["amd64", "arm64"].map((arch) => `pulumi-resource-semgrep-v${version}-${os}-${arch}.tar.gz`),
    );
    expect(run.names).toEqual(expected);
    expect(run.tarballs.every((p) => existsSync(p) && p.startsWith(join(out, "plugins")))).toBe(true);
    expect(run.repository).toBe("pulumi-semgrep/pulumi-semgrep");
    expect(run.log).toContain(`dry run: would run: gh release create v${version} --verify-tag --title v${version} --generate-notes`);
    expect(run.log.some((l) => l.startsWith(`dry run: would run: gh release upload v${version} `) && l.endsWith(" --clobber"))).toBe(true);
    expectNothingPublished(run.log);
    expect(run.skipped).toEqual([]);
  });

  it("npm: the packed root package ships dist/ and schema.json, no release artifact", async () => {
    const run = await dryRun<Packed>("npm");
    expect(run).toMatchObject({ name: "pulumi-semgrep", version });
    expect(run.files).toEqual(expect.arrayContaining(["dist/index.js", "dist/native/main.js", "schema.json", "README.md", "LICENSE"]));
    expect(run.files.filter((f) => /^dist\/(plugins|release)\//.test(f))).toEqual([]);
    expect(existsSync(run.tarball)).toBe(true);
    expect(run.log).toContain(`dry run: would run: npm publish ${run.tarball} --access public`);
    expectNothingPublished(run.log);
  });

  it("install: prints npm ci (node_modules stays as it is)", async () => {
    const run = await dryRun<{ node: string }>("install");
    expect(run.log).toContain("dry run: would run: npm ci --no-audit --no-fund (node_modules is used as it is here)");
  });

  describe("the SDKs (sdk/, from npm run sdk)", () => {
    it("nodejs-sdk: compiled and packed as @pulumi-semgrep/semgrep at package.json's version", async () => {
      const run = await dryRun<Packed>("nodejs-sdk");
      expect(run).toMatchObject({ name: "@pulumi-semgrep/semgrep", version });
      expect(run.files).toEqual(expect.arrayContaining(["index.js", "index.d.ts", "package.json", "README.md", "LICENSE"]));
      expect(run.log).toContain(`dry run: would run: npm publish ${run.tarball} --access public`);
      expectNothingPublished(run.log);
    }, 300_000);

    it("python-sdk: byte-compiled, pyproject's version is package.json's; build and upload printed", async () => {
      const run = await dryRun<{ name: string; version: string; files?: string[] }>("python-sdk");
      expect(run).toMatchObject({ name: "pulumi_semgrep", version });
      expect(run.log).toContain(`pulumi_semgrep ${version}: byte-compiled`);
      if (!hasTool("python3", ["-m", "build", "--version"])) {
        expect(run.log).toContain(
          "python -m build is not installed here: skipped the sdist and wheel (CI installs build and twine with pip)",
        );
        expect(run.log.some((l) => /^dry run: would run: python3? -m twine upload /.test(l))).toBe(true);
      }
      expectNothingPublished(run.log);
    }, 120_000);

    it("dotnet-sdk: PulumiSemgrep.Semgrep at package.json's version; pack and push printed", async () => {
      const run = await dryRun<{ name: string; version: string }>("dotnet-sdk");
      expect(run).toMatchObject({ name: "PulumiSemgrep.Semgrep", version });
      if (!hasTool("dotnet")) {
        expect(run.log).toContain("dotnet is not installed here: skipped dotnet pack");
        expect(run.skipped).toEqual(["dotnet"]);
      }
      expect(run.log.some((l) => l.startsWith("dry run: would run: dotnet nuget push ") && l.includes("--api-key $NUGET_API_KEY"))).toBe(
        true,
      );
      expectNothingPublished(run.log);
    });

    it("go-tag: sdk/go/semgrep/v<version> on the module's path, push printed", async () => {
      const run = await dryRun<{ module: string; tag: string }>("go-tag");
      expect(run).toMatchObject({ module: "github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep", tag: `sdk/go/semgrep/v${version}` });
      expect(run.log).toContain(`dry run: would run: git push origin refs/tags/sdk/go/semgrep/v${version}`);
      expectNothingPublished(run.log);
    });
  });
});

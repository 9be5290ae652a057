/**
 * `pulumi-semgrep adopt` of a deployment with more projects than `--set-threshold` (default 100),
 * through the real CLI, in TypeScript (the installed package) and YAML (the native plugin): adopt
 * writes one ProjectSettingsSet whose map is a data file (projects.ts; Pulumi.yaml's config
 * projectSettings); the program's first `up` writes nothing, a no-change preview shows no change,
 * and one project's tag added in the data file is one write to that project. 150 projects (the
 * large preset's first 150): the benchmark measures the full size.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { withoutSystemTags } from "../../provider/client/schemas";
import { useEmulator } from "../support/emulator";
import { installPlugin } from "../support/native-plugin";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";

const PROJECTS = 150;
const env = useEmulator({ preset: "large", projects: PROJECTS });
const run = promisify(execFile);
const CHANGED_TAG = "e2e:changed";
/** A tag Pulumi YAML would read as an interpolation in the program: in the config value it is a tag like any other. */
const DOLLAR_TAG = "price: $5 ${not.an.interpolation}";

/** Every file under `dir`, by relative path, as text. */
function filesOf(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(
    entries.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]),
  );
}

/** `pulumi-semgrep adopt` as installed, against the emulator; returns its stdout and the files it wrote. */
async function adopt(language: "typescript" | "yaml") {
  const bin = join(inject("installedPackageDir"), "node_modules/.bin/pulumi-semgrep");
  const out = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-set-")), "out");
  const credentials = { SEMGREP_APP_TOKEN: env.emulator.token, SEMGREP_APP_URL: env.emulator.url, SEMGREP_API_TOKEN: "", SEMGREP_URL: "" };
  const args = [
    "adopt",
    "--deployment",
    "acme",
    "--skip",
    "policies,teams,settings,notifications,users",
    "--out",
    out,
    "--language",
    language,
  ];
  const { stdout } = await run(bin, args, { env: { ...process.env, ...credentials }, maxBuffer: 1 << 24 });
  return { stdout, files: filesOf(out) };
}

const writes = () => env.requests().filter((r) => r.method !== "GET");
const resetLog = () => void (env.emulator.requests().length = 0);

/** A project with tags of its own (the one whose tags the change edits). */
const taggedProject = () => env.emulator.state().projects.find((p) => withoutSystemTags(p.tags).length > 0)!;

/** Adds CHANGED_TAG to `project`'s tags in the data file: the first `tags: [` after its key. */
function addTag(dir: string, file: string, project: string) {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  const at = text.indexOf(`${JSON.stringify(project)}:`);
  expect(at).toBeGreaterThan(0);
  const tags = text.indexOf("tags: [", at);
  writeFileSync(path, `${text.slice(0, tags)}tags: [${JSON.stringify(CHANGED_TAG)}, ${text.slice(tags + "tags: [".length)}`);
}

/** First up: no write; a no-change preview: no change, no request; one tag added in the data file: one write, to that project. */
async function proveProgram(workspace: PulumiWorkspace, dataFile: string) {
  const before = JSON.stringify(env.emulator.state().projects);
  resetLog();
  const up = await workspace.run(["up", "--yes", "--skip-preview"]);
  expect(up.stdout).toMatch(/\+ 2 created/); // the stack and the one set
  expect(writes()).toEqual([]);
  // One listing (150: one short page) and each project's own read: adopt declares every project's switches.
  expect(env.requests("projects.list")).toHaveLength(1);
  expect(env.requests("projects.get")).toHaveLength(PROJECTS);
  expect(JSON.stringify(env.emulator.state().projects)).toBe(before);

  resetLog();
  const preview = await workspace.run(["preview", "--expect-no-changes", "--diff"]);
  expect(preview.stdout).not.toContain(CHANGED_TAG);
  expect(env.requests()).toEqual([]);

  const project = taggedProject();
  addTag(workspace.dir, dataFile, project.name);
  resetLog();
  await workspace.run(["up", "--yes", "--skip-preview"]);
  expect(writes().map((w) => `${w.method} ${w.path}`)).toEqual([
    `PATCH /api/v1/deployments/acme/projects/${encodeURIComponent(project.name)}`,
  ]);
  expect(env.emulator.state().projects.find((p) => p.name === project.name)!.tags).toContain(CHANGED_TAG);
}

describe("adopt above --set-threshold: one ProjectSettingsSet, the program's first up writes nothing (real CLI)", () => {
  it("TypeScript: index.ts declares the set over projects.ts; first up 0 writes, no-change preview, one tag one write", async () => {
    const { stdout, files } = await adopt("typescript");
    expect(stdout).toContain(`\n  1 ProjectSettingsSet (${PROJECTS} projects)\n`);
    expect(files["index.ts"]).toContain('new ProjectSettingsSet("projects", { deploymentSlug, projects });');
    const workspace = await pulumiWorkspace(
      files,
      { SEMGREP_APP_TOKEN: env.emulator.token, SEMGREP_APP_URL: env.emulator.url },
      join(inject("installedPackageDir"), "node_modules"),
    );
    // projects.ts is typed (Record<string, ProjectEntryArgs>): the generated tsconfig compiles it against the installed package.
    await run(process.execPath, [join(__dirname, "../../node_modules/typescript/bin/tsc"), "--noEmit", "-p", workspace.dir]);
    await proveProgram(workspace, "projects.ts");
  }, 600_000);

  it("YAML: Main.yaml's set reads Pulumi.yaml's projectSettings (a `$` in a tag as it is); first up 0 writes, no-change preview, one tag one write", async () => {
    const dollar = env.emulator.state().projects[0]!;
    dollar.tags = [...dollar.tags, DOLLAR_TAG];
    const { stdout, files } = await adopt("yaml");
    expect(stdout).toContain(`\n  1 ProjectSettingsSet (${PROJECTS} projects)\n`);
    expect(files["Pulumi.yaml"]).toContain(JSON.stringify(DOLLAR_TAG));
    // As its README says: the plugin, the token as a secret (the stack's config file; Pulumi.yaml is left as adopt wrote it).
    const workspace = await pulumiWorkspace(files, { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" });
    await installPlugin(workspace);
    await workspace.run(["config", "set", "--secret", "semgrep:token", env.emulator.token]);
    await workspace.run(["config", "set", "semgrep:url", env.emulator.url]);
    expect(readFileSync(join(workspace.dir, "Pulumi.yaml"), "utf8")).toBe(files["Pulumi.yaml"]);
    await proveProgram(workspace, "Pulumi.yaml");
  }, 600_000);
});

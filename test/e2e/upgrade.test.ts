/**
 * The upgrade path: state written with one build of the package is refreshed, updated and
 * destroyed by a newer build (the `__provider` in old state loads the installed code), and a
 * stack made with the token in SEMGREP_APP_TOKEN keeps working once it moves to `semgrep:token`;
 * state as 0.1 wrote it is upgraded by one `up` that makes no request.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { program, programWorkspace } from "../support/program";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const stackProgram = (mode: string) => `
const semgrep = require("pulumi-semgrep");
new semgrep.ProjectSettings("web-app", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "develop" });
new semgrep.ProjectTags("web-app-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["upgraded"] });
new semgrep.PolicyRuleMode("eval", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${EVAL}", mode: "${mode}" });
`;

/** A node_modules of its own: links to the installed dependencies, and a real copy of pulumi-semgrep that can be swapped. */
function privateModules(installed: string): string {
  const modules = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-upgrade-")), "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(installed)) {
    if (entry === "pulumi-semgrep") cpSync(join(installed, entry), join(modules, entry), { recursive: true });
    else symlinkSync(join(installed, entry), join(modules, entry));
  }
  return modules;
}

/** Installs a "newer build": a new version whose provider code records each method it runs in `marker`. */
function installNewerBuild(modules: string, marker: string): void {
  const pkg = join(modules, "pulumi-semgrep");
  const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ ...manifest, version: "0.2.0" }));
  const runtime = join(pkg, "dist/core/runtime/dispatch.js");
  const code = readFileSync(runtime, "utf8");
  const start = /async function run\(kind, method, args[^)]*\) \{/;
  const record = `\n    require("node:fs").appendFileSync(${JSON.stringify(marker)}, "0.2.0 " + kind + " " + method + "\\n");`;
  if (!start.test(code)) throw new Error("dispatch.js has changed shape; update this test");
  writeFileSync(
    runtime,
    code.replace(start, (found) => found + record),
  );
}

let emulator: RunningEmulator;
let workspace: PulumiWorkspace;
let modules: string;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo" });
  modules = privateModules(join(inject("installedPackageDir"), "node_modules"));
});
afterAll(async () => {
  await emulator?.close();
  rmSync(join(modules, ".."), { recursive: true, force: true });
});

describe("upgrading the package under an existing stack", () => {
  it("refreshes, updates and destroys old state with the newer build, after the token moved to the stack config", async () => {
    const before = JSON.stringify(emulator.state().projects);
    const files = {
      "Pulumi.yaml": "name: upgrade\nruntime: nodejs\n",
      "index.js": stackProgram("MODE_DISABLED"),
      "package.json": '{"name":"upgrade","main":"index.js"}',
    };
    workspace = await pulumiWorkspace(files, { SEMGREP_APP_TOKEN: emulator.token, SEMGREP_APP_URL: emulator.url }, modules);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const oldState = (await workspace.run(["stack", "export"])).stdout;
    expect(oldState).toContain('require(\\"pulumi-semgrep/shims/PolicyRuleMode\\")');

    const marker = join(workspace.dir, "..", "calls.log");
    installNewerBuild(modules, marker);
    const moved = { env: { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" } };
    await workspace.run(["config", "set", "semgrep:url", emulator.url], moved);
    await workspace.run(["config", "set", "--secret", "semgrep:token", emulator.token], moved);

    emulator.state().projects[0]!.primaryBranch = "refs/heads/elsewhere";
    // Refresh configures providers from the state unless it runs the program: the token now lives in the config.
    const stale = await workspace.run(["refresh", "--yes", "--skip-preview"], { ...moved, allowFailure: true });
    expect(stale.stdout + stale.stderr).toMatch(/run `pulumi up` \(or `pulumi refresh --run-program`\) once/);
    await workspace.run(["refresh", "--yes", "--skip-preview", "--run-program"], moved);
    writeFileSync(join(workspace.dir, "index.js"), stackProgram("MODE_COMMENT"));
    await workspace.run(["up", "--yes", "--skip-preview"], moved);
    const rule = () => emulator.state().policies[0]!.rules.find((r) => r.path === EVAL)!;
    expect(rule().policyMode).toBe("MODE_COMMENT");
    expect(emulator.state().projects[0]!.primaryBranch).toBe("refs/heads/develop");
    await workspace.run(["destroy", "--yes", "--skip-preview"], moved);

    const calls = readFileSync(marker, "utf8");
    for (const expected of [
      "PolicyRuleMode read",
      "ProjectSettings read",
      "ProjectTags read",
      "PolicyRuleMode update",
      "ProjectSettings update",
      "PolicyRuleMode delete",
      "ProjectSettings delete",
      "ProjectTags delete",
    ]) {
      expect(calls).toContain(`0.2.0 ${expected}`);
    }
    expect(JSON.stringify(emulator.state().projects)).toBe(before);
  }, 180_000);
});

describe("state written by 0.1, before resources recorded their names and managed fields", () => {
  it("refreshes as unchanged, updates once without a request, and destroys restoring what 0.1 recorded", async () => {
    const own = await startEmulator({ preset: "demo" });
    try {
      const snapshot = () =>
        JSON.stringify({ projects: own.state().projects, modes: own.state().policies.map((p) => p.rules.map((r) => r.policyMode)) });
      const before = snapshot();
      const workspace = await programWorkspace(
        own,
        program(`
new semgrep.ProjectSettings("web", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "develop", tags: ["team:web", "x"] });
new semgrep.ManagedScan("mobile-scans", { deploymentSlug: "acme", projectName: "acme/mobile-app", diffScan: { enabled: true } });
new semgrep.ProjectTags("payments-tags", { deploymentSlug: "acme", projectName: "acme/payments-api", tags: ["upgraded"] });
new semgrep.PolicyRuleMode("eval", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${EVAL}", mode: "MODE_BLOCK" });
`),
      );
      await workspace.run(["up", "--yes", "--skip-preview"]);

      // Rewrite the state as 0.1 wrote it: no metadata inputs, no names or managed fields in the outputs.
      const state = JSON.parse(await workspace.exported());
      for (const resource of state.deployment.resources) {
        if (!resource.type.startsWith("pulumi-nodejs:dynamic/semgrep:")) continue;
        for (const key of ["resourceName", "secretInputs"]) delete resource.inputs[key];
        for (const key of ["resourceName", "secretInputs", "managedFields"]) delete resource.outputs[key];
        if (resource.propertyDependencies) for (const key of ["resourceName", "secretInputs"]) delete resource.propertyDependencies[key];
      }
      const file = join(workspace.dir, "..", "state-0.1.json");
      writeFileSync(file, JSON.stringify(state));
      await workspace.run(["stack", "import", "--file", file]);

      const refresh = await workspace.run(["refresh", "--yes", "--skip-preview"]);
      expect(refresh.stdout).toMatch(/5 unchanged/);
      const requests = own.requests().length;
      const up = await workspace.run(["up", "--yes", "--skip-preview"]);
      expect(up.stdout).toMatch(/~ 4 updated/);
      expect(own.requests().length).toBe(requests);
      const upgraded = await workspace.resources();
      expect(upgraded.web!.outputs).toMatchObject({
        resourceName: "web",
        managedFields: ["primaryBranch", "tags"],
        originalPrimaryBranch: "refs/heads/main",
      });
      await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(snapshot()).toBe(before);
    } finally {
      await own.close();
    }
  }, 180_000);
});

/**
 * `pulumi-semgrep adopt --language yaml` through the real CLI and the native plugin: after
 * out-of-band changes that make the live state awkward (tags with spaces, unicode, quotes, colons
 * and `$`), adopt (the installed package's bin) writes a Pulumi YAML program; following its
 * README (install the plugin, `pulumi config set --secret semgrep:token`), the first `pulumi up`
 * writes nothing, the next preview expects no change, and the service is as it was.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { DEMO_DEPLOYMENT, type EmulatorState, type RunningEmulator, startEmulator } from "../../provider/emulator";
import { installPlugin } from "../support/native-plugin";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";

const SLUG = DEMO_DEPLOYMENT.slug;
const TOKEN = "adopt-yaml-e2e-token-51c2";
const run = promisify(execFile);

/** Every file under `dir`, by relative path, as text. */
function filesOf(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(
    entries.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]),
  );
}
const snapshot = (emulator: RunningEmulator): EmulatorState => JSON.parse(JSON.stringify(emulator.state())) as EmulatorState;

describe("adopt --language yaml: the program's first up writes nothing (native plugin, real CLI)", () => {
  let emulator: RunningEmulator;
  let client: SemgrepClient;
  let before: EmulatorState;
  let files: Record<string, string>;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    // Both policy APIs: one program with ProjectSettings, PolicyRuleModes, DetectionPolicy and RemediationPolicy.
    emulator = await startEmulator({ preset: "demo", token: TOKEN, retryAfterSeconds: 0, policiesV2: "both" });
    client = new SemgrepClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  it("1. awkward live values, then adopt --language yaml", async () => {
    await client.projects.update(SLUG, "acme/web-app", {
      tags: ["team:web", "legacy systems — café ✓", 'say "hi" \\ back', "price: $5 ${not.an.interpolation}", "# not a comment", "- dash"],
    });
    before = snapshot(emulator);
    const bin = join(inject("installedPackageDir"), "node_modules/.bin/pulumi-semgrep");
    const out = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-yaml-")), "out");
    const env = { ...process.env, SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url, SEMGREP_API_TOKEN: "", SEMGREP_URL: "" };
    const adopted = await run(
      bin,
      ["adopt", "--deployment", SLUG, "--out", out, "--language", "yaml", "--skip", "teams,settings,notifications,users"],
      { env, maxBuffer: 1 << 24 },
    );
    expect(adopted.stdout).toMatch(/\d+ ProjectSettings, \d+ PolicyRuleModes, \d+ DetectionPolicy, \d+ RemediationPolicy/);
    files = filesOf(out);
    expect(Object.keys(files).sort()).toEqual([".gitignore", "Main.yaml", "Pulumi.yaml", "README.md"]);
    expect(files["Main.yaml"]).toContain('"price: $$5 $${not.an.interpolation}"');
  });

  it("2. as its README says: install the plugin, set the token as a secret, up: no write; then no change", async () => {
    workspace = await pulumiWorkspace(files, { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" });
    await installPlugin(workspace);
    await workspace.run(["config", "set", "--secret", "semgrep:token", TOKEN]);
    await workspace.run(["config", "set", "semgrep:url", emulator.url]);
    const mark = emulator.requests().length;
    const up = await workspace.run(["up", "--yes"]);
    expect(up.stdout).toMatch(/Resources:\n\s+\+ \d+ created/);
    const writes = emulator
      .requests()
      .slice(mark)
      .filter((r) => r.method !== "GET" && !r.path.endsWith(":dryRun"));
    expect(writes).toEqual([]);
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(snapshot(emulator)).toEqual(before);
    // The awkward tag went through Pulumi YAML as it is live (no interpolation, no lost `$`).
    const state = JSON.parse((await workspace.run(["stack", "export"])).stdout) as {
      deployment: { resources: { type: string; outputs?: { projectName?: string; tags?: string[] } }[] };
    };
    const web = state.deployment.resources.find(
      (r) => r.type === "semgrep:index:ProjectSettings" && r.outputs?.projectName === "acme/web-app",
    );
    expect(web?.outputs?.tags).toContain("price: $5 ${not.an.interpolation}");
    expect(JSON.stringify(state)).not.toContain(TOKEN);
  });
});

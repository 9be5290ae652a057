/**
 * `pulumi-semgrep adopt` of the access settings through the real CLI, in TypeScript (dynamic
 * providers) and YAML (the native plugin): the `demo` deployment's teams (plus a team nested
 * under `appsec`, made before adopt), its product configuration, its notification rule (whose
 * webhook URL is a secret) and its org admins. Following the generated README (the secret config
 * value set from the file adopt wrote), the first `up` writes nothing, a no-change preview writes
 * nothing, the webhook URL is printed nowhere and stored only encrypted, and destroy leaves the
 * emulator's state as it was before adopt.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { DEMO_DEPLOYMENT, type EmulatorState, type RunningEmulator, startEmulator } from "../../provider/emulator";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { installPlugin } from "../support/native-plugin";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";

const SLUG = DEMO_DEPLOYMENT.slug;
const ID = DEMO_DEPLOYMENT.id;
const TOKEN = "adopt-access-e2e-token-3b81";
const SECRET_KEY = "criticalFindingsToTheSocUrl";
const run = promisify(execFile);

/** Every file under `dir`, by relative path, as text. */
function filesOf(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(
    entries.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]),
  );
}
const snapshot = (emulator: RunningEmulator): EmulatorState => JSON.parse(JSON.stringify(emulator.state())) as EmulatorState;

/**
 * Requests since `mark` that change something: neither a GET nor one of the listings the API
 * serves as a POST (teams, notification rules, users), nor a dry run.
 */
const writesSince = (emulator: RunningEmulator, mark: number) =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET" && !/\.(list|dryRun)$/.test(r.operation ?? ""))
    .map((r) => `${r.method} ${r.operation} ${r.status}`);

function expectSameState(after: EmulatorState, before: EmulatorState) {
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  for (const area of Object.keys(before) as (keyof EmulatorState)[]) expect(after[area], area).toEqual(before[area]);
}

/** The areas not about access: left out so that the program is the access settings alone. */
const OTHER_AREAS = ["--skip", "projects,policies,unified-policies"];

for (const language of ["typescript", "yaml"] as const) {
  describe(`adopt of the access settings (${language}): the first up writes nothing, destroy leaves the service as it was`, () => {
    let emulator: RunningEmulator;
    let client: SemgrepClient;
    let before: EmulatorState;
    let files: Record<string, string>;
    let workspace: PulumiWorkspace;
    let printed = "";

    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo", token: TOKEN, retryAfterSeconds: 0, policiesV2: "both" });
      client = new SemgrepClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
    });
    afterAll(async () => {
      await client?.close();
      await emulator?.close();
    });

    it("1. adopt declares the teams (a child after its parent), the settings, the rule (its URL a secret config key) and the admins", async () => {
      const parent = (await client.teams.list(ID).toArray()).find((t) => t.name === "appsec")!;
      await client.teams.create(ID, {
        name: "appsec-leads",
        parentTeamId: parent.id,
        users: [{ userId: "101", role: "TEAM_ROLE_MANAGER" }],
      });
      before = snapshot(emulator);
      const bin = join(inject("installedPackageDir"), "node_modules/.bin/pulumi-semgrep");
      const out = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-access-")), "out");
      const env = { ...process.env, SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url, SEMGREP_API_TOKEN: "", SEMGREP_URL: "" };
      const adopted = await run(bin, ["adopt", "--deployment", SLUG, "--out", out, "--language", language, ...OTHER_AREAS], {
        env,
        maxBuffer: 1 << 24,
      });
      printed += adopted.stdout + adopted.stderr;
      expect(adopted.stdout).toContain("3 Team, 1 DeploymentSettings, 1 NotificationRule, 2 UserRole");
      expect(adopted.stdout).toContain("org roles: 4 users in ORG_ROLE_MEMBER or ORG_ROLE_READONLY not declared");
      expect(adopted.stdout).toContain(`pulumi config set --secret ${SECRET_KEY} < secrets/${SECRET_KEY}`);
      files = filesOf(out);
      // The URL is in the owner-only secrets/ file alone, never in the program.
      expect(files[`secrets/${SECRET_KEY}`]).toBe(PRESET_WEBHOOK_URL);
      expect(statSync(join(out, "secrets", SECRET_KEY)).mode & 0o777).toBe(0o600);
      for (const [path, text] of Object.entries(files)) if (!path.startsWith("secrets/")) expect(text, path).not.toContain("T0KEN");
      expect(files[".gitignore"]).toContain("secrets/");
      const program = language === "yaml" ? files["Main.yaml"]! : files["index.ts"]! + files["teams.ts"]!;
      // The child names its parent's teamId, and comes after it.
      if (language === "yaml") {
        expect(program).toContain('parentTeamId: "${appsec.teamId}"');
        expect(program).toContain(`config: { url: "\${${SECRET_KEY}}" }`);
        expect(program).toMatch(new RegExp(`${SECRET_KEY}:\\n\\s+type: string\\n\\s+secret: true`));
      } else {
        expect(program).toContain('parent: "appsec",');
        expect(program).toContain(`config: { url: config.requireSecret("${SECRET_KEY}") }`);
      }
      expect(program.indexOf("appsec-leads")).toBeGreaterThan(program.indexOf('"appsec"'));
    });

    it("2. as its README says (the secret set from its file): up writes nothing; a no-change preview writes nothing", async () => {
      workspace = await pulumiWorkspace(
        files,
        language === "yaml" ? { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" } : { SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url },
        language === "yaml" ? undefined : join(inject("installedPackageDir"), "node_modules"),
      );
      if (language === "yaml") {
        await installPlugin(workspace);
        await workspace.run(["config", "set", "--secret", "semgrep:token", TOKEN]);
        await workspace.run(["config", "set", "semgrep:url", emulator.url]);
      }
      await run("sh", ["-c", `pulumi config set --secret ${SECRET_KEY} < secrets/${SECRET_KEY} && rm -r secrets`], {
        cwd: workspace.dir,
        env: workspace.env,
      });
      const mark = emulator.requests().length;
      const up = await workspace.run(["up", "--yes"]);
      printed += up.stdout + up.stderr;
      expect(up.stdout).toMatch(/Resources:\n\s+\+ \d+ created/);
      expect(writesSince(emulator, mark)).toEqual([]);
      const next = emulator.requests().length;
      const preview = await workspace.run(["preview", "--expect-no-changes"]);
      printed += preview.stdout + preview.stderr;
      expect(writesSince(emulator, next)).toEqual([]);
      expectSameState(snapshot(emulator), before);
      const state = (await workspace.run(["stack", "export"])).stdout;
      expect(state).not.toContain("T0KEN");
      expect(state).not.toContain(TOKEN);
      // Recorded, nothing changed: no Team recorded a member or project it would put back differently.
      const resources = (JSON.parse(state) as { deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] } })
        .deployment.resources;
      const teams = resources.filter((r) => r.type.endsWith(":Team"));
      expect(teams.map((t) => t.outputs?.created)).toEqual([false, false, false]);
    });

    it("3. destroy leaves the emulator's state as before adopt; the webhook URL was printed nowhere", async () => {
      const destroy = await workspace.run(["destroy", "--yes"]);
      printed += destroy.stdout + destroy.stderr;
      expectSameState(snapshot(emulator), before);
      expect(printed).not.toContain("T0KEN");
    });
  });
}

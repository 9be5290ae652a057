/**
 * `npx pulumi-semgrep adopt` through the real CLI, the main proof: after out-of-band
 * changes that make the live state irregular, adopt (the installed package's bin) writes a program
 * whose first `pulumi up` writes nothing and records no originals, whose preview then expects no
 * change, where one edited mode is a one-line diff and one write, and whose destroy leaves the
 * service exactly as it was before adopt. One emulator per scenario, shared by its steps (in order).
 */
import { execFile } from "node:child_process";
import { copyFileSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { detectionBundleInput, remediationPolicyInput } from "../../provider/client/schemas/policies-v2";
import {
  DEMO_DEPLOYMENT,
  type EmulatorState,
  type RunningEmulator,
  SAST_POLICY_ID,
  SECRETS_POLICY_ID,
  startEmulator,
} from "../../provider/emulator";
import { writesSince } from "../support/emulator";
import type { StateResource } from "../support/program";
import { offlinePulumiEnv, type PulumiWorkspace, pulumiWorkspace, runPulumi } from "../support/pulumi";

const REPO = join(__dirname, "../..");
const SLUG = DEMO_DEPLOYMENT.slug;
const ID = DEMO_DEPLOYMENT.id;
/** A token no file may contain (the emulator's default, `emulator-token`, is too plain to search for). */
const TOKEN = "adopt-e2e-token-7f3a9c";
const TYPE = "pulumi-nodejs:dynamic/semgrep:";

const installed = () => inject("installedPackageDir");
const run = promisify(execFile);

/**
 * Runs the installed package's bin as `npx pulumi-semgrep adopt` does, with the emulator's token
 * and address in the environment; `more`: further arguments, `cwd`: where it runs.
 */
async function adopt(emulator: RunningEmulator, out: string, more: string[] = [], cwd?: string) {
  const bin = join(installed(), "node_modules/.bin/pulumi-semgrep");
  const env = { ...process.env, SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url, SEMGREP_API_TOKEN: "", SEMGREP_URL: "" };
  try {
    const { stdout, stderr } = await run(
      bin,
      ["adopt", "--deployment", SLUG, "--out", out, "--skip", "teams,settings,notifications,users", ...more],
      { cwd, env, maxBuffer: 1 << 24 },
    );
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Every file under `dir`, by relative path (`policies/x.ts`), as text. */
function filesOf(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(
    entries.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]).sort(),
  );
}

const freshDir = () => join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-")), "out");
/** The emulator's whole state, as JSON (a copy: the emulator keeps changing its own). */
const snapshot = (emulator: RunningEmulator): EmulatorState => JSON.parse(JSON.stringify(emulator.state())) as EmulatorState;

/** Two snapshots equal, area by area (projects, policies, scans, …: a difference is then shown in its area). */
function expectSameState(after: EmulatorState, before: EmulatorState) {
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  for (const area of Object.keys(before) as (keyof EmulatorState)[]) expect(after[area], area).toEqual(before[area]);
}

/** `operation status` of each request since `mark`, counted. */
function counted(emulator: RunningEmulator, mark: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of emulator.requests().slice(mark))
    counts[`${r.method} ${r.operation} ${r.status}`] = (counts[`${r.method} ${r.operation} ${r.status}`] ?? 0) + 1;
  return counts;
}

/** The generated project as a Pulumi workspace (stack `test`), run as a user's: the installed package's node_modules. */
const workspaceOf = (dir: string, emulator: RunningEmulator) =>
  pulumiWorkspace(filesOf(dir), { SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url }, join(installed(), "node_modules"));

/** Our resources in the stack's state, by kind. */
async function stateOf(workspace: PulumiWorkspace): Promise<Record<string, StateResource[]>> {
  const exported = JSON.parse((await workspace.run(["stack", "export"])).stdout) as { deployment: { resources?: StateResource[] } };
  const byKind: Record<string, StateResource[]> = {};
  for (const r of exported.deployment.resources ?? []) {
    if (r.type.startsWith(TYPE)) (byKind[r.type.slice(TYPE.length)] ??= []).push(r);
  }
  return byKind;
}

/** The outputs `original…` a resource set (with a value). */
const originalsSet = (r: StateResource) =>
  Object.entries(r.outputs).filter(([key, value]) => key.startsWith("original") && value !== undefined && value !== null);

/**
 * `tsc --noEmit -p DIR` with the TypeScript of this repo and the generated tsconfig; the files it
 * read of `pulumi-semgrep` and `@pulumi/pulumi` must be the installed (packed) package's.
 */
async function typecheck(dir: string) {
  const tsc = join(REPO, "node_modules/typescript/bin/tsc");
  const { stdout } = await run(process.execPath, [tsc, "--noEmit", "-p", dir, "--listFilesOnly"], { maxBuffer: 1 << 24 }).catch((e) => {
    throw new Error(`tsc --listFilesOnly failed\n${e.stdout}${e.stderr}`);
  });
  await run(process.execPath, [tsc, "--noEmit", "-p", dir], { maxBuffer: 1 << 24 }).catch((e) => {
    throw new Error(`tsc --noEmit -p ${dir} failed\n${e.stdout}${e.stderr}`);
  });
  const read = stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => realpathSync(f));
  const from = (pkg: string) => read.filter((f) => f.includes(`/node_modules/${pkg}/`));
  const root = realpathSync(installed());
  for (const pkg of ["pulumi-semgrep", "@pulumi/pulumi"]) {
    expect(from(pkg).length, `${pkg} is read`).toBeGreaterThan(0);
    expect(
      from(pkg).filter((f) => !f.startsWith(`${root}/`)),
      `${pkg} is the installed package`,
    ).toEqual([]);
  }
  expect(read.filter((f) => f.startsWith(`${realpathSync(REPO)}/provider/`) || f.startsWith(`${realpathSync(REPO)}/dist/`))).toEqual([]);
}

/** No file holds the token or the emulator's address. */
function expectNoCredentials(files: Record<string, string>, emulator: RunningEmulator) {
  const { host } = new URL(emulator.url);
  for (const [path, text] of Object.entries(files)) {
    expect(text.includes(TOKEN), `${path} holds the token`).toBe(false);
    expect(text.includes(host), `${path} holds the emulator's address`).toBe(false);
  }
}

/** The entry of project `name` in the generated projects.ts. */
const projectEntry = (projects: string, name: string) => {
  const start = projects.indexOf(`    projectName: ${JSON.stringify(name)},`);
  expect(start, `${name} in projects.ts`).toBeGreaterThan(0);
  return projects.slice(start, projects.indexOf("\n  },", start));
};

// A `large` preset `up` or `destroy` takes about 30 s alone, more on a busy machine: this scenario
// runs once, in the `all` project (about 2 minutes). Under omit-empty, the migrated scenario below
// covers answers without their default values (its projects' managed scans, inactive policies).
describe.skipIf(inject("omitEmpty"))("adopting a v1 deployment (large preset, irregular live state)", { timeout: 300_000 }, () => {
  let emulator: RunningEmulator;
  let client: SemgrepClient;
  let before: EmulatorState;
  let out: string;
  let files: Record<string, string>;
  let workspace: PulumiWorkspace;
  let edited: { path: string; from: string; to: string };

  beforeAll(async () => {
    emulator = await startEmulator({ preset: "large", token: TOKEN, retryAfterSeconds: 0 });
    client = new SemgrepClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  const project = (name: string) => emulator.state().projects.find((p) => p.name === name)!;
  const rulesOf = (policyId: string) => emulator.state().policies.find((p) => p.id === policyId)!.rules;

  it("1-2. the live state is made irregular out of band, then snapshotted", async () => {
    // Odd tags: spaces and unicode, colons; many tags; all tags removed (the system tag stays).
    await client.projects.update(SLUG, "acme/web-app", {
      tags: ["team:web", "tier:1", "legacy systems — café ✓", "env:prod:eu-west", 'say "hi" \\ back', "managed-scan:legacy"],
    });
    await client.projects.update(SLUG, "acme/mobile-app", {
      tags: Array.from({ length: 60 }, (_, i) => `zone ${String(i).padStart(2, "0")}:ö`),
      primary_branch: "refs/heads/release/2026.11", // pinned to a branch other than the default
    });
    await client.projects.update(SLUG, "acme/payments-api", { tags: [] });
    await client.projects.update(SLUG, "acme/infra", { primary_branch: "None" }); // follows the default branch
    // Managed scans toggled: on for projects without (the service adds `managed-scan`), off for one with.
    await client.projects.updateManagedScans(SLUG, "acme/mobile-app", { diff_scan: { enabled: true } });
    const unscanned = emulator
      .state()
      .projects.filter((p) => !p.managedScanConfig.diff_scan.enabled && !p.managedScanConfig.full_scan.enabled);
    for (const p of unscanned.slice(0, 3)) await client.projects.updateManagedScans(SLUG, p.name, { full_scan: { enabled: true } });
    await client.projects.updateManagedScans(SLUG, "acme/web-app", { diff_scan: { enabled: false }, full_scan: { enabled: false } });
    // Mixed rule modes in the 5,000-rule and the 400-rule policies.
    const modes = ["MODE_BLOCK", "MODE_COMMENT", "MODE_DISABLED", "MODE_MONITOR"] as const;
    for (const policyId of [SAST_POLICY_ID, SECRETS_POLICY_ID]) {
      const rules = rulesOf(policyId);
      for (let i = 0; i < 12; i++) {
        const rule = rules[(i * 397) % rules.length]!;
        await client.policies.updateRuleMode(ID, policyId, { rulePath: rule.path, policyMode: modes[i % modes.length]! });
      }
    }
    expect(project("acme/mobile-app").tags).toContain("managed-scan");
    expect(project("acme/payments-api").tags).toEqual(["managed-scan"]);
    expect(project("acme/infra").primaryBranch).toBeNull();
    before = snapshot(emulator);
  });

  it("3. adopt reads at the API's minimum, writes no credential, and writes the same bytes twice", async () => {
    const mark = emulator.requests().length;
    out = freshDir();
    // 300 projects, above the default --set-threshold: --one-per-project keeps this proof's form,
    // one ProjectSettings each (the set form's proof is e2e/adopt-project-set).
    const result = await adopt(emulator, out, ["--one-per-project"]);
    expect(result.status, result.stderr).toBe(0);
    const pages = before.policies.reduce((sum, p) => sum + Math.max(1, Math.ceil(p.rules.length / 2000)), 0);
    expect(counted(emulator, mark)).toEqual({
      "GET deployments.list 200": 1,
      "GET projects.list 200": 1,
      "GET projects.get 200": before.projects.length,
      "GET policies.list 200": 1,
      "GET policies.listRules 200": pages,
      "GET policiesV2.getDetectionPolicySummary 403": 1,
    });
    expect(before.projects.length).toBe(300);
    expect(pages).toBe(3 + 1 + 1); // 5,000, 400 and 40 rules
    files = filesOf(out);
    expectNoCredentials(files, emulator);
    expect(Object.keys(files).filter((f) => f.startsWith("policies/"))).toEqual([
      "policies/default-sast-policy.ts",
      "policies/default-secrets-policy.ts",
      "policies/strict-sast-pilot.ts",
    ]);
    expect(files["index.ts"]).not.toMatch(/DetectionPolicy|RemediationPolicy/);

    // What the irregular state became: odd tags as live, no system tag, the pinned branch declared, the followed one a comment.
    const projects = files["projects.ts"]!;
    expect(projects).not.toContain('"managed-scan"');
    const web = projectEntry(projects, "acme/web-app");
    for (const tag of project("acme/web-app").tags) expect(web).toContain(`${JSON.stringify(tag)},`);
    expect(web).toContain("managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } },");
    expect(projectEntry(projects, "acme/payments-api")).toContain("tags: [],");
    const mobile = projectEntry(projects, "acme/mobile-app");
    expect(mobile).toContain('primaryBranch: "refs/heads/release/2026.11",');
    expect(mobile).toContain('"zone 59:ö",');
    const infra = projectEntry(projects, "acme/infra");
    expect(infra).not.toContain("primaryBranch:");
    expect(infra).toContain("// primaryBranch left out: refs/heads/main is also the default branch");

    const again = freshDir();
    expect((await adopt(emulator, again, ["--one-per-project"])).status).toBe(0);
    expect(filesOf(again)).toEqual(files);
  });

  it("4. the generated project type-checks against the installed package", async () => {
    workspace = await workspaceOf(out, emulator);
    await typecheck(workspace.dir);
  });

  it("5. the first up writes nothing and records no originals; a preview then expects no change", async () => {
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const nonGet = emulator
      .requests()
      .slice(mark)
      .filter((r) => r.method !== "GET");
    expect(nonGet.map((r) => `${r.method} ${r.operation} ${r.path}`)).toEqual([]);
    const state = await stateOf(workspace);
    expect(state.ProjectSettings).toHaveLength(300);
    expect(state.ProjectSettings!.flatMap((r) => originalsSet(r).map(([key]) => `${r.urn}: ${key}`))).toEqual([]);
    expect(state.PolicyRuleModes!.map((r) => r.outputs.originals)).toEqual([{}, {}, {}]);
    expect(Object.keys(state).sort()).toEqual(["PolicyRuleModes", "ProjectSettings"]);
    await workspace.run(["preview", "--expect-no-changes"]);
  });

  it("6. one edited mode is a one-line diff and one write; an edited tag set and managed scan, one write each", async () => {
    const path = "policies/default-sast-policy.ts";
    const text = readFileSync(join(workspace.dir, path), "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((line) => line.endsWith(': "MODE_MONITOR",'));
    const rule = JSON.parse(lines[at]!.trim().split(": ")[0]!) as string;
    const changed = lines.map((line, i) => (i === at ? line.replace('"MODE_MONITOR"', '"MODE_COMMENT"') : line));
    writeFileSync(join(workspace.dir, path), changed.join("\n"));
    expect(changed.length).toBe(lines.length);
    expect(changed.filter((line, i) => line !== lines[i])).toEqual([`  ${JSON.stringify(rule)}: "MODE_COMMENT",`]);
    edited = { path: rule, from: "MODE_MONITOR", to: "MODE_COMMENT" };

    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual(["policies.updateRuleMode 200"]);
    expect(rulesOf(SAST_POLICY_ID).find((r) => r.path === rule)!.policyMode).toBe("MODE_COMMENT");

    // Values adopt found as declared, changed by a later up: each recorded then, so destroy puts them back (step 7).
    const projects = readFileSync(join(workspace.dir, "projects.ts"), "utf8");
    const payments = projectEntry(projects, "acme/payments-api");
    const web = projectEntry(projects, "acme/web-app");
    const scans = "managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } },";
    expect(payments).toContain("tags: [],");
    expect(web).toContain(scans);
    writeFileSync(
      join(workspace.dir, "projects.ts"),
      projects
        .replace(payments, payments.replace("tags: [],", 'tags: ["owner:appsec"],'))
        .replace(web, web.replace(scans, scans.replace("diffScan: { enabled: false }", "diffScan: { enabled: true }"))),
    );
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual(["projects.update 200", "projects.update 200"]);
    expect(project("acme/payments-api").tags).toEqual(expect.arrayContaining(["owner:appsec"]));
    expect(project("acme/web-app").managedScanConfig.diff_scan.enabled).toBe(true);
  });

  it("7. destroy leaves the service exactly as the snapshot taken before adopt", async () => {
    const mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    // The edited mode, tag set and managed scan put back.
    expect(writesSince(emulator, mark).sort()).toEqual(["policies.updateRuleMode 200", "projects.update 200", "projects.update 200"]);
    // The whole state, but the audit fields of the one rule set twice since the snapshot (its mode is compared).
    const after = snapshot(emulator);
    const rule = (state: EmulatorState) => state.policies.find((p) => p.id === SAST_POLICY_ID)!.rules.find((r) => r.path === edited.path)!;
    expect(rule(after).policyMode).toBe(edited.from);
    expect(rule(after).lastChangeAt).not.toBe(rule(before).lastChangeAt);
    for (const state of [before, after]) Object.assign(rule(state), { lastChangeAt: "compared apart", lastChangeBy: "compared apart" });
    expectSameState(after, before);
  });
});

describe("adopting a migrated deployment (unified policies, irregular live state)", () => {
  let emulator: RunningEmulator;
  let client: SemgrepClient;
  let before: EmulatorState;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: true, token: TOKEN, retryAfterSeconds: 0 });
    client = new SemgrepClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  it("1-2. the unified policies are made irregular out of band, then snapshotted", async () => {
    const code = await client.policiesV2.getDetectionPolicy(ID, "code");
    const bundle = detectionBundleInput(code.bundle);
    bundle.disabled!.push("python.lang.security.audit.eval-detected.eval-detected", "go.lang.security.audit.net.use-tls.use-tls");
    bundle.exceptions!.push(
      { exception_type: "include", project_tag_name: "Team Ω / legacy apps", rule: "p/secrets", rule_type: "pack" },
      { exception_type: "exclude", project_tag_name: "Team Ω / legacy apps", rule: "p/owasp-top-ten", rule_type: "pack" },
      {
        exception_type: "exclude",
        project: "acme/web-app",
        rule: "javascript.lang.security.audit.code-string-concat.code-string-concat",
        rule_type: "rule",
      },
    );
    await client.policiesV2.applyDetectionPolicy(ID, "code", bundle, { ifMatch: code.state_version });
    const remediation = await client.policiesV2.getRemediationPolicies(ID);
    const policies = remediation.bundle.policies.map(remediationPolicyInput);
    policies.push({
      slug: "paused-triage-of-legacy",
      name: "Paused: legacy findings, many conditions",
      description: 'Paused during the "Ω" migration; ünïcode kept.',
      active: false,
      filters: {
        mode: "any",
        conditions: [
          { type: "severity", values: ["critical", "high"] },
          { type: "confidence", values: ["low"], mode: "none" },
          { type: "repository_tag", values: ["Team Ω / legacy apps", "pci"] },
        ],
      },
      actions: [
        { type: "pr_comment" },
        { type: "block" },
        { type: "slack_app", config: { channel: "#legacy-appsec" } },
        { type: "jira", config: { project_id: "LEG", credential_slug: "acme-jira" } },
      ],
    });
    await client.policiesV2.applyRemediationPolicies(ID, { policies }, { ifMatch: remediation.state_version });
    before = snapshot(emulator);
  });

  it("3-4. adopt declares each product and each policy as live, in a project that type-checks", async () => {
    const mark = emulator.requests().length;
    const out = freshDir();
    const result = await adopt(emulator, out);
    expect(result.status, result.stderr).toBe(0);
    expect(counted(emulator, mark)).toEqual({
      "GET deployments.list 200": 1,
      "GET projects.list 200": 1,
      "GET projects.get 200": before.projects.length,
      "GET policies.list 410": 1,
      "GET policiesV2.getDetectionPolicySummary 200": 1,
      "GET policiesV2.getRemediationPolicies 200": 1,
    });
    const files = filesOf(out);
    expectNoCredentials(files, emulator);
    expect(Object.keys(files).filter((f) => f.includes("/"))).toEqual(["detection-policies/code.ts", "detection-policies/secrets.ts"]);
    expect(files["index.ts"]).not.toContain("PolicyRuleModes");
    expect(files["detection-policies/code.ts"]).toContain('projectTagName: "Team Ω / legacy apps"');
    workspace = await workspaceOf(out, emulator);
    await typecheck(workspace.dir);
  });

  it("5. the first up writes nothing and records no originals; a preview then expects no change", async () => {
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual([]);
    const state = await stateOf(workspace);
    const userPolicies = before.remediationPolicies.filter((p) => !p.systemManaged);
    expect(Object.keys(state).sort()).toEqual(["DetectionPolicy", "ProjectSettings", "RemediationPolicy"]);
    expect(state.ProjectSettings).toHaveLength(before.projects.length);
    expect(state.DetectionPolicy!.map((r) => [r.outputs.product, r.outputs.originals]).sort()).toEqual([
      ["code", {}],
      ["secrets", {}],
    ]);
    expect(state.RemediationPolicy!.map((r) => r.outputs.slug).sort()).toEqual(userPolicies.map((p) => p.slug).sort());
    expect(state.RemediationPolicy!.filter((r) => r.outputs.original !== undefined || r.outputs.created !== false)).toEqual([]);
    expect(state.ProjectSettings!.flatMap((r) => originalsSet(r).map(([key]) => `${r.urn}: ${key}`))).toEqual([]);
    await workspace.run(["preview", "--expect-no-changes"]);
  });

  it("6. a rule dropped from disabled and a policy made inactive: one write each", async () => {
    const code = readFileSync(join(workspace.dir, "detection-policies/code.ts"), "utf8");
    const lines = code.split("\n");
    const disabledAt = lines.findIndex((line) => line.trim() === "disabled: [");
    const dropped = lines[disabledAt + 1]!;
    writeFileSync(join(workspace.dir, "detection-policies/code.ts"), lines.filter((_, i) => i !== disabledAt + 1).join("\n"));
    const remediation = readFileSync(join(workspace.dir, "remediation-policies.ts"), "utf8");
    expect(remediation).toContain("active: true,");
    writeFileSync(join(workspace.dir, "remediation-policies.ts"), remediation.replace("active: true,", "active: false,"));
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark).sort()).toEqual(["policiesV2.applyDetectionPolicy 200", "policiesV2.applyRemediationPolicies 200"]);
    const rule = JSON.parse(dropped.trim().replace(/,$/, "")) as string;
    expect(emulator.state().detectionPolicies.find((p) => p.product === "code")!.disabled).not.toContain(rule);
  });

  it("7. destroy leaves the service exactly as the snapshot taken before adopt", async () => {
    const mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    // What step 6 changed, put back: adopt found it as declared, the edit's up recorded it.
    expect(writesSince(emulator, mark).sort()).toEqual(["policiesV2.applyDetectionPolicy 200", "policiesV2.applyRemediationPolicies 200"]);
    expectSameState(snapshot(emulator), before);
  });
});

// A build that is not on the npm registry (a clone, a tarball): `adopt --package <tarball>` writes a
// project that `npm install` installs from the tarball, and that runs as any adopted project does.
// The tarball is the one the test run's global setup packed (test/support/global-setup.ts).
describe.skipIf(inject("omitEmpty"))("adopt --package: a project that installs the packed tarball, and runs", { timeout: 600_000 }, () => {
  let emulator: RunningEmulator;
  let before: EmulatorState;
  let project: string;
  let pulumi: (args: string[]) => Promise<{ stdout: string }>;

  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", token: TOKEN, retryAfterSeconds: 0 });
    before = snapshot(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("writes the tarball's path, given relative to where adopt runs, as seen from the project", async () => {
    const packed = dirname(installed());
    const tarball = readdirSync(packed).find((f) => /^pulumi-semgrep-.*\.tgz$/.test(f));
    expect(tarball, `the global setup's tarball in ${packed}`).toBeDefined();
    // As a user who packed a clone: the tarball beside the directory adopt writes.
    const work = mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-package-"));
    copyFileSync(join(packed, tarball!), join(work, tarball!));
    const result = await adopt(emulator, "semgrep-acme", ["--package", `./${tarball}`], work);
    expect(result.status, result.stderr).toBe(0);
    project = join(work, "semgrep-acme");
    const packageJson = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies["pulumi-semgrep"]).toBe(`file:../${tarball}`);
    expect(readFileSync(join(project, "README.md"), "utf8")).toContain(`file:../${tarball}`);
  });

  it("npm install installs the package from the tarball, a copy under node_modules (no link to the clone)", async () => {
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, maxBuffer: 1 << 24 });
    const installedHere = join(project, "node_modules/pulumi-semgrep");
    expect(lstatSync(installedHere).isSymbolicLink()).toBe(false);
    const version = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
    expect((JSON.parse(readFileSync(join(installedHere, "package.json"), "utf8")) as { version: string }).version).toBe(version);
  });

  it("the first up, in the generated directory with its own node_modules, writes nothing; a preview expects no change; destroy leaves the service as it was", async () => {
    const env = offlinePulumiEnv(mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-package-home-")), {
      SEMGREP_APP_TOKEN: TOKEN,
      SEMGREP_APP_URL: emulator.url,
    });
    pulumi = (args) => runPulumi(args, { cwd: project, env });
    await pulumi(["stack", "init", SLUG]);
    const mark = emulator.requests().length;
    await pulumi(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual([]);
    const resources = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { resources?: StateResource[] } };
    expect(resources.deployment.resources!.filter((r) => r.type === `${TYPE}ProjectSettings`)).toHaveLength(before.projects.length);
    await pulumi(["preview", "--expect-no-changes"]);
    await pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual([]);
    expectSameState(snapshot(emulator), before);
  });
});

/**
 * `X.get(name, id)` on every resource kind, through the real CLI: the engine reads a dynamic
 * resource constructed with `opts.id` from the id alone. The program reads each kind's object,
 * exports what it read, writes nothing, and `destroy` leaves every object as it was.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });
let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await emulators.start();
});

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
let logged = 0;
/** Requests other than reads since the program first ran. */
const writes = () =>
  emulator
    .requests()
    .slice(logged)
    .filter((r) => r.method !== "GET");
/** What the resources read: the projects and policies (an export's status moves on as it is read). */
const objects = () => JSON.stringify({ projects: emulator.state().projects, policies: emulator.state().policies });

describe("X.get(name, id)", () => {
  it("reads every kind from its id alone, writes nothing, and destroy leaves the objects", async () => {
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    const { taskToken } = await client.sbom.createExport("1", { repositoryId: "101", ref: "refs/heads/main" });
    const before = objects();
    const workspace = await programWorkspace(
      emulator,
      program(`
const settings = semgrep.ProjectSettings.get("settings", "acme/acme/web-app");
const tags = semgrep.ProjectTags.get("tags", "acme/acme/web-app");
const scans = semgrep.ManagedScan.get("scans", "acme/acme/web-app");
const rule = semgrep.PolicyRuleMode.get("rule", "1/${SAST_POLICY_ID}/${EVAL}");
const sbom = semgrep.SbomExport.get("sbom", "1/${taskToken}");
exports.primaryBranch = settings.primaryBranch;
exports.projectId = settings.projectId;
exports.projectTags = tags.projectTags;
exports.diffScan = scans.diffScan;
exports.mode = rule.mode;
exports.severity = rule.severity;
exports.sbomStatus = sbom.status;
exports.isInstance = [
  semgrep.ProjectSettings.isInstance(settings),
  semgrep.ProjectSettings.isInstance(tags),
  semgrep.PolicyRuleMode.isInstance(rule),
  semgrep.SbomExport.isInstance(rule),
];
`),
    );
    logged = emulator.requests().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(printed(up)).not.toMatch(/error/i);
    // projectTags is a set other resources may add to, stored as a secret (see kinds/declare.ts sharedSet).
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    const project = emulator.state().projects.find((p) => p.name === "acme/web-app")!;
    const rule = emulator
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.find((r) => r.path === EVAL)!;
    expect(outputs).toEqual({
      primaryBranch: project.primaryBranch,
      projectId: project.id,
      projectTags: project.tags,
      diffScan: { enabled: project.managedScanConfig.diff_scan.enabled ?? false },
      mode: rule.policyMode,
      severity: "SEVERITY_HIGH",
      sbomStatus: expect.stringMatching(/^SBOM_EXPORT_STATUS_/),
      isInstance: [true, false, true, false],
    });
    expect(writes()).toEqual([]);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(writes()).toEqual([]);
    expect(objects()).toBe(before);
  }, 180_000);

  it("fails naming the id when no object has it", async () => {
    const workspace = await programWorkspace(emulator, program(`semgrep.ProjectSettings.get("missing", "acme/acme/no-such-project");`));
    logged = emulator.requests().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toContain(
      'ProjectSettings: no object with the id "acme/acme/no-such-project" (<deploymentSlug>/<projectName>) exists',
    );
    expect(writes()).toEqual([]);
  }, 120_000);

  it("names the id's format when the id is not one of the kind", async () => {
    const workspace = await programWorkspace(emulator, program(`semgrep.PolicyRuleMode.get("rule", "not-an-id");`));
    logged = emulator.requests().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toContain('PolicyRuleMode: "not-an-id" is not an id of this kind: give <deploymentId>/<policyId>/<rulePath>');
    expect(writes()).toEqual([]);
  }, 120_000);
});

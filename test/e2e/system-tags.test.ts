/**
 * System tags through the real CLI: the service sets `managed-scan` on projects with managed scans
 * and keeps it whatever a PATCH sends. A ProjectSettings that declares the project's whole tag set
 * neither strips it nor shows a diff on every run because the service put it back; refresh shows no
 * drift; destroy puts back the stack's tags and leaves the system tag.
 */
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import type { RunningEmulator } from "../../provider/emulator";
import { useEmulators, writesSince } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });

const MOBILE = `{ deploymentSlug: "acme", projectName: "acme/mobile-app" }`;

const SETTINGS = program(`
const settings = new semgrep.ProjectSettings("mobile", { ...${MOBILE}, tags: ["team:mobile", "owner:appsec"] });
exports.tags = settings.tags;
exports.originalTags = settings.originalTags;
`);

const SCANS_AND_SETTINGS = program(`
new semgrep.ManagedScan("mobile-scans", { ...${MOBILE}, diffScan: { enabled: true } });
const settings = new semgrep.ProjectSettings("mobile", { ...${MOBILE}, tags: ["team:mobile"] });
exports.tags = settings.tags;
`);

const tagsOf = (emulator: RunningEmulator, name: string) => emulator.state().projects.find((p) => p.name === name)!.tags;

/** Turns managed scans of `projectName` on out of band, as the Semgrep app would: the service tags it `managed-scan`. */
async function onboard(emulator: RunningEmulator, projectName: string): Promise<void> {
  const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
  try {
    await client.projects.updateManagedScans("acme", projectName, { full_scan: { enabled: true } });
  } finally {
    await client.close();
  }
}

const DECLARES_SYSTEM_TAG = program(`
new semgrep.ProjectTags("mobile-tags", { ...${MOBILE}, tags: ["pci", "managed-scan"] });
`);

describe("system tags (managed-scan) beside a ProjectSettings that declares tags", () => {
  it("refuses a system tag declared in ProjectTags at preview, naming the field, with no request", async () => {
    const emulator = await emulators.start();
    const workspace = await programWorkspace(emulator, DECLARES_SYSTEM_TAG);
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toMatch(
      /ProjectTags \(mobile-tags\): error: .*tags\[1\]: \\?"managed-scan\\?": is a system tag: the service sets it \(on projects with managed scans\)/,
    );
    expect(emulator.requests()).toEqual([]);
  }, 120_000);

  it("keeps managed-scan through up, a second up, refresh and destroy, with no diff", async () => {
    const emulator = await emulators.start();
    await onboard(emulator, "acme/mobile-app");
    expect(tagsOf(emulator, "acme/mobile-app")).toEqual(["managed-scan"]);
    const workspace = await programWorkspace(emulator, SETTINGS);

    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual(["projects.update 200"]);
    expect([...tagsOf(emulator, "acme/mobile-app")].sort()).toEqual(["managed-scan", "owner:appsec", "team:mobile"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    // The state says what is live (the whole set); the original it puts back holds no system tag.
    expect(outputs).toEqual({ tags: ["team:mobile", "owner:appsec", "managed-scan"], originalTags: [] });

    mark = emulator.requests().length;
    const second = await workspace.run(["up", "--yes"]);
    expect(printed(second)).toMatch(/2 unchanged/);
    expect(writesSince(emulator, mark)).toEqual([]);

    await workspace.run(["refresh", "--yes"]);
    await workspace.run(["preview", "--expect-no-changes"]);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--expect-no-changes"]);
    expect(writesSince(emulator, mark)).toEqual([]);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(tagsOf(emulator, "acme/mobile-app")).toEqual(["managed-scan"]);
  }, 300_000);

  it("converges beside a ManagedScan that turns the project's managed scans on, with no diff on the second run", async () => {
    const emulator = await emulators.start();
    const workspace = await programWorkspace(emulator, SCANS_AND_SETTINGS);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect([...tagsOf(emulator, "acme/mobile-app")].sort()).toEqual(["managed-scan", "team:mobile"]);

    let mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    const second = await workspace.run(["up", "--yes", "--expect-no-changes"]);
    expect(printed(second)).toMatch(/3 unchanged/);
    expect(writesSince(emulator, mark)).toEqual([]);

    await workspace.run(["refresh", "--yes"]);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--expect-no-changes"]);
    expect(writesSince(emulator, mark)).toEqual([]);

    // Destroy turns the scans off again (the service drops the system tag) and puts back the tags found: none.
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    const mobile = emulator.state().projects.find((p) => p.name === "acme/mobile-app")!;
    expect(mobile.tags).toEqual([]);
    expect(mobile.managedScanConfig.diff_scan.enabled).toBe(false);
  }, 300_000);
});

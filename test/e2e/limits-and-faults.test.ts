/**
 * Limits and faults through the real CLI (issue 8, cases 8 and 9): a ProjectTags with 1,200 tags
 * is created and destroyed within the URL lengths proxies accept; one `pulumi up` converges at a
 * 30 % fault rate, starting an SBOM export through dropped connections; under lost answers every
 * retried write ends as declared, and only an export may be started twice.
 */
import { describe, expect, it } from "vitest";
import { type EmulatorOptions, type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });

const PROJECTS = ["acme/web-app", "acme/payments-api", "acme/mobile-app"];

/** Three projects' settings, tags and scans, ten rule modes, and an SBOM export. */
function declaredStack(rules: string[]): string {
  return program(`
for (const projectName of ${JSON.stringify(PROJECTS)}) {
  const name = projectName.split("/")[1];
  new semgrep.ProjectSettings(name, { deploymentSlug: "acme", projectName, primaryBranch: "release" });
  new semgrep.ProjectTags(name + "-tags", { deploymentSlug: "acme", projectName, tags: ["faults"] });
  new semgrep.ManagedScan(name + "-scans", { deploymentSlug: "acme", projectName, fullScan: { enabled: false } });
}
${JSON.stringify(rules)}.forEach((rulePath, i) => new semgrep.PolicyRuleMode("rule-" + i, { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath, mode: "MODE_BLOCK" }));
new semgrep.SbomExport("sbom", { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main" });
`);
}

function expectDeclared(service: RunningEmulator, rules: string[]): void {
  for (const name of PROJECTS) {
    expect(service.state().projects.find((p) => p.name === name)).toMatchObject({
      primaryBranch: "refs/heads/release",
      managedScanConfig: { full_scan: { enabled: false } },
    });
    expect(service.state().projects.find((p) => p.name === name)!.tags).toContain("faults");
  }
  const sast = service.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
  for (const path of rules) expect(sast.rules.find((r) => r.path === path)!.policyMode).toBe("MODE_BLOCK");
}

async function setUp(options: EmulatorOptions = {}) {
  const emulator = await emulators.start({ retryAfterSeconds: 0, ...options });
  const rules = emulator
    .state()
    .policies.find((p) => p.id === SAST_POLICY_ID)!
    .rules.filter((r) => r.policyMode !== "MODE_BLOCK")
    .slice(0, 10)
    .map((r) => r.path);
  const before = JSON.stringify(emulator.state().projects);
  const workspace = await programWorkspace(emulator, declaredStack(rules));
  return { service: emulator, rules, before, workspace };
}

describe("a ProjectTags with 1,200 tags", () => {
  it("is created with one request and destroyed in requests within the URL length proxies accept", async () => {
    const emulator = await emulators.start();
    const workspace = await programWorkspace(
      emulator,
      program(
        `new semgrep.ProjectTags("releases", { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: Array.from({ length: 1200 }, (_, i) => "release:2026." + i) });`,
      ),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(emulator.state().projects.find((p) => p.name === "acme/mobile-app")!.tags).toHaveLength(1200);
    expect(emulator.requests().filter((r) => r.operation === "projects.addTags")).toHaveLength(1);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(emulator.state().projects.find((p) => p.name === "acme/mobile-app")!.tags).toEqual([]);
    const removals = emulator.requests().filter((r) => r.operation === "projects.removeTags");
    expect(removals.length).toBeGreaterThan(1);
    expect(removals.every((r) => r.status === 200)).toBe(true);
  }, 180_000);
});

describe("at a 30 % fault rate (429, 503, dropped connections)", () => {
  it("one up converges, and destroy puts everything back", async () => {
    const { service, rules, before, workspace } = await setUp({ faultRate: 0.3, seed: 8 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expectDeclared(service, rules);
    expect(service.state().sbomExports.length).toBeGreaterThanOrEqual(1);
    const faults = service.requests().filter((r) => r.fault);
    expect(new Set(faults.map((r) => r.fault))).toEqual(new Set(["429", "503", "drop"]));
    await workspace.run(["preview", "--expect-no-changes"]);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(JSON.stringify(service.state().projects)).toBe(before);
  }, 300_000);

  it("starts an SBOM export through dropped connections, never failing the up", async () => {
    const { service, rules, workspace } = await setUp({ faultRate: 1, faultKinds: ["drop"] });
    service.setFaults({ operations: ["sbom.createExport"], maxFaults: 2 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expectDeclared(service, rules);
    expect(
      service
        .requests()
        .filter((r) => r.operation === "sbom.createExport")
        .map((r) => r.fault ?? r.status),
    ).toEqual(["drop", "drop", 200]);
    expect(service.state().sbomExports).toHaveLength(1);
  }, 180_000);
});

describe("under lost answers (handled, then the connection drops)", () => {
  it("every retried write ends as declared, and only an export is started twice", async () => {
    const { service, rules, workspace } = await setUp({ faultRate: 0.3, faultKinds: ["lost"], seed: 3 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expectDeclared(service, rules);
    const lostWrites = service.requests().filter((r) => r.fault === "lost" && r.method !== "GET");
    expect(lostWrites.length).toBeGreaterThan(0);
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);

    // The export's answer is lost once: the retry starts a second export, and the up succeeds.
    service.setFaults({ faultRate: 1, operations: ["sbom.createExport"], maxFaults: 1 });
    workspace.write(declaredStack(rules).replace(`ref: "refs/heads/main" }`, `ref: "refs/heads/main", triggers: ["v2"] }`));
    const exportsBefore = service.state().sbomExports.length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(service.state().sbomExports.length - exportsBefore).toBe(2);
  }, 300_000);
});

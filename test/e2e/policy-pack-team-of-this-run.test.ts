/**
 * protected-projects-team-access on a TeamProjects whose `teamId` is the output of a Team the same
 * run creates: a new `contractors` team given the `pci` project acme/payments-api. Through the real
 * CLI and the package's policy pack (the analyzer executable, with examples/pull-request's config)
 * against the emulator (demo preset). The TeamProjects' `teamId` is unknown at preview; the policy
 * finds the Team it comes from through the engine's property dependencies and judges the name it
 * declares, so the pull request's preview fails, and the merge's `up` (whose preview comes first)
 * is refused before the write that lets the team see the project.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start } = useEmulators({ preset: "demo" });

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
const CONFIG = join(__dirname, "../../examples/pull-request/policy-config.json");

const PROGRAM = program(`
const deploymentId = "1";
const contractors = new semgrep.Team("contractors", { deploymentId, name: "contractors" });
new semgrep.TeamProjects("contractors-pci", { deploymentId, teamId: contractors.teamId, projects: ["acme/payments-api"] });
`);

async function open() {
  const emulator = await start();
  const workspace = await programWorkspace(emulator, PROGRAM);
  copyFileSync(CONFIG, join(workspace.dir, "policy-config.json"));
  return { emulator, workspace, pack: ["--policy-pack", PACK(), "--policy-pack-config", "policy-config.json"] };
}

describe("protected-projects-team-access, a TeamProjects of a team this run creates", () => {
  it("fails the preview, naming the new team and the protected project", async () => {
    const { workspace, pack } = await open();
    const preview = await workspace.run(["preview", ...pack], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toMatch(/\[mandatory\] +protected-projects-team-access/);
    expect(printed(preview)).toMatch(/lets team contractors see acme\/payments-api, tagged pci/);
  }, 300_000);

  it("is refused by up before the write that lets the team see the project", async () => {
    const { emulator, workspace, pack } = await open();
    const up = await workspace.run(["up", "--yes", ...pack], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(/\[mandatory\] +protected-projects-team-access/);
    const payments = emulator.state().projects.find((p) => p.name === "acme/payments-api")!;
    const team = emulator.state().teams.find((t) => t.name === "contractors");
    expect(team?.repositoryIds ?? []).not.toContain(payments.id);
  }, 300_000);
});

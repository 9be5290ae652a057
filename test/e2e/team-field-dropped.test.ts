/**
 * A Team that stops declaring `projects` (or `members`) of the team it adopted: like every other
 * kind (a DeploymentSettings field dropped, for one), the preview must say that the field is no
 * longer managed and what becomes of its recorded original. Through the real CLI against the
 * emulator (demo preset: team payments, 202, sees acme/payments-api), in TypeScript. The update
 * then drops the field from `managedFields` with its original, so `destroy` no longer puts back
 * projects recorded long before.
 */
import { describe, expect, it } from "vitest";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start } = useEmulators({ preset: "demo" });

const team = (extra: string) =>
  program(
    `new semgrep.Team("payments", { deploymentId: "1", name: "payments", members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" }${extra} });`,
  );

describe("a Team's projects dropped from the program", () => {
  it("is announced by the preview, as a dropped field of any other kind is", async () => {
    const emulator = await start();
    const workspace = await programWorkspace(emulator, team(`, projects: ["acme/billing"]`));
    await workspace.run(["up", "--yes"]);
    workspace.write(team(""));
    const preview = await workspace.run(["preview", "--diff"]);
    expect(printed(preview)).toMatch(/projects.{0,160}no longer declared/);
    expect(printed(preview)).toMatch(/projects had 1 entry, 1 of them gone now: .acme\/payments-api/);
    await workspace.run(["up", "--yes"]);
    const outputs = (await workspace.resources()).payments!.outputs;
    expect(outputs.managedFields).toEqual(["members"]);
    expect(outputs.originalProjects).toBeUndefined();
  }, 300_000);
});

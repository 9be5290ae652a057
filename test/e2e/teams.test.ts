/**
 * Teams through the real CLI (TypeScript program, dynamic classes) against the emulator: `up`
 * adopts the demo's `payments` team beside a created one, a no-change preview writes nothing, a
 * member removed and a role raised out of band are found by `refresh` and corrected by `up`, a
 * TeamMembers declaring a member of a Team is refused before any write, and `destroy` leaves the
 * emulator's teams as they were before the first `up`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { printed, program, programWorkspace } from "../support/program";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo" });
});
afterAll(async () => emulator?.close());

/** The requests since `mark` that change something (the team and user listings are POSTs that only read). */
const writesSince = (mark: number) =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET" && r.operation !== "teams.list" && r.operation !== "users.list")
    .map((r) => `${r.operation} ${r.status}`);
const teamNamed = (name: string) => emulator.state().teams.find((t) => t.name === name);
const membersOf = (name: string) => Object.fromEntries(teamNamed(name)!.members.map((m) => [m.userId, m.role]));

const base = `
const red = new semgrep.Team("red", {
  deploymentId: "1",
  name: "red-team",
  members: { "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" },
  projects: ["acme/mobile-app"],
});
const auditor = new semgrep.TeamMembers("payments-auditor", { deploymentId: "1", teamId: "202", members: { "105": "TEAM_ROLE_READONLY" } });
const web = new semgrep.TeamProjects("payments-web", { deploymentId: "1", teamId: "202", projects: ["acme/web-app"] });
// After them: its writes then know what they declare, and leave it.
new semgrep.Team("payments", { deploymentId: "1", name: "payments", members: { "103": "TEAM_ROLE_MANAGER" } }, { dependsOn: [auditor, web] });
exports.redTeamId = red.teamId;
`;

describe("Team, TeamMembers and TeamProjects through the CLI", () => {
  it("up, a no-change preview, drift found and corrected, a conflict refused before any write, destroy", async () => {
    const before = structuredClone(emulator.state().teams);
    const workspace = await programWorkspace(emulator, program(base));

    await workspace.run(["up", "--yes", "--non-interactive"]);
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });
    // Adopted: 104 (declared by nothing) removed; the auditor, which a TeamMembers declares, kept.
    expect(membersOf("payments")).toEqual({ "103": "TEAM_ROLE_MANAGER", "105": "TEAM_ROLE_READONLY" });
    expect(teamNamed("payments")!.repositoryIds).toEqual([102, 101]);

    let mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes", "--non-interactive"]);
    expect(writesSince(mark)).toEqual([]);

    // Out of band: 106 leaves red-team, 105 is made its manager.
    const redId = teamNamed("red-team")!.id;
    const direct = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    await direct.teams.update(1, redId, {
      users: [
        { userId: "106", action: "UPDATE_ACTION_REMOVE" },
        { userId: "105", action: "UPDATE_ACTION_UPDATE", role: "TEAM_ROLE_MANAGER" },
      ],
    });
    await direct.close();
    const refresh = await workspace.run(["refresh", "--yes", "--non-interactive", "--diff"]);
    expect(printed(refresh)).toMatch(/TEAM_ROLE_MANAGER/);
    const preview = await workspace.run(["preview", "--non-interactive"]);
    expect(printed(preview)).toMatch(/~\s+1 to update|1 to update/);
    await workspace.run(["up", "--yes", "--non-interactive"]);
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });
    mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes", "--non-interactive"]);
    expect(writesSince(mark)).toEqual([]);

    // A TeamMembers declaring a member of red-team's members: refused at preview and at up, before any write, naming both.
    workspace.write(
      program(`${base}
new semgrep.TeamMembers("red-extra", { deploymentId: "1", teamId: red.teamId, members: { "105": "TEAM_ROLE_MEMBER" } });
`),
    );
    mark = emulator.requests().length;
    for (const args of [["preview"], ["up", "--yes"]]) {
      const refused = await workspace.run([...args, "--non-interactive"], { allowFailure: true });
      expect(refused.status, args.join(" ")).not.toBe(0);
      expect(printed(refused)).toMatch(
        /TeamMembers "red-extra" declares member 105 of team \d+ of deployment 1, which Team "red" declares too/,
      );
    }
    expect(writesSince(mark)).toEqual([]);
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });

    workspace.write(program(base));
    await workspace.run(["destroy", "--yes", "--non-interactive"]);
    expect(emulator.state().teams).toEqual(before);
  }, 600_000);

  it("a TeamMembers on a Team created in the same run: passes the preview (the id is unknown), refused at up after the Team's create", async () => {
    const before = structuredClone(emulator.state().teams);
    const workspace = await programWorkspace(
      emulator,
      program(`
const blue = new semgrep.Team("blue", { deploymentId: "1", name: "blue-team", members: { "105": "TEAM_ROLE_MEMBER" } });
new semgrep.TeamMembers("blue-extra", { deploymentId: "1", teamId: blue.teamId, members: { "105": "TEAM_ROLE_MANAGER" } });
`),
    );
    let mark = emulator.requests().length;
    await workspace.run(["preview", "--non-interactive"]);
    expect(writesSince(mark)).toEqual([]);
    mark = emulator.requests().length;
    const up = await workspace.run(["up", "--yes", "--non-interactive"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(/TeamMembers "blue-extra" declares member 105 of team \d+ of deployment 1, which Team "blue" declares too/);
    // The Team was created before the TeamMembers' check could know its id; the TeamMembers wrote nothing.
    expect(writesSince(mark)).toEqual(["teams.create 200"]);
    expect(membersOf("blue-team")).toEqual({ "105": "TEAM_ROLE_MEMBER" });
    await workspace.run(["destroy", "--yes", "--non-interactive"]);
    expect(emulator.state().teams).toEqual(before);
  }, 600_000);
});

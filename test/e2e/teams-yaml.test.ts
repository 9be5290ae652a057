/**
 * Teams through the real CLI in a YAML program (the native plugin of the installed package)
 * against the emulator's demo deployment: `up` creates a team and adopts `payments` beside a
 * TeamMembers and a TeamProjects of it, a no-change preview writes nothing, a member removed and a
 * role raised out of band are found by `refresh` and corrected by `up`, a TeamMembers declaring a
 * member of a Team is refused at preview and at up before any write, and `destroy` leaves the
 * emulator's whole state as the snapshot taken before the first `up`. (The TypeScript side:
 * teams.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { snapshotOf } from "../support/emulator";
import { printedWithoutPathWarnings, yamlWorkspace } from "../support/yaml-program";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0 });
});
afterAll(async () => emulator?.close());

/** The requests since `mark` that change something (the team and user listings are POSTs that only read), in order. */
const writesSince = (mark: number) =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET" && r.operation !== "teams.list" && r.operation !== "users.list")
    .map((r) => `${r.operation} ${r.status}`);
const teamNamed = (name: string) => emulator.state().teams.find((t) => t.name === name);
const membersOf = (name: string) => Object.fromEntries(teamNamed(name)!.members.map((m) => [m.userId, m.role]));

/** A created team, and the demo's `payments` adopted after a TeamMembers and a TeamProjects of it (its writes then know what they declare). */
const BASE = `resources:
  red:
    type: semgrep:index:Team
    properties:
      deploymentId: "1"
      name: red-team
      members: { "105": TEAM_ROLE_READONLY, "106": TEAM_ROLE_MEMBER }
      projects: [acme/mobile-app]
  payments-auditor:
    type: semgrep:index:TeamMembers
    properties: { deploymentId: "1", teamId: "202", members: { "105": TEAM_ROLE_READONLY } }
  payments-web:
    type: semgrep:index:TeamProjects
    properties: { deploymentId: "1", teamId: "202", projects: [acme/web-app] }
  payments:
    type: semgrep:index:Team
    properties: { deploymentId: "1", name: payments, members: { "103": TEAM_ROLE_MANAGER } }
    options:
      dependsOn: ["\${payments-auditor}", "\${payments-web}"]
outputs:
  redTeamId: \${red.teamId}
`;

describe("Team, TeamMembers and TeamProjects through the CLI, in a YAML program", () => {
  it("up, a no-change preview, drift found and corrected, a conflict refused before any write, destroy leaving the whole state as before", async () => {
    const before = snapshotOf(emulator);
    const workspace = await yamlWorkspace(BASE, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } });

    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });
    // Adopted: 104 (declared by nothing) removed; the auditor, which the TeamMembers declares, kept.
    expect(membersOf("payments")).toEqual({ "103": "TEAM_ROLE_MANAGER", "105": "TEAM_ROLE_READONLY" });
    expect(teamNamed("payments")!.repositoryIds).toEqual([102, 101]);
    expect((await workspace.run(["stack", "output", "redTeamId"])).stdout.trim()).toBe(String(teamNamed("red-team")!.id));
    // One create (with its members and projects), and one update each for the TeamMembers, the TeamProjects and the adopted team.
    expect(writesSince(mark).sort()).toEqual(["teams.create 200", "teams.update 200", "teams.update 200", "teams.update 200"]);

    mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
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
    const refresh = await workspace.run(["refresh", "--yes", "--diff"]);
    expect(printedWithoutPathWarnings(refresh)).toMatch(/TEAM_ROLE_MANAGER/);
    expect(printedWithoutPathWarnings(await workspace.run(["preview"]))).toMatch(/~ 1 to update/);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(mark)).toEqual(["teams.update 200"]); // one update puts both back
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });
    mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(mark)).toEqual([]);

    // A TeamMembers declaring a member of red-team's members: refused at preview and at up, before any write, naming both.
    workspace.write(`${BASE.replace(/\noutputs:[^]*$/, "")}
  red-extra:
    type: semgrep:index:TeamMembers
    properties: { deploymentId: "1", teamId: "\${red.teamId}", members: { "105": TEAM_ROLE_MEMBER } }
`);
    mark = emulator.requests().length;
    for (const args of [["preview"], ["up", "--yes"]]) {
      const refused = await workspace.run(args, { allowFailure: true });
      expect(refused.status, args.join(" ")).not.toBe(0);
      expect(printedWithoutPathWarnings(refused)).toMatch(
        /TeamMembers "red-extra" declares member 105 of team \d+ of deployment 1, which Team "red" declares too/,
      );
    }
    expect(writesSince(mark)).toEqual([]);
    expect(membersOf("red-team")).toEqual({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });

    workspace.write(BASE);
    await workspace.run(["destroy", "--yes"]);
    expect(snapshotOf(emulator)).toEqual(before);
  }, 600_000);
});

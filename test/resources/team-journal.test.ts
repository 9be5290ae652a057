/**
 * The team kinds' journal of originals (provider/core/runtime/journal.ts) when a run dies between
 * the requests of one write: a change of more than 500 users goes in several requests (the Teams
 * API takes at most 500 each), and a run killed after the first landed records nothing in the
 * stack's state. Here the second request is refused (one of its users gone from the deployment),
 * which leaves the service and the journal as such a kill would; the recovery's create, in a new
 * provider process, must record the originals from before the first request, so that delete puts
 * the team back as it was, not as the first request left it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredUser } from "../../provider/emulator/model";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "large" });
useProviderAgainst(env);

type Props = Record<string, unknown>;
const TEAM_ID = 201; // team-001 of the large preset: 50 members, three projects

const team = () => env.emulator.state().teams.find((t) => t.id === TEAM_ID)!;
const membersOf = () => Object.fromEntries(team().members.map((m) => [m.userId, m.role]));

/** 600 users of the deployment that are not members of the team: more than one request's 500. */
function newcomers(): string[] {
  const members = new Set(team().members.map((m) => m.userId));
  return env.emulator
    .state()
    .users.map((u) => u.id)
    .filter((id) => !members.has(id))
    .slice(0, 600);
}

/** Takes `userId` out of the deployment until the returned function puts it back: a request naming it is refused (400). */
function withoutUser(userId: string): () => void {
  const users = env.emulator.state().users;
  const at = users.findIndex((u) => u.id === userId);
  const [user] = users.splice(at, 1) as [StoredUser];
  return () => void users.splice(at, 0, user);
}

/** The next call is a new provider process: the lines so far are another process's, as a killed run's are. */
function asAnotherProcess() {
  forgetProcessMemory();
  const dir = join(process.env.XDG_STATE_HOME!, "pulumi-semgrep");
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(/"p":"[^"]*"/g, '"p":"killed"'));
  }
}

describe.each(FRONT_ENDS)("a write of several requests cut after the first (%s front end)", (frontEnd) => {
  it("a Team adopting a team: the recovery records the members from before the first request, and delete puts them back", async () => {
    const teams = provider("Team", frontEnd);
    const before = membersOf();
    const added = newcomers();
    const declared = { deploymentId: "1", name: team().name, members: Object.fromEntries(added.map((u) => [u, "TEAM_ROLE_MEMBER"])) };
    const inputs = await checked(teams, { ...declared, resourceName: "big" });
    // 600 additions then 50 removals: the second request (additions 501-600 and the removals) names the last newcomer.
    const putBack = withoutUser(added.at(-1)!);
    await expect(teams.create(inputs)).rejects.toThrow(/is not a user of deployment/);
    putBack();
    expect(Object.keys(membersOf()), "the first request landed").toHaveLength(550);

    asAnotherProcess();
    const { id, outs } = (await teams.create(await checked(teams, { ...declared, resourceName: "big" }))) as { id: string; outs: Props };
    expect(outs.originalMembers, "the members before the first request").toEqual(before);
    expect(notices.map((n) => n.message).join("\n")).toContain("recorded from this machine's journal");
    forgetProcessMemory();
    await teams.delete(id, outs);
    expect(membersOf()).toEqual(before);
  });

  it("a TeamMembers adding 600 members: the recovery counts those of the first request as added, and delete removes them", async () => {
    const calls = provider("TeamMembers", frontEnd);
    const before = membersOf();
    const added = newcomers();
    const declared = {
      deploymentId: "1",
      teamId: String(TEAM_ID),
      members: Object.fromEntries(added.map((u) => [u, "TEAM_ROLE_READONLY"])),
    };
    const inputs = await checked(calls, { ...declared, resourceName: "many" });
    const putBack = withoutUser(added.at(-1)!);
    await expect(calls.create(inputs)).rejects.toThrow(/is not a user of deployment/);
    putBack();
    expect(Object.keys(membersOf()), "the first request landed").toHaveLength(550);

    asAnotherProcess();
    const { id, outs } = (await calls.create(await checked(calls, { ...declared, resourceName: "many" }))) as { id: string; outs: Props };
    expect([...(outs.addedMembers as string[])].sort()).toEqual([...added].sort());
    forgetProcessMemory();
    await calls.delete(id, outs);
    expect(membersOf()).toEqual(before);
  });
});

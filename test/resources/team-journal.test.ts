/**
 * The team kinds' journal of originals (provider/core/runtime/journal.ts) when a run dies between
 * the requests of one write: a change of more than 500 users goes in several requests (the Teams
 * API takes at most 500 each), and a run killed after the first landed records nothing in the
 * stack's state. Here the second request is refused (one of its users gone from the deployment),
 * which leaves the service and the journal as such a kill would; the recovery's create, in a new
 * provider process, must record the originals from before the first request, so that delete puts
 * the team back as it was, not as the first request left it. And an update killed after its write
 * (cut here by a cancel as its answer comes back, whose outputs then reach no state): the
 * recovery's update, given the state from before it, finds the values as declared and takes their
 * originals from the journal. And members given as a secret: the journal holds no user id or role.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredUser } from "../../provider/emulator/model";
import { interrupt } from "../../provider/core/runtime/interrupts";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, notices, provider, useProviderAgainst } from "../support/provider";
import { asAnotherProcess } from "../support/journal";

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

describe.each(FRONT_ENDS)("an update whose answer reached no state (%s front end)", (frontEnd) => {
  /** Updates `state` to `declared` as a run cut as its answer comes back (its outputs never recorded), then as the recovery's run. */
  async function updateCutThenRecovered(calls: ReturnType<typeof provider>, id: string, state: Props, declared: Props) {
    interrupt("a cancel, as the update's answer comes back");
    await calls.update(id, state, await checked(calls, declared));
    asAnotherProcess();
    return ((await calls.update(id, state, await checked(calls, declared))) as { outs: Props }).outs;
  }

  it("a Team managing its members for the first time: the recovery records the members from before the cut update", async () => {
    const teams = provider("Team", frontEnd);
    const before = membersOf();
    const adopted = { deploymentId: "1", name: team().name, resourceName: "adopted" };
    const { id, outs } = (await teams.create(await checked(teams, adopted))) as { id: string; outs: Props };
    asAnotherProcess();
    const members = Object.fromEntries(
      newcomers()
        .slice(0, 3)
        .map((u) => [u, "TEAM_ROLE_MANAGER"]),
    );
    const recovered = await updateCutThenRecovered(teams, id, outs, { ...adopted, members });
    expect(recovered.originalMembers).toEqual(before);
    forgetProcessMemory();
    await teams.delete(id, recovered);
    expect(membersOf()).toEqual(before);
  });

  it("a TeamMembers adding a member and raising a role, a TeamProjects adding a project: delete after the recovery undoes both", async () => {
    const calls = provider("TeamMembers", frontEnd);
    const projectCalls = provider("TeamProjects", frontEnd);
    const [kept, raised] = team().members.map((m) => m.userId);
    const [newcomer] = newcomers();
    const before = membersOf();
    const beforeProjects = [...team().repositoryIds];
    const base = { deploymentId: "1", teamId: String(TEAM_ID) };
    const first = { ...base, members: { [kept!]: before[kept!] }, resourceName: "few" };
    const { id, outs } = (await calls.create(await checked(calls, first))) as { id: string; outs: Props };
    const projectName = (id: number) => env.emulator.state().projects.find((p) => p.id === id)!.name;
    const other = env.emulator.state().projects.find((p) => !beforeProjects.includes(p.id))!;
    const firstProjects = { ...base, projects: [projectName(beforeProjects[0]!)], resourceName: "more" };
    const made = (await projectCalls.create(await checked(projectCalls, firstProjects))) as { id: string; outs: Props };
    asAnotherProcess();

    const members = { ...first.members, [raised!]: "TEAM_ROLE_MANAGER", [newcomer!]: "TEAM_ROLE_READONLY" };
    const recovered = await updateCutThenRecovered(calls, id, outs, { ...first, members });
    expect(recovered).toMatchObject({ addedMembers: [newcomer], originalRoles: { [raised!]: before[raised!] } });
    const projects = await updateCutThenRecovered(projectCalls, made.id, made.outs, {
      ...firstProjects,
      projects: [...firstProjects.projects, other.name],
    });
    expect(projects.addedProjects).toEqual([other.name]);
    forgetProcessMemory();
    await calls.delete(id, recovered);
    await projectCalls.delete(made.id, projects);
    expect(membersOf()).toEqual(before);
    expect(team().repositoryIds).toEqual(beforeProjects);
  });
});

it("a TeamMembers given its members as a secret journals neither a user id nor a role: the added member is restored, the raised role said lost", async () => {
  const calls = provider("TeamMembers");
  const raised = team().members.find((m) => m.role !== "TEAM_ROLE_MANAGER")!.userId;
  const [newcomer] = newcomers();
  const before = membersOf();
  const declared = {
    deploymentId: "1",
    teamId: String(TEAM_ID),
    members: { [raised]: "TEAM_ROLE_MANAGER", [newcomer!]: "TEAM_ROLE_READONLY" },
    resourceName: "hidden",
    secretInputs: ["members"],
  };
  interrupt("a cancel, as the create's answer comes back");
  await calls.create(await checked(calls, declared));
  const dir = join(process.env.XDG_STATE_HOME!, "pulumi-semgrep");
  const journal = (existsSync(dir) ? readdirSync(dir) : []).map((file) => readFileSync(join(dir, file), "utf8")).join("");
  // A user id, whole (not a run of digits inside a digest or the writer's process mark).
  const named = (userId: string) => new RegExp(`(?<![0-9a-f])${userId}(?![0-9a-f])`).test(journal.replaceAll(/"p":"[^"]*"/g, ""));
  expect(journal).not.toBe("");
  expect(named(newcomer!), "the added member's id").toBe(false);
  expect(named(raised), "the raised member's id").toBe(false);
  expect(journal).not.toContain("TEAM_ROLE");

  asAnotherProcess();
  const { id, outs } = (await calls.create(await checked(calls, declared))) as { id: string; outs: Props };
  expect(outs.addedMembers).toEqual([newcomer]);
  expect(notices.map((n) => n.message).join("\n")).toContain("set to a secret value by an interrupted run");
  forgetProcessMemory();
  await calls.delete(id, outs);
  expect(membersOf()).toEqual({ ...before, [raised]: "TEAM_ROLE_MANAGER" }); // the raised role's original was not kept
});

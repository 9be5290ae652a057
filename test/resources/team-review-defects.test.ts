/**
 * Defects a cold review of issue 36's team changes found (each failed before its fix), about what a
 * destroy must leave, the team as it was before the stack's first `up` (promise 2), and who may
 * manage a team:
 *  - a member the Team changed, then moved to a TeamMembers (which found the Team's value), gets its
 *    original role back from the Team's delete;
 *  - a Team whose create the service refused keeps no journal line that a later create would take
 *    for a killed run's (and adopt someone else's team as its own);
 *  - a Team adopting beside a TeamMembers does not record that resource's additions as originals;
 *  - a new Team of a name another Team renames away from is refused at check.
 */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, provider, useProviderAgainst } from "../support/provider";
import { asAnotherProcess } from "../support/journal";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const team = (id: number) => env.emulator.state().teams.find((t) => t.id === id);
const membersOf = (id: number) => Object.fromEntries(team(id)!.members.map((m) => [m.userId, m.role]));
const APPSEC_BEFORE = { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" };

describe.each(FRONT_ENDS)("%s front end", (frontEnd) => {
  const teams = provider("Team", frontEnd);
  const members = provider("TeamMembers", frontEnd);
  const appsec = { deploymentId: "1", name: "appsec", resourceName: "appsec" };

  it("an original member whose role the Team changed, then moved to a TeamMembers, gets its original role back on destroy", async () => {
    // up 1: the Team adopts appsec and lowers 101 (MANAGER before the stack) to READONLY.
    const first = await teams.create(
      await checked(teams, { ...appsec, members: { "101": "TEAM_ROLE_READONLY", "102": "TEAM_ROLE_MEMBER" } }),
    );
    expect(first.outs).toMatchObject({ originalMembers: APPSEC_BEFORE });
    // up 2: 101 moves, as it is, to a TeamMembers of the team.
    forgetProcessMemory();
    const tmInputs = { deploymentId: "1", teamId: "201", members: { "101": "TEAM_ROLE_READONLY" }, resourceName: "tm" };
    await checked(members, tmInputs);
    const news = await checked(teams, { ...appsec, members: { "102": "TEAM_ROLE_MEMBER" } });
    const { outs: updated } = await teams.update(first.id, first.outs, news);
    const tm = await members.create(await checked(members, tmInputs));
    expect(updated).toMatchObject({ otherMembers: ["101"] });
    // destroy: the TeamMembers (which depends on nothing here) first, then the Team.
    forgetProcessMemory();
    await members.delete(tm.id, tm.outs);
    await teams.delete(first.id, updated);
    // Fails: 101 is left READONLY. The TeamMembers found it as declared (nothing to put back), and
    // the Team's delete leaves it to the TeamMembers because it is among its otherMembers.
    expect(membersOf(201)).toEqual(APPSEC_BEFORE);
  });

  // team.ts create journals `team: ABSENT` before the create's POST, and a failed create keeps its
  // lines (journal.ts). A later create of the resource that finds a team of its name (one that
  // someone else made) takes that line as "the killed run created it": `created: true`, and destroy
  // deletes a team the stack never made. Here the POST is refused (409: the name was taken after
  // the run's one listing), so it certainly created nothing.
  it("a Team whose create was refused does not later take a team someone else made for its own", async () => {
    const declared = { deploymentId: "1", name: "ops", resourceName: "ops" };
    const inputs = await checked(teams, declared); // the run's one listing: no team "ops"
    const theirs = await env.client().teams.create(1, { name: "ops" }); // another person makes it meanwhile
    await expect(teams.create(inputs)).rejects.toThrow(/already exists/);
    asAnotherProcess();
    // The next up adopts the team of that name, as the kind promises.
    const { id, outs } = await teams.create(await checked(teams, declared));
    expect(outs).toMatchObject({ teamId: String(theirs.id), created: false }); // fails: created is true
    forgetProcessMemory();
    await teams.delete(id, outs);
    expect(team(Number(theirs.id))).toBeDefined(); // and destroy deleted their team
  });

  // access-defects.test.ts's `team-adopted-beside-team-members` is fixed only while the Team's state
  // lists the TeamMembers' members among `otherMembers`: the Team still records them among its
  // originals (adoption takes the whole live team). Once that TeamMembers is gone and a later update
  // of the Team has dropped them from `otherMembers`, destroy adds them back to the team.
  it("a Team adopting beside a TeamMembers never puts back the members that TeamMembers added, even after it is gone", async () => {
    const tmInputs = { deploymentId: "1", teamId: "201", members: { "105": "TEAM_ROLE_READONLY" }, resourceName: "tm" };
    // up 1: a TeamMembers adds 105 to appsec.
    const tm = await members.create(await checked(members, tmInputs));
    // up 2: a Team adopts appsec beside it (the TeamMembers unchanged: checked and diffed, as the engine does).
    forgetProcessMemory();
    expect(await members.diff(tm.outs, await checked(members, tmInputs), tm.id)).toMatchObject({ changes: false });
    const adopted = await teams.create(
      await checked(teams, { ...appsec, members: { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" } }),
    );
    expect(adopted.outs).toMatchObject({ otherMembers: ["105"] });
    expect(adopted.outs.originalMembers).toEqual(APPSEC_BEFORE); // 105 is the TeamMembers' addition, not the team before the stack
    // up 3: the TeamMembers leaves the program (its delete removes 105, which it added).
    forgetProcessMemory();
    await members.delete(tm.id, tm.outs);
    // up 4: any change to the Team (here 102's role) updates it: 105 is no longer on the team, nor among its otherMembers.
    forgetProcessMemory();
    const news = await checked(teams, { ...appsec, members: { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_READONLY" } });
    const { outs: updated } = await teams.update(adopted.id, adopted.outs, news);
    expect(updated).toMatchObject({ otherMembers: [] });
    // destroy
    forgetProcessMemory();
    await teams.delete(adopted.id, updated);
    expect(membersOf(201)).toEqual(APPSEC_BEFORE); // 105 was back (READONLY) when the Team recorded it among its originals
  });

  // Found by the workflow generator (seed 1658): a TeamMembers that added 103 stops declaring it in
  // the up where a new Team adopting the team takes it. The TeamMembers' diff offers what it recorded
  // (it added 103), and the Team's adoption takes it: 103 is not among the team's originals, so
  // destroy removes it.
  it("a member a TeamMembers added, moved in one up to a Team that adopts the team, is no original of it", async () => {
    const tmInputs = { deploymentId: "1", teamId: "201", members: { "102": "TEAM_ROLE_READONLY", "103": "TEAM_ROLE_READONLY" } };
    const tm = await members.create(await checked(members, { ...tmInputs, resourceName: "tm" }));
    forgetProcessMemory();
    const kept = await checked(members, { ...tmInputs, members: { "102": "TEAM_ROLE_READONLY" }, resourceName: "tm" });
    expect(await members.diff(tm.outs, kept, tm.id)).toMatchObject({ changes: true });
    const team = await checked(teams, { ...appsec, members: { "103": "TEAM_ROLE_READONLY" } });
    const [adopted] = await Promise.all([teams.create(team), members.update(tm.id, tm.outs, kept)]);
    expect(adopted.outs.originalMembers).toEqual(APPSEC_BEFORE);
  });

  // One up renames a team the stack created ("red" to "blue") and declares a new Team named "red".
  // Their name claims differ, so neither is refused; yet both resolve to the same team at check
  // (team.ts existingTeamId: the renamed one by its old name, the new one by its name), and the
  // engine runs the create and the update at once. The create, from the run's one listing, finds
  // "red" (not yet renamed) and adopts the team the other resource is renaming: two Teams manage
  // one team, no team "red" is made, and destroy deletes the team under the adopting one.
  it("a new Team of a name another Team of the stack is renaming away from is refused at check, or creates its own team", async () => {
    const first = await teams.create(await checked(teams, { deploymentId: "1", name: "red", resourceName: "x" }));
    forgetProcessMemory();
    const renamed = await teams.check({ deploymentId: "1", name: "blue", resourceName: "x" }, first.outs);
    expect(renamed.failures ?? []).toEqual([]);
    const second = await teams.check({ deploymentId: "1", name: "red", resourceName: "y" });
    expect(second.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(
          new RegExp(`^Team "y" declares the Team of team ${String(first.outs.teamId)} of deployment 1, which Team "x" declares too`),
        ),
      },
    ]);
  });
});

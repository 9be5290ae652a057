/**
 * What is particular to the team kinds, through both front ends against the emulator: a Team
 * adopting an existing team and putting it back on delete; its authority over members and
 * projects beside a TeamMembers and TeamProjects of the stack; conflicts refused at check before
 * any write; unknown user ids and project names refused naming the field and the value; drift
 * (a member removed, a role raised) found by a read and corrected by an update; and the request
 * counts of an update of more than 500 members.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

type Props = Record<string, unknown>;
const team = (id: number) => env.emulator.state().teams.find((t) => t.id === id);
const membersOf = (id: number) => Object.fromEntries(team(id)!.members.map((m) => [m.userId, m.role]));
const writes = () => env.requests().filter((r) => r.method !== "GET" && r.operation !== "teams.list" && r.operation !== "users.list");
const APPSEC_BEFORE = { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" };

describe.each(FRONT_ENDS)("%s front end", (frontEnd) => {
  const teams = provider("Team", frontEnd);
  const members = provider("TeamMembers", frontEnd);
  const projects = provider("TeamProjects", frontEnd);
  const appsec = { deploymentId: "1", name: "appsec" };

  async function create(calls: typeof teams, inputs: Props) {
    return calls.create(await checked(calls, inputs));
  }

  describe("adoption", () => {
    it("adopts the team of its name, makes its members and projects the declared ones, and puts them back on delete", async () => {
      const { id, outs } = await create(teams, {
        ...appsec,
        members: { "101": "TEAM_ROLE_MANAGER", "105": "TEAM_ROLE_MEMBER" },
        projects: ["acme/web-app"],
        resourceName: "appsec",
      });
      expect(id).toBe("1/201");
      expect(outs).toMatchObject({ teamId: "201", created: false, originalMembers: APPSEC_BEFORE });
      expect(outs.originalProjects).toEqual(["acme/web-app", "acme/payments-api"]);
      expect(membersOf(201)).toEqual({ "101": "TEAM_ROLE_MANAGER", "105": "TEAM_ROLE_MEMBER" });
      expect(team(201)!.repositoryIds).toEqual([101]);
      forgetProcessMemory();
      await teams.delete(id, outs);
      expect(membersOf(201)).toEqual(APPSEC_BEFORE);
      expect([...team(201)!.repositoryIds].sort()).toEqual([101, 102]);
      expect(team(201)!.name).toBe("appsec"); // left in place
    });

    it("creates a team whose name is free, and deletes it on delete; a rename is an update", async () => {
      const { id, outs } = await create(teams, {
        deploymentId: "1",
        name: "red",
        members: { "106": "TEAM_ROLE_MEMBER" },
        resourceName: "red",
      });
      expect(outs).toMatchObject({ created: true, slug: "red", members: { "106": "TEAM_ROLE_MEMBER" } });
      const teamId = Number(outs.teamId);
      const news = await checked(teams, { deploymentId: "1", name: "blue", members: { "106": "TEAM_ROLE_MEMBER" }, resourceName: "red" });
      expect(await teams.diff(outs, news)).toMatchObject({ changes: true, replaces: [] });
      const { outs: renamed } = await teams.update(id, outs, news);
      expect(renamed).toMatchObject({ name: "blue", slug: "blue", teamId: String(teamId) });
      expect(team(teamId)!.name).toBe("blue");
      forgetProcessMemory();
      await teams.delete(id, renamed);
      expect(team(teamId)).toBeUndefined();
    });
  });

  describe("nesting", () => {
    it("creates a team under a parent, refuses a change of parent as a replacement, and a fourth level with the service's message", async () => {
      const level = async (name: string, parentTeamId?: string) =>
        (await create(teams, { deploymentId: "1", name, ...(parentTeamId ? { parentTeamId } : {}), resourceName: name })).outs;
      const two = await level("two", "201");
      expect(two).toMatchObject({ parentTeamId: "201", created: true });
      const three = await level("three", String(two.teamId));
      const news = await checked(teams, { deploymentId: "1", name: "three", parentTeamId: "202", resourceName: "three" });
      expect(await teams.diff(three, news)).toMatchObject({ changes: true, replaces: ["parentTeamId"] });
      await expect(level("four", String(three.teamId))).rejects.toThrow(/teams nest at most 3 levels deep/);
      // The service refuses to delete a team with a child: the stack deletes the child first (it depends on the parent's id).
      forgetProcessMemory();
      await expect(teams.delete(`1/${String(two.teamId)}`, two)).rejects.toThrow(/child team/);
      await teams.delete(`1/${String(three.teamId)}`, three);
      await teams.delete(`1/${String(two.teamId)}`, two);
      expect(env.emulator.state().teams.map((t) => t.name)).toEqual(["appsec", "payments"]);
    });
  });

  describe("authority, with a TeamMembers and a TeamProjects beside", () => {
    it("leaves what they declare, removes every other member and project, and a read finds no drift", async () => {
      // The TeamMembers names the team by number: checked before the Team, as a program whose team id is known.
      await checked(members, { deploymentId: "1", teamId: "201", members: { "106": "TEAM_ROLE_READONLY" }, resourceName: "contractor" });
      await checked(projects, { deploymentId: "1", teamId: "201", projects: ["acme/mobile-app"], resourceName: "mobile" });
      const { id, outs } = await create(teams, {
        ...appsec,
        members: { "101": "TEAM_ROLE_MANAGER" },
        projects: ["acme/web-app"],
        resourceName: "appsec",
      });
      const added = await members.create(
        await checked(members, { deploymentId: "1", teamId: "201", members: { "106": "TEAM_ROLE_READONLY" }, resourceName: "contractor" }),
      );
      await projects.create(
        await checked(projects, { deploymentId: "1", teamId: "201", projects: ["acme/mobile-app"], resourceName: "mobile" }),
      );
      expect(membersOf(201)).toEqual({ "101": "TEAM_ROLE_MANAGER", "106": "TEAM_ROLE_READONLY" });
      expect([...team(201)!.repositoryIds].sort()).toEqual([101, 103]);
      expect(added.outs).toMatchObject({ addedMembers: ["106"] });
      forgetProcessMemory();
      // The Team recorded none of them yet (they were added after its write): its next write learns them as its claims tell.
      const read = await teams.read(id, outs);
      expect(read.props).toMatchObject({ members: { "101": "TEAM_ROLE_MANAGER", "106": "TEAM_ROLE_READONLY" } });
      // An update while they are declared in the run keeps them and records them as others'.
      await checked(members, { deploymentId: "1", teamId: "201", members: { "106": "TEAM_ROLE_READONLY" }, resourceName: "contractor" });
      await checked(projects, { deploymentId: "1", teamId: "201", projects: ["acme/mobile-app"], resourceName: "mobile" });
      const news = await checked(teams, {
        ...appsec,
        members: { "101": "TEAM_ROLE_MANAGER" },
        projects: ["acme/web-app"],
        resourceName: "appsec",
      });
      const { outs: updated } = await teams.update(id, read.props!, news);
      expect(updated).toMatchObject({
        members: { "101": "TEAM_ROLE_MANAGER" },
        otherMembers: ["106"],
        projects: ["acme/web-app"],
        otherProjects: ["acme/mobile-app"],
      });
      expect(membersOf(201)).toEqual({ "101": "TEAM_ROLE_MANAGER", "106": "TEAM_ROLE_READONLY" });
      forgetProcessMemory();
      const again = await teams.read(id, updated);
      expect(await teams.diff(again.props!, news)).toMatchObject({ changes: false });
      expect(again.inputs).toMatchObject({ members: { "101": "TEAM_ROLE_MANAGER" }, projects: ["acme/web-app"] });
    });

    it("removes an extra member found when nothing else declares it, which a read then shows as drift", async () => {
      const { id, outs } = await create(teams, { ...appsec, members: { "101": "TEAM_ROLE_MANAGER" }, resourceName: "appsec" });
      expect(membersOf(201)).toEqual({ "101": "TEAM_ROLE_MANAGER" });
      await env.client().teams.update(1, 201, { users: [{ userId: "104", action: "UPDATE_ACTION_ADD", role: "TEAM_ROLE_MEMBER" }] });
      forgetProcessMemory();
      const read = await teams.read(id, outs);
      expect(read.inputs).toMatchObject({ members: { "101": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" } });
      const news = await checked(teams, { ...appsec, members: { "101": "TEAM_ROLE_MANAGER" }, resourceName: "appsec" });
      expect(await teams.diff(read.props!, news)).toMatchObject({ changes: true });
      await teams.update(id, read.props!, news);
      expect(membersOf(201)).toEqual({ "101": "TEAM_ROLE_MANAGER" });
    });
  });

  describe("drift", () => {
    it("finds a member removed and a role raised out of band, and an update puts both back", async () => {
      const declared = {
        deploymentId: "1",
        teamId: "202",
        members: { "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" },
        resourceName: "audit",
      };
      const { id, outs } = await create(members, declared);
      await env.client().teams.update(1, 202, {
        users: [
          { userId: "105", action: "UPDATE_ACTION_REMOVE" },
          { userId: "106", action: "UPDATE_ACTION_UPDATE", role: "TEAM_ROLE_MANAGER" },
        ],
      });
      forgetProcessMemory();
      const read = await members.read(id, outs);
      expect(read.props).toMatchObject({ members: { "106": "TEAM_ROLE_MANAGER" } });
      expect(read.inputs).toMatchObject({ members: { "106": "TEAM_ROLE_MANAGER" } });
      const news = await checked(members, declared);
      expect(await members.diff(read.props!, news)).toMatchObject({ changes: true });
      const before = writes().length;
      await members.update(id, read.props!, news);
      expect(writes().length - before).toBe(1);
      expect(membersOf(202)).toMatchObject({ "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" });
    });
  });

  describe("conflicts, refused at check before any write", () => {
    it("refuses a TeamMembers declaring a member of a Team's members, naming both, in either order", async () => {
      await checked(teams, { ...appsec, members: { "101": "TEAM_ROLE_MANAGER" }, resourceName: "appsec" });
      const refused = await members.check({
        deploymentId: "1",
        teamId: "201",
        members: { "101": "TEAM_ROLE_MEMBER" },
        resourceName: "extra",
      });
      expect(refused.failures).toEqual([
        {
          property: "members",
          reason: expect.stringMatching(
            /^TeamMembers "extra" declares member 101 of team 201 of deployment 1, which Team "appsec" declares too\./,
          ),
        },
      ]);
      forgetProcessMemory();
      await checked(members, { deploymentId: "1", teamId: "201", members: { "102": "TEAM_ROLE_MEMBER" }, resourceName: "extra" });
      const team = await teams.check({ ...appsec, members: { "102": "TEAM_ROLE_MANAGER" }, resourceName: "appsec" });
      expect(team.failures?.[0]?.reason).toMatch(
        /^Team "appsec" declares member 102 of team 201 of deployment 1, which TeamMembers "extra" declares too/,
      );
      expect(writes()).toEqual([]);
    });

    it("refuses a second Team of the same team, naming both, whether the team exists or not", async () => {
      for (const [name, team] of [
        ["appsec", "team 201 of deployment 1"],
        ["contractors", 'the team named "contractors" \\(deployment 1\\)'],
      ]) {
        forgetProcessMemory();
        await checked(teams, { deploymentId: "1", name, resourceName: "first" });
        const second = await teams.check({ deploymentId: "1", name, resourceName: "second" });
        expect(second.failures).toEqual([
          {
            property: "name",
            reason: expect.stringMatching(
              new RegExp(
                `^Team "second" declares the Team of ${team}, which Team "first" declares too\\. Declare each team in one Team only`,
              ),
            ),
          },
        ]);
      }
      expect(writes()).toEqual([]);
    });

    it("refuses two TeamMembers declaring one user, and a Team's project beside a TeamProjects; two TeamProjects share a project", async () => {
      await checked(members, { deploymentId: "1", teamId: "202", members: { "105": "TEAM_ROLE_MEMBER" }, resourceName: "a" });
      expect(
        (await members.check({ deploymentId: "1", teamId: "202", members: { "105": "TEAM_ROLE_READONLY" }, resourceName: "b" })).failures,
      ).toHaveLength(1);
      await checked(projects, { deploymentId: "1", teamId: "202", projects: ["acme/web-app"], resourceName: "p1" });
      await checked(projects, { deploymentId: "1", teamId: "202", projects: ["acme/web-app"], resourceName: "p2" });
      const team = await teams.check({ deploymentId: "1", name: "payments", projects: ["acme/web-app"], resourceName: "payments" });
      expect(team.failures?.[0]).toMatchObject({
        property: "projects",
        reason: expect.stringContaining("project acme/web-app of team 202"),
      });
      expect(writes()).toEqual([]);
    });

    it("keeps a project two TeamProjects declare when one of them is deleted", async () => {
      const one = await create(projects, { deploymentId: "1", teamId: "202", projects: ["acme/web-app"], resourceName: "p1" });
      await create(projects, { deploymentId: "1", teamId: "202", projects: ["acme/web-app"], resourceName: "p2" });
      await projects.delete(one.id, one.outs);
      expect(team(202)!.repositoryIds).toContain(101);
    });
  });

  describe("unknown references, refused before any write", () => {
    it("names the field and the value of an unknown user id and of an unknown project", async () => {
      const user = await members.check({ deploymentId: "1", teamId: "201", members: { "999": "TEAM_ROLE_MEMBER" }, resourceName: "x" });
      expect(user.failures).toEqual([
        { property: "members", reason: 'members: "999" is not a user of deployment 1 (getUsers lists its users)' },
      ]);
      const project = await teams.check({ deploymentId: "1", name: "new", projects: ["acme/nope"], resourceName: "y" });
      expect(project.failures).toEqual([{ property: "projects", reason: 'projects: "acme/nope" is not a project of deployment 1' }]);
      expect(writes()).toEqual([]);
    });
  });
});

describe("an update of more than 500 members", () => {
  it("goes in requests of at most 500 users each", async () => {
    const emulator = await startEmulator({ preset: "large" });
    const saved = { url: process.env.SEMGREP_APP_URL, token: process.env.SEMGREP_APP_TOKEN };
    process.env.SEMGREP_APP_URL = emulator.url;
    process.env.SEMGREP_APP_TOKEN = emulator.token;
    try {
      forgetProcessMemory();
      const calls = provider("TeamMembers");
      const wanted = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [String(601 + i), "TEAM_ROLE_MEMBER"]));
      const inputs = await checked(calls, { deploymentId: "1", teamId: "201", members: wanted, resourceName: "many" });
      const before = emulator.requests().length;
      const { outs } = await calls.create(inputs);
      const made = emulator
        .requests()
        .slice(before)
        .map((r) => r.operation);
      // One read of the team's 50 members, then 1,200 additions in three requests (500, 500, 200).
      expect(made).toEqual(["teams.members", "teams.update", "teams.update", "teams.update"]);
      expect(Object.keys(outs.members as object)).toHaveLength(1_200);
      forgetProcessMemory();
      const deleted = emulator.requests().length;
      await calls.delete("1/201", outs);
      expect(
        emulator
          .requests()
          .slice(deleted)
          .map((r) => r.operation),
        // The team's 1,250 members read in pages of 100 (the OpenAPI's default page), then 1,200 removals in three requests.
      ).toEqual([...Array(13).fill("teams.members"), ...Array(3).fill("teams.update")]);
      expect(emulator.state().teams.find((t) => t.id === 201)!.members).toHaveLength(50);
    } finally {
      process.env.SEMGREP_APP_URL = saved.url;
      process.env.SEMGREP_APP_TOKEN = saved.token;
      await emulator.close();
    }
  });
});

describe("the large preset's 200 teams of 50 members, declared as they are", () => {
  it("are adopted with no write, at the API's minimum of reads", async () => {
    const emulator = await startEmulator({ preset: "large" });
    const saved = { url: process.env.SEMGREP_APP_URL, token: process.env.SEMGREP_APP_TOKEN };
    process.env.SEMGREP_APP_URL = emulator.url;
    process.env.SEMGREP_APP_TOKEN = emulator.token;
    try {
      forgetProcessMemory();
      const calls = provider("Team");
      const state = emulator.state();
      const names = new Map(state.projects.map((p) => [p.id, p.name]));
      const declared = state.teams.map((t) => ({
        deploymentId: "1",
        name: t.name,
        members: Object.fromEntries(t.members.map((m) => [m.userId, m.role])),
        projects: t.repositoryIds.map((id) => names.get(id)!),
        resourceName: t.name,
      }));
      const inputs = await Promise.all(declared.map((d) => checked(calls, d)));
      const checks = emulator.requests().map((r) => r.operation);
      await Promise.all(inputs.map((i) => calls.create(i)));
      const creates = emulator
        .requests()
        .slice(checks.length)
        .map((r) => r.operation);
      const count = (ops: (string | undefined)[]) =>
        Object.fromEntries([...new Set(ops)].map((op) => [op, ops.filter((o) => o === op).length]));
      // At check: the teams (2 pages of 100), the 2,000 users (20 pages of 100), the token's deployments and the 300 projects (1 page).
      expect(count(checks)).toEqual({ "teams.list": 2, "users.list": 20, "deployments.list": 1, "projects.list": 1 });
      // At create: each team's members and repositories, one page each; nothing written.
      expect(count(creates)).toEqual({ "teams.members": 200, "teams.repositories": 200 });
    } finally {
      process.env.SEMGREP_APP_URL = saved.url;
      process.env.SEMGREP_APP_TOKEN = saved.token;
      await emulator.close();
    }
  });
});

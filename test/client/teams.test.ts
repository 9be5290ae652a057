/**
 * The client's Teams area against the emulator: each operation, the listings following the
 * cursor, per-call options, retries, the split of an update naming more than 500 users or
 * repositories into requests of 500, and the experimental child-team listing's error.
 */
import { describe, expect, it } from "vitest";
import { APIUserAbortError, ConflictError, NotFoundError, SemgrepClient } from "../../provider/client";
import { splitUpdate } from "../../provider/client/api/teams";
import { startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });

describe("client.teams", () => {
  it("creates, reads, renames, lists and deletes a team", async () => {
    const client = env.client();
    const created = await client.teams.create(1, {
      name: "Red Team",
      users: [{ userId: "105", role: "TEAM_ROLE_READONLY" }],
      repositoryIds: ["101"],
    });
    expect(created).toMatchObject({ name: "Red Team", slug: "red-team", userCount: 1, repositoryCount: 1 });
    expect((await client.teams.get(1, created.id)).name).toBe("Red Team");
    const renamed = await client.teams.update(1, created.id, {
      name: "Blue Team",
      users: [
        { userId: "105", action: "UPDATE_ACTION_UPDATE", role: "TEAM_ROLE_MEMBER" },
        { userId: "106", action: "UPDATE_ACTION_ADD", role: "TEAM_ROLE_MANAGER" },
      ],
      repositories: [{ repositoryId: "101", action: "UPDATE_ACTION_REMOVE" }],
    });
    expect(renamed).toMatchObject({ name: "Blue Team", slug: "blue-team", userCount: 2, repositoryCount: 0 });
    expect(await client.teams.members(1, created.id).toArray()).toEqual([
      { userId: "105", role: "TEAM_ROLE_MEMBER" },
      { userId: "106", role: "TEAM_ROLE_MANAGER" },
    ]);
    expect((await client.teams.list(1, { name: "Blue Team" }).toArray()).map((t) => t.id)).toEqual([created.id]);
    await client.teams.delete(1, created.id);
    await expect(client.teams.get(1, created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("follows the cursor of every listing", async () => {
    const client = env.client();
    const { id } = await client.teams.create(1, { name: "many", repositoryIds: ["101", "102", "103"] });
    const pages = [];
    for await (const page of client.teams.repositories(1, id, { pageSize: 2 }).pages()) pages.push(page.items);
    expect(pages).toEqual([["101", "102"], ["103"]]);
    expect(env.requests("teams.repositories")).toHaveLength(2);
    const names = (await client.teams.list(1, { pageSize: 1 }).toArray()).map((t) => t.name);
    expect(names).toEqual(["appsec", "payments", "many"]);
    expect(env.requests("teams.list")).toHaveLength(3);
  });

  it("sends an update of more than 500 users or repositories as requests of 500", async () => {
    const emulator = await startEmulator({ preset: "large" });
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    try {
      const { id } = await client.teams.create(1, { name: "everyone" });
      const users = Array.from({ length: 1_201 }, (_, i) => ({
        userId: String(101 + i),
        action: "UPDATE_ACTION_ADD" as const,
        role: "TEAM_ROLE_MEMBER" as const,
      }));
      const team = await client.teams.update(1, id, { name: "all", users });
      expect(team.userCount).toBe(1_201);
      expect(emulator.requests().filter((r) => r.operation === "teams.update")).toHaveLength(3);
      expect((await client.teams.members(1, id, { pageSize: 1000 }).toArray()).length).toBe(1_201);
    } finally {
      await client.close();
      await emulator.close();
    }
  });

  it("splits by unique entries, the name with the first request", () => {
    const user = (n: number) => ({ userId: String(n), action: "UPDATE_ACTION_ADD" as const, role: "TEAM_ROLE_MEMBER" as const });
    const repo = (n: number) => ({ repositoryId: String(n), action: "UPDATE_ACTION_ADD" as const });
    const batches = splitUpdate({
      name: "x",
      users: [...Array.from({ length: 500 }, (_, i) => user(i)), user(0), user(500)],
      repositories: [repo(1)],
    });
    expect(batches.map((b) => [b.name, b.users?.length, b.repositories?.length])).toEqual([
      ["x", 501, 1],
      [undefined, 1, undefined],
    ]);
    expect(splitUpdate({ name: "only" })).toEqual([{ name: "only" }]);
  });

  it("answers a taken name with ConflictError, and retries a 503", async () => {
    const client = env.client();
    await expect(client.teams.create(1, { name: "appsec" })).rejects.toBeInstanceOf(ConflictError);
    env.emulator.setFaults({ faultRate: 1, kinds: ["503"], maxFaults: 1 });
    expect((await client.teams.get(1, 201)).name).toBe("appsec");
    expect(env.requests("teams.get")).toHaveLength(2);
  });

  it("takes per-call options", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(env.client().teams.get(1, 201, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("lists child teams (experimental), and names a service without them", async () => {
    const client = env.client();
    const child = await client.teams.create(1, { name: "appsec-oncall", parentTeamId: "201" });
    expect(await client.teams.childTeams(1, 201).toArray()).toEqual([child.id]);
    const emulator = await startEmulator({ preset: "demo", experimentalEndpoints: false });
    const without = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    try {
      const error = await without.teams
        .childTeams(1, 201)
        .toArray()
        .catch((e: unknown) => e);
      // The path names the team: a 404 there means the team is gone, unless the service sends 501.
      expect(error).toBeInstanceOf(NotFoundError);
      expect((await without.teams.get(1, 201)).name).toBe("appsec"); // beta: served
    } finally {
      await without.close();
      await emulator.close();
    }
  });
});

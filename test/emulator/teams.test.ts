/**
 * The emulator's Teams API straight over HTTP: the validation and error answers a careful reading
 * of Semgrep's OpenAPI implies (name required and unique, users of the deployment, existing
 * repositories, roles where the action needs one, no UPDATE of a repository, at most 500 unique
 * users or repositories per update, at most 3 levels of nesting, no delete of a team with child
 * teams), opaque cursors, an update refused whole, and the presets' teams.
 */
import { describe, expect, it } from "vitest";
import { buildPreset } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const BASE = "/api/permissions/v2/deployments/1/teams";

async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${env.emulator.token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(env.emulator.url + BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: string; code?: string } };
}

const create = (team: Record<string, unknown>) => call("POST", "", { team });
const update = (id: number | string, team: Record<string, unknown>) => call("PATCH", `/${id}`, { team });

describe("the emulator's Teams API", () => {
  it("refuses a team without a name, or with a name taken in the deployment", async () => {
    expect(await create({})).toMatchObject({ status: 400, body: { error: expect.stringMatching(/team\.name/) } });
    expect(await create({ name: "  " })).toMatchObject({ status: 400 });
    expect(await create({ name: "appsec" })).toMatchObject({ status: 409, body: { code: "ALREADY_EXISTS" } });
    const other = await create({ name: "other" });
    expect(await update((other.body.team as { id: string }).id, { name: "payments" })).toMatchObject({ status: 409 });
  });

  it("refuses a user not of the deployment, and a repository that does not exist, naming each", async () => {
    expect(await create({ name: "x", users: [{ userId: "999", role: "TEAM_ROLE_MEMBER" }] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("user 999") },
    });
    expect(await create({ name: "x", repositoryIds: ["424242"] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("repository 424242") },
    });
    expect(await update(201, { users: [{ userId: "999", action: "UPDATE_ACTION_ADD", role: "TEAM_ROLE_MEMBER" }] })).toMatchObject({
      status: 400,
    });
    expect(await update(201, { repositories: [{ repositoryId: "424242", action: "UPDATE_ACTION_ADD" }] })).toMatchObject({ status: 400 });
  });

  it("needs a role to add a user or change its role, and refuses UPDATE of a user the team lacks", async () => {
    expect(await create({ name: "x", users: [{ userId: "105" }] })).toMatchObject({ status: 400 });
    expect(await update(201, { users: [{ userId: "105", action: "UPDATE_ACTION_ADD" }] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("role") },
    });
    expect(await update(201, { users: [{ userId: "105", action: "UPDATE_ACTION_UPDATE", role: "TEAM_ROLE_MEMBER" }] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("not a member") },
    });
    expect(await update(201, { users: [{ userId: "102", action: "UPDATE_ACTION_REMOVE" }] })).toMatchObject({ status: 200 });
  });

  it("refuses UPDATE for a repository", async () => {
    expect(await update(201, { repositories: [{ repositoryId: "101", action: "UPDATE_ACTION_UPDATE" }] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("UPDATE_ACTION_ADD or UPDATE_ACTION_REMOVE") },
    });
  });

  it("refuses more than 500 unique users or repositories in one update, and changes nothing of a refused update", async () => {
    const users = Array.from({ length: 501 }, (_, i) => ({
      userId: String(101 + (i % 6)),
      action: "UPDATE_ACTION_ADD",
      role: "TEAM_ROLE_MEMBER",
    }));
    // 501 entries but 6 unique users: within the limit.
    expect(await update(201, { users })).toMatchObject({ status: 200 });
    const many = Array.from({ length: 501 }, (_, i) => ({ repositoryId: String(i + 1), action: "UPDATE_ACTION_ADD" }));
    expect(await update(201, { repositories: many })).toMatchObject({ status: 400, body: { error: expect.stringContaining("500") } });
    const before = await call("GET", "/201/members");
    expect(
      await update(201, { name: "renamed", users: [{ userId: "999", action: "UPDATE_ACTION_ADD", role: "TEAM_ROLE_MEMBER" }] }),
    ).toMatchObject({
      status: 400,
    });
    expect((await call("GET", "/201")).body.team).toMatchObject({ name: "appsec" });
    expect(await call("GET", "/201/members")).toEqual(before);
  });

  it("nests at most 3 levels deep", async () => {
    const level2 = await create({ name: "l2", parentTeamId: "201" });
    const level3 = await create({ name: "l3", parentTeamId: (level2.body.team as { id: string }).id });
    expect(level3.status).toBe(200);
    expect(await create({ name: "l4", parentTeamId: (level3.body.team as { id: string }).id })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("3 levels") },
    });
    expect(await create({ name: "orphan", parentTeamId: "9999" })).toMatchObject({ status: 400 });
  });

  it("refuses to delete a team with child teams; deletes it once they are gone", async () => {
    const child = await create({ name: "child", parentTeamId: "201" });
    expect(await call("DELETE", "/201")).toMatchObject({ status: 400, body: { code: "FAILED_PRECONDITION" } });
    expect(await call("DELETE", `/${(child.body.team as { id: string }).id}`)).toMatchObject({ status: 200 });
    expect(await call("DELETE", "/201")).toMatchObject({ status: 200 });
    expect(await call("GET", "/201")).toMatchObject({ status: 404 });
  });

  it("pages with an opaque cursor, filters by exact name, and refuses a cursor it did not give", async () => {
    const first = await call("POST", "/list", { limit: "1" });
    expect(first.body).toMatchObject({ teams: [{ name: "appsec" }] });
    expect(String(first.body.cursor)).not.toMatch(/^\d+$/);
    expect((await call("POST", "/list", { limit: "1", cursor: first.body.cursor })).body).toMatchObject({
      teams: [{ name: "payments" }],
      cursor: "",
    });
    expect((await call("POST", "/list", { filter: { name: "pay" } })).body.teams).toEqual([]);
    expect(await call("POST", "/list", { cursor: "bm9wZQ" })).toMatchObject({ status: 400 });
    expect(await call("GET", "/201/members?limit=1&cursor=nope")).toMatchObject({ status: 400 });
  });

  it("holds the presets' teams", () => {
    const demo = buildPreset("demo");
    expect(demo.teams.map((t) => [t.name, t.members.map((m) => m.userId)])).toEqual([
      ["appsec", ["101", "102"]],
      ["payments", ["103", "104"]],
    ]);
    const pci = demo.projects.filter((p) => p.tags.includes("pci")).map((p) => p.id);
    expect(demo.teams[1]!.repositoryIds).toEqual(pci);
    const large = buildPreset("large");
    expect(large.teams).toHaveLength(200);
    expect(large.teams.every((t) => t.members.length === 50 && new Set(t.members.map((m) => m.userId)).size === 50)).toBe(true);
    expect(large.teams[0]!.members[0]!.userId).toBe("101");
    expect(buildPreset("large").teams).toEqual(large.teams);
  });
});

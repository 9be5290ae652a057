/** getUsers and getUsersOutput against the emulator: the way to find a user's id (demo: six users; large: 2,000). */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { ExperimentalEndpointError, getUsers, getUsersOutput } from "../../provider";
import { useEmulator, useEmulators } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const emulators = useEmulators();
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

/** The value of an Output (test-only: reads Pulumi's internals). */
const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

describe("getUsers", () => {
  it("lists every user with id, name, login, email, org role and whether active", async () => {
    const { users } = await getUsers({ deploymentId: "1" });
    expect(users.map((u) => u.id)).toEqual(["101", "102", "103", "104", "105", "106"]);
    expect(users[0]).toEqual({
      id: "101",
      name: "Alice Admin",
      login: "alice",
      email: "alice@acme.example",
      orgRole: "ORG_ROLE_ADMIN",
      active: true,
    });
    expect(env.requests("users.list")).toHaveLength(1);
  });

  it("finds a user by email (the service matches the query), and filters by org role", async () => {
    expect((await getUsers({ deploymentId: 1, query: "erin@acme.example" })).users.map((u) => u.id)).toEqual(["105"]);
    const admins = await getUsers({ deploymentId: "1", orgRole: "ORG_ROLE_ADMIN" });
    expect(admins.users.map((u) => u.login)).toEqual(["alice", "bob"]);
    expect(await resolve(getUsersOutput({ deploymentId: pulumi.output("1"), orgRole: "ORG_ROLE_READONLY" }))).toEqual({
      users: [expect.objectContaining({ id: "105", login: "erin" })],
    });
  });

  it("refuses bad arguments before any request, naming the field", async () => {
    await expect(getUsers({ deploymentId: "acme" })).rejects.toThrow(/deploymentId/);
    await expect(getUsers({ deploymentId: "1", orgRole: "ADMIN" as never })).rejects.toThrow(/orgRole: .*must be one of ORG_ROLE_ADMIN/);
    expect(env.requests()).toHaveLength(0);
  });

  it("reads a large deployment page by page", async () => {
    const large = await emulators.start({ preset: "large" });
    const { users } = await getUsers({ deploymentId: "1" }, { url: large.url, token: large.token });
    expect(users).toHaveLength(2000);
    expect(large.requests().filter((r) => r.operation === "users.list")).toHaveLength(20);
  });

  it("says the endpoint is experimental where the service does not serve it", async () => {
    const without = await emulators.start({ experimentalEndpoints: false });
    const error = await getUsers({ deploymentId: "1" }, { url: without.url, token: without.token }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExperimentalEndpointError);
    expect((error as Error).message).toMatch(/experimental on the service side/);
  });
});

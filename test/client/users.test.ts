/**
 * The client's users area (experimental in Semgrep's OpenAPI) against the emulator: the listing
 * page by page, the role change and its refusals, and what an experimental operation's 404 or
 * 501 means: the endpoint is absent, unless the path names an object (then the object is gone).
 */
import { describe, expect, it } from "vitest";
import { BadRequestError, ExperimentalEndpointError, NotFoundError, SemgrepClient } from "../../provider/client";
import { useEmulator } from "../support/emulator";
import { json, startStub } from "../support/stub-server";

const env = useEmulator({ preset: "large" });

describe("client.users", () => {
  it("lists every user of the deployment, a page of 100 at a time", async () => {
    const users = await env.client().users.list(1).toArray();
    expect(users).toHaveLength(2000);
    expect(users[0]).toMatchObject({ id: "101", login: "alice", orgRole: "ORG_ROLE_ADMIN", email: "alice@acme.example" });
    const lists = env.requests("users.list");
    expect(lists).toHaveLength(20);
  });

  it("sets a user's org role, and refuses to demote the last admin", async () => {
    const users = env.client().users;
    await users.setRole(1, "103", "ORG_ROLE_READONLY");
    expect((await users.list(1, { memberIds: ["103"] }).toArray())[0]?.orgRole).toBe("ORG_ROLE_READONLY");
    await users.setRole(1, "102", "ORG_ROLE_MEMBER");
    await expect(users.setRole(1, "101", "ORG_ROLE_MEMBER")).rejects.toThrow(BadRequestError);
  });

  it("says an unknown user is not found (the path names it), not that the endpoint is absent", async () => {
    const error = await env
      .client()
      .users.setRole(1, "99999", "ORG_ROLE_MEMBER")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(ExperimentalEndpointError);
  });

  it("says a 501 is an experimental endpoint the service does not serve", async () => {
    const stub = await startStub((_req, res) => json(res, 501, { error: "Not Implemented" }));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {}, maxRetries: 0 });
    try {
      const error = await client.users.setRole(1, "101", "ORG_ROLE_MEMBER").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExperimentalEndpointError);
      expect((error as Error).message).toMatch(/→ 501\): Not Implemented\. This endpoint is experimental on the service side/);
    } finally {
      await client.close();
      await stub.close();
    }
  });
});

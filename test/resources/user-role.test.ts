/**
 * UserRole against the emulator (the demo's users: 101 alice and 102 bob org admins, 101 the
 * token's user; 103 carol, 104 dan and 106 frank members; 105 erin read-only): the role it
 * replaces put back on delete, the preview's refusals before any write (an unknown user, two
 * UserRoles of one user, no org admin left counting every UserRole of the run, the token's own
 * admin role), the warning when the service does not say whose token it is, drift, and a delete
 * that would leave no admin.
 */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator, useEmulators } from "../support/emulator";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);
const emulators = useEmulators({ preset: "demo" });

const userRole = provider("UserRole");
const roleOf = (id: string) => env.emulator.state().users.find((u) => u.id === id)!.orgRole;
const roles = () => Object.fromEntries(env.emulator.state().users.map((u) => [u.id, u.orgRole]));
const writes = () => env.requests("users.setRole");
const warnings = () => notices.filter((n) => n.severity === "warning").map((n) => n.message);
const declare = (name: string, userId: string, role: string) => ({ deploymentId: "1", userId, role, resourceName: name });

describe("UserRole", () => {
  it("records the role it replaces and puts it back on delete; a user found in the declared role records nothing", async () => {
    const { id, outs } = await userRole.create(await checked(userRole, declare("dan", "104", "ORG_ROLE_READONLY")));
    expect(id).toBe("1/104");
    expect(outs).toMatchObject({ role: "ORG_ROLE_READONLY", originalRole: "ORG_ROLE_MEMBER", login: "dan", email: "dan@acme.example" });
    expect(roleOf("104")).toBe("ORG_ROLE_READONLY");
    const adopted = await userRole.create(await checked(userRole, declare("erin", "105", "ORG_ROLE_READONLY")));
    expect(adopted.outs.originalRole).toBeUndefined();
    expect(writes()).toHaveLength(1);
    forgetProcessMemory(); // destroy runs in a new provider process
    await userRole.delete(id, outs);
    await userRole.delete(adopted.id, adopted.outs);
    expect(roleOf("104")).toBe("ORG_ROLE_MEMBER");
    expect(roleOf("105")).toBe("ORG_ROLE_READONLY");
    expect(writes()).toHaveLength(2);
  });

  it("refuses an unknown user id before any write, naming the field and the value", async () => {
    const { failures } = await userRole.check(declare("ghost", "999", "ORG_ROLE_MEMBER"));
    expect(failures).toEqual([{ property: "userId", reason: expect.stringMatching(/^userId: "999" is not a user of deployment 1 /) }]);
    expect(writes()).toHaveLength(0);
  });

  it("refuses two UserRoles of one user before any write, naming both", async () => {
    await checked(userRole, declare("carol-read-only", "103", "ORG_ROLE_READONLY"));
    const { failures } = await userRole.check(declare("carol-admin", "103", "ORG_ROLE_ADMIN"));
    expect(failures?.[0]?.reason).toContain(
      'UserRole "carol-admin" declares role of user 103 of deployment 1, which UserRole "carol-read-only" declares too',
    );
    expect(writes()).toHaveLength(0);
  });

  it("refuses at preview a change that leaves no org admin, counting every UserRole of the run", async () => {
    // Admins: bob and carol (alice, the token's user, is a member here, so only the admin count is at stake).
    await env.client().users.setRole(1, "103", "ORG_ROLE_ADMIN");
    await env.client().users.setRole(1, "101", "ORG_ROLE_MEMBER");
    const before = writes().length;
    forgetProcessMemory();
    await checked(userRole, declare("bob-member", "102", "ORG_ROLE_MEMBER")); // carol stays admin
    const { failures } = await userRole.check(declare("carol-member", "103", "ORG_ROLE_MEMBER"));
    expect(failures).toEqual([{ property: "role", reason: expect.stringContaining("would leave deployment 1 without an org admin") }]);
    expect(failures![0]!.reason).toContain("bob (102), carol (103)");
    expect(failures![0]!.reason).toContain('UserRole "bob-member" for bob (102), UserRole "carol-member" for carol (103)');
    expect(failures![0]!.reason).toContain("dependsOn");
    // With a third UserRole making dan an admin first, both demotions pass.
    forgetProcessMemory();
    await checked(userRole, declare("dan-admin", "104", "ORG_ROLE_ADMIN"));
    await checked(userRole, declare("bob-member", "102", "ORG_ROLE_MEMBER"));
    await checked(userRole, declare("carol-member", "103", "ORG_ROLE_MEMBER"));
    expect(writes()).toHaveLength(before);
    expect(env.requests("users.list")).toHaveLength(2); // one listing per deployment and process
  });

  it("refuses at preview to remove the admin role of the token's own user", async () => {
    const { failures } = await userRole.check(declare("alice-member", "101", "ORG_ROLE_MEMBER"));
    expect(failures).toEqual([
      {
        property: "role",
        reason: expect.stringContaining("would remove the org admin role of alice (101), the user the provider's token belongs to"),
      },
    ]);
    expect(env.requests("users.current")).toHaveLength(1);
    // Another admin's demotion is no concern of the token's.
    await checked(userRole, declare("bob-member", "102", "ORG_ROLE_MEMBER"));
    expect(writes()).toHaveLength(0);
  });

  it("warns once, and goes on, where the service does not say whose token it is", async () => {
    const service = await emulators.start({ absentOperations: ["users.current"] });
    const url = process.env.SEMGREP_APP_URL;
    process.env.SEMGREP_APP_URL = service.url;
    try {
      await checked(userRole, declare("carol-admin", "103", "ORG_ROLE_ADMIN"));
      await checked(userRole, declare("alice-member", "101", "ORG_ROLE_MEMBER"));
      await checked(userRole, declare("bob-read-only", "102", "ORG_ROLE_READONLY"));
    } finally {
      process.env.SEMGREP_APP_URL = url;
    }
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^UserRole: cannot tell which user the provider's token belongs to, .* GET \/api\/auth\/users\/current, .* was not answered for this token \(it answered 404, not serving it\)\./,
      ),
    ]);
    expect(service.requests().filter((r) => r.operation === "users.current")).toHaveLength(1);
    expect(service.requests().filter((r) => r.method === "PATCH")).toHaveLength(0);
  });

  it("finds a role changed out of band at refresh, and puts the declared one back at update", async () => {
    const inputs = await checked(userRole, declare("dan", "104", "ORG_ROLE_READONLY"));
    const { id, outs } = await userRole.create(inputs);
    await env.client().users.setRole(1, "104", "ORG_ROLE_ADMIN");
    forgetProcessMemory();
    const read = await userRole.read(id, outs);
    expect(read.props).toMatchObject({ role: "ORG_ROLE_ADMIN", originalRole: "ORG_ROLE_MEMBER" });
    expect(read.inputs).toMatchObject({ role: "ORG_ROLE_ADMIN" });
    expect(await userRole.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    forgetProcessMemory();
    const { outs: updated } = await userRole.update(id, read.props!, await checked(userRole, declare("dan", "104", "ORG_ROLE_READONLY")));
    expect(roleOf("104")).toBe("ORG_ROLE_READONLY");
    expect(updated.originalRole).toBe("ORG_ROLE_MEMBER");
    forgetProcessMemory();
    await userRole.delete(id, updated);
    expect(roleOf("104")).toBe("ORG_ROLE_MEMBER");
  });

  it("lets a demotion wait for the run's UserRole that makes another user an admin", async () => {
    await env.client().users.setRole(1, "101", "ORG_ROLE_MEMBER"); // bob is the one admin
    forgetProcessMemory();
    const promote = await checked(userRole, declare("dan-admin", "104", "ORG_ROLE_ADMIN"));
    const demote = await checked(userRole, declare("bob-member", "102", "ORG_ROLE_MEMBER"));
    // The engine runs both creates at once; the demotion, started first, would be the service's last admin's.
    await Promise.all([userRole.create(demote), userRole.create(promote)]);
    expect([roleOf("102"), roleOf("104")]).toEqual(["ORG_ROLE_MEMBER", "ORG_ROLE_ADMIN"]);
  });

  it("never leaves the deployment without an admin on delete: it leaves the role and says so", async () => {
    const { id, outs } = await userRole.create(await checked(userRole, declare("carol-admin", "103", "ORG_ROLE_ADMIN")));
    await env.client().users.setRole(1, "101", "ORG_ROLE_MEMBER");
    await env.client().users.setRole(1, "102", "ORG_ROLE_MEMBER");
    const before = roles();
    forgetProcessMemory();
    await userRole.delete(id, outs);
    expect(roles()).toEqual(before);
    expect(warnings()).toEqual([
      expect.stringContaining(
        'UserRole "carol-admin" was deleted and left carol (103) ORG_ROLE_ADMIN: putting back ORG_ROLE_MEMBER, the role it found, would leave deployment 1 without an org admin',
      ),
    ]);
  });
});

/**
 * UserRole through the real CLI against the emulator (demo users: 101 alice, the token's user, and
 * 102 bob org admins; 103 carol and 104 dan members), in TypeScript (the dynamic classes) and YAML
 * (the plugin): up, a no-change preview that writes nothing, a role raised out of band found by
 * refresh and corrected by up, the last-admin refusal at preview before any write, and a destroy
 * that leaves the emulator's whole state as before the first up.
 */
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import type { RunningEmulator } from "../../provider/emulator";
import { snapshotOf, useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";
import type { PulumiWorkspace } from "../support/pulumi";
import { yamlWorkspace } from "../support/yaml-program";

const { start } = useEmulators({ preset: "demo" });

type Roles = Record<string, string>;
/** dan read-only, carol an admin, bob a member: alice stays an admin. */
const DECLARED: Roles = { dan: "ORG_ROLE_READONLY", carol: "ORG_ROLE_ADMIN", bob: "ORG_ROLE_MEMBER" };
/** carol a member too: with alice made a member out of band, no admin would be left. */
const NO_ADMIN_LEFT: Roles = { ...DECLARED, carol: "ORG_ROLE_MEMBER" };
const IDS: Roles = { alice: "101", bob: "102", carol: "103", dan: "104" };

const typescript = (roles: Roles) =>
  program(
    Object.entries(roles)
      .map(
        ([user, role]) => `new semgrep.UserRole(${JSON.stringify(user)}, { deploymentId: "1", userId: "${IDS[user]}", role: "${role}" });`,
      )
      .join("\n"),
  );

const yaml = (roles: Roles) =>
  "resources:\n" +
  Object.entries(roles)
    .map(
      ([user, role]) =>
        `  ${user}:\n    type: semgrep:index:UserRole\n    properties: { deploymentId: "1", userId: "${IDS[user]}", role: ${role} }\n`,
    )
    .join("");

interface FrontEnd {
  open(emulator: RunningEmulator): Promise<PulumiWorkspace & { write(text: string): void }>;
  render(roles: Roles): string;
}

const FRONT_ENDS: Array<[string, FrontEnd]> = [
  ["TypeScript (dynamic classes)", { open: (emulator) => programWorkspace(emulator, typescript(DECLARED)), render: typescript }],
  [
    "YAML (plugin)",
    {
      open: (emulator) =>
        yamlWorkspace(yaml(DECLARED), { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } }),
      render: yaml,
    },
  ],
];

const rolesOf = (emulator: RunningEmulator) => Object.fromEntries(emulator.state().users.map((u) => [u.login, u.orgRole]));
/** The requests since `mark`, counted by operation. */
function operationsSince(emulator: RunningEmulator, mark: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { operation } of emulator.requests().slice(mark)) counts[operation ?? "?"] = (counts[operation ?? "?"] ?? 0) + 1;
  return counts;
}
const writesSince = (emulator: RunningEmulator, mark: number) =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method === "PATCH").length;

describe.each(FRONT_ENDS)("UserRole through the real CLI, %s", (_name, frontEnd) => {
  it("up, a no-change preview, drift found by refresh and corrected, the last-admin refusal at preview, destroy leaving the state as before", async () => {
    const emulator = await start();
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    const before = snapshotOf(emulator);
    const workspace = await frontEnd.open(emulator);
    try {
      let mark = emulator.requests().length;
      await workspace.run(["up", "--yes"]);
      expect(rolesOf(emulator)).toMatchObject({ alice: "ORG_ROLE_ADMIN", ...DECLARED });
      // Preview and update each list the users once for the three resources, and ask whose the token is once (bob's demotion); three writes.
      expect(operationsSince(emulator, mark)).toEqual({ "users.list": 2, "users.current": 2, "users.setRole": 3 });

      // A no-change preview writes nothing: one listing, shared by the three resources.
      mark = emulator.requests().length;
      const preview = await workspace.run(["preview"]);
      expect(printed(preview)).not.toMatch(/to create|to update|to delete|to replace/);
      expect(operationsSince(emulator, mark)).toEqual({ "users.list": 1 });

      // Someone makes dan an admin in Semgrep's UI: refresh finds it, up puts the declared role back.
      await client.users.setRole(1, IDS.dan!, "ORG_ROLE_ADMIN");
      await workspace.run(["refresh", "--yes"]);
      expect(printed(await workspace.run(["preview"]))).toMatch(/~ 1 to update/);
      await workspace.run(["up", "--yes"]);
      expect(rolesOf(emulator).dan).toBe("ORG_ROLE_READONLY");

      // With alice made a member out of band, demoting carol too would leave no admin: refused at preview, nothing written.
      await client.users.setRole(1, IDS.alice!, "ORG_ROLE_MEMBER");
      workspace.write(frontEnd.render(NO_ADMIN_LEFT));
      mark = emulator.requests().length;
      const refused = await workspace.run(["preview"], { allowFailure: true });
      expect(refused.status).not.toBe(0);
      expect(printed(refused)).toContain("would leave deployment 1 without an org admin");
      expect(writesSince(emulator, mark)).toBe(0);

      // alice an admin again, the program as it was: destroy leaves every user as before the first up.
      await client.users.setRole(1, IDS.alice!, "ORG_ROLE_ADMIN");
      workspace.write(frontEnd.render(DECLARED));
      await workspace.run(["destroy", "--yes"]);
      expect(snapshotOf(emulator)).toEqual(before); // the emulator's whole state, every user's role included
    } finally {
      await client.close();
    }
  });
});

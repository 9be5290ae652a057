/**
 * A defect found by reading issue 36's import check of the team kinds (review36b): a Team's claims
 * on its members and projects name its team by `teamId` (team.ts `claims`), which an import's
 * inputs never hold (Team has no `teamId` input: `pulumi import` declares name, members and
 * projects). The import check gives it the id of the team of its name (import-refusals.ts
 * withOutputIdentity), so a Team import whose members a TeamMembers of the stack declares is
 * refused before it lands, rather than failing the next preview.
 */
import { beforeEach, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { refusalAgainst } from "../../provider/native/import-refusals";
import type { StateResource } from "../../provider/policy-pack/stack-state";
import { useEmulator } from "../support/emulator";
import { useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);
beforeEach(() => forgetProcessMemory());

const STACK = "urn:pulumi:dev::trial";
const urnOf = (kind: string, name: string) => `${STACK}::semgrep:index:${kind}::${name}`;

it("refuses a Team import whose members a TeamMembers of the stack declares", async () => {
  const tm: StateResource = {
    urn: urnOf("TeamMembers", "contractor"),
    type: "semgrep:index:TeamMembers",
    inputs: { deploymentId: "1", teamId: "201", members: { "102": "TEAM_ROLE_MEMBER" } },
    outputs: { deploymentId: "1", teamId: "201", members: { "102": "TEAM_ROLE_MEMBER" } },
  };
  // What `pulumi import semgrep:index:Team appsec 1/201` declares: the live team (demo's appsec), no teamId.
  const imported = { deploymentId: "1", name: "appsec", members: { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" } };
  expect(await refusalAgainst("Team", urnOf("Team", "appsec"), imported, [tm])).toContain("member 102 of team 201");
});

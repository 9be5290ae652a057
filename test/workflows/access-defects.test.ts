/**
 * The workflow generator's two team defects of issue 36, replayed through the same harness (both
 * fixed in Team's delete; these keep them fixed). First, `team-member-one-step-move`: a Team
 * adopting `appsec` adds member 104; the next step moves 104 from the Team's `members` to a new
 * TeamMembers of the team (its role raised); destroy must leave the team as it was before the
 * first `up`. It used to leave 104 on the team: the TeamMembers found it there (recorded as found,
 * with its role to put back) and the Team counted it as the TeamMembers' (`otherMembers`), so
 * neither removed it. Now the Team's delete removes any member not in its original that no
 * resource holds, and leaves to the other resource the original members it declares. */
import { afterAll, beforeAll, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { Workflow } from "./harness";
import { cancelDelays } from "./interrupts";
import type { Program } from "./model";
import { newStack } from "./stacks";
import { worldRules } from "./world";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0, policiesV2: "both" });
});
afterAll(async () => emulator?.close());

const team = (members: Record<string, string>) => ({
  kind: "Team" as const,
  name: "t-1",
  props: { deploymentId: "1", name: "appsec", members },
  secret: [],
});

it("a member moved in one step from a Team to a TeamMembers is removed by destroy (the stack added it)", async () => {
  const workflow = new Workflow(await newStack("dynamic", emulator), emulator, worldRules(emulator.state()), cancelDelays());
  const added: Program = [team({ "104": "TEAM_ROLE_MEMBER", "105": "TEAM_ROLE_MANAGER" })];
  const moved: Program = [
    team({ "105": "TEAM_ROLE_MANAGER" }),
    {
      kind: "TeamMembers",
      name: "tm-2",
      props: { deploymentId: "1", teamId: "201", members: { "104": "TEAM_ROLE_MANAGER" } },
      secret: [],
    },
  ];
  await workflow.apply(added);
  await workflow.apply(moved, { skipPreview: true });
  // Promise 2: threw while the defect was open (team:appsec:members kept 104).
  await workflow.destroy();
}, 600_000);

// `team-adopted-beside-team-members`: a TeamMembers adds 105 and 106 to `appsec`; a Team then adopts
// `appsec` declaring only 101 (105 and 106 left to the TeamMembers); destroy puts 105 and 106 back,
// recorded by the Team among the team's originals. Found by seed 619 (native), where a conflicting
// Team's `up --skip-preview` adopted the team before its refusal. Now the Team's delete leaves
// members another resource declares to that resource.
it("a Team adopting a team beside a TeamMembers of the stack does not record that resource's members as originals", async () => {
  const workflow = new Workflow(await newStack("dynamic", emulator), emulator, worldRules(emulator.state()), cancelDelays());
  const members: Program = [
    {
      kind: "TeamMembers",
      name: "tm-1",
      props: { deploymentId: "1", teamId: "201", members: { "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_READONLY" } },
      secret: [],
    },
  ];
  await workflow.apply(members, { skipPreview: true });
  await workflow.apply([...members, team({ "101": "TEAM_ROLE_MANAGER" })], { skipPreview: true });
  // Promise 2: throws while the defect is open (team:appsec:members keeps 105 and 106).
  await workflow.destroy();
}, 600_000);

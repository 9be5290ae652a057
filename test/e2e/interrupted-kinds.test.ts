/**
 * Every kind that writes, killed with SIGKILL after its write reached the service and before the
 * engine recorded it, through the real CLI and both front ends: in turn, a stack of a
 * ProjectSettings, a ProjectTags, a ManagedScan, a PolicyRuleMode, a DetectionPolicyException, a
 * RemediationPolicy, a Team adopting the demo's appsec team, a Team creating one, a TeamMembers
 * and a TeamProjects (PolicyRuleModes has its own file, interrupted-writes.test.ts), whose `up
 * --skip-preview` is killed as its one write arrives (the write lands after). Nothing reaches the stack's
 * state; the provider journals each original before its write (provider/core/runtime/journal.ts),
 * so the README's recovery on the same machine (`pulumi cancel`, `pulumi refresh
 * --clear-pending-creates`, `pulumi up`) records what the killed run replaced, and `destroy`
 * puts back every value as it was before the stack.
 */
import { describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { type Decl, identity, type Kind } from "../workflows/model";
import { killUpAtWrite, recoverOnSameMachine } from "../support/recovery";
import { newStack } from "../workflows/stacks";
import { liveValues, worldRules } from "../workflows/world";

/** One resource of each single-write kind, each changing a value the demo preset holds otherwise (each stack's program in turn). */
function programFor(emulator: RunningEmulator): Decl[] {
  const live = liveValues(emulator.state());
  const rule = worldRules(emulator.state()).find((r) => live.get(`rule:${r.path}`) !== "MODE_COMMENT")!;
  const decl = (kind: Kind, props: Record<string, unknown>, name = `cut-${kind.toLowerCase()}`): Decl => ({
    kind,
    name,
    props: { ...identity(kind), ...props },
    secret: [],
  });
  return [
    decl("ProjectSettings", { projectName: "acme/web-app", primaryBranch: "release", tags: ["wf:a", "pci"] }),
    decl("ProjectTags", { projectName: "acme/mobile-app", tags: ["wf:a", "owner:appsec"] }),
    decl("ManagedScan", { projectName: "acme/mobile-app", diffScan: { enabled: live.get("project:acme/mobile-app:diffScan") !== "true" } }),
    decl("PolicyRuleMode", { rulePath: rule.path, mode: "MODE_COMMENT" }),
    decl("DetectionPolicyException", {
      product: "code",
      exceptionType: "exclude",
      projectName: "acme/web-app",
      rule: "p/security-audit",
      ruleType: "pack",
    }),
    decl("RemediationPolicy", {
      slug: "cut-policy",
      policyName: "Made by a killed run",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["critical", "high"] }] },
      actions: [{ type: "pr_comment" }, { type: "block" }],
    }),
    // The demo's appsec team (Alice its manager, Bob; web-app and payments-api), adopted with Bob
    // removed, Carol added, payments-api swapped for mobile-app: destroy puts back its members and projects.
    decl("Team", {
      name: "appsec",
      members: { "101": "TEAM_ROLE_MANAGER", "103": "TEAM_ROLE_MEMBER" },
      projects: ["acme/web-app", "acme/mobile-app"],
    }),
    // A team the killed run created: destroy deletes it (not adopted by the recovery, and left).
    decl("Team", { name: "cut-team", members: { "105": "TEAM_ROLE_MEMBER" }, projects: ["acme/mobile-app"] }, "cut-new-team"),
    // The payments team: Dan's role raised, Erin added.
    decl("TeamMembers", { teamId: "202", members: { "104": "TEAM_ROLE_MANAGER", "105": "TEAM_ROLE_READONLY" } }),
    decl("TeamProjects", { teamId: "201", projects: ["acme/mobile-app"] }),
  ];
}

describe.each(["dynamic", "native"] as const)("every writing kind killed after its write (%s front end)", (frontEnd) => {
  it("the recovery on the same machine records each original from the journal, and destroy puts back every value", async () => {
    // cutRun slows every answer from the first write on (2 s): killed as its write arrives, the create has not
    // ended; the write lands after the kill.
    const emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0, policiesV2: "both" });
    try {
      const stack = await newStack(frontEnd, emulator);
      const failures: string[] = [];
      for (const decl of programFor(emulator)) {
        const preStack = liveValues(emulator.state());
        stack.write([decl]);
        emulator.requests().length = 0; // cutRun counts the writes from here
        const run = await killUpAtWrite(stack, emulator, 1);
        const changed = [...liveValues(emulator.state())].filter(([key, value]) => preStack.get(key) !== value).map(([key]) => key);
        const recorded = Object.keys(await stack.resources());
        const recovery = await recoverOnSameMachine(stack);
        await stack.run(["destroy", "--yes", "--skip-preview"]);
        const after = liveValues(emulator.state());
        const left = [...new Set([...preStack.keys(), ...after.keys()])].filter((key) => preStack.get(key) !== after.get(key));
        const said = (recovery.stdout + recovery.stderr).replace(/\s+/g, " ");
        if (!run.signals.includes("SIGKILL") || !changed.length || recorded.length)
          failures.push(
            `${decl.kind}: not killed after its write and before the state recorded it (${JSON.stringify({ run: run.writes, changed, recorded })})`,
          );
        else if (!said.includes("recorded from this machine's journal"))
          failures.push(`${decl.kind}: the recovery took nothing from the journal: ${said}`);
        if (left.length)
          failures.push(
            `${decl.kind}: destroy left ${left.map((key) => `${key} (was ${preStack.get(key)}, is ${after.get(key)})`).join(", ")}`,
          );
      }
      expect(failures).toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 600_000);
});

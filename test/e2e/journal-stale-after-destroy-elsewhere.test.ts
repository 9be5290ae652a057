/**
 * The journal of originals (provider/core/runtime/journal.ts) keeps a create's lines until a later
 * call on the same machine is given a state holding that create's outputs. A stack destroyed on
 * another machine (a CI runner, after a first `up` on a laptop) never gives this machine that
 * call: the lines stay. Found by trying issue 34 as a user: a later create of a resource of the
 * same kind, name and object, in any stack of this machine (the key holds no stack), reads those
 * lines as "an interrupted run of it", records their values as originals and says so; its
 * `destroy` then writes them, over values someone else set in between. Here a rule someone
 * blocked after the first stack was gone, and a project's primary branch, are put back to what
 * they were before the first stack, which the second stack never changed.
 *
 * Through the real CLI, both front ends. Fails today: the second stack's destroy sets the rule
 * to MODE_COMMENT and the branch to refs/heads/develop.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { startEmulator } from "../../provider/emulator";
import { type Decl, identity } from "../workflows/model";
import { newStack } from "../workflows/stacks";
import { DEPLOYMENT_ID, liveValues, POLICY_ID, worldRules } from "../workflows/world";

describe.each(["dynamic", "native"] as const)("a journal left by a stack destroyed on another machine (%s front end)", (frontEnd) => {
  it("is not read by a later stack's create: its destroy leaves values someone else set since", async () => {
    const emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0 });
    try {
      const start = liveValues(emulator.state());
      const rule = worldRules(emulator.state()).find((r) => start.get(`rule:${r.path}`) === "MODE_COMMENT")!;
      const program: Decl[] = [
        {
          kind: "PolicyRuleMode",
          name: "block-rule",
          props: { ...identity("PolicyRuleMode"), rulePath: rule.path, mode: "MODE_BLOCK" },
          secret: [],
        },
        {
          kind: "ProjectSettings",
          name: "mobile",
          props: { ...identity("ProjectSettings"), projectName: "acme/mobile-app", primaryBranch: "refs/heads/main" },
          secret: [],
        },
      ];
      expect(start.get("project:acme/mobile-app:primaryBranch")).toBe(JSON.stringify("refs/heads/develop"));

      // This machine: the first stack's up. Its journal waits for a later run of it here.
      const first = await newStack(frontEnd, emulator);
      first.write(program);
      await first.run(["up", "--yes", "--skip-preview"]);
      // Another machine (its own journal directory) destroys it: every value back.
      const elsewhere = { XDG_STATE_HOME: mkdtempSync(join(tmpdir(), "pulumi-semgrep-other-machine-")) };
      await first.run(["destroy", "--yes", "--skip-preview"], { env: elsewhere });
      expect(liveValues(emulator.state())).toEqual(start);

      // Since then, someone blocks the rule and pins the branch by hand.
      const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
      await client.policies.updateRuleMode(DEPLOYMENT_ID, POLICY_ID, { rulePath: rule.path, policyMode: "MODE_BLOCK" });
      await client.projects.update("acme", "acme/mobile-app", { primary_branch: "refs/heads/main" });
      const byHand = liveValues(emulator.state());

      // This machine again (the first workspace's journal directory): a new stack of the same program finds both as
      // declared, adopts them, and its destroy leaves them.
      const thisMachine = { env: { XDG_STATE_HOME: first.env.XDG_STATE_HOME! } };
      const second = await newStack(frontEnd, emulator);
      second.write(program);
      const up = await second.run(["up", "--yes", "--skip-preview"], thisMachine);
      const said = (up.stdout + up.stderr).replace(/\s+/g, " ");
      await second.run(["destroy", "--yes", "--skip-preview"], thisMachine);
      const after = liveValues(emulator.state());
      const changed = [...byHand.keys()].filter((key) => byHand.get(key) !== after.get(key));
      expect(changed, `the second stack's up said: ${said}`).toEqual([]);
      expect(said).not.toContain("set by an interrupted run");
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

/**
 * An `up` under PULUMI_SKIP_CHECKPOINTS=true (the engine writes the state once, at the end of the
 * run, not after each step: the large deployments guide's advice for big stacks) killed with
 * SIGKILL after one resource's create ended whole and as the next one's write arrives, through
 * the real CLI and both front ends. The state then records neither, not even the create that
 * ended: the provider keeps (marked) the journal lines of a create that ends whole when the engine
 * skips checkpoints, as it does for a call cut short, so that the recovery (`pulumi cancel`,
 * `pulumi refresh --clear-pending-creates`, `pulumi up`, checkpoints skipped again) records what
 * both replaced and `destroy` puts every value back.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import type { Decl } from "../workflows/model";
import { identity } from "../workflows/model";
import { killUpAtWrite, recoverOnSameMachine } from "../support/recovery";
import { newStack } from "../workflows/stacks";
import { liveValues } from "../workflows/world";

const PROGRAM: Decl[] = [
  {
    kind: "ProjectSettings",
    name: "first",
    props: { ...identity("ProjectSettings"), projectName: "acme/web-app", primaryBranch: "release" },
    secret: [],
  },
  {
    kind: "ProjectTags",
    name: "second",
    props: { ...identity("ProjectTags"), projectName: "acme/mobile-app", tags: ["owner:appsec"] },
    secret: [],
    dependsOn: "first",
  },
];

describe.each(["dynamic", "native"] as const)("an up with checkpoints skipped, killed between two creates (%s front end)", (frontEnd) => {
  it("the recovery records the originals of both, the create that ended included, and destroy puts back every value", async () => {
    const emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0 });
    try {
      const stack = await newStack(frontEnd, emulator);
      const skipping = { ...stack, env: { ...stack.env, PULUMI_SKIP_CHECKPOINTS: "true" } };
      const before = liveValues(emulator.state());
      stack.write(PROGRAM);
      emulator.requests().length = 0;
      // Answers slow from the first write on: the first create ends, the second's write arrives, the run is killed.
      const run = await killUpAtWrite(skipping, emulator, 2);
      expect(
        run.signals,
        JSON.stringify({ w: run.writes, s: run.status, o: run.stdout.slice(-1500), e: run.stderr.slice(-800) }),
      ).toContain("SIGKILL");
      const after = liveValues(emulator.state());
      expect(after.get("project:acme/web-app:primaryBranch")).toBe(JSON.stringify("refs/heads/release")); // the first create's write
      expect(after.get("project:acme/mobile-app:tags")).toBe(JSON.stringify(["owner:appsec"])); // the second's, landed after the kill
      expect(Object.keys(await stack.resources())).toEqual([]); // and no state recorded either

      const recovery = await recoverOnSameMachine(stack, { PULUMI_SKIP_CHECKPOINTS: "true" });
      expect((recovery.stdout + recovery.stderr).replace(/\s+/g, " ")).toContain("recorded from this machine's journal");

      await stack.run(["destroy", "--yes", "--skip-preview"], { env: skipping.env });
      const restored = liveValues(emulator.state());
      const left = [...before.keys()].filter((key) => before.get(key) !== restored.get(key)).map((key) => `${key}: ${restored.get(key)}`);
      expect(left).toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 600_000);
});

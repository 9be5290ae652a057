/**
 * Trial 3 (issue 35): the recovery `up` after a ProjectSettingsSet killed mid-writes names what it
 * recorded from the journal on one line: `found projects.acme/x.addTag.fleet:3 and … already as
 * declared …: projects.acme/x.addTag.fleet:3 (was "absent"); …`, 19,054 characters for 300 projects
 * of which the killed run wrote ~120 (runtime/dispatch.ts noteJournaled joins every field). The
 * last session made the same note for rules one rule a line (`groupedLines`); the set's is not.
 */
import { expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { killUpAtWrite, recoverOnSameMachine } from "../support/recovery";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const SET: Decl = {
  kind: "ProjectSettingsSet" as Kind,
  name: "fleet",
  props: { deploymentSlug: "acme", select: { namePatterns: ["acme/**"] }, settings: { addTags: ["fleet:all"] } },
  secret: [],
};

it("the recovery up's note on a killed set's journaled originals has no line over 400 characters", async () => {
  const emulator = await startEmulator({ preset: "large", retryAfterSeconds: 0 });
  try {
    const stack = await newStack("dynamic", emulator);
    stack.write([SET]);
    emulator.requests().length = 0;
    const run = await killUpAtWrite(stack, emulator, 40);
    expect(run.signals).toContain("SIGKILL");
    const recovery = await recoverOnSameMachine(stack);
    const out = recovery.stdout + recovery.stderr;
    expect(out).toContain("recorded from this machine's journal");
    const longest = Math.max(...out.split("\n").map((line) => line.length));
    expect(longest).toBeLessThanOrEqual(400);
    await stack.run(["destroy", "--yes", "--skip-preview"]);
  } finally {
    await emulator.close();
  }
}, 600_000);

/**
 * The journal of originals (provider/core/runtime/journal.ts) outlives the call that wrote it:
 * a create's answer reaches the engine, but the stack's state records it only when the engine
 * writes its next checkpoint, and a CLI killed in between (a wider window the larger the stack)
 * leaves a state without the resource while the service holds its writes. Made here without a race:
 * a whole `up`, then the stack's state put back as it was before it (`stack export` / `stack import`,
 * what the lost checkpoint leaves). The README's recovery `up` on the same machine takes the
 * originals from the journal, and `destroy` puts every value back; once a state holds a call's
 * outputs, the next run drops the journal's lines (none is left after a run that changes nothing).
 * Through the real CLI, both front ends: a ProjectSettings (the runtime's fields) and a
 * PolicyRuleModes (a kind journaling rules of its own).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { type Decl, identity } from "../workflows/model";
import { newStack } from "../workflows/stacks";
import { liveValues, worldRules } from "../workflows/world";

describe.each(["dynamic", "native"] as const)("a create answered but never checkpointed (%s front end)", (frontEnd) => {
  it("is recovered from the journal on the same machine, destroy puts everything back, and a later run drops the journal", async () => {
    const emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0 });
    try {
      const before = liveValues(emulator.state());
      const rule = worldRules(emulator.state()).find((r) => before.get(`rule:${r.path}`) !== "MODE_BLOCK")!;
      const program: Decl[] = [
        {
          kind: "ProjectSettings",
          name: "web",
          props: { ...identity("ProjectSettings"), projectName: "acme/web-app", primaryBranch: "release", tags: ["pci", "journal"] },
          secret: [],
        },
        {
          kind: "PolicyRuleModes",
          name: "modes",
          props: { ...identity("PolicyRuleModes"), modes: { [rule.path]: "MODE_BLOCK" } },
          secret: [],
        },
      ];
      const stack = await newStack(frontEnd, emulator);
      const journals = () => {
        try {
          return readdirSync(join(stack.env.XDG_STATE_HOME!, "pulumi-semgrep"));
        } catch {
          return [];
        }
      };
      await stack.run(["up", "--yes", "--skip-preview"]); // the empty program: the stack exists
      const empty = await stack.exported();
      stack.write(program);
      await stack.run(["up", "--yes", "--skip-preview"]);
      const changed = [...liveValues(emulator.state())].filter(([key, value]) => before.get(key) !== value).map(([key]) => key);
      expect(changed.sort()).toEqual(["project:acme/web-app:primaryBranch", "project:acme/web-app:tags", `rule:${rule.path}`].sort());
      expect(journals().length, "each resource's journal waits for a state that records its create").toBe(2);

      // The checkpoint after the creates never written: the state is the one before them.
      writeFileSync(join(stack.dir, "before-creates.json"), empty);
      await stack.run(["stack", "import", "--file", "before-creates.json"]);
      expect(Object.keys(await stack.resources())).toEqual([]);
      const recovery = await stack.run(["up", "--yes", "--skip-preview"]);
      const said = (recovery.stdout + recovery.stderr).replace(/\s+/g, " ");
      expect(said).toContain("recorded from this machine's journal");

      await stack.run(["up", "--yes", "--skip-preview"]); // no change: its diffs see the recovery's outputs in the state
      expect(journals(), "a state that records every original leaves no journal").toEqual([]);

      await stack.run(["destroy", "--yes", "--skip-preview"]);
      const after = liveValues(emulator.state());
      const left = [...before.keys()].filter((key) => before.get(key) !== after.get(key));
      expect(left, "destroy put back every value the stack changed").toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

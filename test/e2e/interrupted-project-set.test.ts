/**
 * A ProjectSettingsSet killed with SIGKILL in the middle of its writes, through the real CLI and
 * both front ends: explicit projects and a selector's settings (a tag added, diff scans on), its
 * `up --skip-preview` killed as its first write arrives, while its other writes (a few at a time)
 * land after. Nothing of the create reaches the stack's state; the set journals each project's
 * originals before the write that replaces them (project-set-plan.ts), so the README's recovery on
 * the same machine (`pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`) records
 * what the killed run replaced, and `destroy` puts back every value of every project as it was.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import type { Decl, Kind } from "../workflows/model";
import { killUpAtWrite, recoverOnSameMachine } from "../support/recovery";
import { newStack } from "../workflows/stacks";
import { withoutSystemTags } from "../../provider/client/schemas";
import type { EmulatorState } from "../../provider/emulator/model";

/** Explicit projects whose fields change, and every project named `*-app`/`*-api`/`*-service` gaining a tag and diff scans. */
const SET: Decl = {
  kind: "ProjectSettingsSet" as Kind,
  name: "fleet",
  props: {
    deploymentSlug: "acme",
    projects: {
      "acme/web-app": { tags: ["team:web", "killed-run"], primaryBranch: "release" },
      "acme/mobile-app": { primaryBranch: "main", managedScanConfig: { fullScan: { enabled: true } } },
      "acme/infra": { tags: ["team:infra", "killed-run"] },
    },
    select: { namePatterns: ["acme/*-api", "acme/*-service", "acme/*-app"] },
    settings: { addTags: ["fleet:managed"], managedScanConfig: { diffScan: { enabled: true } } },
  },
  secret: [],
};

/** Every value a set can change, of every project, by `<project>:<field>` (tags as a sorted set without the system tags). */
function liveValues(state: EmulatorState): Map<string, string> {
  const values = new Map<string, string>();
  for (const project of state.projects) {
    values.set(`${project.name}:primaryBranch`, JSON.stringify(project.primaryBranch));
    values.set(`${project.name}:tags`, JSON.stringify(withoutSystemTags(project.tags).sort()));
    values.set(`${project.name}:diffScan`, JSON.stringify(project.managedScanConfig.diff_scan.enabled));
    values.set(`${project.name}:fullScan`, JSON.stringify(project.managedScanConfig.full_scan.enabled));
  }
  return values;
}

describe.each(["dynamic", "native"] as const)("a ProjectSettingsSet killed in the middle of its writes (%s front end)", (frontEnd) => {
  it("the recovery on the same machine records each project's original from the journal, and destroy puts back every value", async () => {
    const emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0 });
    try {
      const stack = await newStack(frontEnd, emulator);
      const before = liveValues(emulator.state());
      stack.write([SET]);
      emulator.requests().length = 0; // cutRun counts the writes from here
      // Answers slow from the first write on (cutRun): killed as it arrives, the writes in flight land after.
      const run = await killUpAtWrite(stack, emulator, 1);
      expect(run.signals).toContain("SIGKILL");
      const changed = [...liveValues(emulator.state())].filter(([key, value]) => before.get(key) !== value).map(([key]) => key);
      expect(changed.length).toBeGreaterThan(0); // writes landed
      expect(Object.keys(await stack.resources())).toEqual([]); // and the state recorded none of them

      const recovery = await recoverOnSameMachine(stack);
      expect((recovery.stdout + recovery.stderr).replace(/\s+/g, " ")).toContain("recorded from this machine's journal");
      // Every project as declared now.
      const state = emulator.state();
      const project = (name: string) => state.projects.find((p) => p.name === name)!;
      expect(project("acme/web-app").primaryBranch).toBe("refs/heads/release");
      expect(project("acme/payments-api").tags).toContain("fleet:managed");
      expect(project("acme/mobile-app").managedScanConfig.full_scan).toEqual({ enabled: true });

      await stack.run(["destroy", "--yes", "--skip-preview"]);
      const after = liveValues(emulator.state());
      const left = [...new Set([...before.keys(), ...after.keys()])]
        .filter((key) => before.get(key) !== after.get(key))
        .map((key) => `${key} (was ${before.get(key)}, is ${after.get(key)})`);
      expect(left).toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 600_000);
});

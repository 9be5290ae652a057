/**
 * Trial 3 (issue 35): a project a ProjectSettingsSet's `select` matches, declared on the same field
 * by a ProjectSettings or a ManagedScan of the same stack, must be refused at preview, before any
 * write, naming both (promise 3; without a preview, `up --skip-preview`, the resource the engine
 * checks first may write before the other is refused, as for any two resources).
 * - ProjectSettings `tags` beside the set's `settings.addTags`: not refused at all. The
 *   ProjectSettings writes its whole tag set (dropping the set's tag), and every later `up`
 *   reports the set "converges 1 project … not as declared", updates, and writes nothing.
 * - ManagedScan `diffScan` beside the set's `settings.managedScanConfig.diffScan`: refused only
 *   after the ManagedScan's PATCH landed (the set claims its selector's projects at diff, after
 *   a listing, while the ManagedScan's create goes ahead), and the refusal prints as a stack trace.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const env = useEmulator({ preset: "large", resetEachTest: true });
const writes = () => env.requests().filter((r) => r.method !== "GET");

const set = (settings: Record<string, unknown>): Decl => ({
  kind: "ProjectSettingsSet" as Kind,
  name: "fleet",
  props: { deploymentSlug: "acme", select: { namePatterns: ["acme/*-3"] }, settings },
  secret: [],
});

describe.each(["dynamic", "native"] as const)("ProjectSettingsSet select beside a single resource (%s front end)", (frontEnd) => {
  const matched = () => env.emulator.state().projects.find((p) => /^acme\/[^/]*-3$/.test(p.name))!.name;

  it("refuses a ProjectSettings's tags on a selected project before any write, naming both", async () => {
    const project = matched();
    const workspace = await newStack(frontEnd, env.emulator);
    workspace.write([
      set({ addTags: ["fleet:3"] }),
      { kind: "ProjectSettings" as Kind, name: "single", props: { deploymentSlug: "acme", projectName: project, tags: ["x"] }, secret: [] },
    ]);
    env.emulator.requests().length = 0;
    const up = await workspace.run(["up", "--yes"], { allowFailure: true });
    const out = (up.stdout + up.stderr).replace(/\s+/g, " ");
    expect(up.status).not.toBe(0);
    expect(out).toMatch(/"fleet"[^.]*"single"|"single"[^.]*"fleet"/);
    expect(writes()).toEqual([]);
  }, 300_000);

  it("refuses a ManagedScan's diffScan on a selected project before any write, naming both", async () => {
    const project = matched();
    const workspace = await newStack(frontEnd, env.emulator);
    workspace.write([
      set({ managedScanConfig: { diffScan: { enabled: true } } }),
      {
        kind: "ManagedScan" as Kind,
        name: "single",
        props: { deploymentSlug: "acme", projectName: project, diffScan: { enabled: false } },
        secret: [],
      },
    ]);
    env.emulator.requests().length = 0;
    const up = await workspace.run(["up", "--yes"], { allowFailure: true });
    const out = (up.stdout + up.stderr).replace(/\s+/g, " ");
    expect(up.status).not.toBe(0);
    expect(out).toMatch(/"fleet"[^.]*"single"|"single"[^.]*"fleet"/);
    expect(writes()).toEqual([]);
    expect(out).not.toContain("at refuse (");
  }, 300_000);
});

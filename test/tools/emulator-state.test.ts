/**
 * The comparison the example runner makes after destroy (test/tools/emulator-state.mjs): every
 * difference named by where it is, elements of lists by what names them, and the time and author
 * of a rule's last change set aside (a mode put back is the same mode).
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { changedSince, differences, snapshotOf } from "./emulator-state.mjs";

describe("the emulator's state before and after a run", () => {
  it("names each difference by its place: a project by its name, a rule by its path, a new element whole", () => {
    const before = {
      projects: [
        { name: "acme/web", tags: ["a"] },
        { name: "acme/api", tags: [] },
      ],
      policies: [{ id: 10, rules: [{ path: "r.eval", policyMode: "MODE_COMMENT" }] }],
    };
    const after = {
      projects: [
        { name: "acme/web", tags: ["a", "owner:appsec"] },
        { name: "acme/api", tags: [] },
        { name: "acme/new", tags: [] },
      ],
      policies: [{ id: 10, rules: [{ path: "r.eval", policyMode: "MODE_BLOCK" }] }],
    };
    expect(differences(before, after)).toEqual([
      'projects["acme/web"].tags: ["a"] → ["a","owner:appsec"]',
      'projects["acme/new"]: (absent) → {"name":"acme/new","tags":[]}',
      'policies[10].rules["r.eval"].policyMode: "MODE_COMMENT" → "MODE_BLOCK"',
    ]);
    expect(differences(before, structuredClone(before))).toEqual([]);
    // A list whose elements nothing names uniquely is compared whole.
    expect(differences({ xs: [{ a: 1 }] }, { xs: [{ a: 2 }] })).toEqual(['xs: [{"a":1}] → [{"a":2}]']);
  });

  it("finds a mode put back unchanged, whatever its last change's time and author, and a mode left changed", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const before = snapshotOf(emulator);
      const rule = emulator.state().policies[0]!.rules[0]!;
      const mode = rule.policyMode;
      Object.assign(rule, { policyMode: "MODE_BLOCK", lastChangeAt: "2030-01-01T00:00:00Z", lastChangeBy: "someone" });
      const policy = emulator.state().policies[0]!;
      expect(changedSince(emulator, before)).toEqual(
        mode === "MODE_BLOCK"
          ? []
          : [`policies[${JSON.stringify(policy.name)}].rules[${JSON.stringify(rule.path)}].policyMode: "${mode}" → "MODE_BLOCK"`],
      );
      rule.policyMode = mode;
      expect(changedSince(emulator, before)).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});

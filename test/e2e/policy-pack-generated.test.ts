/**
 * A handful of the policy pack's generated cases (test/policy-pack/model.ts) through the real CLI:
 * the old program is applied with `pulumi up` against the emulator (the rules' live modes set
 * first to the originals the case says the stack found), the changed program is previewed with the
 * shipped pack and the example's config, and the preview fails exactly when the model says the
 * change leaves a critical rule in a weak mode. The cases are drawn with a fixed seed: two that
 * weaken only by what they put back, one that weakens by a claim, and one that passes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import {
  applyEdit,
  claimsOf,
  conflicts,
  edit,
  EXAMPLE_CONFIG_FILE,
  modelViolates,
  nameOf,
  oldProgram,
  originals,
  type Originals,
  type Program,
  resourcesOf,
  RULES,
  selected,
  useModelEmulator,
  weakensByPutBack,
} from "../policy-pack/model";
import { printed, program, programWorkspace } from "../support/program";

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");

interface Case {
  old: Program;
  now: Program;
  found: Originals;
  edits: unknown[];
}

/** The program's text: one constructor per resource of the model. */
const text = (p: Program) =>
  program(
    resourcesOf(p)
      .map((r) => `new semgrep.${r.kind}(${JSON.stringify(nameOf(r.urn))}, ${JSON.stringify(r.inputs)});`)
      .join("\n"),
  );

/** Cases of the v1 kinds the provider accepts (no conflicting claims), drawn with a fixed seed. */
function drawCases(): Case[] {
  const arbitrary = fc.record({ old: oldProgram, found: originals, edits: fc.array(edit, { minLength: 1, maxLength: 3 }) }).map((c) => {
    const old = { ...c.old, rulesets: undefined };
    return { ...c, old, now: { ...c.edits.reduce(applyEdit, old), rulesets: undefined } };
  });
  const pool = fc
    .sample(arbitrary, { seed: 21, numRuns: 2000 })
    .filter((c) => !conflicts(c.old) && !conflicts(c.now) && !modelViolates(c.old, c.old, c.found) && resourcesOf(c.old).length > 0);
  const byPutBack = pool.filter((c) => weakensByPutBack(c.old, c.now, c.found)).slice(0, 2);
  const byClaim = pool.filter((c) => modelViolates(c.old, c.now, c.found) && !weakensByPutBack(c.old, c.now, c.found)).slice(0, 1);
  const passing = pool
    .filter((c) => !modelViolates(c.old, c.now, c.found) && resourcesOf(c.now).length < resourcesOf(c.old).length)
    .slice(0, 1);
  return [...byPutBack, ...byClaim, ...passing];
}

const env = useModelEmulator();

describe("the policy pack on generated changes, through the CLI", () => {
  it("fails the preview exactly when the model says the change weakens a critical rule", async () => {
    const api = env.emulator;
    const client = env.client();
    const cases = drawCases();
    expect(cases).toHaveLength(4);
    for (const c of cases) {
      api.reset("demo");
      // The live modes the old program finds: the case's originals, else already the declared mode (nothing recorded).
      const live = new Map<string, string>(selected(c.old).map((path) => [path, c.old.selector!.mode]));
      RULES.forEach((path, i) => {
        const declared = claimsOf(c.old, path)[0];
        if (declared) live.set(path, c.found[i] ?? declared);
      });
      for (const [rulePath, mode] of live) await client.policies.updateRuleMode("1", "10", { rulePath, policyMode: mode as "MODE_BLOCK" });
      const workspace = await programWorkspace(api, text(c.old));
      await workspace.run(["up", "--yes"]);
      workspace.write(text(c.now));
      const config = join(workspace.dir, "policy-config.json");
      writeFileSync(config, readFileSync(EXAMPLE_CONFIG_FILE, "utf8"));
      const preview = await workspace.run(["preview", "--policy-pack", PACK(), "--policy-pack-config", config], { allowFailure: true });
      const expected = modelViolates(c.old, c.now, c.found);
      const shown = `case ${JSON.stringify({ old: c.old, found: c.found, edits: c.edits })}\n${printed(preview)}`;
      expect(preview.status !== 0, shown).toBe(expected);
      if (expected) expect(printed(preview), shown).toMatch(/\[mandatory\] critical-rules-not-weakened/);
    }
  }, 900_000);
});

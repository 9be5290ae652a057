/**
 * The policy pack's verdict on generated changes, against a simple model (deliverable B of issue
 * 21, the pack's part). A generated old program (PolicyRuleMode, a PolicyRuleModes with `modes`
 * and a selector, a DetectionPolicy's rulesets) becomes the stack's state, with the originals each
 * resource recorded; a generated change of it (change a mode, delete a resource, drop an entry
 * from `modes`, exclude a rule, narrow or drop the selector, remove a protected ruleset, turn
 * restoreOnDelete off) is the new program. The pack's two mandatory policies run as one preview
 * runs them (validateResource per resource of the new program, then validateStack), with the
 * example's config, and must report a violation exactly when the model says that the change
 * leaves a protected (critical) rule in a weak mode, or drops p/default. Fixed seed, bounded runs.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetProgram } from "../../provider/policy-pack/program";
import { criticalRulesNotWeakened } from "../../provider/policy-pack/policies/critical-rules-not-weakened";
import { protectedRulesNotDisabled } from "../../provider/policy-pack/policies/protected-rules-not-disabled";
import { typeToken } from "../../provider/policy-pack/resources";
import { setStackState } from "../../provider/policy-pack/stack-state";
import {
  applyEdit,
  edit,
  EXAMPLE_CONFIG_FILE,
  foundRulesets,
  modelViolates,
  nameOf,
  oldProgram,
  originals,
  type Originals,
  type Program,
  resourcesOf,
  stateOf,
  useModelEmulator,
  weakensByPutBack,
} from "./model";

const env = useModelEmulator();
const CONFIG = JSON.parse(readFileSync(EXAMPLE_CONFIG_FILE, "utf8")) as Record<string, object>;
beforeAll(() => {
  for (const key of ["SEMGREP_APP_TOKEN", "SEMGREP_APP_URL"]) savedEnv[key] = process.env[key];
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
  process.env.SEMGREP_APP_URL = env.emulator.url;
});
const savedEnv: Record<string, string | undefined> = {};
afterAll(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  setStackState(undefined);
});

// ---- The pack, run as one preview runs it. ----

type Violation = string | { message: string; enforcementLevel?: string };
async function packViolations(old: Program, now: Program, originals: Originals, foundRulesets: string[]): Promise<string[]> {
  forgetProgram();
  setStackState({ resources: stateOf(old, originals, foundRulesets) });
  const reported: Violation[] = [];
  const report = ((v: Violation) => void reported.push(v)) as unknown as ReportViolation;
  const resources = resourcesOf(now);
  for (const policy of [criticalRulesNotWeakened, protectedRulesNotDisabled]) {
    const getConfig = () => CONFIG[policy.name] ?? {};
    for (const r of resources) {
      const args = { type: typeToken(r.kind), name: nameOf(r.urn), urn: r.urn, props: r.inputs, getConfig };
      await (policy.validateResource as (a: ResourceValidationArgs, report: ReportViolation) => Promise<void>)(
        args as unknown as ResourceValidationArgs,
        report,
      );
    }
    const stack = resources.map(
      (r) => ({ urn: r.urn, type: typeToken(r.kind), name: nameOf(r.urn), props: r.inputs }) as unknown as PolicyResource,
    );
    await policy.validateStack({ resources: stack, getConfig } as unknown as StackValidationArgs, report);
  }
  return reported.flatMap((v) => (typeof v === "string" ? [v] : v.enforcementLevel === "advisory" ? [] : [v.message]));
}

describe("the pack's verdict on generated changes (fast-check, fixed seed)", () => {
  it("fails exactly the changes that leave a critical rule in a weak mode or drop p/default, by any path", async () => {
    const seen = { runs: 0, violating: 0, puttingBack: 0 };
    await fc.assert(
      fc.asyncProperty(
        oldProgram,
        originals,
        foundRulesets,
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        async (old, found, rulesets, edits) => {
          // The old program passed the pack (no weak critical claim, p/default kept): only the change can weaken.
          fc.pre(!modelViolates(old, old, found));
          const now = edits.reduce(applyEdit, old);
          const violations = await packViolations(old, now, found, rulesets);
          const expected = modelViolates(old, now, found, rulesets);
          seen.runs++;
          if (expected) seen.violating++;
          if (weakensByPutBack(old, now, found)) seen.puttingBack++;
          expect({ violates: violations.length > 0, violations }).toEqual({
            violates: expected,
            violations: expected ? expect.anything() : [],
          });
        },
      ),
      { seed: 21, numRuns: 600 },
    );
    // The generator keeps reaching every verdict: passing changes, violating ones, and those that violate only by what they put back.
    expect(seen.runs).toBe(600);
    expect(seen.puttingBack).toBeGreaterThan(10);
    expect(seen.violating).toBeLessThan(seen.runs / 2);
  }, 120_000);
});

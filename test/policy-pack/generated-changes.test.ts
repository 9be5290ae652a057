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
import { join } from "node:path";
import fc from "fast-check";
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetProgram } from "../../provider/policy-pack/program";
import { criticalRulesNotWeakened } from "../../provider/policy-pack/policies/critical-rules-not-weakened";
import { protectedRulesNotDisabled } from "../../provider/policy-pack/policies/protected-rules-not-disabled";
import { typeToken } from "../../provider/policy-pack/resources";
import { setStackState, type StateResource } from "../../provider/policy-pack/stack-state";
import type { ResourceKind } from "../../provider/kinds";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo", resetEachTest: false });
const CONFIG = JSON.parse(readFileSync(join(__dirname, "../../examples/pull-request/policy-config.json"), "utf8")) as Record<
  string,
  object
>;
const PROTECTED_SEVERITIES = ["SEVERITY_CRITICAL"]; // the example's critical-rules-not-weakened.severities
const WEAK = ["MODE_MONITOR", "MODE_DISABLED"]; // its weakModes
const MODES = ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"] as const;
type Mode = (typeof MODES)[number];

/** The small world: four rules named explicitly (two critical), and selector prefixes over the demo policy. */
const RULES = [
  "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw", // critical
  "php.laravel.security.auth.hardcoded-cipher.hardcoded-cipher", // critical
  "python.lang.security.audit.eval-detected.eval-detected", // high
  "python.lang.best-practice.open-never-closed.open-never-closed", // low
];
const PREFIXES = ["python.django.security.injection.sql.", "php.laravel.security.", "python.lang.best-practice."];
/** Every rule of policy 10 with its severity, as the model sees it (read once from the emulator). */
let severities: Map<string, string>;

beforeAll(async () => {
  severities = new Map();
  const client = env.client();
  for await (const rule of client.policies.listRules("1", "10")) severities.set(rule.path, rule.severity ?? "");
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

// ---- The program: what a stack declares, and what its state recorded. ----

/** Who sets a rule's mode: nobody, a PolicyRuleMode of its own, or an entry of the PolicyRuleModes' `modes`. */
type Owner = { by: "none" } | { by: "single"; mode: Mode; restoreOnDelete?: boolean } | { by: "entry"; mode: Mode };
interface Selector {
  prefix: string;
  mode: Mode;
  exclude: string[];
}
interface Program {
  owners: Owner[]; // by index in RULES
  selector?: Selector;
  /** Whether the PolicyRuleModes exists at all (it holds the entries and the selector). */
  modesResource: boolean;
  modesRestoreOnDelete?: boolean;
  /** The DetectionPolicy's rulesets, or undefined without one. */
  rulesets?: string[];
}

/** The originals the old program's resources recorded: the mode each rule had before the stack set it (or undefined: found as declared). */
type Originals = (Mode | undefined)[];

const ruleUrn = (i: number) => `urn:pulumi:test::e2e::${typeToken("PolicyRuleMode")}::rule-${i}`;
const MODES_URN = `urn:pulumi:test::e2e::${typeToken("PolicyRuleModes")}::modes`;
const DETECTION_URN = `urn:pulumi:test::e2e::${typeToken("DetectionPolicy")}::code`;

/** The rules a program's selector sets (less exclude and the explicit entries). */
function selected(program: Program): string[] {
  const s = program.modesResource ? program.selector : undefined;
  if (!s) return [];
  const explicit = new Set(RULES.filter((_, i) => program.owners[i]!.by === "entry"));
  return [...severities.keys()].filter((path) => path.startsWith(s.prefix) && !s.exclude.includes(path) && !explicit.has(path));
}

/** Each resource of a program and its inputs. */
function resourcesOf(program: Program): { urn: string; kind: ResourceKind; inputs: Record<string, unknown> }[] {
  const policy = { deploymentId: "1", policyId: "10" };
  const singles = program.owners.flatMap((owner, i) =>
    owner.by === "single"
      ? [
          {
            urn: ruleUrn(i),
            kind: "PolicyRuleMode" as const,
            inputs: { ...policy, rulePath: RULES[i], mode: owner.mode, ...restore(owner.restoreOnDelete) },
          },
        ]
      : [],
  );
  const entries = Object.fromEntries(program.owners.flatMap((owner, i) => (owner.by === "entry" ? [[RULES[i]!, owner.mode]] : [])));
  const select = program.selector && {
    rulePathPrefixes: [program.selector.prefix],
    ...(program.selector.exclude.length ? { exclude: program.selector.exclude } : {}),
  };
  const hasRules = Object.keys(entries).length > 0 || select;
  const modes =
    program.modesResource && hasRules
      ? [
          {
            urn: MODES_URN,
            kind: "PolicyRuleModes" as const,
            inputs: {
              ...policy,
              ...(Object.keys(entries).length ? { modes: entries } : {}),
              ...(select ? { select, mode: program.selector!.mode } : {}),
              ...restore(program.modesRestoreOnDelete),
            },
          },
        ]
      : [];
  const detection =
    program.rulesets === undefined
      ? []
      : [
          {
            urn: DETECTION_URN,
            kind: "DetectionPolicy" as const,
            inputs: { deploymentId: "1", product: "code", rulesets: program.rulesets },
          },
        ];
  return [...singles, ...modes, ...detection];
}
const restore = (value: boolean | undefined) => (value === undefined ? {} : { restoreOnDelete: value });

/** The state the old program left: its resources with the originals they recorded (for the selector's rules, those of RULES it set). */
function stateOf(program: Program, originals: Originals, foundRulesets: string[]): StateResource[] {
  const selectedRules = new Set(selected(program));
  return resourcesOf(program).map(({ urn, kind, inputs }) => {
    if (kind === "PolicyRuleMode") {
      const i = RULES.indexOf(String(inputs.rulePath));
      return { urn, type: typeToken(kind), inputs, outputs: { ...inputs, ...(originals[i] ? { originalMode: originals[i] } : {}) } };
    }
    if (kind === "DetectionPolicy")
      return { urn, type: typeToken(kind), inputs, outputs: { ...inputs, originals: { rulesets: foundRulesets } } };
    const byMode: Record<string, string[]> = {};
    RULES.forEach((path, i) => {
      const managed = program.owners[i]!.by === "entry" || selectedRules.has(path);
      if (managed && originals[i]) (byMode[originals[i]] ??= []).push(path);
    });
    return { urn, type: typeToken(kind), inputs, outputs: { ...inputs, originals: byMode } };
  });
}

// ---- The model: does the change leave a protected rule weaker, or drop a protected pack? ----

const isProtected = (path: string) => PROTECTED_SEVERITIES.includes(severities.get(path) ?? "");

/**
 * The modes the new program sets on `path` (a rule of a PolicyRuleMode that a selector also
 * matches is set by both: the provider refuses the conflict; the pack judges each claim).
 */
function claimsOf(program: Program, path: string): Mode[] {
  const i = RULES.indexOf(path);
  const owner = i >= 0 ? program.owners[i]! : undefined;
  const explicit = owner?.by === "single" || (owner?.by === "entry" && program.modesResource) ? [owner.mode] : [];
  return [...explicit, ...(selected(program).includes(path) ? [program.selector!.mode] : [])];
}

/** The mode the run puts back on a rule of RULES the old program set and the new one does not (undefined: none). */
function putBack(old: Program, now: Program, originals: Originals, i: number): Mode | undefined {
  const owner = old.owners[i]!;
  const path = RULES[i]!;
  if (claimsOf(now, path).length) return undefined; // still set: handed over, nothing put back
  if (owner.by === "single") return owner.restoreOnDelete === false ? undefined : originals[i]; // removed: its delete
  const wasManaged = owner.by === "entry" || selected(old).includes(path);
  if (!wasManaged || !old.modesResource) return undefined;
  // The PolicyRuleModes still exists and no longer manages it (update), or is removed (delete, with restoreOnDelete).
  const stillThere = now.modesResource && resourcesOf(now).some((r) => r.urn === MODES_URN);
  if (!stillThere && old.modesRestoreOnDelete === false) return undefined;
  return originals[i];
}

function modelViolates(old: Program, now: Program, originals: Originals, foundRulesets: string[] = ["p/default"]): boolean {
  const claimed = [...severities.keys()].some((path) => isProtected(path) && claimsOf(now, path).some((mode) => WEAK.includes(mode)));
  const putBackWeak = RULES.some((path, i) => {
    const mode = putBack(old, now, originals, i);
    return mode !== undefined && WEAK.includes(mode) && isProtected(path);
  });
  const packDropped =
    (now.rulesets !== undefined && !now.rulesets.includes("p/default")) ||
    // the DetectionPolicy removed: its delete puts back the rulesets it found, without p/default
    (old.rulesets?.includes("p/default") && now.rulesets === undefined && !foundRulesets.includes("p/default"));
  return claimed || putBackWeak || !!packDropped;
}

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
      const args = { type: typeToken(r.kind), name: r.urn.split("::").at(-1), urn: r.urn, props: r.inputs, getConfig };
      await (policy.validateResource as (a: ResourceValidationArgs, report: ReportViolation) => Promise<void>)(
        args as unknown as ResourceValidationArgs,
        report,
      );
    }
    const stack = resources.map(
      (r) => ({ urn: r.urn, type: typeToken(r.kind), name: r.urn.split("::").at(-1), props: r.inputs }) as unknown as PolicyResource,
    );
    await policy.validateStack({ resources: stack, getConfig } as unknown as StackValidationArgs, report);
  }
  return reported.flatMap((v) => (typeof v === "string" ? [v] : v.enforcementLevel === "advisory" ? [] : [v.message]));
}

// ---- The generators. ----

const mode = fc.constantFrom(...MODES);
const owner: fc.Arbitrary<Owner> = fc.oneof(
  fc.constant({ by: "none" as const }),
  fc.record(
    { by: fc.constant("single" as const), mode, restoreOnDelete: fc.constantFrom(undefined, true, false) },
    { requiredKeys: ["by", "mode"] },
  ),
  fc.record({ by: fc.constant("entry" as const), mode }),
);
const selector: fc.Arbitrary<Selector> = fc.record({ prefix: fc.constantFrom(...PREFIXES), mode, exclude: fc.subarray(RULES) });
/** An old program that passes the pack (what a stack that used the pack holds), with originals. */
const oldProgram: fc.Arbitrary<Program> = fc.record(
  {
    owners: fc.tuple(owner, owner, owner, owner),
    selector: fc.option(selector, { nil: undefined }),
    modesResource: fc.boolean(),
    modesRestoreOnDelete: fc.constantFrom(undefined, false),
    rulesets: fc.option(fc.constantFrom(["p/default"], ["p/default", "p/owasp-top-ten"]), { nil: undefined }),
  },
  { requiredKeys: ["owners", "modesResource"] },
);

/** One edit of the program, by any path: change, delete, move, drop, exclude, narrow, remove a ruleset (data, so a shrunk case prints plainly). */
type Edit =
  | { edit: "owner"; rule: number; owner: Owner }
  | { edit: "exclude"; rule: number }
  | { edit: "selector-mode"; mode: Mode }
  | { edit: "narrow-selector" | "drop-selector" | "remove-PolicyRuleModes" | "drop-p/default" | "remove-DetectionPolicy" };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ edit: fc.constant("owner" as const), rule: fc.nat(3), owner }),
  fc.record({ edit: fc.constant("owner" as const), rule: fc.nat(3), owner: fc.constant({ by: "none" as const }) }), // a resource deleted, an entry dropped
  fc.record({ edit: fc.constant("exclude" as const), rule: fc.nat(3) }),
  fc.record({ edit: fc.constant("selector-mode" as const), mode }),
  fc.record({
    edit: fc.constantFrom(
      "narrow-selector" as const,
      "drop-selector" as const,
      "remove-PolicyRuleModes" as const,
      "drop-p/default" as const,
      "remove-DetectionPolicy" as const,
    ),
  }),
);

function applyEdit(p: Program, e: Edit): Program {
  switch (e.edit) {
    case "owner":
      return { ...p, owners: p.owners.map((x, j) => (j === e.rule ? e.owner : x)) };
    case "exclude":
      return p.selector ? { ...p, selector: { ...p.selector, exclude: [...new Set([...p.selector.exclude, RULES[e.rule]!])] } } : p;
    case "selector-mode":
      return p.selector ? { ...p, selector: { ...p.selector, mode: e.mode } } : p;
    case "narrow-selector":
      return p.selector ? { ...p, selector: { ...p.selector, prefix: `${p.selector.prefix}nothing.` } } : p;
    case "drop-selector":
      return { ...p, selector: undefined };
    case "remove-PolicyRuleModes":
      return { ...p, modesResource: false };
    case "drop-p/default":
      return p.rulesets ? { ...p, rulesets: p.rulesets.filter((r) => r !== "p/default") } : p;
    case "remove-DetectionPolicy":
      return { ...p, rulesets: undefined };
  }
}

describe("the pack's verdict on generated changes (fast-check, fixed seed)", () => {
  it("fails exactly the changes that leave a critical rule in a weak mode or drop p/default, by any path", async () => {
    const seen = { runs: 0, violating: 0, puttingBack: 0 };
    const foundRulesets = fc.constantFrom<string[]>(["p/default"], ["p/owasp-top-ten"]); // what the DetectionPolicy found (its originals)
    const originals: fc.Arbitrary<Originals> = fc.tuple(...RULES.map(() => fc.option(mode, { nil: undefined })));
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
          if (RULES.some((path, i) => isProtected(path) && WEAK.includes(putBack(old, now, found, i) ?? ""))) seen.puttingBack++;
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

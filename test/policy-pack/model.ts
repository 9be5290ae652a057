/**
 * The small world and the simple model of the policy pack's generated check (issue 21, deliverable
 * B): programs over four named rules (two critical), a PolicyRuleModes with `modes` and a selector,
 * and a DetectionPolicy's rulesets; the state an old program leaves (the originals each resource
 * recorded); generated edits by every path; and the model's verdict: does the change leave a
 * protected rule in a weak mode, or drop p/default? Shared by the unit check (test/policy-pack)
 * and the CLI cases (test/e2e/policy-pack-generated.test.ts).
 */
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll } from "vitest";
import type { ResourceKind } from "../../provider/core/kinds";
import { typeToken } from "../../provider/policy-pack/resources";
import type { StateResource } from "../../provider/policy-pack/stack-state";
import { type EmulatorFixture, useEmulator } from "../support/emulator";

/** The config both checks run the pack with: the example's, whose verdicts the model gives. */
export const EXAMPLE_CONFIG_FILE = join(__dirname, "../../examples/pull-request/policy-config.json");
export const PROTECTED_SEVERITIES = ["SEVERITY_CRITICAL"]; // the example's critical-rules-not-weakened.severities
export const WEAK = ["MODE_MONITOR", "MODE_DISABLED"]; // its weakModes
export const MODES = ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"] as const;
export type Mode = (typeof MODES)[number];

/** The small world: four rules named explicitly (two critical), and selector prefixes over the demo policy. */
export const RULES = [
  "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw", // critical
  "php.laravel.security.auth.hardcoded-cipher.hardcoded-cipher", // critical
  "python.lang.security.audit.eval-detected.eval-detected", // high
  "python.lang.best-practice.open-never-closed.open-never-closed", // low
];
export const PREFIXES = ["python.django.security.injection.sql.", "php.laravel.security.", "python.lang.best-practice."];
/** Every rule of policy 10 with its severity, as the model sees it (read from the emulator by {@link useModelEmulator}). */
let severities = new Map<string, string>();
export const allRules = () => [...severities.keys()];

/**
 * The emulator a file's checks run against (demo preset, one for the file, not reset between
 * tests), and the model's world read from it before the tests, as the pack will look it up: every
 * rule of the demo policy (deployment 1, policy 10) with its severity.
 */
export function useModelEmulator(): EmulatorFixture {
  // PolicyRuleModes and a DetectionPolicy in one stack: both policy APIs answer.
  const env = useEmulator({ preset: "demo", resetEachTest: false, policiesV2: "both" });
  beforeAll(async () => {
    const read = new Map<string, string>();
    for await (const rule of env.client().policies.listRules("1", "10")) read.set(rule.path, rule.severity ?? "");
    severities = read;
  });
  return env;
}

// ---- The program: what a stack declares, and what its state recorded. ----

/** Who sets a rule's mode: nobody, a PolicyRuleMode of its own, or an entry of the PolicyRuleModes' `modes`. */
export type Owner = { by: "none" } | { by: "single"; mode: Mode; restoreOnDelete?: boolean } | { by: "entry"; mode: Mode };
export interface Selector {
  prefix: string;
  mode: Mode;
  exclude: string[];
}
export interface Program {
  owners: Owner[]; // by index in RULES
  selector?: Selector;
  /** Whether the PolicyRuleModes exists at all (it holds the entries and the selector). */
  modesResource: boolean;
  modesRestoreOnDelete?: boolean;
  /** The DetectionPolicy's rulesets, or undefined without one. */
  rulesets?: string[];
}

/** The originals the old program's resources recorded: the mode each rule had before the stack set it (or undefined: found as declared). */
export type Originals = (Mode | undefined)[];

/** A resource's name, the last part of its URN. */
export const nameOf = (urn: string) => urn.split("::").at(-1)!;
export const ruleUrn = (i: number) => `urn:pulumi:test::e2e::${typeToken("PolicyRuleMode")}::rule-${i}`;
export const MODES_URN = `urn:pulumi:test::e2e::${typeToken("PolicyRuleModes")}::modes`;
export const DETECTION_URN = `urn:pulumi:test::e2e::${typeToken("DetectionPolicy")}::code`;

/** The rules a program's selector sets (less exclude and the explicit entries). */
export function selected(program: Program): string[] {
  const s = program.modesResource ? program.selector : undefined;
  if (!s) return [];
  const explicit = new Set(RULES.filter((_, i) => program.owners[i]!.by === "entry"));
  return [...severities.keys()].filter((path) => path.startsWith(s.prefix) && !s.exclude.includes(path) && !explicit.has(path));
}

/** Each resource of a program and its inputs. */
export function resourcesOf(program: Program): { urn: string; kind: ResourceKind; inputs: Record<string, unknown> }[] {
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
export function stateOf(program: Program, originals: Originals, foundRulesets: string[]): StateResource[] {
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

export const isProtected = (path: string) => PROTECTED_SEVERITIES.includes(severities.get(path) ?? "");

/**
 * The modes the new program sets on `path` (a rule of a PolicyRuleMode that a selector also
 * matches is set by both: the provider refuses the conflict; the pack judges each claim).
 */
export function claimsOf(program: Program, path: string): Mode[] {
  const i = RULES.indexOf(path);
  const owner = i >= 0 ? program.owners[i]! : undefined;
  const explicit = owner?.by === "single" || (owner?.by === "entry" && program.modesResource) ? [owner.mode] : [];
  return [...explicit, ...(selected(program).includes(path) ? [program.selector!.mode] : [])];
}

/** The mode the run puts back on a rule of RULES the old program set and the new one does not (undefined: none). */
export function putBack(old: Program, now: Program, originals: Originals, i: number): Mode | undefined {
  const owner = old.owners[i]!;
  const path = RULES[i]!;
  if (claimsOf(now, path).length) return undefined; // still set: handed over, nothing put back
  if (owner.by === "single") return owner.restoreOnDelete === false ? undefined : originals[i]; // removed: its delete
  const wasManaged = owner.by === "entry" || selected(old).includes(path);
  if (!wasManaged || !old.modesResource) return undefined;
  // The PolicyRuleModes still exists and no longer manages it (update, unless it now says
  // restoreOnDelete false), or is removed (delete, unless it said restoreOnDelete false).
  const stillThere = now.modesResource && resourcesOf(now).some((r) => r.urn === MODES_URN);
  if ((stillThere ? now : old).modesRestoreOnDelete === false) return undefined;
  return originals[i];
}

/** Whether the change puts back a weak mode on a protected rule (a violation by what the run puts back, not by what it claims). */
export const weakensByPutBack = (old: Program, now: Program, originals: Originals) =>
  RULES.some((path, i) => isProtected(path) && WEAK.includes(putBack(old, now, originals, i) ?? ""));

export function modelViolates(old: Program, now: Program, originals: Originals, foundRulesets: string[] = ["p/default"]): boolean {
  const claimed = [...severities.keys()].some((path) => isProtected(path) && claimsOf(now, path).some((mode) => WEAK.includes(mode)));
  const putBackWeak = weakensByPutBack(old, now, originals);
  const packDropped =
    (now.rulesets !== undefined && !now.rulesets.includes("p/default")) ||
    // the DetectionPolicy removed: its delete puts back the rulesets it found, without p/default
    (old.rulesets?.includes("p/default") && now.rulesets === undefined && !foundRulesets.includes("p/default"));
  return claimed || putBackWeak || !!packDropped;
}

// ---- The generators. ----

export const mode = fc.constantFrom(...MODES);
export const owner: fc.Arbitrary<Owner> = fc.oneof(
  fc.constant({ by: "none" as const }),
  fc.record(
    { by: fc.constant("single" as const), mode, restoreOnDelete: fc.constantFrom(undefined, true, false) },
    { requiredKeys: ["by", "mode"] },
  ),
  fc.record({ by: fc.constant("entry" as const), mode }),
);
export const selector: fc.Arbitrary<Selector> = fc.record({ prefix: fc.constantFrom(...PREFIXES), mode, exclude: fc.subarray(RULES) });
/** An old program that passes the pack (what a stack that used the pack holds), with originals. */
export const oldProgram: fc.Arbitrary<Program> = fc.record(
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
export type Edit =
  | { edit: "owner"; rule: number; owner: Owner }
  | { edit: "exclude"; rule: number }
  | { edit: "selector-mode"; mode: Mode }
  | { edit: "narrow-selector" | "drop-selector" | "remove-PolicyRuleModes" | "drop-p/default" | "remove-DetectionPolicy" };
export const edit: fc.Arbitrary<Edit> = fc.oneof(
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

export function applyEdit(p: Program, e: Edit): Program {
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

/** The mode each rule of RULES had before the old program set it (undefined: found as declared). */
export const originals: fc.Arbitrary<Originals> = fc.tuple(...RULES.map(() => fc.option(mode, { nil: undefined })));
/** What the DetectionPolicy found (its recorded originals). */
export const foundRulesets = fc.constantFrom<string[]>(["p/default"], ["p/owasp-top-ten"]);

/** A rule a PolicyRuleMode sets that the selector also matches: the provider refuses the program (the CLI cases avoid it). */
export const conflicts = (program: Program) =>
  RULES.some((path, i) => program.owners[i]!.by === "single" && selected(program).includes(path));

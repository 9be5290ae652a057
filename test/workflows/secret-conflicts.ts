/**
 * Conflicts with secret claims (issue 34, item 1): two new resources declaring one value, one or
 * both giving it as a secret (`pulumi.secret` / `fn::secret`), in either order, over every value
 * two resources can both declare: a rule's mode (explicit `modes`, a PolicyRuleMode, a selector
 * naming the rule by path or matching it by severity, category, language or path prefix), a
 * project's tags, branch or managed scans, a detection policy's lists, a remediation policy's
 * slug. The program must be refused (promise 3) and no output may print a secret side's text
 * (promise 4), the refusal of the side in clear included: the secrecy travels with the claim.
 */
import { chance, pick, type Random } from "./choices";
import { type Decl, declarations, identity, type Kind, type Program, type Selector } from "./model";
import { BRANCHES, MODES, PROJECTS, REGISTRY_RULES, type WorldRule } from "./world";

/** One side of the conflict: a resource and the inputs that carry the conflicting value. */
interface Side {
  kind: Kind;
  props: Record<string, unknown>;
  carriers: string[];
}

interface Pair {
  sides: [Side, Side];
  /** The value both declare, in words. */
  what: string;
}

interface Options {
  rules: readonly WorldRule[];
  name(kind: Kind): string;
}

/** Which side gives the value as a secret. */
const SECRECY = ["first", "second", "both"] as const;

/** The two resources added, in the order of the program, and what the edit did in words. */
export function secretConflict(r: Random, program: Program, options: Options): { added: Decl[]; said: string } {
  const taken = new Set(declarations(program, options.rules).claims.map((c) => c.key));
  // Rules most: selectors meet there, and a selector's refusal is where a claim's secrecy was lost (item 1).
  const pair = pick(r, [rulePair, rulePair, rulePair, rulePair, projectPair, detectionPair, remediationPair])(r, taken, options.rules);
  const secrecy = pick(r, SECRECY);
  const decls = pair.sides.map((side, i): Decl => {
    const secret = secrecy === "both" || secrecy === (i === 0 ? "first" : "second");
    return { kind: side.kind, name: options.name(side.kind), props: side.props, secret: secret ? side.carriers : [] };
  });
  const added = chance(r) ? decls : [...decls].reverse();
  const described = added.map((d) => `${d.kind} "${d.name}"${d.secret.length ? ` (${d.secret.join(", ")} secret)` : ""}`);
  return { added, said: `add ${described.join(" and ")}, both declaring ${pair.what}` };
}

/** A selector that matches `rule` without naming it: by its severity, a category, a language or the first part of its path. */
function matching(r: Random, rule: WorldRule): Selector {
  return pick(r, [
    { severities: [rule.severity] },
    { categories: [rule.category] },
    { languages: [pick(r, rule.languages)] },
    { rulePathPrefixes: [`${rule.path.split(".")[0]}.`] },
  ]);
}

/** The mode of one rule: explicit `modes`, a PolicyRuleMode, a selector naming its path (first side), or one matching it otherwise (second side). */
function rulePair(r: Random, taken: Set<string>, rules: readonly WorldRule[]): Pair {
  const free = rules.filter((rule) => !taken.has(`rule:${rule.path}`));
  const rule = pick(r, free.length ? free : rules);
  const base = identity("PolicyRuleModes");
  const explicit = (): Side => ({
    kind: "PolicyRuleModes",
    props: { ...base, modes: { [rule.path]: pick(r, MODES) } },
    carriers: ["modes"],
  });
  const single = (): Side => ({
    kind: "PolicyRuleMode",
    props: { ...base, rulePath: rule.path, mode: pick(r, MODES) },
    carriers: ["mode"],
  });
  const byPath = (): Side => ({
    kind: "PolicyRuleModes",
    props: { ...base, select: { rulePathPrefixes: [rule.path] }, mode: pick(r, MODES) },
    carriers: ["select"],
  });
  // A selector gives its mode as a secret, or its selector too.
  const bySelector = (): Side => ({
    kind: "PolicyRuleModes",
    props: { ...base, select: matching(r, rule), mode: pick(r, MODES) },
    carriers: pick(r, [["mode"], ["mode"], ["select", "mode"]]),
  });
  return {
    sides: [pick(r, [explicit, explicit, byPath, single])(), pick(r, [bySelector, bySelector, bySelector, explicit, single])()],
    what: `rule ${rule.path}`,
  };
}

/** A project's tags (ProjectSettings beside ProjectTags or another ProjectSettings), primary branch, or managed scans (beside a ManagedScan). */
function projectPair(r: Random, taken: Set<string>): Pair {
  const field = pick(r, ["tags", "primaryBranch", "diffScan"] as const);
  const free = PROJECTS.filter((p) => !taken.has(`project:${p}:${field}`));
  const projectName = pick(r, free.length ? free : PROJECTS);
  const settings = (props: Record<string, unknown>, carrier: string): Side => ({
    kind: "ProjectSettings",
    props: { ...identity("ProjectSettings"), projectName, ...props },
    carriers: [carrier],
  });
  const what = `the ${field} of project ${projectName}`;
  if (field === "tags") {
    const second = chance(r)
      ? { kind: "ProjectTags" as const, props: { ...identity("ProjectTags"), projectName, tags: ["SECRET-tag-2"] }, carriers: ["tags"] }
      : settings({ tags: ["SECRET-tag-2", "pci"] }, "tags");
    return { sides: [settings({ tags: ["SECRET-tag-1"] }, "tags"), second], what };
  }
  if (field === "primaryBranch")
    return {
      sides: [
        settings({ primaryBranch: pick(r, BRANCHES) }, "primaryBranch"),
        settings({ primaryBranch: pick(r, BRANCHES) }, "primaryBranch"),
      ],
      what,
    };
  const scan: Side = {
    kind: "ManagedScan",
    props: { ...identity("ManagedScan"), projectName, diffScan: { enabled: chance(r) } },
    carriers: ["diffScan"],
  };
  return { sides: [settings({ managedScanConfig: { diffScan: { enabled: chance(r) } } }, "managedScanConfig"), scan], what };
}

/** One list of the code detection policy, declared by two DetectionPolicy resources. */
function detectionPair(r: Random, _taken: Set<string>, rules: readonly WorldRule[]): Pair {
  const base = { ...identity("DetectionPolicy"), product: "code" };
  if (chance(r))
    return {
      sides: [
        { kind: "DetectionPolicy", props: { ...base, rules: ["acme.SECRET-registry-rule"] }, carriers: ["rules"] },
        { kind: "DetectionPolicy", props: { ...base, rules: [pick(r, REGISTRY_RULES.slice(0, 3))] }, carriers: ["rules"] },
      ],
      what: "the rules of the code detection policy",
    };
  return {
    sides: [
      { kind: "DetectionPolicy", props: { ...base, disabled: [pick(r, rules).path] }, carriers: ["disabled"] },
      { kind: "DetectionPolicy", props: { ...base, disabled: [] }, carriers: ["disabled"] },
    ],
    what: "the disabled rules of the code detection policy",
  };
}

/** One remediation policy's slug. */
function remediationPair(r: Random, taken: Set<string>): Pair {
  const slugs = ["wf-alpha", "wf-beta"].filter((s) => !taken.has(`remediation:${s}`));
  const slug = pick(r, slugs.length ? slugs : ["wf-alpha"]);
  const policy = (policyName: string): Side => ({
    kind: "RemediationPolicy",
    props: {
      ...identity("RemediationPolicy"),
      slug,
      policyName,
      filters: { mode: "any", conditions: [{ type: "severity", values: [pick(r, ["critical", "high"])] }] },
      actions: [{ type: "pr_comment" }],
    },
    carriers: ["policyName"],
  });
  return { sides: [policy("SECRET-policy-one"), policy("SECRET-policy-two")], what: `the remediation policy ${slug}` };
}

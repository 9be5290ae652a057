/**
 * The rules of each policy that the rule-mode resources this provider process has checked
 * declare: PolicyRuleModes' selectors and explicit `modes`, PolicyRuleMode's one rule. A
 * selector's rules are known only from a listing, so its overlaps cannot be claims at `check`:
 * instead, when a check finds another resource declaring rules of the same policy beside a
 * selector, it lists the policy (the shared listing) and refuses the rules both take, so that the
 * preview fails before either writes (promise 3, docs/concepts/promises.md). Before writing a rule, a rule-mode
 * resource asks again (an input unknown at preview, an `up --skip-preview`), so the later writer
 * is refused before its own write. Nothing here outlives the process.
 */
import { APIError, MissingTokenError, type Rule } from "../../client";
import { meetsCriteria, type RuleCriteria, type RuleFacts } from "../kinds/rule-criteria";
import { type Owner, ownerName, sameOwner } from "../runtime/ownership";
import { someOf } from "../runtime/notices";
import { onForget } from "../runtime/process-memory";
import { policyRules } from "./rule-index";

export type Select = RuleCriteria & { exclude?: readonly string[] };

/**
 * The check failure of a listing the service refused for good: a deployment migrated to unified
 * policies (410 `DEPLOYMENT_MIGRATED`), an unknown policy (404), a missing or refused token (401,
 * 403). A preview that met one fails with it, rather than showing the creates that `up` will
 * fail (a pull request's preview would pass, and its merge's `up` fail). Anything else (a lost
 * connection, a 5xx after the retries) adds nothing here: the write's own listing meets it again.
 */
function refusedListing(self: Owner, error: unknown): Array<{ property: string; reason: string }> {
  const refused = error instanceof MissingTokenError || (error instanceof APIError && [401, 403, 404, 410].includes(error.status));
  if (!refused) return [];
  const property =
    error instanceof APIError && error.status === 410
      ? "deploymentId"
      : error instanceof APIError && error.status === 404
        ? "policyId"
        : "";
  return [{ property, reason: `${ownerName(self)}: ${(error as Error).message}` }];
}

/** The rules of one policy a resource declares: its selector, if any, and the rules it names itself. */
export interface RuleSet {
  deploymentId: string;
  policyId: string;
  select?: Select;
  /** Rules the resource names itself (`modes`, a PolicyRuleMode's `rulePath`): a selector leaves them to it. */
  explicit: readonly string[];
}

/** What one resource declares of one policy. */
interface Declared {
  owner: Owner;
  policy: string;
  select?: Select;
  explicit: ReadonlySet<string>;
}

const policyKey = (deploymentId: unknown, policyId: unknown) => `${String(deploymentId)}/${String(policyId)}`;

/** Whether `declared`'s selector takes `rule`: it matches, and is neither excluded nor named explicitly by the same resource. */
const takes = (declared: Declared, rule: RuleFacts) =>
  declared.select !== undefined &&
  !declared.explicit.has(rule.path) &&
  !declared.select.exclude?.includes(rule.path) &&
  meetsCriteria(rule, declared.select);

/** A rule two resources of the stack both declare, one of them through its selector. */
export interface Overlap {
  path: string;
  other: Owner;
  /** Whether `self` takes the rule through its selector (else it names it explicitly). */
  bySelector: boolean;
}

/**
 * The rule sets some resources declare, by resource. The process keeps one for the resources it
 * checks (below); an import is checked in one of its own, made of the stack's state
 * (native/import-refusals.ts), so that it leaves the process's untouched.
 */
export class RuleDeclarations {
  readonly #byOwner = new Map<string, Declared>();

  /** Records (or replaces) what `owner` declares of a policy. */
  declare(owner: Owner, rules: RuleSet): void {
    const { deploymentId, policyId, select, explicit } = rules;
    this.#byOwner.set(ownerName(owner), { owner, policy: policyKey(deploymentId, policyId), select, explicit: new Set(explicit) });
  }

  clear(): void {
    this.#byOwner.clear();
  }

  /** The resource, other than `self`, whose selector takes `rule` of the policy, if any. */
  selectorTaking(deploymentId: unknown, policyId: unknown, rule: RuleFacts, self?: Owner): Owner | undefined {
    const policy = policyKey(deploymentId, policyId);
    for (const d of this.#byOwner.values()) {
      if (d.policy !== policy || (self && sameOwner(d.owner, self))) continue;
      if (takes(d, rule)) return d.owner;
    }
    return undefined;
  }

  /** The other resources declaring rules of `self`'s policy, when a selector (its own or theirs) makes an overlap possible. */
  #othersBesideSelectors(self: Owner): Declared[] {
    const mine = this.#byOwner.get(ownerName(self));
    if (!mine) return [];
    const others = [...this.#byOwner.values()].filter((d) => d.policy === mine.policy && !sameOwner(d.owner, self));
    return others.filter((d) => mine.select || d.select);
  }

  /** Whether a check of `self` must list its policy to find overlaps with another resource's selector (see overlapFailures). */
  mayOverlap(self: Owner): boolean {
    return this.#othersBesideSelectors(self).length > 0;
  }

  /**
   * The rules of the policy (`rules`, from its listing) that `self` declares and another resource
   * declares too, where a selector is involved (two explicit declarations are claims: ownership.ts).
   */
  overlapsOf(self: Owner, rules: ReadonlyMap<string, Rule>): Overlap[] {
    const mine = this.#byOwner.get(ownerName(self));
    if (!mine) return [];
    const overlaps: Overlap[] = [];
    for (const other of this.#othersBesideSelectors(self)) {
      for (const rule of rules.values()) {
        const myWay = mine.explicit.has(rule.path) ? "explicit" : takes(mine, rule) ? "selector" : undefined;
        if (!myWay) continue;
        const theirs = other.explicit.has(rule.path) || takes(other, rule);
        if (theirs && (myWay === "selector" || takes(other, rule)))
          overlaps.push({ path: rule.path, other: other.owner, bySelector: myWay === "selector" });
      }
    }
    return overlaps;
  }
}

/** What the rule-mode resources this process has checked declare. */
const declaredHere = new RuleDeclarations();
onForget(() => declaredHere.clear());

/**
 * Records (or replaces) what `owner` declares of a policy: its selector, if any, and the rules
 * it names explicitly.
 */
export function declareRules(
  owner: Owner,
  deploymentId: unknown,
  policyId: unknown,
  select: Select | undefined,
  explicit: readonly string[],
): void {
  declaredHere.declare(owner, { deploymentId: String(deploymentId), policyId: String(policyId), select, explicit });
}

/** The resource, other than `self`, whose selector takes `rule` of the policy, if any (this process's resources). */
export const selectorTaking = (deploymentId: unknown, policyId: unknown, rule: RuleFacts, self?: Owner): Owner | undefined =>
  declaredHere.selectorTaking(deploymentId, policyId, rule, self);

/**
 * `check`'s failures for the rules `self` declares that another resource's selector takes (or
 * that its own selector takes from another resource): none without a selector on the policy
 * beside another resource, so that most previews list nothing. The failure names `property`,
 * or nothing when `secret` (the engine prints the value of the property a failure names).
 */
export async function overlapFailures(
  self: Owner,
  deploymentId: string,
  policyId: string,
  failure: { property: string; secret: boolean; object: (path: string) => string },
): Promise<Array<{ property: string; reason: string }>> {
  if (!declaredHere.mayOverlap(self)) return [];
  let rules: ReadonlyMap<string, Rule>;
  try {
    rules = await policyRules(deploymentId, policyId);
  } catch (error) {
    return refusedListing(self, error); // a refusal fails the preview now; anything else, the write's own listing later
  }
  const byOther = new Map<string, { other: Owner; paths: string[]; bySelector: boolean }>();
  for (const { path, other, bySelector } of declaredHere.overlapsOf(self, rules)) {
    const entry = byOther.get(ownerName(other)) ?? { other, paths: [], bySelector };
    entry.paths.push(path);
    entry.bySelector ||= bySelector;
    byOther.set(ownerName(other), entry);
  }
  return [...byOther.values()].map(({ other, paths, bySelector }) => {
    const rules =
      paths.length === 1 && !failure.secret
        ? failure.object(paths[0]!)
        : `${paths.length} rule${paths.length === 1 ? "" : "s"} of policy ${policyId} (deployment ${deploymentId})`;
    const listed = paths.length === 1 && !failure.secret ? "" : ` (${failure.secret ? "[secret]" : someOf(paths)})`;
    // Named whichever select it is: "its select" would read as the other resource's.
    const how = `the select of ${ownerName(bySelector ? self : other)} matches`;
    return {
      property: failure.secret ? "" : failure.property,
      reason:
        `${ownerName(self)} declares the mode of ${rules}${listed}, which ${ownerName(other)} declares too (${how} ${paths.length === 1 ? "it" : "them"}). ` +
        "Declare each rule in one resource only: leave it out of the selector with select.exclude, or drop it from the other resource; " +
        "two would overwrite each other's mode, and destroying either would put back the wrong original.",
    };
  });
}

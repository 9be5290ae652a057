/**
 * The selectors of the PolicyRuleModes resources this provider process has checked. A selector's
 * rules are known only from a listing, so its overlaps cannot be claims at `check`: instead,
 * before a rule-mode resource writes a rule, it asks whether another resource's selector takes
 * that rule, and is refused if so (design.md: a conflict is caught before the later resource's
 * own write). Nothing here outlives the process.
 */
import { meetsCriteria, type RuleCriteria, type RuleFacts } from "../kinds/rule-criteria";
import { type Owner, ownerName, sameOwner } from "./ownership";
import { onForget } from "./process-memory";

interface Selector {
  owner: Owner;
  policy: string;
  select: RuleCriteria & { exclude?: readonly string[] };
  /** Rules the resource sets explicitly (they are its own claims, checked as such). */
  explicit: ReadonlySet<string>;
}

const selectors = new Map<string, Selector>();
onForget(() => selectors.clear());

const policyKey = (deploymentId: unknown, policyId: unknown) => `${String(deploymentId)}/${String(policyId)}`;

/** Records (or replaces) the selector of `owner` on a policy. */
export function declareSelector(
  owner: Owner,
  deploymentId: unknown,
  policyId: unknown,
  select: Selector["select"] | undefined,
  explicit: readonly string[],
): void {
  const key = ownerName(owner);
  if (!select) selectors.delete(key);
  else selectors.set(key, { owner, policy: policyKey(deploymentId, policyId), select, explicit: new Set(explicit) });
}

/** The resource, other than `self`, whose selector takes `rule` of the policy, if any. */
export function selectorTaking(deploymentId: unknown, policyId: unknown, rule: RuleFacts, self?: Owner): Owner | undefined {
  const policy = policyKey(deploymentId, policyId);
  for (const s of selectors.values()) {
    if (s.policy !== policy || (self && sameOwner(s.owner, self))) continue;
    if (s.explicit.has(rule.path) || s.select.exclude?.includes(rule.path)) continue;
    if (meetsCriteria(rule, s.select)) return s.owner;
  }
  return undefined;
}

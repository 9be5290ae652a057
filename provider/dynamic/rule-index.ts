/**
 * The rules of a policy as PolicyRuleMode reads them: one listing per policy shared by every
 * read in this provider process (single flight), kept for a short while and kept right by this
 * process's own writes. Refreshing 200 rules of one policy lists it once, not 200 times.
 */
import type { Rule } from "../client";
import { apiAddress, apiClient } from "./credentials";

const TTL_MS = 60_000;

interface Entry {
  listing: Promise<Map<string, Rule>>;
  fetchedAt: number;
  /** Rules this process changed since the listing started; they win over the listing. */
  writes: Map<string, Rule>;
}

const entries = new Map<string, Entry>();

const keyOf = (deploymentId: string, policyId: string) => `${apiAddress()}|${deploymentId}|${policyId}`;

function entryFor(deploymentId: string, policyId: string): Entry {
  const key = keyOf(deploymentId, policyId);
  const cached = entries.get(key);
  if (cached && Date.now() - cached.fetchedAt < TTL_MS) return cached;
  const entry: Entry = {
    fetchedAt: Date.now(),
    writes: new Map(),
    listing: (async () => {
      const byPath = new Map<string, Rule>();
      for await (const rule of apiClient().policies.listRules(deploymentId, policyId)) byPath.set(rule.path, rule);
      return byPath;
    })(),
  };
  // A failed listing is not kept: the next read tries again.
  entry.listing.catch(() => entries.get(key) === entry && entries.delete(key));
  entries.set(key, entry);
  return entry;
}

/** The rule at `rulePath` in the policy, or undefined when the policy has no such rule. */
export async function findRule(deploymentId: string, policyId: string, rulePath: string): Promise<Rule | undefined> {
  const entry = entryFor(deploymentId, policyId);
  const rules = await entry.listing;
  return entry.writes.get(rulePath) ?? rules.get(rulePath);
}

/** Records a rule as this process just wrote it. */
export function rememberRule(deploymentId: string, policyId: string, rule: Rule): void {
  entries.get(keyOf(deploymentId, policyId))?.writes.set(rule.path, rule);
}

/** How many rules the policy lists (for error messages); undefined when not listed yet. */
export async function ruleCount(deploymentId: string, policyId: string): Promise<number> {
  return (await entryFor(deploymentId, policyId).listing).size;
}

/** Forgets every listing (the next read lists again). */
export function clearRuleIndex(): void {
  entries.clear();
}

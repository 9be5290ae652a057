/**
 * The rules of a policy as PolicyRuleMode reads them: one listing per policy per phase, shared by
 * every resource in this provider process (see shared-reads.ts) and kept right by this process's
 * own writes. Refreshing 200 rules of one policy lists it once, not 200 times.
 */
import type { PolicyMode, Rule } from "../../client";
import { apiAddress, apiClient } from "../runtime/credentials";
import { sharedReads } from "../runtime/shared-reads";

// Kept for the whole phase, however long: a run of 1,000 rule modes outlasts any fixed lifetime,
// and listing the policy again would only repeat what this process's own writes keep right.
const listings = sharedReads<Map<string, Rule>>({ ttlMs: Infinity });

const keyOf = (deploymentId: string, policyId: string) => `${apiAddress()}|${deploymentId}|${policyId}`;

function listing(deploymentId: string, policyId: string): Promise<Map<string, Rule>> {
  return listings.get(keyOf(deploymentId, policyId), async () => {
    const byPath = new Map<string, Rule>();
    for await (const rule of apiClient().policies.listRules(deploymentId, policyId)) byPath.set(rule.path, rule);
    return byPath;
  });
}

/** The rule at `rulePath` in the policy, or undefined when the policy has no such rule. */
export async function findRule(deploymentId: string, policyId: string, rulePath: string): Promise<Rule | undefined> {
  return (await listing(deploymentId, policyId)).get(rulePath);
}

/** Sets a rule's mode and returns the rule as the service answered, kept in the shared listing. */
export async function writeRuleMode(rule: { deploymentId: string; policyId: string; rulePath: string }, mode: PolicyMode): Promise<Rule> {
  const { updatedRule } = await apiClient().policies.updateRuleMode(rule.deploymentId, rule.policyId, {
    rulePath: rule.rulePath,
    policyMode: mode,
  });
  rememberRule(rule.deploymentId, rule.policyId, updatedRule);
  return updatedRule;
}

/**
 * Records a rule as this process just wrote it. A listing still in flight gets it once complete
 * (before anyone reading after this write sees it), so an older page cannot undo the write.
 */
function rememberRule(deploymentId: string, policyId: string, rule: Rule): void {
  void listings.peek(keyOf(deploymentId, policyId))?.then(
    (rules) => rules.set(rule.path, rule),
    () => {},
  );
}

/** How many rules the policy has (for error messages). */
export async function ruleCount(deploymentId: string, policyId: string): Promise<number> {
  return (await listing(deploymentId, policyId)).size;
}

/** Every rule of the policy, by path (the shared listing: read it, do not change it). */
export function policyRules(deploymentId: string, policyId: string): Promise<ReadonlyMap<string, Rule>> {
  return listing(deploymentId, policyId);
}

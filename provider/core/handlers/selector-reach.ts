/**
 * A PolicyRuleModes selector that matches no rule of its policy (a misspelt language, a prefix
 * of no rule path) would manage nothing without a word: a warning says so when the selector is
 * new or changed, wherever the policy's listing is read anyway (the preview note of a changed
 * selector, the create or update that converges), naming the criteria and, for a value no rule
 * of the policy has, the values that exist.
 */
import { isDeepStrictEqual } from "node:util";
import type { Rule } from "../../client";
import type { RuleSelectorArgs } from "../kinds/policy-rule-modes";
import { meetsCriteria, type RuleCriteria } from "../kinds/rule-criteria";
import type { Props } from "../runtime/check";
import { notifyOnce, someOf } from "../runtime/notices";
import { known } from "../runtime/owned";
import type { CallContext } from "../runtime/call-context";

/** Each criterion and the values the policy's rules have for it. */
const CRITERIA: Record<keyof RuleCriteria, { label: string; values: (rule: Rule) => readonly (string | null | undefined)[] }> = {
  rulePathPrefixes: { label: "rule path starts with", values: (rule) => [`${rule.path.split(".")[0]}.`] },
  severities: { label: "severity", values: (rule) => [rule.severity] },
  confidences: { label: "confidence", values: (rule) => [rule.confidence] },
  categories: { label: "category", values: (rule) => [rule.category] },
  sources: { label: "source", values: (rule) => [rule.source] },
  languages: { label: "language", values: (rule) => rule.languages },
};

/** What no rule of the policy has among the criterion's values, and which values exist: one sentence per criterion. */
function unknownValues(select: RuleSelectorArgs, rules: readonly Rule[]): string[] {
  const sentences: string[] = [];
  for (const [name, { label, values }] of Object.entries(CRITERIA) as [keyof RuleCriteria, (typeof CRITERIA)[keyof RuleCriteria]][]) {
    const wanted = select[name];
    if (!wanted?.length) continue;
    const existing = [...new Set(rules.flatMap((rule) => values(rule)).filter((v): v is string => typeof v === "string"))].sort();
    const matchesNone = (value: string) =>
      name === "rulePathPrefixes" ? !rules.some((rule) => rule.path.startsWith(value)) : !existing.includes(value);
    const absent = wanted.filter(matchesNone);
    if (absent.length)
      sentences.push(
        `no rule has ${label} ${absent.map((v) => JSON.stringify(v)).join(" or ")} (the policy's rules have: ${someOf(existing, 8) || "none"})`,
      );
  }
  return sentences;
}

/**
 * Warns when the selector `news` declares matches no rule of the policy (`rules`, the listing
 * the caller has already read), `exclude` applied, unless it is the selector `olds` declared
 * (said when it was new or changed). Reads nothing itself: a preview's `check` makes no request.
 */
export async function warnIfSelectsNothing(ctx: CallContext, news: Props, rules: ReadonlyMap<string, Rule>, olds?: Props): Promise<void> {
  const select = news.select as RuleSelectorArgs | undefined;
  if (!select || !known(news.deploymentId, news.policyId, select, news.mode ?? "")) return;
  if (olds && isDeepStrictEqual(olds.select ?? undefined, select) && String(olds.policyId) === String(news.policyId)) return;
  const excluded = new Set(select.exclude ?? []);
  if ([...rules.values()].some((rule) => !excluded.has(rule.path) && meetsCriteria(rule, select))) return;
  const { exclude: _exclude, ...criteria } = select;
  const reasons = unknownValues(select, [...rules.values()]);
  const owner = ctx.name;
  await notifyOnce(
    `${owner}:selects-nothing`,
    "warning",
    `${owner}: select ${JSON.stringify(criteria)} matches no rule of policy ${String(news.policyId)} ` +
      `(deployment ${String(news.deploymentId)}, ${rules.size} rules)${excluded.size ? " once exclude is applied" : ""}, ` +
      `so it sets no rule to ${String(news.mode)}` +
      (reasons.length ? `: ${reasons.join("; ")}.` : ". Check the criteria against getPolicyRules."),
  );
}

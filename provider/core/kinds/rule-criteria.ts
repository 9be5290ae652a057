/**
 * Which rules of a policy a set of criteria selects: getPolicyRules' `filter` and
 * PolicyRuleModes' `select` share the names and the semantics (every criterion given must hold;
 * within a list, any value).
 */
import { z } from "zod";
import { CONFIDENCES, oneOf, RULE_SOURCES, SEVERITIES } from "../../client/schemas";

/** A rule as the criteria see it (a listed rule, or getPolicyRules' RuleInfo). */
export interface RuleFacts {
  path: string;
  severity?: string | null;
  confidence?: string | null;
  category?: string | null;
  source?: string | null;
  languages: readonly string[];
}

/** The criteria, with the path prefixes as a list (getPolicyRules' single `rulePathPrefix` is one). */
export interface RuleCriteria {
  rulePathPrefixes?: readonly string[];
  severities?: readonly string[];
  confidences?: readonly string[];
  categories?: readonly string[];
  sources?: readonly string[];
  languages?: readonly string[];
}

/** The schemas of the criteria both forms share. */
export const criteriaSchemas = {
  severities: oneOf(SEVERITIES),
  confidences: oneOf(CONFIDENCES),
  categories: z.array(z.string().min(1)).optional(),
  sources: oneOf(RULE_SOURCES),
  languages: z.array(z.string().min(1)).optional(),
};

const anyOf = (wanted: readonly string[] | undefined, value: string | null | undefined) =>
  !wanted?.length || (value != null && wanted.includes(value));

/** Whether `rule` meets every criterion given. */
export function meetsCriteria(rule: RuleFacts, criteria: RuleCriteria): boolean {
  return (
    (!criteria.rulePathPrefixes?.length || criteria.rulePathPrefixes.some((prefix) => rule.path.startsWith(prefix))) &&
    anyOf(criteria.severities, rule.severity) &&
    anyOf(criteria.confidences, rule.confidence) &&
    anyOf(criteria.categories, rule.category) &&
    anyOf(criteria.sources, rule.source) &&
    (!criteria.languages?.length || rule.languages.some((l) => criteria.languages!.includes(l)))
  );
}

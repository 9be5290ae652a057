/**
 * The Policies V2 vocabulary the emulator accepts (`GET .../vocab`): condition types, action types
 * with their companion requirements, and per product the value enums and detection constraints.
 * The remediation validation reads the condition types and values from here; the action types
 * and companions are the client schemas' (the OpenAPI lists them), so the two cannot disagree.
 */
import { ACTION_COMPANIONS, ACTION_TYPES, EXCEPTION_TYPES, RULE_TYPES, type VocabProduct } from "../client/schemas";

const CONDITION_TYPES: ReadonlyArray<{ type: string; description: string }> = [
  { type: "severity", description: "The severity of the finding's rule." },
  { type: "confidence", description: "The confidence of the finding's rule." },
  { type: "product", description: "The product that reported the finding." },
  { type: "category", description: "The category of the finding's rule." },
  { type: "rule", description: "The registry path of the finding's rule." },
  { type: "repository", description: "The name of the project the finding is in." },
  { type: "repository_tag", description: "A tag of the project the finding is in." },
];

const ACTION_DESCRIPTIONS: Readonly<Record<(typeof ACTION_TYPES)[number], string>> = {
  block: "Fail the scan of a pull or merge request, blocking it.",
  pr_comment: "Comment on the pull or merge request.",
  jira: "Open a Jira ticket (config: project_id, credential_slug).",
  slack_app: "Notify a Slack channel through the Semgrep Slack app (config: channel).",
  webhook: "Send the finding to a webhook (config: webhook_slug).",
  triage: "Triage the finding (config: state, e.g. ignored).",
};

/**
 * The accepted values of the condition types that have a closed set (the others, rule paths,
 * project names and tags, are free-form).
 */
export const CONDITION_VALUES: Readonly<Record<string, readonly string[]>> = {
  severity: ["critical", "high", "medium", "low"],
  confidence: ["high", "medium", "low"],
  product: ["code", "secrets", "supply_chain"],
  category: ["security", "correctness", "best-practice", "performance", "maintainability"],
};

/** The vocabulary: product-agnostic without `product`; with it, its value enums and (for code and secrets) constraints. */
export function vocabulary(product?: VocabProduct) {
  const valueEnums =
    product === "remediation"
      ? Object.entries(CONDITION_VALUES).map(([type, values]) => ({ type, values: [...values] }))
      : product
        ? [
            { type: "exception_type", values: [...EXCEPTION_TYPES] },
            { type: "rule_type", values: [...RULE_TYPES] },
          ]
        : [];
  return {
    condition_types: CONDITION_TYPES.map((c) => ({ ...c })),
    action_types: ACTION_TYPES.map((type) => ({
      type,
      description: ACTION_DESCRIPTIONS[type],
      requires: [...(ACTION_COMPANIONS[type] ?? [])],
    })),
    value_enums: valueEnums,
    ...(product === "code" || product === "secrets"
      ? {
          detection_constraints: {
            rulesets_accepted: product === "code",
            exception_types: [...EXCEPTION_TYPES],
            rule_types: [...RULE_TYPES],
          },
        }
      : {}),
  };
}

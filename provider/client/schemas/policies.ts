/** Policies and rules: list policies, list a policy's rules, change one rule's mode (operations 5 to 7). */
import { z } from "zod";
import { flag, list, looseId, openEnum, text, timestamp } from "./common";
import { CONFIDENCES, POLICY_MODES, PRODUCT_TYPES, RULE_SOURCES, SEVERITIES } from "./enums";

export const MAX_RULE_PAGE_SIZE = 2000;

export const policy = z.looseObject({
  id: looseId,
  name: text,
  slug: z.string().nullish(),
  isDefault: flag,
  productType: openEnum(PRODUCT_TYPES).nullish(),
});
export type Policy = z.output<typeof policy>;

export const policyListResponse = z.looseObject({ policies: list(policy) });

/** A list in the description, a single string in some answers: always a list here. */
const stringOrList = z
  .union([z.array(z.string()), z.string()])
  .nullish()
  .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v]));

/** Dotted rule path: registry rules `a.b.c.rule-id`, custom rules `<org-slug>.<rule-id>`. */
export const rulePath = z
  .string()
  .min(1, "must not be empty")
  .max(512, "must be at most 512 characters")
  .regex(
    /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/,
    "must be a dotted rule path such as python.lang.security.audit.eval-detected.eval-detected",
  );

export const rule = z.looseObject({
  id: looseId,
  path: z.string(),
  url: z.string().nullish(),
  category: z.string().nullish(),
  confidence: openEnum(CONFIDENCES).nullish(),
  severity: openEnum(SEVERITIES).nullish(),
  source: openEnum(RULE_SOURCES).nullish(),
  /**
   * Absent is the enum's zero value, which protobuf's JSON mapping leaves out: the OpenAPI lists
   * no UNSPECIFIED mode, and its first value, `MODE_MONITOR`, is the zero value.
   */
  policyMode: openEnum(POLICY_MODES)
    .nullish()
    .transform((v) => v ?? "MODE_MONITOR"),
  languages: list(z.string()),
  technologies: list(z.string()),
  cweCategories: list(z.string()),
  owaspCategories: list(z.string()),
  vulnerabilityClass: stringOrList,
  rulesets: list(z.string()),
  registryMaintainer: z.string().nullish(),
  lastChangeAt: timestamp.nullish(),
  lastChangeBy: z.string().nullish(),
  hasValidators: z.boolean().nullish(),
  secretType: z.string().nullish(),
});
export type Rule = z.output<typeof rule>;

export const listRulesQuery = z.strictObject({
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(MAX_RULE_PAGE_SIZE).optional(),
});
export type ListRulesQuery = z.input<typeof listRulesQuery>;

export const rulesPage = z.looseObject({
  cursor: z.string().nullish(),
  policy: policy.nullish(),
  rules: list(rule),
});
export type RulesPage = z.output<typeof rulesPage>;

export const updateRuleModeRequest = z.strictObject({
  deploymentId: z.string().optional(),
  policyId: z.string().optional(),
  policyMode: z.enum(POLICY_MODES),
  rulePath,
});

/** `updatedRule` is what the provider records, so an answer without it cannot be used. */
export const updateRuleModeResponse = z.looseObject({ policyId: looseId.nullish(), updatedRule: rule });
export type UpdateRuleModeResponse = z.output<typeof updateRuleModeResponse>;

/** Policies and rules: list policies, list a policy's rules, change one rule's mode (operations 5 to 7). */
import { z } from "zod";
import { looseId, openEnum, timestamp } from "./common";
import { CONFIDENCES, POLICY_MODES, PRODUCT_TYPES, RULE_SOURCES, SEVERITIES } from "./enums";

export const MAX_RULE_PAGE_SIZE = 2000;

export const policy = z.looseObject({
  id: looseId,
  name: z.string(),
  slug: z.string().nullish(),
  isDefault: z.boolean().nullish().transform((v) => v ?? false),
  productType: openEnum(PRODUCT_TYPES).nullish(),
});
export type Policy = z.output<typeof policy>;

export const policyListResponse = z.looseObject({ policies: z.array(policy).default([]) });

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
  policyMode: openEnum(POLICY_MODES),
  languages: z.array(z.string()).nullish().transform((v) => v ?? []),
  technologies: z.array(z.string()).nullish().transform((v) => v ?? []),
  cweCategories: z.array(z.string()).nullish().transform((v) => v ?? []),
  owaspCategories: z.array(z.string()).nullish().transform((v) => v ?? []),
  vulnerabilityClass: stringOrList,
  rulesets: z.array(z.string()).nullish().transform((v) => v ?? []),
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
  policy,
  rules: z.array(rule).default([]),
});
export type RulesPage = z.output<typeof rulesPage>;

export const updateRuleModeRequest = z.strictObject({
  deploymentId: z.string().optional(),
  policyId: z.string().optional(),
  policyMode: z.enum(POLICY_MODES),
  rulePath,
});
export type UpdateRuleModeRequest = z.input<typeof updateRuleModeRequest>;

export const updateRuleModeResponse = z.looseObject({ policyId: looseId, updatedRule: rule });
export type UpdateRuleModeResponse = z.output<typeof updateRuleModeResponse>;

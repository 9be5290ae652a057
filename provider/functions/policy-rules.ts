/** Data source: the rules of a policy, every page read, optionally filtered. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { id, POLICY_MODES } from "../client/schemas";
import { criteriaSchemas, meetsCriteria } from "../core/kinds/rule-criteria";
import type { SemgrepClient } from "../client";
import { oneOf, parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { type PolicyInfo, policyInfo, type RuleInfo, ruleInfo } from "./shapes";

export interface RuleFilter {
  /** Only rules whose path starts with this, e.g. `"python."`. */
  rulePathPrefix?: string;
  /** e.g. `["SEVERITY_HIGH", "SEVERITY_CRITICAL"]` */
  severities?: string[];
  /** e.g. `["CONFIDENCE_HIGH"]` */
  confidences?: string[];
  /** e.g. `["security"]` */
  categories?: string[];
  /** e.g. `["SOURCE_PRO"]` */
  sources?: string[];
  /** Rules for any of these languages, e.g. `["python"]`. */
  languages?: string[];
  /** e.g. `["MODE_MONITOR"]` */
  modes?: string[];
}

export interface GetPolicyRulesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** Numeric id of the policy. */
  policyId: string | number;
  /** Keep only rules matching every given criterion (each list: any of its values). */
  filter?: RuleFilter;
}

/** {@link GetPolicyRulesArgs} as `getPolicyRulesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetPolicyRulesOutputArgs = OutputArgs<GetPolicyRulesArgs>;

export interface GetPolicyRulesResult {
  /** The policy the rules belong to, as the service lists it. */
  policy: PolicyInfo;
  /** The matching rules, by path. */
  rules: RuleInfo[];
}

const rulesArgs = z.strictObject({
  deploymentId: id("deployment"),
  policyId: id("policy"),
  filter: z
    .strictObject({
      rulePathPrefix: z.string().min(1).optional(),
      ...criteriaSchemas,
      modes: oneOf(POLICY_MODES),
    })
    .optional(),
});

/**
 * Every rule of a policy (read 2,000 at a time), optionally filtered.
 *
 * @example
 * ```ts
 * import { getPolicyRules } from "pulumi-semgrep";
 * const { rules } = await getPolicyRules({
 *   deploymentId: "1",
 *   policyId: "10",
 *   filter: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"], categories: ["security"] },
 * });
 * ```
 */
export async function getPolicyRules(args: GetPolicyRulesArgs, opts?: SemgrepInvokeOptions): Promise<GetPolicyRulesResult> {
  const { deploymentId, policyId, filter = {} } = parseArgs("getPolicyRules", rulesArgs, args);
  const client = await clientFor(opts);
  let policy: PolicyInfo | undefined;
  const rules: RuleInfo[] = [];
  const { rulePathPrefix, modes, ...criteria } = filter;
  const selected = { ...criteria, rulePathPrefixes: rulePathPrefix ? [rulePathPrefix] : undefined };
  for await (const page of client.policies.listRules(deploymentId, policyId).pages()) {
    policy ??= page.answer.policy ? policyInfo(page.answer.policy) : undefined;
    for (const rule of page.items.map(ruleInfo)) {
      if (meetsCriteria(rule, selected) && (!modes?.length || (modes as readonly string[]).includes(rule.mode))) rules.push(rule);
    }
  }
  // The policy comes with its rules; an answer that leaves it out costs one more read.
  policy ??= await policyById(client, deploymentId, policyId);
  return { policy, rules: rules.sort((a, b) => a.path.localeCompare(b.path)) };
}

/**
 * {@link getPolicyRules} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getPolicyOutput, getPolicyRulesOutput } from "pulumi-semgrep";
 * const policy = getPolicyOutput({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST", isDefault: true });
 * export const highSeverity = getPolicyRulesOutput({ deploymentId: "1", policyId: policy.id, filter: { severities: ["SEVERITY_HIGH"] } })
 *   .rules.apply((rules) => rules.length);
 * ```
 */
export const getPolicyRulesOutput: (
  args: GetPolicyRulesOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetPolicyRulesResult> = outputForm(getPolicyRules);

/** A policy found in the deployment's policy list, for a rules answer that left it out. */
async function policyById(client: SemgrepClient, deploymentId: string, policyId: string): Promise<PolicyInfo> {
  const found = (await client.policies.list(deploymentId)).find((p) => p.id === policyId);
  if (!found) throw new Error(`getPolicyRules: policy ${policyId} is not among deployment ${deploymentId}'s policies`);
  return policyInfo(found);
}

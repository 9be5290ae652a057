import * as pulumi from "@pulumi/pulumi";
import type { PolicyMode } from "../client/schemas/enums";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/PolicyRuleMode";

export interface PolicyRuleModeArgs {
  /** Numeric id of the deployment, e.g. `"1"` (a number is accepted too). Changing it replaces the resource. */
  deploymentId: pulumi.Input<string | number>;
  /** Numeric id of the policy. Changing it replaces the resource. */
  policyId: pulumi.Input<string | number>;
  /** Dotted path of the rule, e.g. `"python.lang.security.audit.eval-detected.eval-detected"`. Changing it replaces the resource. */
  rulePath: pulumi.Input<string>;
  /** `MODE_MONITOR`, `MODE_COMMENT`, `MODE_BLOCK` or `MODE_DISABLED`. */
  mode: pulumi.Input<PolicyMode>;
  /** Put back, on delete, the mode this resource changed, as it found it (default `true`); `false` only stops managing. */
  restoreOnDelete?: pulumi.Input<boolean>;
}

/**
 * The mode of one rule in one policy: monitor, comment, block, or disabled.
 *
 * @example
 * ```ts
 * import { PolicyRuleMode } from "pulumi-semgrep";
 *
 * new PolicyRuleMode("block-eval", {
 *   deploymentId: "1",
 *   policyId: "10",
 *   rulePath: "python.lang.security.audit.eval-detected.eval-detected",
 *   mode: "MODE_BLOCK",
 * });
 * ```
 */
export class PolicyRuleMode extends pulumi.dynamic.Resource {
  declare readonly deploymentId: pulumi.Output<string>;
  declare readonly policyId: pulumi.Output<string>;
  declare readonly rulePath: pulumi.Output<string>;
  /** Live mode of the rule. */
  declare readonly mode: pulumi.Output<PolicyMode>;
  declare readonly ruleId: pulumi.Output<string>;
  declare readonly severity: pulumi.Output<string | undefined>;
  declare readonly confidence: pulumi.Output<string | undefined>;
  declare readonly category: pulumi.Output<string | undefined>;
  declare readonly url: pulumi.Output<string | undefined>;
  /** The mode this resource found and changed, put back on delete; unset when it found the rule in the declared mode. */
  declare readonly originalMode: pulumi.Output<PolicyMode | undefined>;
  declare readonly restoreOnDelete: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: PolicyRuleModeArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        ...args,
        ruleId: undefined,
        severity: undefined,
        confidence: undefined,
        category: undefined,
        url: undefined,
        ...metaInputs("PolicyRuleMode", name, args, opts),
      },
      resourceOptions("PolicyRuleMode", name, args, opts),
      TYPE_MODULE,
      "PolicyRuleMode",
    );
  }
}

/**
 * `critical-findings-block` (advisory, stack-level): a stack that declares RemediationPolicy
 * resources declares at least one active policy that blocks critical findings: a `block` action
 * and a `severity` condition matching `critical` (mode `any` or left out, `critical` among its
 * values; mode `none`, `critical` not among them).
 */
import type { ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { kindOf } from "../resources";

export const NAME = "critical-findings-block";

interface Condition {
  type?: unknown;
  values?: unknown;
  mode?: unknown;
}

/** The policy's inputs block critical findings. */
function blocksCritical(props: Record<string, unknown>): boolean {
  if (props.active === false) return false;
  const actions = (props.actions as { type?: unknown }[] | undefined) ?? [];
  if (!actions.some((a) => a.type === "block")) return false;
  const conditions = ((props.filters as { conditions?: Condition[] } | undefined)?.conditions ?? []).filter((c) => c.type === "severity");
  return conditions.some((c) => {
    const critical = Array.isArray(c.values) && c.values.includes("critical");
    return c.mode === "none" ? !critical : critical;
  });
}

function validate(args: StackValidationArgs, report: ReportViolation): void {
  const policies = args.resources.filter((r) => kindOf(r.type) === "RemediationPolicy");
  if (!policies.length || policies.some((r) => blocksCritical(r.props))) return;
  report(
    `The stack declares ${policies.length} RemediationPolicy resource${policies.length === 1 ? "" : "s"} ` +
      `(${policies.map((r) => JSON.stringify(r.name)).join(", ")}) and none blocks critical findings: ` +
      'declare an active policy with a "block" action (and its "pr_comment") and a severity condition matching "critical".',
  );
}

export const criticalFindingsBlock: StackValidationPolicy = {
  name: NAME,
  description: "A stack with remediation policies has an active one that blocks critical findings in pull requests.",
  enforcementLevel: "advisory",
  validateStack: validate,
};

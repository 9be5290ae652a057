/**
 * `restore-on-delete` (advisory): `restoreOnDelete: false` makes `pulumi destroy` leave whatever
 * the stack last set (a rule left disabled, a policy left in place) instead of putting back what
 * was there before. Flag it so the reviewer sees it was meant.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { oneLine } from "../one-line";
import { describe, type Inputs, kindOf } from "../resources";

export const NAME = "restore-on-delete";

function validate(args: ResourceValidationArgs, report: ReportViolation): void {
  if (!kindOf(args.type) || (args.props as Inputs).restoreOnDelete !== false) return;
  report(
    `${describe(args.type, args.name)} sets restoreOnDelete false: destroying it keeps whatever this stack last set ` +
      "instead of putting back what was there before.",
  );
}

export const restoreOnDelete: ResourceValidationPolicy = {
  name: NAME,
  description: "Resources put back what they found when destroyed (restoreOnDelete is not false).",
  enforcementLevel: "advisory",
  validateResource: oneLine(NAME, validate),
};

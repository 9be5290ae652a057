/**
 * `diff-scans-enabled` (advisory): pull requests keep their diff scans. A ManagedScan may not
 * declare `diffScan.enabled: false`, nor a ProjectSettings `managedScanConfig.diffScan.enabled: false`.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { oneLine } from "../one-line";
import type { ResourceKind } from "../../core/kinds";
import { describe, type Inputs, kindOf } from "../resources";

export const NAME = "diff-scans-enabled";

/** Where each kind declares the diff-scan toggle: adding a kind is one entry. */
const DIFF_SCAN_TOGGLES: Partial<Record<ResourceKind, { field: string; enabled: (inputs: Inputs) => unknown }>> = {
  ManagedScan: { field: "diffScan.enabled", enabled: (i) => (i.diffScan as Inputs | undefined)?.enabled },
  ProjectSettings: {
    field: "managedScanConfig.diffScan.enabled",
    enabled: (i) => ((i.managedScanConfig as Inputs | undefined)?.diffScan as Inputs | undefined)?.enabled,
  },
};

function validate(args: ResourceValidationArgs, report: ReportViolation): void {
  const toggle = DIFF_SCAN_TOGGLES[kindOf(args.type) as ResourceKind];
  if (!toggle || toggle.enabled(args.props as Inputs) !== false) return;
  const project = (args.props as Inputs).projectName;
  report(
    `${describe(args.type, args.name)} sets ${toggle.field} false for project ${JSON.stringify(project)}: ` +
      "its pull requests would no longer be scanned, so new findings would merge unseen.",
  );
}

export const diffScansEnabled: ResourceValidationPolicy = {
  name: NAME,
  description: "Managed diff scans (the scans of pull requests) stay enabled.",
  enforcementLevel: "advisory",
  validateResource: oneLine(NAME, validate),
};

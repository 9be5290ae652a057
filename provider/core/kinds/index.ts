/**
 * Every resource kind's one declaration (declare.ts), and what both processes derive from it: the
 * program's resource classes and the provider's handlers. Loads schemas only, so either side can
 * load it without the other's modules.
 */
import { z } from "zod";
import type { Props } from "../runtime/check";
import type { FieldRule } from "../runtime/diff";
import type { KindDeclaration } from "./declare";
import { deploymentSettingsKind } from "./deployment-settings";
import { detectionPolicyKind } from "./detection-policy";
import { detectionPolicyExceptionKind } from "./detection-policy-exception";
import { managedScanKind } from "./managed-scan";
import { notificationRuleKind } from "./notification-rule";
import { policyRuleModeKind } from "./policy-rule-mode";
import { policyRuleModesKind } from "./policy-rule-modes";
import { projectSettingsKind } from "./project-settings";
import { projectSettingsSetKind } from "./project-settings-set";
import { projectTagsKind } from "./project-tags";
import { remediationPolicyKind } from "./remediation-policy";
import { sbomExportKind } from "./sbom-export";
import { userRoleKind } from "./user-role";
import { teamKind } from "./team";
import { teamMembersKind } from "./team-members";
import { teamProjectsKind } from "./team-projects";

export {
  deploymentSettingsKind,
  detectionPolicyExceptionKind,
  detectionPolicyKind,
  managedScanKind,
  notificationRuleKind,
  policyRuleModeKind,
  policyRuleModesKind,
  projectSettingsKind,
  projectSettingsSetKind,
  projectTagsKind,
  remediationPolicyKind,
  sbomExportKind,
  userRoleKind,
  teamKind,
  teamMembersKind,
  teamProjectsKind,
};

export const KINDS = {
  ProjectSettings: projectSettingsKind,
  ProjectSettingsSet: projectSettingsSetKind,
  ProjectTags: projectTagsKind,
  ManagedScan: managedScanKind,
  PolicyRuleMode: policyRuleModeKind,
  PolicyRuleModes: policyRuleModesKind,
  SbomExport: sbomExportKind,
  DetectionPolicy: detectionPolicyKind,
  DetectionPolicyException: detectionPolicyExceptionKind,
  RemediationPolicy: remediationPolicyKind,
  UserRole: userRoleKind,
  DeploymentSettings: deploymentSettingsKind,
  NotificationRule: notificationRuleKind,
  Team: teamKind,
  TeamMembers: teamMembersKind,
  TeamProjects: teamProjectsKind,
} as const;

export type ResourceKind = keyof typeof KINDS;
export const RESOURCE_KINDS = Object.keys(KINDS) as ResourceKind[];

const declarationOf = (kind: ResourceKind): KindDeclaration => KINDS[kind] as unknown as KindDeclaration;

const byKind = <T>(of: (declaration: KindDeclaration) => T) =>
  Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, of(declarationOf(kind))])) as Record<ResourceKind, T>;

/**
 * Outputs computed from inputs of other names, by kind: output → the inputs it derives from.
 * A dynamic provider cannot return secrets; the engine makes an output secret only when an input
 * of the same name is. So where its source input is a secret, each class passes, under each of
 * these output names, an input that is a secret `null`, and the output is stored encrypted like
 * its source.
 */
export const DERIVED_OUTPUTS = byKind(({ outputs }) =>
  Object.fromEntries(
    Object.entries(outputs).flatMap(([name, field]) => (field.derivedFrom ? [[name, [field.derivedFrom].flat() as string[]]] : [])),
  ),
);

/** Outputs holding a set other resources may add to, by kind (declare.ts `sharedSet`). */
export const SHARED_SET_OUTPUTS = byKind(({ outputs }) =>
  Object.entries(outputs).flatMap(([name, field]) => (field.sharedSet ? [name] : [])),
);

/**
 * The inputs whose values can appear in the provider's messages, hidden there when given as
 * secrets: every input (an identity such as a project name is quoted by the service's own
 * validation messages, a selector by a check failure).
 */
export function valueInputs(kind: ResourceKind): string[] {
  return Object.keys(declarationOf(kind).inputs);
}

/**
 * The inputs of `props` to treat as secrets though the program may have given them plain (declare.ts
 * `secretWhen`): both front ends add them to the resource's secret inputs.
 */
export function implicitSecrets(kind: ResourceKind, props: Props): string[] {
  return Object.entries(declarationOf(kind).inputs).flatMap(([name, field]) =>
    field.secretWhen && props[name] !== undefined && field.secretWhen.holds(props) ? [name] : [],
  );
}

/**
 * The outputs that may hold a value secret by content (an input's `secretWhen`: a rule's config
 * with a webhook URL) that the program did not give, so the dynamic classes cannot make the input
 * a secret: the input itself when `given` lacks it (the service's live value is read back), and
 * every output derived from it (an original recorded from the service). Stored as secrets always.
 */
export function secretByContentOutputs(kind: ResourceKind, given: Props): string[] {
  const inputs = Object.entries(declarationOf(kind).inputs).flatMap(([name, field]) => (field.secretWhen ? [name] : []));
  const derived = Object.entries(DERIVED_OUTPUTS[kind]).flatMap(([output, sources]) =>
    sources.some((s) => inputs.includes(s)) ? [output] : [],
  );
  return [...inputs.filter((name) => given[name] === undefined), ...derived];
}

/** Every output name of the kind, inputs included: the properties its resource class registers. */
export function propertyNames(kind: ResourceKind): string[] {
  const { inputs, outputs } = declarationOf(kind);
  return [...new Set([...Object.keys(inputs), ...Object.keys(outputs)])];
}

const schemas = new Map<ResourceKind, z.ZodType<Props>>();

/** The schema `check` validates the program's inputs with: every declared input, nothing else, and the kind's rules. */
export function inputSchema(kind: ResourceKind): z.ZodType<Props> {
  let schema = schemas.get(kind);
  if (!schema) {
    const { inputs, rules = [] } = declarationOf(kind);
    schema = rules.reduce<z.ZodType<Props>>(
      (object, rule) => object.refine((declared) => rule.holds(declared), { message: rule.message, path: [rule.path] }),
      z.strictObject(Object.fromEntries(Object.entries(inputs).map(([name, field]) => [name, field.schema]))),
    );
    schemas.set(kind, schema);
  }
  return schema;
}

/** `diff`'s rule for each declared input (diff.ts). */
export function fieldRules(kind: ResourceKind): FieldRule[] {
  return Object.entries(declarationOf(kind).inputs)
    .filter(([name]) => name !== "restoreOnDelete")
    .map(([name, field]) => ({ name, ...(field.replaces ? { replaces: true } : {}), ...(field.equal ? { equal: field.equal } : {}) }));
}

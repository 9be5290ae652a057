/** The package's Pulumi resources: one class per kind, each derived from its declaration (provider/core/kinds). */
export { ProjectSettings, type ProjectSettingsArgs, type ManagedScanConfig, type ScanToggle } from "./project-settings";
export {
  ProjectSettingsSet,
  type ProjectSettingsSetArgs,
  type ProjectEntryArgs,
  type ProjectOriginals,
  type ProjectSetSettingsArgs,
} from "./project-settings-set";
export { ProjectTags, type ProjectTagsArgs } from "./project-tags";
export { ManagedScan, type ManagedScanArgs } from "./managed-scan";
export { PolicyRuleMode, type PolicyRuleModeArgs } from "./policy-rule-mode";
export { PolicyRuleModes, type PolicyRuleModesArgs } from "./policy-rule-modes";
export {
  SbomExport,
  type SbomExportArgs,
  type SbomFormatVersionArgs,
  type SbomFormatVersionOutput,
  type SbomMetadataSupplierArgs,
} from "./sbom-export";
export { DetectionPolicy, type DetectionPolicyArgs, type DetectionExceptionArgs, type DetectionPolicyOriginals } from "./detection-policy";
export { DetectionPolicyException, type DetectionPolicyExceptionArgs } from "./detection-policy-exception";
export {
  RemediationPolicy,
  type RemediationPolicyArgs,
  type RemediationActionArgs,
  type RemediationConditionArgs,
  type RemediationFiltersArgs,
  type RemediationPolicyState,
} from "./remediation-policy";
export { UserRole, type UserRoleArgs } from "./user-role";
export {
  DeploymentSettings,
  type DeploymentSettingsArgs,
  type AiSettings,
  type DeploymentSettingsOriginals,
  type SastSettings,
  type ScaSettings,
  type SecretsSettings,
} from "./deployment-settings";
export { NotificationRule, type NotificationRuleArgs, type NotificationRuleState } from "./notification-rule";
export { Team, type TeamArgs } from "./team";
export { TeamMembers, type TeamMembersArgs } from "./team-members";
export { TeamProjects, type TeamProjectsArgs } from "./team-projects";

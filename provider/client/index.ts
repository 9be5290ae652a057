/** `pulumi-semgrep/client`: the typed HTTP client of the Semgrep web API. */
export { SemgrepClient, sharedClient } from "./client";
export { type ClientOptions, DEFAULT_BASE_URL, TOKEN_ENV, TOKEN_ENVS, URL_ENV, URL_ENVS } from "./config";
export * from "./errors";
export { Paginated, type PageOf } from "./pagination";
export type { ScanSearchRequest, ScanSummary, ScanDetail, ScanMeta, ScanSearchResponse } from "./schemas/scans";
export type { Project, UpdateProjectRequest, ManagedScanRequest, Deployment } from "./schemas/projects";
export { SYSTEM_TAGS, isSystemTag, withoutSystemTags } from "./schemas/projects";
export type { Policy, Rule, RulesPage, ListRulesQuery, UpdateRuleModeResponse } from "./schemas/policies";
export type { ApplyOptions } from "./api/policies-v2";
export type { ListTeamsOptions, TeamPageOptions } from "./api/teams";
export type { Team as TeamEntry, TeamUser, TeamCreate, TeamUpdate, TeamRole, TeamUpdateAction } from "./schemas/teams";
export { TEAM_ROLES, TEAM_UPDATE_ACTIONS, MAX_TEAM_UPDATE_ENTRIES } from "./schemas/teams";
export type {
  BundleProblem,
  BundleValidationError,
  DetectionPolicyBundle,
  DetectionPolicyBundleInput,
  DetectionPolicyDiffEntry,
  DetectionExceptionEntry,
  DetectionPolicyExceptionInput,
  DetectionPolicyState,
  DetectionPolicySummary,
  DryRunDetectionPolicyResponse,
  DryRunRemediationPoliciesResponse,
  RemediationPoliciesBundle,
  RemediationPoliciesBundleInput,
  RemediationPoliciesState,
  RemediationPolicyEntry,
  RemediationPolicyDiffEntry,
  RemediationPolicyInput,
  VocabQuery,
  Vocabulary,
} from "./schemas/policies-v2";
export {
  detectionBundleInput,
  detectionBundleProblems,
  remediationBundleProblems,
  remediationPolicyInput,
  slugFromName,
} from "./schemas/policies-v2";
export type {
  DependencyFilter,
  RepositorySummary,
  LockfileSummary,
  ListRepositoriesRequest,
  ListLockfilesRequest,
} from "./schemas/dependencies";
export type { CreateSbomExportRequest, CreateSbomExportResponse, SbomExportStatusResult, SbomFormatVersion } from "./schemas/sbom";
export * from "./schemas/enums";
export { toDate } from "./schemas/common";
export type { CurrentUser, DeploymentUser, OrgRole, ListDeploymentUsersRequest } from "./schemas/users";
export type {
  AiConfig,
  ProductConfig,
  ProductConfigChange,
  SastConfig,
  ScaConfig,
  SecretsConfig,
  TriagePermission,
} from "./schemas/products";
export { TRIAGE_PERMISSIONS } from "./schemas/products";
export type { NotificationChannel, NotificationRuleEntry, NotificationRuleInput } from "./schemas/notification-rules";
export { NOTIFICATION_CHANNELS } from "./schemas/notification-rules";
export type { NotificationRuleTest } from "./api/notification-rules";
export { ORG_ROLES } from "./schemas/users";

/**
 * The emulator's stored state: plain JSON-serializable records, close to what the service keeps.
 * Rendering into the API's wire shapes happens in `render.ts`.
 */
import type { DetectionProduct, Ecosystem, LicensePolicySetting, Transitivity } from "../client/schemas/enums";
import type { TeamRole } from "../client/schemas/teams";

export interface StoredDeployment {
  id: number;
  slug: string;
  name: string;
}

export interface Toggle {
  enabled: boolean;
}

export interface StoredProject {
  id: number;
  deploymentId: number;
  name: string;
  tags: string[];
  createdAt: string;
  defaultBranch: string;
  /** Null: the primary branch follows the default branch (set with `primary_branch: "None"`). */
  primaryBranch: string | null;
  latestScanAt: string | null;
  managedScanConfig: { diff_scan: Toggle; full_scan: Toggle };
  url: string;
}

export interface StoredRule {
  id: string;
  path: string;
  category: string;
  confidence: string;
  severity: string;
  source: string;
  policyMode: string;
  languages: string[];
  technologies: string[];
  cweCategories: string[];
  owaspCategories: string[];
  vulnerabilityClass: string[];
  rulesets: string[];
  registryMaintainer: string;
  lastChangeAt: string;
  lastChangeBy?: string;
  hasValidators: boolean;
  secretType: string;
}

export interface StoredPolicy {
  id: string;
  deploymentId: number;
  name: string;
  slug: string;
  isDefault: boolean;
  productType: string;
  rules: StoredRule[];
}

export interface StoredScan {
  id: number;
  deploymentId: number;
  repositoryId: number;
  repository: string;
  branch: string;
  commit: string;
  startedAt: string;
  completedAt: string | null;
  enabledProducts: string[];
  exitCode: number | null;
  findings: { code: number; secrets: number; supply_chain: number };
  isFullScan: boolean;
  totalTime: number;
  hasLogs: boolean;
  meta: Record<string, unknown>;
  /**
   * A status the state table cannot derive: queued and not started (`SCAN_STATUS_PENDING`), or
   * stopped by a user (`SCAN_STATUS_CANCELLED`). Absent for every other scan.
   */
  status?: "SCAN_STATUS_PENDING" | "SCAN_STATUS_CANCELLED";
}

export interface StoredDependency {
  name: string;
  version: string;
  license: string;
  ecosystem: Ecosystem;
  transitivity: Transitivity;
  /** What the deployment's license policy says of `license`. */
  licensePolicySetting: LicensePolicySetting;
}

export interface StoredLockfile {
  lockfilePath: string;
  dependencies: StoredDependency[];
}

export interface StoredRepository {
  id: number;
  deploymentId: number;
  name: string;
  hasDependencyPathScan: boolean;
  /**
   * Dependency listings leave an archived repository out unless asked for archived ones only
   * (`includeArchived`). The project listing does not return archived repositories either, so
   * an archived repository has no entry in `projects`.
   */
  archived: boolean;
  lockfiles: StoredLockfile[];
}

export interface StoredSbomExport {
  taskToken: string;
  deploymentId: number;
  repositoryId: number;
  ref: string;
  /** The CycloneDX specification version of the document it produces ("1.4" when the request names none). */
  specVersion: string;
  /** The request's body as sent. */
  request: Record<string, unknown>;
  createdAt: string;
  /** Status reads so far: a job reports IN_PROGRESS on its first read, COMPLETED after. */
  statusReads: number;
}

/** One exception of a detection policy (Policies V2): exactly one of `project` / `projectTagName`. */
export interface StoredDetectionException {
  exceptionType: string;
  project?: string;
  projectTagName?: string;
  rule: string;
  ruleType: string;
}

/**
 * The detection policy bundle of one product of a deployment (Policies V2). Kept canonical: the
 * rule lists sorted without repeats, the exceptions sorted by their identity, so that the
 * `state_version` (a fingerprint of the content) does not depend on the order a bundle was sent in.
 */
export interface StoredDetectionPolicy {
  deploymentId: number;
  product: DetectionProduct;
  rulesets: string[];
  rules: string[];
  disabled: string[];
  exceptions: StoredDetectionException[];
}

export interface StoredRemediationPolicy {
  deploymentId: number;
  slug: string;
  name: string;
  description: string;
  active: boolean;
  filters: { mode: string; conditions: Array<{ type: string; values: string[]; mode: string }> };
  actions: Array<{ type: string; config: Record<string, string> }>;
  /** Managed by Semgrep: never in the bundle, never changed by an apply, and its slug is reserved. */
  systemManaged: boolean;
}

/**
 * A deployment's product configuration (`DeploymentProductConfig`), kept in the wire's own names
 * and shape (snake_case and camelCase mixed, nested settings included), every field set.
 */
export interface StoredProductConfig {
  deploymentId: number;
  ai: {
    legacy_allow_openai_code_sharing: boolean;
    enabled: boolean;
    send_patch_emails: boolean;
    allowed_providers: string[];
    mdr_enabled: boolean;
  };
  sast: {
    enabled: boolean;
    human_autofix_enabled: boolean;
    ai_autofix: { enabled: boolean; min_confidence: number };
    ai_autotriage: { enabled: boolean; hide_false_positive_comments: boolean; send_to_scm_comments: boolean; send_to_slack: boolean };
    ai_detection: { enabled: boolean };
    triagePermission: string;
  };
  sca: {
    enabled: boolean;
    blockPrEnabled: boolean;
    prCommentsEnabled: boolean;
    maliciousDependencyAdvisoriesEnabled: boolean;
    upgradeGuidanceEnabled: boolean;
    triagePermission: string;
    malwareFirewallEnabled: boolean;
  };
  secrets: {
    enabled: boolean;
    global_validation_state_policy: { error: string; invalid: string };
    historical_scan: { enabled: boolean };
    generic_secrets: { enabled: boolean };
    triagePermission: string;
  };
  approversTag: string;
  hasDeveloperTriage: boolean;
}

/** A notification rule of a deployment (`NotificationRule`). */
export interface StoredNotificationRule {
  id: number;
  deploymentId: number;
  name: string;
  channel: string;
  config: Record<string, string>;
  isEnabled: boolean;
  policySlugs: string[];
  useNetworkBroker: boolean;
  sendScanCompletion: boolean;
}

/** A user of a deployment, with the org role the deployment gives them. */
export interface StoredUser {
  id: string;
  deploymentId: number;
  name: string;
  login: string;
  email: string;
  orgRole: "ORG_ROLE_ADMIN" | "ORG_ROLE_MEMBER" | "ORG_ROLE_READONLY" | "ORG_ROLE_IMPERSONATOR";
  active: boolean;
}

/** A role-based access control team of a deployment (Teams API). */
export interface StoredTeam {
  id: number;
  deploymentId: number;
  name: string;
  slug: string;
  /** Null for an organization-level team. */
  parentTeamId: number | null;
  /** Its users, in the order they were added, each with the team role. */
  members: Array<{ userId: string; role: TeamRole }>;
  /** Its repositories: project ids. */
  repositoryIds: number[];
}

export interface EmulatorState {
  deployments: StoredDeployment[];
  projects: StoredProject[];
  policies: StoredPolicy[];
  scans: StoredScan[];
  repositories: StoredRepository[];
  sbomExports: StoredSbomExport[];
  /** Policies V2: one bundle per enabled product of each deployment. */
  detectionPolicies: StoredDetectionPolicy[];
  /** Policies V2: the remediation policies of each deployment (sorted by slug), system-managed ones included. */
  remediationPolicies: StoredRemediationPolicy[];
  /** Each deployment's product configuration (experimental API); a deployment without one reads as every field at its default. */
  productConfigs: StoredProductConfig[];
  /** The notification rules of each deployment (experimental API). */
  notificationRules: StoredNotificationRule[];
  /** The deployments' users, in id order (an older state file has none: read as empty). */
  users: StoredUser[];
  /** The deployments' teams (an older state file lacks them: the preset's are taken, STATE_PARTS). */
  teams: StoredTeam[];
}

export const PRESETS = ["demo", "large"] as const;
export type PresetName = (typeof PRESETS)[number];

/** Every part of the state, each a list: an older state file may lack the newer ones (the emulator then takes the preset's). */
export const STATE_PARTS: Record<keyof EmulatorState, true> = {
  deployments: true,
  projects: true,
  policies: true,
  scans: true,
  repositories: true,
  sbomExports: true,
  detectionPolicies: true,
  remediationPolicies: true,
  users: true,
  productConfigs: true,
  notificationRules: true,
  teams: true,
};

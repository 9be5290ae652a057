/** The API's answers in the camelCase shapes the data-source functions return. */
import type {
  DetectionPolicyState,
  LockfileSummary,
  Policy,
  Project,
  RemediationPolicyEntry,
  RepositorySummary,
  Rule,
  ScanDetail,
  ScanSummary,
  Vocabulary,
} from "../client";
import { type DetectionExceptionArgs, exceptionsOf } from "../kinds/detection-exceptions";
import { type RemediationActionArgs, type RemediationFiltersArgs, remediationPolicyState } from "../kinds/remediation-policy";

export interface PolicyInfo {
  id: string;
  name: string;
  slug?: string;
  isDefault: boolean;
  /** `PRODUCT_TYPE_SAST`, `PRODUCT_TYPE_SECRETS`, or a newer value. */
  productType?: string;
}

export interface RuleInfo {
  id: string;
  /** Dotted path, e.g. `python.lang.security.audit.eval-detected.eval-detected`. */
  path: string;
  /** `MODE_MONITOR`, `MODE_COMMENT`, `MODE_BLOCK` or `MODE_DISABLED`. */
  mode: string;
  url?: string;
  category?: string;
  confidence?: string;
  severity?: string;
  source?: string;
  languages: string[];
  technologies: string[];
  cweCategories: string[];
  owaspCategories: string[];
  vulnerabilityClass: string[];
  rulesets: string[];
  registryMaintainer?: string;
  lastChangeAt?: string;
  lastChangeBy?: string;
}

export interface ScanSummaryInfo {
  id: number;
  deploymentId: number;
  repositoryId: number;
  branch?: string;
  commit?: string;
  startedAt?: string;
  completedAt?: string;
  enabledProducts: string[];
  exitCode?: number;
  findingsCounts: { code: number; secrets: number; supplyChain: number; total: number };
  isFullScan?: boolean;
  /** `SCAN_STATUS_RUNNING`, `SCAN_STATUS_COMPLETED`, `SCAN_STATUS_ERROR`, `SCAN_STATUS_NEVER_FINISHED`, or newer. */
  status: string;
  totalTime?: number;
}

export interface ScanMetaInfo {
  on?: string;
  branch?: string;
  commit?: string;
  commitTitle?: string;
  config?: string;
  repoUrl?: string;
  ciJobUrl?: string;
  repository?: string;
  pullRequestId?: string;
  pullRequestTitle?: string;
  /** Personal data: a secret in `getScanOutput`. */
  commitAuthorName?: string;
  /** Personal data: a secret in `getScanOutput`. */
  commitAuthorUsername?: string;
  /** Personal data: a secret in `getScanOutput`. */
  commitAuthorEmail?: string;
  commitAuthorImageUrl?: string;
  /** Personal data: a secret in `getScanOutput`. */
  pullRequestAuthorUsername?: string;
  pullRequestAuthorImageUrl?: string;
}

/** The fields of a scan's meta that identify a person. */
export const PERSONAL_META_FIELDS = ["commitAuthorName", "commitAuthorUsername", "commitAuthorEmail", "pullRequestAuthorUsername"] as const;

export interface ScanInfo {
  id: number;
  deploymentId: number;
  repositoryId: number;
  startedAt?: string;
  completedAt?: string;
  enabledProducts: string[];
  exitCode?: number;
  hasLogs?: boolean;
  stats: { findings?: number; totalTime?: number };
  meta: ScanMetaInfo;
}

export interface ProjectInfo {
  id: number;
  name: string;
  tags: string[];
  createdAt?: string;
  defaultBranch?: string;
  primaryBranch?: string;
  latestScanAt?: string;
  managedScanConfig: { diffScan: { enabled: boolean }; fullScan: { enabled: boolean } };
  url?: string;
}

export interface RepositoryInfo {
  id: number;
  name: string;
  numDependencies: number;
  hasDependencyPathScan: boolean;
}

export interface LockfileInfo {
  lockfilePath: string;
  numDependencies: number;
}

const opt = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const title = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value == null ? undefined : JSON.stringify(value);

export function policyInfo(p: Policy): PolicyInfo {
  return { id: p.id, name: p.name, slug: opt(p.slug), isDefault: p.isDefault, productType: opt(p.productType) };
}

export function ruleInfo(r: Rule): RuleInfo {
  return {
    id: r.id,
    path: r.path,
    mode: r.policyMode,
    url: opt(r.url),
    category: opt(r.category),
    confidence: opt(r.confidence),
    severity: opt(r.severity),
    source: opt(r.source),
    languages: r.languages,
    technologies: r.technologies,
    cweCategories: r.cweCategories,
    owaspCategories: r.owaspCategories,
    vulnerabilityClass: r.vulnerabilityClass,
    rulesets: r.rulesets,
    registryMaintainer: opt(r.registryMaintainer),
    lastChangeAt: opt(r.lastChangeAt),
    lastChangeBy: opt(r.lastChangeBy),
  };
}

export function scanSummaryInfo(s: ScanSummary): ScanSummaryInfo {
  const counts = s.findings_counts;
  return {
    id: Number(s.id),
    deploymentId: Number(s.deployment_id),
    repositoryId: Number(s.repository_id),
    branch: opt(s.branch),
    commit: opt(s.commit),
    startedAt: opt(s.started_at),
    completedAt: opt(s.completed_at),
    enabledProducts: s.enabled_products,
    exitCode: opt(s.exit_code),
    findingsCounts: {
      code: counts?.code ?? 0,
      secrets: counts?.secrets ?? 0,
      supplyChain: counts?.supply_chain ?? 0,
      total: counts?.total ?? 0,
    },
    isFullScan: opt(s.is_full_scan),
    status: s.status,
    totalTime: opt(s.total_time),
  };
}

export function scanInfo(s: ScanDetail): ScanInfo {
  const m = s.meta ?? {};
  return {
    id: s.id,
    deploymentId: s.deployment_id,
    repositoryId: s.repository_id,
    startedAt: opt(s.started_at),
    completedAt: opt(s.completed_at),
    enabledProducts: s.enabled_products,
    exitCode: opt(s.exit_code),
    hasLogs: opt(s.has_logs),
    stats: { findings: opt(s.stats?.findings), totalTime: opt(s.stats?.total_time) },
    meta: {
      on: opt(m.on),
      branch: opt(m.branch),
      commit: opt(m.commit),
      commitTitle: title(m.commit_title),
      config: opt(m.config),
      repoUrl: opt(m.repo_url),
      ciJobUrl: opt(m.ci_job_url),
      repository: opt(m.repository),
      pullRequestId: opt(m.pull_request_id),
      pullRequestTitle: title(m.pull_request_title),
      commitAuthorName: opt(m.commit_author_name),
      commitAuthorUsername: opt(m.commit_author_username),
      commitAuthorEmail: opt(m.commit_author_email),
      commitAuthorImageUrl: opt(m.commit_author_image_url),
      pullRequestAuthorUsername: opt(m.pull_request_author_username),
      pullRequestAuthorImageUrl: opt(m.pull_request_author_image_url),
    },
  };
}

export function projectInfo(p: Project): ProjectInfo {
  return {
    id: p.id,
    name: p.name,
    tags: p.tags,
    createdAt: opt(p.created_at),
    defaultBranch: opt(p.default_branch),
    primaryBranch: opt(p.primary_branch),
    latestScanAt: opt(p.latest_scan_at),
    managedScanConfig: {
      diffScan: { enabled: p.managed_scan_config?.diff_scan?.enabled ?? false },
      fullScan: { enabled: p.managed_scan_config?.full_scan?.enabled ?? false },
    },
    url: opt(p.url),
  };
}

export const repositoryInfo = (r: RepositorySummary): RepositoryInfo => ({
  id: r.id,
  name: r.name,
  numDependencies: r.numDependencies,
  hasDependencyPathScan: r.hasDependencyPathScan,
});

export const lockfileInfo = (l: LockfileSummary): LockfileInfo => ({ lockfilePath: l.lockfilePath, numDependencies: l.numDependencies });

/** One product's detection policy (Policies V2): its bundle and the bundle's `stateVersion`. */
export interface DetectionPolicyInfo {
  /** Registry rulesets that run deployment-wide, e.g. `["p/default"]` (always empty for `secrets`). */
  rulesets: string[];
  /** Registry rule paths added one by one on top of the rulesets. */
  rules: string[];
  /** Rule paths of the selected rulesets turned off. */
  disabled: string[];
  /** Rules (or rule packs) forced to run, or skipped, on one project or one project tag, in the bundle's order. */
  exceptions: DetectionExceptionArgs[];
  /** The deployment's slug, as the service reports it. */
  deploymentSlug: string;
  /** The bundle's `state_version`: a fingerprint of its content, which changes only when the content does. */
  stateVersion: string;
}

/** One remediation policy (Policies V2), named as the RemediationPolicy resource names its fields. */
export interface RemediationPolicyInfo {
  /** The policy's stable identity in the deployment, e.g. `"block-critical"`. */
  slug: string;
  /** The display name (the API's `name`). */
  policyName: string;
  /** The description ("" when none). */
  description: string;
  /** Whether the policy is evaluated. */
  active: boolean;
  /** The conditions a finding must match. */
  filters: RemediationFiltersArgs;
  /** The actions that fire on a match. */
  actions: RemediationActionArgs[];
}

/** A condition type remediation policy filters accept. */
export interface VocabularyConditionType {
  /** The condition type, as a condition's `type` takes it, e.g. `severity`. */
  type: string;
  /** What the condition matches on. */
  description: string;
}

/** An action type remediation policies accept. */
export interface VocabularyActionType {
  /** The action type, as an action's `type` takes it, e.g. `block`. */
  type: string;
  /** What the action does. */
  description: string;
  /** Action types that must be in the same policy for this one to be accepted, e.g. `["pr_comment"]` for `block`. */
  requires: string[];
}

/** The accepted values of one condition type or bundle field. */
export interface VocabularyValueEnum {
  /** The condition type or bundle field the values apply to, e.g. `severity` or `exception_type`. */
  type: string;
  /** The accepted values, e.g. `["critical", "high", "medium", "low"]`. */
  values: string[];
}

/** What a detection policy bundle of one product accepts. */
export interface DetectionConstraints {
  /** Whether the bundle takes `rulesets` (never for `secrets`). */
  rulesetsAccepted: boolean;
  /** The accepted `exceptionType` values. */
  exceptionTypes: string[];
  /** The accepted `ruleType` values. */
  ruleTypes: string[];
}

/** What Policies V2 accepts: condition and action types, and a product's value enums and constraints. */
export interface PolicyVocabulary {
  /** The condition types remediation policy filters accept. */
  conditionTypes: VocabularyConditionType[];
  /** The action types remediation policies accept, each with the companions it requires. */
  actionTypes: VocabularyActionType[];
  /** The accepted values per condition type or bundle field; only with a `product` (empty without). */
  valueEnums: VocabularyValueEnum[];
  /** What a detection bundle accepts; only with `product` `code` or `secrets`. */
  detectionConstraints?: DetectionConstraints;
}

export const detectionPolicyInfo = (state: DetectionPolicyState): DetectionPolicyInfo => ({
  rulesets: state.bundle.rulesets,
  rules: state.bundle.rules,
  disabled: state.bundle.disabled,
  exceptions: exceptionsOf(state.bundle.exceptions),
  deploymentSlug: state.bundle.deployment_slug,
  stateVersion: state.state_version,
});

export function remediationPolicyInfo(policy: RemediationPolicyEntry): RemediationPolicyInfo {
  const { name, ...rest } = remediationPolicyState(policy);
  return { slug: policy.slug, policyName: name, ...rest };
}

export function vocabularyInfo(v: Vocabulary): PolicyVocabulary {
  const constraints = v.detection_constraints;
  return {
    conditionTypes: v.condition_types.map((c) => ({ type: c.type, description: c.description })),
    actionTypes: v.action_types.map((a) => ({ type: a.type, description: a.description, requires: a.requires })),
    valueEnums: v.value_enums.map((e) => ({ type: e.type, values: e.values })),
    ...(constraints
      ? {
          detectionConstraints: {
            rulesetsAccepted: constraints.rulesets_accepted,
            exceptionTypes: constraints.exception_types,
            ruleTypes: constraints.rule_types,
          },
        }
      : {}),
  };
}

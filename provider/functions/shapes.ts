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
import { type DetectionExceptionArgs, exceptionsOf } from "../core/kinds/detection-exceptions";
import { type RemediationActionArgs, type RemediationFiltersArgs, remediationPolicyState } from "../core/kinds/remediation-policy";

/** A policy: the rule modes of one product, applied to the repositories it covers. */
export interface PolicyInfo {
  /** The policy's id, digits as a string, e.g. `"1"`: what `getPolicyRules`' `policyId` takes. */
  id: string;
  /** The policy's name, e.g. `"Global Policy"`; `""` when the service sends none. */
  name: string;
  /** The policy's machine-readable name, e.g. `"global_policy"`; absent when the service sends none. */
  slug?: string;
  /**
   * `true` for a default policy, which applies to every repository of the deployment; `false` for
   * any other policy, and when the service leaves the field out.
   */
  isDefault: boolean;
  /**
   * The product the policy's rules belong to: `PRODUCT_TYPE_SAST` (Code rules),
   * `PRODUCT_TYPE_SECRETS` (Secrets rules), or a value newer than this package; absent when the
   * service sends none.
   */
  productType?: string;
}

/** A rule of a policy, with its mode in that policy. */
export interface RuleInfo {
  /** The rule's id, digits as a string, e.g. `"1"`. */
  id: string;
  /**
   * Dotted path, e.g. `python.lang.security.audit.eval-detected.eval-detected` for a Registry
   * rule, `<org-slug>.<rule-id>` for a custom one.
   */
  path: string;
  /**
   * The rule's mode in this policy (the service's `policyMode`): `MODE_MONITOR` (findings reported
   * silently), `MODE_COMMENT` (comments on pull requests, without blocking), `MODE_BLOCK` (comments
   * and blocks the pull request) or `MODE_DISABLED` (not run), or a newer value. `MODE_MONITOR`
   * when the service leaves it out (the enum's zero value).
   */
  mode: string;
  /** Address of the rule's page on Semgrep; absent when none is sent. */
  url?: string;
  /** The rule's category, e.g. `"security"` or `"best-practice"`; absent when none is sent. */
  category?: string;
  /**
   * Confidence, from the rule's false-positive rate: `CONFIDENCE_HIGH`, `CONFIDENCE_MEDIUM`,
   * `CONFIDENCE_LOW`, or a newer value; absent when none is sent.
   */
  confidence?: string;
  /**
   * How serious its findings are: `SEVERITY_CRITICAL`, `SEVERITY_HIGH`, `SEVERITY_MEDIUM`,
   * `SEVERITY_LOW`, or a newer value; absent when none is sent.
   */
  severity?: string;
  /**
   * Where the rule comes from: `SOURCE_PRO` (Semgrep's Pro rules), `SOURCE_COMMUNITY` (Semgrep
   * Community rules), `SOURCE_CUSTOM` (the organization's own rules), or a newer value; absent
   * when none is sent.
   */
  source?: string;
  /** Languages the rule applies to, e.g. `["python"]`; empty when none are sent. */
  languages: string[];
  /** Technologies (frameworks, libraries) the rule concerns, e.g. `["django", "flask"]`; may be empty. */
  technologies: string[];
  /** CWE entries, each an identifier and its title, e.g. `["CWE-918: Server-Side Request Forgery (SSRF)"]`; may be empty. */
  cweCategories: string[];
  /** OWASP Top 10 categories, e.g. `["A07: Cross-Site Scripting (XSS)"]`; may be empty. */
  owaspCategories: string[];
  /**
   * Vulnerability classes, e.g. `["Improper Authentication"]`; may be empty. Always a list: a
   * single string from the service becomes a list of one.
   */
  vulnerabilityClass: string[];
  /** Rulesets the rule belongs to, e.g. `["default"]`; may be empty. */
  rulesets: string[];
  /** Who maintains the rule in the Semgrep Registry, e.g. `"semgrep"`; absent when it does not apply. */
  registryMaintainer?: string;
  /**
   * When the rule last changed, as the service writes it: `2024-07-29T22:33:37.380293Z` or
   * `2024-07-29 22:33:37.380293+00:00`; absent when none is sent.
   */
  lastChangeAt?: string;
  /** Username of who last changed the rule; present only for rules a user changed. */
  lastChangeBy?: string;
}

/** One scan as the scan search lists it. */
export interface ScanSummaryInfo {
  /** The scan's id, e.g. `50299`: what `getScan`'s `scanId` takes. */
  id: number;
  /** Numeric id of the deployment the scan belongs to. */
  deploymentId: number;
  /** Numeric id of the scanned repository (its project's id): what `getScans`' `repositoryId` takes. */
  repositoryId: number;
  /** The scanned branch as the service records it, e.g. `"refs/heads/main"` or `"main"`; absent when none is sent. */
  branch?: string;
  /** Hash of the scanned commit, e.g. `"6d3de02545f820febf2af9820568fa5f697d4087"`; absent when none is sent. */
  commit?: string;
  /**
   * When the scan started, as the service writes it: `2020-11-18 23:28:12.391807+00:00` or
   * `2020-11-18T23:28:12.391807Z`; absent when none is sent (e.g. a scan still pending).
   */
  startedAt?: string;
  /** When the scan completed, in the same forms as `startedAt`; absent while it runs and when it never finished. */
  completedAt?: string;
  /**
   * Products the scan ran, by the service's short names, e.g. `["secrets"]` (not the `PRODUCT_*`
   * values of `getScans`' `products`); empty when none are sent.
   */
  enabledProducts: string[];
  /**
   * Exit code of the Semgrep CLI (https://semgrep.dev/docs/cli-reference#exit-codes): 0 or 1 for a
   * scan that completed, another value for one that failed. 0 for a completed scan whose answer has
   * none (protobuf's JSON leaves a zero out); absent for a scan that has not completed.
   */
  exitCode?: number;
  /** Findings of the scan per product; a count the service leaves out is 0. */
  findingsCounts: {
    /** Code (SAST) findings. */
    code: number;
    /** Secrets findings. */
    secrets: number;
    /** Supply Chain (SCA) findings. */
    supplyChain: number;
    /** All findings of the scan. */
    total: number;
  };
  /** `true` for a full scan, `false` for a diff-aware scan (of a change only); `false` when the service leaves it out. */
  isFullScan?: boolean;
  /**
   * `SCAN_STATUS_PENDING` (queued), `SCAN_STATUS_RUNNING`, `SCAN_STATUS_COMPLETED` (exit code 0 or 1),
   * `SCAN_STATUS_ERROR` (any other exit code), `SCAN_STATUS_CANCELLED`, `SCAN_STATUS_NEVER_FINISHED`
   * (no result after over an hour), or a newer value; `SCAN_STATUS_UNSPECIFIED` when the service
   * leaves it out.
   */
  status: string;
  /** Duration of the scan in seconds, e.g. `17.32`; absent when none is sent (e.g. a scan not finished). */
  totalTime?: number;
}

/**
 * How and on what a scan ran, as the CI run reported it. Each field is absent where it does not
 * apply (no pull request for a scan of a push, no CI job for a scan run by hand) or the service
 * sends none.
 */
export interface ScanMetaInfo {
  /** What triggered the scan (the CI event), e.g. `"pull_request"`. */
  on?: string;
  /** The scanned branch, e.g. `"refs/heads/main"`. */
  branch?: string;
  /** Hash of the scanned commit, e.g. `"94c5be1312a9da03b7c4bfcc1c50b4379c83412"`. */
  commit?: string;
  /** The commit's message, e.g. `"fix(feature): Added XYZ component"`; an object sent in its place is given as its JSON text. */
  commitTitle?: string;
  /** The configuration the scan used (the service describes it as the path of its configuration file), e.g. `"r/python"`. */
  config?: string;
  /** Address of the scanned repository, e.g. `"https://github.com/semgrep/semgrep"`. */
  repoUrl?: string;
  /** Address of the CI job that ran the scan, e.g. `"https://github.com/semgrep/semgrep/actions/runs/12345"`. */
  ciJobUrl?: string;
  /** Organization and name of the scanned repository, e.g. `"semgrep/semgrep"`. */
  repository?: string;
  /** Number of the pull request the scan was of, as a string, e.g. `"12345"`. */
  pullRequestId?: string;
  /** The pull request's title; an object sent in its place is given as its JSON text. */
  pullRequestTitle?: string;
  /** Name of the commit's author, e.g. `"Sven Greppe"`. Personal data: a secret in `getScanOutput`. */
  commitAuthorName?: string;
  /** Username of the commit's author, e.g. `"SvenGreppe"`. Personal data: a secret in `getScanOutput`. */
  commitAuthorUsername?: string;
  /** Email address of the commit's author. Personal data: a secret in `getScanOutput`. */
  commitAuthorEmail?: string;
  /** Address of the commit author's avatar image. */
  commitAuthorImageUrl?: string;
  /** Username of the pull request's author, e.g. `"SvenGreppe"`. Personal data: a secret in `getScanOutput`. */
  pullRequestAuthorUsername?: string;
  /** Address of the pull request author's avatar image. */
  pullRequestAuthorImageUrl?: string;
}

/** The fields of a scan's meta that identify a person. */
export const PERSONAL_META_FIELDS = ["commitAuthorName", "commitAuthorUsername", "commitAuthorEmail", "pullRequestAuthorUsername"] as const;

/** One scan's details. */
export interface ScanInfo {
  /** The scan's id, e.g. `50299`. */
  id: number;
  /** Numeric id of the deployment the scan belongs to. */
  deploymentId: number;
  /** Numeric id of the scanned repository (its project's id), e.g. `1234567`. */
  repositoryId: number;
  /**
   * When the scan started, as the service writes it: `2023-11-18 23:28:12.391807+00:00` or
   * `2023-11-18T23:28:12.391807Z`; absent when none is sent (e.g. a scan still pending).
   */
  startedAt?: string;
  /** When the scan completed, in the same forms as `startedAt`; absent while it runs and when it never finished. */
  completedAt?: string;
  /** Products the scan ran, by the service's short names, e.g. `["secrets"]`; empty when none are sent. */
  enabledProducts: string[];
  /**
   * Exit code of the Semgrep CLI (https://semgrep.dev/docs/cli-reference#exit-codes): 0 or 1 for a
   * scan that completed, another value for one that failed. 0 for a completed scan whose answer has
   * none (protobuf's JSON leaves a zero out); absent for a scan that has not completed.
   */
  exitCode?: number;
  /** Whether the service holds the scan's logs; `false` when it leaves the field out. */
  hasLogs?: boolean;
  /** Statistics of the scan; both fields are absent when the answer has none. */
  stats: {
    /** Number of findings the scan reported, e.g. `5`; 0 when the statistics leave it out. */
    findings?: number;
    /** Duration of the scan in seconds, e.g. `100`; absent when not sent. */
    totalTime?: number;
  };
  /**
   * How and on what the scan ran: trigger, branch, commit, CI job, pull request, authors. Every
   * field is absent when the answer has no meta.
   */
  meta: ScanMetaInfo;
}

/**
 * A project as the project listing gives it: what {@link ProjectInfo} holds but the managed-scan
 * switches, which only a project's own read carries.
 */
export interface ListedProjectInfo {
  /**
   * The project's numeric id, e.g. `1234567`: the repository id that `getScans`' and
   * `getLockfiles`' `repositoryId` take.
   */
  id: number;
  /** The project's name, typically `"<organization>/<repository>"`, e.g. `"acme/web-app"`. */
  name: string;
  /**
   * Every tag of the project as the service reports it, e.g. `["team:payments"]`; empty when it has
   * none. System tags are included: `managed-scan` on a project with managed scans (`SYSTEM_TAGS`
   * lists them; the resources never write or compare them).
   */
  tags: string[];
  /**
   * When the project was created, as the service writes it: `2020-11-18 23:28:12.391807+00:00` or
   * `2020-11-18T23:28:12.391807Z`; absent when none is sent.
   */
  createdAt?: string;
  /** The repository's default branch in its source-code manager (a full ref), e.g. `"refs/heads/main"`; absent when not known. */
  defaultBranch?: string;
  /** The project's primary branch (a full ref), e.g. `"refs/heads/custom-main"`; absent when not known. */
  primaryBranch?: string;
  /** When the project was last scanned, in the same forms as `createdAt`; absent when it has never been scanned. */
  latestScanAt?: string;
  /** Address of the repository, e.g. `"https://github.com/acme/web-app"`; absent when there is none. */
  url?: string;
}

/** A project: a repository that Semgrep scans (what the listing gives, and its managed scans). */
export interface ProjectInfo extends ListedProjectInfo {
  /** Semgrep Managed Scans of the project (beta); a switch the service leaves out reads as off. */
  managedScanConfig: {
    /** Managed diff-aware scans, of each pull request's changes. */
    diffScan: {
      /** `true` when managed diff-aware scans are on. */
      enabled: boolean;
    };
    /** Managed weekly full scans. */
    fullScan: {
      /** `true` when managed weekly full scans are on. */
      enabled: boolean;
    };
  };
}

/** A repository in the dependency inventory. */
export interface RepositoryInfo {
  /** The repository's numeric id (its project's id), e.g. `101`: what `getLockfiles`' `repositoryId` takes. */
  id: number;
  /** The repository's name; `""` when the service sends none. */
  name: string;
  /** Dependencies of the repository, over all its lockfiles, that match `dependencyFilter` (all of them without one). */
  numDependencies: number;
  /**
   * `true` when the repository was scanned with dependency-path analysis, so the service holds its
   * dependency graph (the paths to transitive dependencies); `false` otherwise and when the service
   * leaves the field out.
   */
  hasDependencyPathScan: boolean;
}

/** A lockfile of a repository in the dependency inventory. */
export interface LockfileInfo {
  /** Path of the lockfile in the repository, e.g. `"foo/bar/package-lock.json"`. */
  lockfilePath: string;
  /** Dependencies in the lockfile that match `dependencyFilter` (all of them without one). */
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

/** A project of the listing, in the shape of {@link ListedProjectInfo}. */
export function listedProjectInfo(p: Project): ListedProjectInfo {
  const { managedScanConfig: _m, ...listed } = projectInfo(p);
  return listed;
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

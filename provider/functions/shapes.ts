/** The API's answers in the camelCase shapes the data-source functions return. */
import type { LockfileSummary, Policy, Project, RepositorySummary, Rule, ScanDetail, ScanSummary } from "../client";

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

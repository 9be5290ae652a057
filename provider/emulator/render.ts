/** Stored records → the wire shapes of Semgrep's OpenAPI, with the live service's quirks (numbers as strings, two timestamp forms). */
import type {
  StoredDetectionException,
  StoredDetectionPolicy,
  StoredPolicy,
  StoredProject,
  StoredRemediationPolicy,
  StoredRule,
  StoredScan,
} from "./model";

const HOUR = 3_600_000;

/**
 * The status follows the spec's state table: finished with exit code 0 or 1 → COMPLETED, with any
 * other → ERROR; unfinished for more than an hour → NEVER_FINISHED, else RUNNING. Pending and
 * cancelled scans are marked as such.
 */
export function scanStatus(scan: StoredScan, now: number): string {
  if (scan.status) return scan.status;
  if (scan.completedAt !== null) return scan.exitCode === 0 || scan.exitCode === 1 ? "SCAN_STATUS_COMPLETED" : "SCAN_STATUS_ERROR";
  return now - Date.parse(scan.startedAt) > HOUR ? "SCAN_STATUS_NEVER_FINISHED" : "SCAN_STATUS_RUNNING";
}

/** A scan in a search result: ids, exit code and counts are JSON strings on the live service. */
export function renderScanSummary(scan: StoredScan, now: number) {
  const { code, secrets, supply_chain } = scan.findings;
  return {
    id: String(scan.id),
    deployment_id: String(scan.deploymentId),
    repository_id: String(scan.repositoryId),
    branch: scan.branch,
    commit: scan.commit,
    started_at: scan.startedAt,
    ...(scan.completedAt ? { completed_at: scan.completedAt } : {}),
    enabled_products: scan.enabledProducts,
    ...(scan.exitCode !== null ? { exit_code: String(scan.exitCode) } : {}),
    findings_counts: {
      code: String(code),
      secrets: String(secrets),
      supply_chain: String(supply_chain),
      total: String(code + secrets + supply_chain),
    },
    is_full_scan: scan.isFullScan,
    status: scanStatus(scan, now),
    total_time: scan.totalTime,
  };
}

/** A scan's details: ids are JSON numbers here, and timestamps use the space-separated form. */
export function renderScanDetail(scan: StoredScan) {
  const { code, secrets, supply_chain } = scan.findings;
  return {
    id: scan.id,
    deployment_id: scan.deploymentId,
    repository_id: scan.repositoryId,
    started_at: spaced(scan.startedAt),
    ...(scan.completedAt ? { completed_at: spaced(scan.completedAt) } : {}),
    enabled_products: scan.enabledProducts,
    ...(scan.exitCode !== null ? { exit_code: scan.exitCode } : {}),
    has_logs: scan.hasLogs,
    stats: { findings: code + secrets + supply_chain, total_time: scan.totalTime },
    meta: scan.meta,
  };
}

/** `2026-05-31T10:00:00.000Z` → `2026-05-31 10:00:00.000000+00:00`, the other form the service sends. */
function spaced(isoString: string): string {
  return isoString.replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

export function renderProject(project: StoredProject) {
  return {
    id: project.id,
    name: project.name,
    tags: project.tags,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    ...(project.latestScanAt ? { latest_scan_at: project.latestScanAt } : {}),
    managed_scan_config: project.managedScanConfig,
    primary_branch: project.primaryBranch ?? project.defaultBranch,
    url: project.url,
  };
}

/** A project in the project list: the OpenAPI's `ListProject` has no `managed_scan_config`. */
export function renderListProject(project: StoredProject) {
  const { managed_scan_config: _m, ...rest } = renderProject(project);
  return rest;
}

export function renderPolicy(policy: StoredPolicy) {
  return { id: policy.id, name: policy.name, slug: policy.slug, isDefault: policy.isDefault, productType: policy.productType };
}

/** A rule as listed: `vulnerabilityClass` is a list; `hasValidators` and `secretType` are not shown. */
export function renderRule(rule: StoredRule, baseUrl: string) {
  const { hasValidators: _h, secretType: _s, lastChangeBy, ...rest } = rule;
  return { ...rest, url: ruleUrl(rule, baseUrl), ...(lastChangeBy ? { lastChangeBy } : {}) };
}

function ruleUrl(rule: StoredRule, baseUrl: string): string {
  return `${baseUrl}/r/${rule.path}`;
}

/** A Policies V2 exception as the OpenAPI writes it (snake_case): `project` or `project_tag_name`, never both. */
export function renderDetectionException(e: StoredDetectionException) {
  return {
    exception_type: e.exceptionType,
    ...(e.project !== undefined ? { project: e.project } : { project_tag_name: e.projectTagName ?? "" }),
    rule: e.rule,
    rule_type: e.ruleType,
  };
}

/** A detection policy bundle (`DetectionPolicyBundle`) of the deployment `deploymentSlug`. */
export function renderDetectionBundle(policy: StoredDetectionPolicy, deploymentSlug: string) {
  return {
    deployment_slug: deploymentSlug,
    product: policy.product,
    rulesets: policy.rulesets,
    rules: policy.rules,
    disabled: policy.disabled,
    exceptions: policy.exceptions.map(renderDetectionException),
  };
}

/** A remediation policy (`RemediationPolicy`); whether it is system-managed is not shown. */
export function renderRemediationPolicy(policy: StoredRemediationPolicy) {
  return {
    slug: policy.slug,
    name: policy.name,
    description: policy.description,
    active: policy.active,
    filters: {
      mode: policy.filters.mode,
      conditions: policy.filters.conditions.map((c) => ({ type: c.type, values: c.values, mode: c.mode })),
    },
    actions: policy.actions.map((a) => ({ type: a.type, config: a.config })),
  };
}

/**
 * Fields the OpenAPI marks required in the answers the emulator gives (`Project`, `ListProject`,
 * `Deployment`, the project envelopes and lists, the SBOM and dependency answers, and the Policies
 * V2 exceptions, remediation policies, filters, conditions and actions), kept by
 * {@link withoutEmptyFields} even when empty. Listed by name rather than read from the OpenAPI,
 * which the emulator does not ship; the names that also occur as optional fields elsewhere
 * (`id`, `name`, `status`) never hold an empty value there.
 */
const REQUIRED_FIELDS = new Set([
  "id",
  "name",
  "tags",
  "slug",
  "project",
  "projects",
  "taskToken",
  "status",
  "hasMore",
  "repositorySummaries",
  "lockfileSummaries",
  "exception_type",
  "rule",
  "rule_type",
  "filters",
  "actions",
  "mode",
  "type",
  "values",
]);

/** Protobuf map fields (`map<string, string>`): left out when empty, like a list. */
const MAP_FIELDS = new Set(["config", "context"]);

/**
 * Enum fields whose value is the enum's zero value, which protobuf's JSON mapping leaves out like
 * any default. `policyMode` has no UNSPECIFIED value in the OpenAPI; its first, `MODE_MONITOR`,
 * is the zero value.
 */
const ZERO_ENUM_VALUES: Readonly<Record<string, string>> = { policyMode: "MODE_MONITOR", triagePermission: "TRIAGE_PERMISSION_IGNORE" };

/**
 * An answer as protobuf's JSON mapping writes it by default (the emulator's `--omit-empty`):
 * fields whose value is false, 0 (also an int64 written as the string "0"), "", an empty list or
 * map, null or an enum's zero value are left out, at every depth, except the required ones.
 */
export function withoutEmptyFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyFields);
  if (value === null || typeof value !== "object") return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const empty =
      field === false ||
      field === 0 ||
      field === "0" ||
      field === "" ||
      field === null ||
      (Array.isArray(field) && field.length === 0) ||
      (MAP_FIELDS.has(key) && typeof field === "object" && field !== null && Object.keys(field).length === 0) ||
      ZERO_ENUM_VALUES[key] === field;
    if (!empty || REQUIRED_FIELDS.has(key)) kept[key] = withoutEmptyFields(field);
  }
  return kept;
}

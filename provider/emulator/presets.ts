/**
 * Deterministic sample data: the same preset always gives the same ids, names, rules and scans.
 * `demo` is small and realistic; `large` has the same shape at benchmark scale.
 */
import type { Ecosystem, LicensePolicySetting, Transitivity } from "../client/schemas/enums";
import { MANAGED_SCAN_TAG } from "../client/schemas/projects";
import type {
  EmulatorState,
  PresetName,
  StoredDependency,
  StoredLockfile,
  StoredPolicy,
  StoredProject,
  StoredRepository,
  StoredRule,
  StoredScan,
  StoredTeam,
  StoredUser,
} from "./model";
import { teamSlug } from "./teams";
import { storedDetection, storedRemediation } from "./policies-v2";
import { defaultProductConfig } from "./products";
import { seededRandom as prng } from "./random";

interface PresetSize {
  extraProjects: number;
  sastRules: number;
  secretsRules: number;
  scans: number;
  dependencyRepositories: number;
  /** Archived repositories with dependencies, besides those of the projects (see StoredRepository.archived). */
  archivedRepositories: number;
  /** The deployment's users (the demo's six first). */
  users: number;
}

const SIZES: Record<PresetName, PresetSize> = {
  demo: { extraProjects: 11, sastRules: 320, secretsRules: 60, scans: 300, dependencyRepositories: 14, archivedRepositories: 2, users: 6 },
  large: {
    extraProjects: 297,
    sastRules: 5000,
    secretsRules: 400,
    scans: 2000,
    dependencyRepositories: 300,
    archivedRepositories: 10,
    users: 2000,
  },
};

export const DEMO_DEPLOYMENT = { id: 1, slug: "acme", name: "Acme Corp" } as const;
export const SAST_POLICY_ID = "10";
export const SECRETS_POLICY_ID = "11";
export const STRICT_POLICY_ID = "12";

/** Fixed clock of the preset data, so the data does not depend on when it was made. */
const EPOCH = Date.parse("2026-06-01T00:00:00Z");
const HOUR = 3_600_000;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
const iso = (ms: number): string => new Date(ms).toISOString();
const hex = (random: Random, length: number): string => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");

/** Builds a preset. `now` places the few still-running scans within the last hour. */
export function buildPreset(name: PresetName, now = Date.now()): EmulatorState {
  const size = SIZES[name];
  const random = prng(name === "demo" ? 1 : 2);
  const projects = buildProjects(random, size.extraProjects);
  const policies = [
    policy(
      SAST_POLICY_ID,
      "Default SAST Policy",
      "default-sast-policy",
      true,
      "PRODUCT_TYPE_SAST",
      sastRules(random, size.sastRules, 100_000),
    ),
    policy(
      SECRETS_POLICY_ID,
      "Default Secrets Policy",
      "default-secrets-policy",
      true,
      "PRODUCT_TYPE_SECRETS",
      secretsRules(random, size.secretsRules, 200_000),
    ),
    policy(STRICT_POLICY_ID, "Strict SAST (pilot)", "strict-sast-pilot", false, "PRODUCT_TYPE_SAST", sastRules(prng(7), 40, 300_000)),
  ];
  const scans = buildScans(random, projects, size.scans, now);
  for (const project of projects) {
    const latest = scans.find((s) => s.repositoryId === project.id);
    project.latestScanAt = latest ? latest.startedAt : null;
  }
  // Dependency traits and archived repositories draw from streams of their own: the projects'
  // repositories keep the lockfiles and dependencies (and counts) they had before either existed.
  const traits = prng(name === "demo" ? 3 : 4);
  const repositories = [
    ...buildRepositories(random, traits, projects.slice(0, size.dependencyRepositories)),
    ...buildRepositories(prng(name === "demo" ? 5 : 6), traits, archivedRepositories(size.archivedRepositories)),
  ];
  return {
    deployments: [{ ...DEMO_DEPLOYMENT }],
    projects,
    policies,
    scans,
    repositories,
    sbomExports: [],
    ...buildPoliciesV2(name, policies),
    users: buildUsers(size.users),
    ...buildAccessSettings(),
    teams: buildTeams(name, projects),
  };
}

/** The webhook the presets' notification rule posts to: its path carries a token, as real webhook URLs do. */
export const PRESET_WEBHOOK_URL = "https://hooks.acme.example/semgrep/T0KEN-critical-9f2c";

/**
 * The deployment's product configuration and notification rule: SAST, SCA and Secrets on, with
 * developers allowed to request ignores of code findings only; SCA blocks PRs, comments on them
 * and runs the malware firewall; AI is on without legacy OpenAI code sharing; and one webhook for
 * the findings of the critical-findings remediation policy.
 */
function buildAccessSettings(): Pick<EmulatorState, "productConfigs" | "notificationRules"> {
  const config = defaultProductConfig(DEMO_DEPLOYMENT.id);
  config.sast = { ...config.sast, enabled: true, human_autofix_enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST" };
  config.sast.ai_autofix = { enabled: true, min_confidence: 0.8 };
  config.sca = {
    ...config.sca,
    enabled: true,
    blockPrEnabled: true,
    prCommentsEnabled: true,
    maliciousDependencyAdvisoriesEnabled: true,
    malwareFirewallEnabled: true,
    triagePermission: "TRIAGE_PERMISSION_REQUEST",
  };
  config.secrets = { ...config.secrets, enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE", historical_scan: { enabled: true } };
  config.ai = { ...config.ai, enabled: true, legacy_allow_openai_code_sharing: false, allowed_providers: ["anthropic"] };
  config.hasDeveloperTriage = true;
  config.approversTag = "appsec-approvers";
  return {
    productConfigs: [config],
    notificationRules: [
      {
        id: 5001,
        deploymentId: DEMO_DEPLOYMENT.id,
        name: "Critical findings to the SOC",
        channel: "CHANNEL_WEBHOOK",
        config: { url: PRESET_WEBHOOK_URL },
        isEnabled: true,
        policySlugs: ["block-critical-high-confidence"],
        useNetworkBroker: false,
        sendScanCompletion: false,
      },
    ],
  };
}

/**
 * The deployment's teams. `demo`: `appsec` (the AppSec side: Alice, its manager, and Bob) with
 * two projects, and `payments` (Carol, its manager, and Dan) with the projects tagged `pci`.
 * `large`: 200 teams (`team-001`...) of 50 members each, drawn in turn from the users "101"
 * onwards, each with three projects.
 */
function buildTeams(name: PresetName, projects: StoredProject[]): StoredTeam[] {
  const team = (id: number, teamName: string, members: StoredTeam["members"], repositoryIds: number[]): StoredTeam => ({
    id,
    deploymentId: DEMO_DEPLOYMENT.id,
    name: teamName,
    slug: teamSlug(teamName),
    parentTeamId: null,
    members,
    repositoryIds,
  });
  const idOf = (projectName: string) => projects.find((p) => p.name === projectName)!.id;
  if (name === "demo")
    return [
      team(
        201,
        "appsec",
        [
          { userId: "101", role: "TEAM_ROLE_MANAGER" },
          { userId: "102", role: "TEAM_ROLE_MEMBER" },
        ],
        [idOf("acme/web-app"), idOf("acme/payments-api")],
      ),
      team(
        202,
        "payments",
        [
          { userId: "103", role: "TEAM_ROLE_MANAGER" },
          { userId: "104", role: "TEAM_ROLE_MEMBER" },
        ],
        projects.filter((p) => p.tags.includes("pci")).map((p) => p.id),
      ),
    ];
  const users = SIZES.large.users;
  return Array.from({ length: 200 }, (_, i) =>
    team(
      201 + i,
      `team-${String(i + 1).padStart(3, "0")}`,
      Array.from({ length: 50 }, (_, j) => ({
        userId: String(101 + ((i * 50 + j) % users)),
        role: j === 0 ? ("TEAM_ROLE_MANAGER" as const) : ("TEAM_ROLE_MEMBER" as const),
      })),
      [0, 1, 2].map((k) => projects[(i * 3 + k) % projects.length]!.id),
    ),
  );
}

/** The id of the user every emulator token belongs to: the demo's first org admin. */
export const TOKEN_USER_ID = "101";

const DEMO_USERS: Array<Pick<StoredUser, "name" | "login" | "orgRole">> = [
  { name: "Alice Admin", login: "alice", orgRole: "ORG_ROLE_ADMIN" },
  { name: "Bob Security", login: "bob", orgRole: "ORG_ROLE_ADMIN" },
  { name: "Carol Payments", login: "carol", orgRole: "ORG_ROLE_MEMBER" },
  { name: "Dan Developer", login: "dan", orgRole: "ORG_ROLE_MEMBER" },
  { name: "Erin Auditor", login: "erin", orgRole: "ORG_ROLE_READONLY" },
  { name: "Frank Contractor", login: "frank", orgRole: "ORG_ROLE_MEMBER" },
];

/**
 * The deployment's users, ids from "101": the demo's six (two org admins, three members, one
 * read-only auditor), then `user-<n>` members up to `count` (`large`: 2,000).
 */
function buildUsers(count: number): StoredUser[] {
  return Array.from({ length: Math.max(count, DEMO_USERS.length) }, (_, i) => {
    const { name, login, orgRole } = DEMO_USERS[i] ?? { name: `User ${i + 1}`, login: `user-${i + 1}`, orgRole: "ORG_ROLE_MEMBER" };
    return { id: String(101 + i), deploymentId: DEMO_DEPLOYMENT.id, name, login, email: `${login}@acme.example`, orgRole, active: true };
  });
}

/**
 * The deployment's unified policies (Policies V2), written as the API's bundles. The code bundle
 * selects two rulesets, adds two rules and turns a few off (`large`: 5,000, every rule of the SAST
 * policy), with exceptions for a project and for project tags (one with a space in its name); the
 * secrets bundle has no rulesets; four remediation policies (one inactive) and one system-managed
 * policy, which the bundle never shows.
 */
function buildPoliciesV2(name: PresetName, policies: StoredPolicy[]): Pick<EmulatorState, "detectionPolicies" | "remediationPolicies"> {
  const id = DEMO_DEPLOYMENT.id;
  const sast = policies.find((p) => p.id === SAST_POLICY_ID)!.rules.map((r) => r.path);
  const secrets = policies.find((p) => p.id === SECRETS_POLICY_ID)!.rules.map((r) => r.path);
  const code = storedDetection(id, "code", {
    rulesets: ["p/default", "p/owasp-top-ten"],
    rules: ["acme.no-hardcoded-internal-urls", "go.lang.security.audit.net.use-tls.use-tls"],
    disabled:
      name === "large"
        ? sast
        : [
            "python.lang.best-practice.open-never-closed.open-never-closed",
            "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
            "javascript.browser.security.insecure-document-method.insecure-document-method",
          ],
    exceptions: [
      { exception_type: "exclude", project: "acme/docs-site", rule: "p/owasp-top-ten", rule_type: "pack" },
      {
        exception_type: "exclude",
        project: "acme/payments-api",
        rule: "python.flask.security.audit.debug-enabled.debug-enabled",
        rule_type: "rule",
      },
      { exception_type: "include", project_tag_name: "pci", rule: "p/security-audit", rule_type: "pack" },
      {
        exception_type: "exclude",
        project_tag_name: "legacy systems",
        rule: "python.lang.security.audit.exec-detected.exec-detected",
        rule_type: "rule",
      },
    ],
  });
  const secretsBundle = storedDetection(id, "secrets", {
    rules: [],
    disabled: secrets.slice(0, 2),
    exceptions: [{ exception_type: "exclude", project: "acme/docs-site", rule: secrets[2]!, rule_type: "rule" }],
  });
  const remediation = storedRemediation(id, {
    policies: [
      {
        slug: "block-critical-high-confidence",
        name: "Block critical, high-confidence findings in PRs",
        description: "Critical findings of high-confidence rules fail the pull request, with a comment saying why.",
        active: true,
        filters: {
          mode: "all",
          conditions: [
            { type: "severity", values: ["critical"] },
            { type: "confidence", values: ["high"] },
          ],
        },
        actions: [{ type: "pr_comment" }, { type: "block" }],
      },
      {
        slug: "comment-high-severity",
        name: "Comment on high-severity findings",
        filters: { mode: "any", conditions: [{ type: "severity", values: ["high", "critical"], mode: "any" }] },
        actions: [{ type: "pr_comment" }],
      },
      {
        slug: "secrets-to-slack",
        name: "Secrets to #appsec-alerts",
        filters: { mode: "all", conditions: [{ type: "product", values: ["secrets"] }] },
        actions: [{ type: "slack_app", config: { channel: "#appsec-alerts" } }],
      },
      {
        slug: "pci-findings-to-jira",
        name: "PCI findings to Jira",
        description: "Tickets for code findings in PCI-scoped projects (paused during the Jira migration).",
        active: false,
        filters: {
          mode: "all",
          conditions: [
            { type: "repository_tag", values: ["pci"] },
            { type: "product", values: ["secrets"], mode: "none" },
          ],
        },
        actions: [{ type: "jira", config: { project_id: "SEC", credential_slug: "acme-jira" } }],
      },
    ],
  });
  const system = storedRemediation(
    id,
    {
      policies: [
        {
          slug: SYSTEM_REMEDIATION_SLUG,
          name: "Semgrep Assistant auto-triage",
          description: "Managed by Semgrep.",
          filters: { mode: "all", conditions: [{ type: "confidence", values: ["low"] }] },
          actions: [{ type: "triage", config: { state: "ignored" } }],
        },
      ],
    },
    true,
  );
  return { detectionPolicies: [code, secretsBundle], remediationPolicies: [...remediation, ...system] };
}

/** The slug of the presets' system-managed remediation policy: reserved, never in the bundle. */
export const SYSTEM_REMEDIATION_SLUG = "semgrep-assistant-autotriage";

const NAMED_PROJECTS: Array<Pick<StoredProject, "name" | "tags" | "defaultBranch"> & { diff: boolean; full: boolean }> = [
  { name: "acme/web-app", tags: ["team:web", "tier:1"], defaultBranch: "refs/heads/main", diff: true, full: true },
  { name: "acme/payments-api", tags: ["team:payments", "pci", "tier:0"], defaultBranch: "refs/heads/main", diff: true, full: false },
  { name: "acme/mobile-app", tags: [], defaultBranch: "refs/heads/develop", diff: false, full: false },
];
const EXTRA_NAMES = [
  "infra",
  "docs-site",
  "data-pipeline",
  "auth-service",
  "admin-portal",
  "search",
  "billing",
  "notifications",
  "gateway",
  "ml-platform",
  "design-system",
];
const TEAMS = ["web", "platform", "data", "identity", "growth", "mobile"];

const scanned = (project: StoredProject) => project.managedScanConfig.diff_scan.enabled || project.managedScanConfig.full_scan.enabled;

/**
 * The projects of a preset. Every project with managed scans carries the system tag
 * `managed-scan` from the start, as on the service (which adds it when a project's managed scans
 * are switched on, and the emulator does too: provider/emulator/api.ts).
 */
function buildProjects(random: Random, extra: number): StoredProject[] {
  const projects: StoredProject[] = [];
  const add = (name: string, tags: string[], defaultBranch: string, diff: boolean, full: boolean) => {
    const id = 101 + projects.length;
    projects.push({
      id,
      deploymentId: DEMO_DEPLOYMENT.id,
      name,
      tags,
      createdAt: iso(EPOCH - (400 - projects.length) * 24 * HOUR),
      defaultBranch,
      primaryBranch: defaultBranch,
      latestScanAt: null,
      managedScanConfig: { diff_scan: { enabled: diff }, full_scan: { enabled: full } },
      url: `https://github.com/${name}`,
    });
  };
  for (const p of NAMED_PROJECTS) add(p.name, [...p.tags], p.defaultBranch, p.diff, p.full);
  for (let i = 0; i < extra; i++) {
    const base = EXTRA_NAMES[i % EXTRA_NAMES.length] as string;
    const name = i < EXTRA_NAMES.length ? `acme/${base}` : `acme/${base}-${Math.floor(i / EXTRA_NAMES.length) + 1}`;
    const tags = random() < 0.6 ? [`team:${pick(random, TEAMS)}`] : [];
    add(name, tags, random() < 0.85 ? "refs/heads/main" : "refs/heads/master", random() < 0.5, random() < 0.3);
  }
  for (const project of projects) if (scanned(project)) project.tags.push(MANAGED_SCAN_TAG);
  return projects;
}

function policy(id: string, name: string, slug: string, isDefault: boolean, productType: string, rules: StoredRule[]): StoredPolicy {
  return { id, deploymentId: DEMO_DEPLOYMENT.id, name, slug, isDefault, productType, rules };
}

/** Real registry rules first, so examples can name them; generated ones follow. */
const KNOWN_SAST_RULES: Array<[string, string, string, string[]]> = [
  ["python.lang.security.audit.eval-detected.eval-detected", "SEVERITY_HIGH", "security", ["python"]],
  ["python.lang.security.audit.exec-detected.exec-detected", "SEVERITY_HIGH", "security", ["python"]],
  ["python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw", "SEVERITY_CRITICAL", "security", ["python"]],
  ["python.flask.security.audit.debug-enabled.debug-enabled", "SEVERITY_MEDIUM", "security", ["python"]],
  [
    "javascript.express.security.audit.xss.direct-response-write.direct-response-write",
    "SEVERITY_HIGH",
    "security",
    ["javascript", "typescript"],
  ],
  ["javascript.lang.security.audit.code-string-concat.code-string-concat", "SEVERITY_HIGH", "security", ["javascript"]],
  ["javascript.browser.security.insecure-document-method.insecure-document-method", "SEVERITY_MEDIUM", "security", ["javascript"]],
  [
    "typescript.react.security.audit.react-dangerouslysetinnerhtml.react-dangerouslysetinnerhtml",
    "SEVERITY_MEDIUM",
    "security",
    ["typescript"],
  ],
  ["java.lang.security.audit.formatted-sql-string.formatted-sql-string", "SEVERITY_HIGH", "security", ["java"]],
  ["java.spring.security.audit.spring-csrf-disabled.spring-csrf-disabled", "SEVERITY_MEDIUM", "security", ["java"]],
  ["go.lang.security.audit.net.use-tls.use-tls", "SEVERITY_MEDIUM", "security", ["go"]],
  ["go.lang.security.injection.tainted-sql-string.tainted-sql-string", "SEVERITY_HIGH", "security", ["go"]],
  ["ruby.rails.security.audit.xss.avoid-raw.avoid-raw", "SEVERITY_MEDIUM", "security", ["ruby"]],
  ["python.lang.best-practice.open-never-closed.open-never-closed", "SEVERITY_LOW", "best-practice", ["python"]],
  ["javascript.lang.best-practice.assigned-undefined.assigned-undefined", "SEVERITY_LOW", "best-practice", ["javascript"]],
];
const LANGUAGES: Array<[string, string[]]> = [
  ["python", ["lang", "django", "flask", "fastapi"]],
  ["javascript", ["lang", "express", "browser", "sequelize"]],
  ["typescript", ["lang", "react", "angular", "nestjs"]],
  ["java", ["lang", "spring", "servlets", "jax-rs"]],
  ["go", ["lang", "gorm", "grpc", "net"]],
  ["ruby", ["lang", "rails", "sinatra"]],
  ["php", ["lang", "laravel", "symfony"]],
  ["csharp", ["lang", "dotnet", "razor"]],
  ["kotlin", ["lang", "ktor"]],
  ["rust", ["lang", "actix"]],
];
const SUBCATEGORIES = ["audit", "injection", "crypto", "xss", "ssrf", "deserialization", "path-traversal", "auth", "secrets", "xxe"];
const WORDS = [
  "unsafe",
  "tainted",
  "insecure",
  "weak",
  "missing",
  "hardcoded",
  "dynamic",
  "unvalidated",
  "raw",
  "open",
  "exposed",
  "default",
];
const NOUNS = [
  "query",
  "hash",
  "cookie",
  "redirect",
  "template",
  "cipher",
  "random",
  "header",
  "regex",
  "upload",
  "session",
  "command",
  "url",
  "pickle",
  "yaml-load",
];
const CWE = [
  "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
  "CWE-79: Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
  "CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code ('Eval Injection')",
  "CWE-327: Use of a Broken or Risky Cryptographic Algorithm",
  "CWE-918: Server-Side Request Forgery (SSRF)",
  "CWE-502: Deserialization of Untrusted Data",
  "CWE-22: Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
];
const OWASP = [
  "A03:2021 - Injection",
  "A02:2021 - Cryptographic Failures",
  "A10:2021 - Server-Side Request Forgery (SSRF)",
  "A01:2021 - Broken Access Control",
  "A08:2021 - Software and Data Integrity Failures",
];
const VULN_CLASSES = [
  "SQL Injection",
  "Cross-Site-Scripting (XSS)",
  "Code Injection",
  "Cryptographic Issues",
  "Server-Side Request Forgery (SSRF)",
  "Insecure Deserialization ",
  "Path Traversal",
];
const MODES = ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"];
const CONFIDENCE_LEVELS = ["CONFIDENCE_LOW", "CONFIDENCE_MEDIUM", "CONFIDENCE_HIGH"];
const SEVERITY_LEVELS = ["SEVERITY_LOW", "SEVERITY_MEDIUM", "SEVERITY_HIGH", "SEVERITY_CRITICAL"];

function baseRule(random: Random, id: number, path: string): StoredRule {
  const category = "security";
  return {
    id: String(id),
    path,
    category,
    confidence: pick(random, CONFIDENCE_LEVELS),
    severity: pick(random, SEVERITY_LEVELS),
    source: "SOURCE_COMMUNITY",
    policyMode: pick(random, MODES),
    languages: [],
    technologies: [],
    cweCategories: [],
    owaspCategories: [],
    vulnerabilityClass: [],
    rulesets: [],
    registryMaintainer: "Semgrep",
    lastChangeAt: iso(EPOCH - int(random, 1, 300) * 24 * HOUR),
    hasValidators: false,
    secretType: "",
  };
}

function sastRules(random: Random, count: number, firstId: number): StoredRule[] {
  const rules: StoredRule[] = [];
  const used = new Set<string>();
  const push = (rule: StoredRule) => {
    used.add(rule.path);
    rules.push(rule);
  };
  for (const [path, severity, category, languages] of KNOWN_SAST_RULES) {
    if (rules.length >= count) break;
    const rule = baseRule(random, firstId + rules.length, path);
    Object.assign(rule, { severity, category, languages, confidence: "CONFIDENCE_HIGH", technologies: [path.split(".")[1] as string] });
    if (category === "security") decorateSecurity(random, rule);
    push(rule);
  }
  if (rules.length < count) {
    const custom = baseRule(random, firstId + rules.length, "acme.no-hardcoded-internal-urls");
    Object.assign(custom, {
      source: "SOURCE_CUSTOM",
      category: "best-practice",
      registryMaintainer: "acme",
      languages: ["generic"],
      lastChangeBy: "security-team@acme.example",
    });
    push(custom);
  }
  while (rules.length < count) {
    const [language, frameworks] = pick(random, LANGUAGES);
    const framework = pick(random, frameworks);
    const category = random() < 0.8 ? "security" : pick(random, ["best-practice", "correctness", "performance", "maintainability"]);
    const name = `${pick(random, WORDS)}-${pick(random, NOUNS)}`;
    let path = `${language}.${framework}.${category}.${pick(random, SUBCATEGORIES)}.${name}.${name}`;
    for (let n = 2; used.has(path); n++)
      path = `${language}.${framework}.${category}.${pick(random, SUBCATEGORIES)}.${name}-${n}.${name}-${n}`;
    const rule = baseRule(random, firstId + rules.length, path);
    rule.category = category;
    rule.languages = [language];
    rule.technologies = framework === "lang" ? [] : [framework];
    rule.source = random() < 0.35 ? "SOURCE_PRO" : "SOURCE_COMMUNITY";
    if (category === "security") decorateSecurity(random, rule);
    else rule.severity = pick(random, ["SEVERITY_LOW", "SEVERITY_MEDIUM"]);
    if (random() < 0.05) rule.lastChangeBy = "appsec@acme.example";
    push(rule);
  }
  return rules;
}

function decorateSecurity(random: Random, rule: StoredRule): void {
  rule.cweCategories = [pick(random, CWE)];
  rule.owaspCategories = random() < 0.8 ? [pick(random, OWASP)] : [];
  rule.vulnerabilityClass = [pick(random, VULN_CLASSES)];
  rule.rulesets = random() < 0.5 ? ["default", `${rule.languages[0] ?? "generic"}`] : ["default"];
}

const KNOWN_SECRET_TYPES = ["AWS", "GitHub", "Slack", "Stripe", "Google Cloud", "Twilio", "SendGrid", "npm", "PyPI", "Datadog"];

function secretsRules(random: Random, count: number, firstId: number): StoredRule[] {
  const rules: StoredRule[] = [];
  const used = new Set<string>();
  while (rules.length < count) {
    const type = pick(random, KNOWN_SECRET_TYPES);
    const slug = type.toLowerCase().replace(/\s+/g, "-");
    const kind = pick(random, ["access-key", "api-token", "webhook", "oauth-secret", "private-key", "pat"]);
    let name = `detected-${slug}-${kind}`;
    for (let n = 2; used.has(name); n++) name = `detected-${slug}-${kind}-${n}`;
    used.add(name);
    const rule = baseRule(random, firstId + rules.length, `generic.secrets.security.${name}.${name}`);
    Object.assign(rule, {
      category: "security",
      source: "SOURCE_PRO",
      languages: ["regex"],
      severity: pick(random, ["SEVERITY_HIGH", "SEVERITY_CRITICAL"]),
      cweCategories: ["CWE-798: Use of Hard-coded Credentials"],
      owaspCategories: ["A07:2021 - Identification and Authentication Failures"],
      vulnerabilityClass: ["Hard-coded Secrets"],
      hasValidators: random() < 0.6,
      secretType: type,
    });
    rules.push(rule);
  }
  return rules;
}

const BRANCHES = ["refs/heads/main", "refs/heads/develop", "refs/heads/feature/login", "refs/heads/release/2026.06", "refs/pull/42/merge"];
const AUTHORS = [
  ["Ada Lovelace", "ada", "ada@acme.example"],
  ["Grace Hopper", "grace", "grace@acme.example"],
  ["Alan Turing", "alan", "alan@acme.example"],
  ["Katherine Johnson", "kjohnson", "katherine@acme.example"],
];

function buildScans(random: Random, projects: StoredProject[], count: number, now: number): StoredScan[] {
  const scans: StoredScan[] = [];
  for (let i = 0; i < count; i++) {
    const id = 50_000 + i;
    const project = projects[i % Math.min(projects.length, 40)] as StoredProject;
    const branch = random() < 0.5 ? project.defaultBranch : pick(random, BRANCHES);
    const isFullScan = branch === project.defaultBranch && random() < 0.7;
    // Newest scans have the highest ids; the first few are still running, the newest one queued.
    const startedAt = i >= count - 3 ? now - (count - i) * 60_000 : EPOCH - (count - i) * 2 * HOUR;
    const roll = random();
    let completedAt: number | null;
    let exitCode: number | null;
    if (i >= count - 3) [completedAt, exitCode] = [null, null];
    else if (roll < 0.05)
      [completedAt, exitCode] = [null, null]; // never finished
    else if (roll < 0.15) [completedAt, exitCode] = [startedAt + int(random, 30, 900) * 1000, pick(random, [2, 3, 4, 7, 123])];
    else [completedAt, exitCode] = [startedAt + int(random, 20, 1200) * 1000, random() < 0.6 ? 1 : 0];
    const products = ["sast", ...(random() < 0.6 ? ["secrets"] : []), ...(random() < 0.5 ? ["sca"] : [])];
    const findings = {
      code: exitCode === 1 ? int(random, 1, 40) : 0,
      secrets: products.includes("secrets") && exitCode === 1 ? int(random, 0, 3) : 0,
      supply_chain: products.includes("sca") && exitCode === 1 ? int(random, 0, 12) : 0,
    };
    const [authorName, username, email] = pick(random, AUTHORS) as [string, string, string];
    const commit = hex(random, 40);
    const pullRequest = branch.startsWith("refs/pull/") ? 42 : undefined;
    scans.push({
      id,
      deploymentId: DEMO_DEPLOYMENT.id,
      repositoryId: project.id,
      repository: project.name,
      branch,
      commit,
      startedAt: iso(startedAt),
      completedAt: completedAt === null ? null : iso(completedAt),
      enabledProducts: products,
      exitCode,
      findings,
      isFullScan,
      totalTime: completedAt === null ? 0 : (completedAt - startedAt) / 1000,
      hasLogs: completedAt !== null,
      meta: {
        on: pullRequest ? "pull_request" : "push",
        branch,
        commit,
        commit_title: pick(random, ["Fix login redirect", "Bump dependencies", "Add payment retries", "Refactor session store"]),
        config: "p/default",
        repo_url: project.url,
        ci_job_url: `https://ci.acme.example/jobs/${id}`,
        repository: project.name,
        ...(pullRequest
          ? {
              pull_request_id: String(pullRequest),
              pull_request_title: "Login flow",
              pull_request_author_username: username,
              pull_request_author_image_url: `https://avatars.acme.example/${username}`,
            }
          : {}),
        commit_author_name: authorName,
        commit_author_username: username,
        commit_author_email: email,
        commit_author_image_url: `https://avatars.acme.example/${username}`,
      },
    });
  }
  // The newest scan is still queued; the two oldest that never finished were cancelled instead.
  const newest = scans[scans.length - 1];
  if (newest) newest.status = "SCAN_STATUS_PENDING";
  for (const scan of scans.filter((s) => s.completedAt === null && s !== newest).slice(0, 2)) {
    if (Date.parse(scan.startedAt) < EPOCH) scan.status = "SCAN_STATUS_CANCELLED";
  }
  // Newest first, as the service lists them.
  return scans.reverse();
}

const PACKAGES: Array<[string, string[], string, Ecosystem]> = [
  ["lodash", ["4.17.20", "4.17.21"], "MIT", "npm"],
  ["express", ["4.18.2", "4.19.2", "5.1.0"], "MIT", "npm"],
  ["react", ["18.2.0", "18.3.1", "19.1.0"], "MIT", "npm"],
  ["axios", ["0.27.2", "1.6.8", "1.7.9"], "MIT", "npm"],
  ["jsonwebtoken", ["8.5.1", "9.0.2"], "MIT", "npm"],
  ["requests", ["2.28.2", "2.31.0", "2.32.3"], "Apache-2.0", "pypi"],
  ["django", ["3.2.25", "4.2.16", "5.1.4"], "BSD-3-Clause", "pypi"],
  ["flask", ["2.2.5", "3.0.3"], "BSD-3-Clause", "pypi"],
  ["pyyaml", ["5.4.1", "6.0.2"], "MIT", "pypi"],
  ["log4j-core", ["2.14.1", "2.17.1", "2.24.3"], "Apache-2.0", "maven"],
  ["spring-core", ["5.3.39", "6.1.14"], "Apache-2.0", "maven"],
  ["golang.org/x/net", ["0.17.0", "0.33.0"], "BSD-3-Clause", "gomod"],
  ["github.com/gin-gonic/gin", ["1.9.1", "1.10.0"], "MIT", "gomod"],
  ["rails", ["6.1.7", "7.1.5"], "MIT", "gem"],
  ["nokogiri", ["1.15.5", "1.16.8"], "MIT", "gem"],
  ["openssl", ["0.10.55", "0.10.68"], "Apache-2.0", "cargo"],
  ["serde", ["1.0.197", "1.0.215"], "MIT", "cargo"],
  ["minimist", ["1.2.5", "1.2.8"], "MIT", "npm"],
  ["moment", ["2.29.1", "2.30.1"], "MIT", "npm"],
  ["chart.js", ["3.9.1", "4.4.7"], "MIT", "npm"],
  ["gpl-widget", ["1.0.0", "2.1.0"], "GPL-3.0-only", "npm"],
  ["left-pad", ["1.3.0"], "WTFPL", "npm"],
];
const LOCKFILES = ["package-lock.json", "yarn.lock", "poetry.lock", "requirements.txt", "go.sum", "Gemfile.lock", "Cargo.lock", "pom.xml"];

/** The deployment's license policy: licenses it does not name are allowed. */
const LICENSE_POLICY: Record<string, LicensePolicySetting> = {
  "GPL-3.0-only": "LICENSE_POLICY_SETTING_BLOCK",
  WTFPL: "LICENSE_POLICY_SETTING_COMMENT",
};

/** A requirements.txt lists no dependency graph, so whether a package is direct is not known. */
function transitivity(traits: Random, lockfilePath: string): Transitivity {
  if (lockfilePath.endsWith("requirements.txt")) return "UNKNOWN_TRANSITIVITY";
  return traits() < 0.4 ? "DIRECT" : "TRANSITIVE";
}

type RepositorySeed = Pick<StoredRepository, "id" | "deploymentId" | "name"> & { archived?: boolean };

const ARCHIVED_NAMES = ["legacy-monolith", "old-website", "flash-games", "perl-tools", "angularjs-admin"];

/** Ids far past the projects' (101 up), so they never meet a project id. */
function archivedRepositories(count: number): RepositorySeed[] {
  return Array.from({ length: count }, (_, i) => {
    const base = ARCHIVED_NAMES[i % ARCHIVED_NAMES.length] as string;
    const suffix = i < ARCHIVED_NAMES.length ? "" : `-${Math.floor(i / ARCHIVED_NAMES.length) + 1}`;
    return { id: 9001 + i, deploymentId: DEMO_DEPLOYMENT.id, name: `acme/${base}${suffix}`, archived: true };
  });
}

/** `random` picks lockfiles and packages; `traits` only the transitivity. */
function buildRepositories(random: Random, traits: Random, seeds: RepositorySeed[]): StoredRepository[] {
  return seeds.map((seed, index) => {
    const lockfiles: StoredLockfile[] = [];
    const count = int(random, 1, 4);
    for (let i = 0; i < count; i++) {
      const dir = i === 0 ? "" : `${pick(random, ["services/api", "web", "tools", "packages/core", "infra"])}/`;
      const lockfilePath = `${dir}${pick(random, LOCKFILES)}`;
      if (lockfiles.some((l) => l.lockfilePath === lockfilePath)) continue;
      const names = new Set<string>();
      const dependencies: StoredDependency[] = [];
      for (let d = int(random, 5, 18); d > 0; d--) {
        const [name, versions, license, ecosystem] = pick(random, PACKAGES);
        if (names.has(name)) continue;
        names.add(name);
        dependencies.push({
          name,
          version: pick(random, versions),
          license,
          ecosystem,
          transitivity: transitivity(traits, lockfilePath),
          licensePolicySetting: LICENSE_POLICY[license] ?? "LICENSE_POLICY_SETTING_ALLOW",
        });
      }
      lockfiles.push({ lockfilePath, dependencies });
    }
    const { id, deploymentId, name } = seed;
    return { id, deploymentId, name, hasDependencyPathScan: index % 3 === 0, archived: seed.archived ?? false, lockfiles };
  });
}

/**
 * The lifecycle every resource kind goes through, as the engine drives it: check, create, diff,
 * read (refresh, and from the id alone as `X.get` does), update, drift, delete, and the request
 * counts of each. ONE table below holds a row per kind; the steps are written once for every row,
 * so a new kind gets the whole suite by adding one row. Every row runs through both front ends
 * (the dynamic provider's host and the native plugin), so a new kind is tested in both. What is particular to one kind stays in
 * its own test file (project-resources, policy-and-sbom, ownership, request-counts, bad-input).
 *
 * Each step is its own test, on a fresh emulator and a fresh provider process, so that one
 * failing step does not hide the others. A step a row cannot take (an update of a kind whose
 * every change replaces it, drift of an export job) is reported as skipped, never passed.
 */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { KINDS, type ResourceKind } from "../../provider/core/kinds";
import { type EmulatorState, SAST_POLICY_ID } from "../../provider/emulator";
import { type DetectionPolicyBundle, detectionBundleInput, remediationPolicyInput, type SemgrepClient } from "../../provider/client";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, provider, useProviderAgainst } from "../support/provider";
import { handlers } from "../../provider/core/runtime/dispatch";
import { LIVE_PROJECT_OUTPUTS } from "../../provider/core/handlers/projects";

// Every kind, v1 and Policies V2, against one deployment: both policy APIs answer.
const env = useEmulator({ preset: "demo", policiesV2: "both" });
useProviderAgainst(env);

type Props = Record<string, unknown>;

/** A change of the declaration: in place (the live value after the update), or a replacement. */
type Change = { inputs: Props; replaces: []; live: unknown } | { inputs: Props; replaces: [string, ...string[]] };

/**
 * An optional input the program stops declaring. Where it is a managed field, the resource stops
 * managing it (a field no longer declared is no longer touched, by update or by destroy:
 * docs/concepts/ownership.md, "A field you stop declaring"): no replacement, an update that writes nothing (`changes` says whether the diff asks
 * for one, to drop the field's original from the state), and a delete that leaves the field as
 * it is (`liveAfterDelete`). Where every input identifies the resource, dropping one replaces it.
 */
type Drop =
  { input: string; replaces: []; changes: boolean; liveAfterDelete: unknown } | { input: string; replaces: [string, ...string[]] };

interface Row {
  kind: ResourceKind;
  /** The inputs as a program writes them (the resource class adds `resourceName`, as below). */
  declared: Props;
  /** What `check` rewrites in `declared` (normalized spellings); `{}` when it returns it as given. */
  normalized: Props;
  /** A bad value for one field (merged over `declared`) and the property its failure must name. */
  invalid: { inputs: Props; property: string };
  /** The id create returns: the kind's documented format for `declared`. */
  id: string | RegExp;
  /** Reads, from the emulator's state, the live value this resource manages. */
  live: (state: EmulatorState) => unknown;
  /** The live value before create (what the resource finds), and after create. */
  liveBefore: unknown;
  liveCreated: unknown;
  /** A changed declaration, and what diff must say of it. */
  change: Change;
  /** A change made behind the resource's back through the API, and what read must then report. */
  drift?: {
    write: (client: SemgrepClient) => Promise<unknown>;
    /** Outputs the read must show. */
    props: Props;
    /** The managed inputs the read must give (the others stay as declared): the live values. */
    inputs: Props;
  };
  /** An optional input dropped from the program (none where every optional input is behaviour, not a field). */
  drop?: Drop;
  /**
   * Whether the kind takes `restoreOnDelete` and, by default, puts back on delete what create
   * found. Without it (an export job cannot be undone), delete only forgets: the live value stays.
   */
  restoresOnDelete: boolean;
  /** Outputs the service gives (identity and live values): a read from the id alone must give them as the full read does. */
  liveOutputs: string[];
  /**
   * The outputs the service adds to for given inputs, where it does: a ProjectSettings' `tags`
   * output is the project's whole tag set, the system tag `managed-scan` (which the service keeps
   * on a project with managed scans) included. Without it, the outputs hold the inputs as given.
   */
  outputsFor?: (inputs: Props) => Props;
  /**
   * Requests a valid `check` makes: none, or, for the Policies V2 kinds, a read of the bundle and the
   * service's dry run (previews read; they never write).
   */
  checkRequests: number;
  /** Requests made by create (after check), by a diff of an unchanged declaration, and by delete (in a new process; measured, guards against regressions). */
  requests: { create: number; diff: number; delete: number };
}

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const FORMATTED_SQL = "java.lang.security.audit.formatted-sql-string.formatted-sql-string";
/** The name the resource class passes as `resourceName`. */
const RESOURCE_NAME = "lifecycle";
const project = (state: EmulatorState, name: string) => state.projects.find((p) => p.name === name)!;
const rule = (state: EmulatorState, path: string) =>
  state.policies.find((p) => p.id === SAST_POLICY_ID)!.rules.find((r) => r.path === path)!;
const on = (enabled: boolean) => ({ enabled });
const scans = (diff: boolean, full: boolean) => ({ diff_scan: on(diff), full_scan: on(full) });
const codeBundle = (state: EmulatorState) => state.detectionPolicies.find((p) => p.deploymentId === 1 && p.product === "code")!;
const legacyException = (state: EmulatorState) =>
  codeBundle(state).exceptions.find((e) => e.projectTagName === "legacy systems" && e.rule === EVAL)?.exceptionType ?? null;
const remediationPolicy = (state: EmulatorState, slug: string) => {
  const found = state.remediationPolicies.find((p) => p.slug === slug);
  return found ? { name: found.name, description: found.description } : null;
};
/** The two product switches the DeploymentSettings row declares. */
const productSwitches = (state: EmulatorState) => {
  const config = state.productConfigs.find((c) => c.deploymentId === 1)!;
  return { blockPr: config.sca.blockPrEnabled, secrets: config.secrets.triagePermission };
};
const notificationRule = (state: EmulatorState, name: string) => {
  const found = state.notificationRules.find((r) => r.deploymentId === 1 && r.name === name);
  return found ? { enabled: found.isEnabled, url: found.config.url } : null;
};
/** Edits the code detection bundle through the API, as a person in Semgrep's UI would (read, change, apply with If-Match). */
async function editCode(client: SemgrepClient, edit: (bundle: DetectionPolicyBundle) => DetectionPolicyBundle) {
  const { bundle, state_version } = await client.policiesV2.getDetectionPolicy(1, "code");
  return client.policiesV2.applyDetectionPolicy(1, "code", detectionBundleInput(edit(bundle)), { ifMatch: state_version });
}
/** A team's members and repositories, by name, or null when there is none. */
const teamContents = (state: EmulatorState, name: string) => {
  const team = state.teams.find((t) => t.name === name);
  return team ? { members: team.members, repositoryIds: team.repositoryIds } : null;
};
const PRESET_DISABLED = [
  "javascript.browser.security.insecure-document-method.insecure-document-method",
  "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
  "python.lang.best-practice.open-never-closed.open-never-closed",
];

const rows: Row[] = [
  {
    kind: "ProjectSettings",
    declared: {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "develop",
      tags: ["team:web", "pci"],
      managedScanConfig: { fullScan: on(false) },
    },
    normalized: { primaryBranch: "refs/heads/develop" },
    invalid: { inputs: { primaryBranch: "main branch" }, property: "primaryBranch" },
    id: "acme/acme/web-app",
    live: (state) => {
      const { primaryBranch, tags, managedScanConfig } = project(state, "acme/web-app");
      return { primaryBranch, tags, managedScanConfig };
    },
    // managed-scan: the system tag of a project with managed scans, which the service keeps whatever a write sends.
    liveBefore: { primaryBranch: "refs/heads/main", tags: ["team:web", "tier:1", "managed-scan"], managedScanConfig: scans(true, true) },
    liveCreated: { primaryBranch: "refs/heads/develop", tags: ["team:web", "pci", "managed-scan"], managedScanConfig: scans(true, false) },
    change: {
      inputs: { tags: ["team:web", "pci", "tier:2"] },
      replaces: [],
      live: {
        primaryBranch: "refs/heads/develop",
        tags: ["team:web", "pci", "tier:2", "managed-scan"],
        managedScanConfig: scans(true, false),
      },
    },
    drift: {
      write: (client) => client.projects.update("acme", "acme/web-app", { primary_branch: "refs/heads/hotfix" }),
      props: { primaryBranch: "refs/heads/hotfix" },
      inputs: { primaryBranch: "refs/heads/hotfix" },
    },
    drop: {
      input: "tags",
      replaces: [],
      changes: true,
      liveAfterDelete: {
        primaryBranch: "refs/heads/main",
        tags: ["team:web", "pci", "managed-scan"],
        managedScanConfig: scans(true, true),
      },
    },
    restoresOnDelete: true,
    liveOutputs: ["deploymentSlug", "projectName", ...LIVE_PROJECT_OUTPUTS],
    outputsFor: (inputs) => ({ tags: [...(inputs.tags as string[]), "managed-scan"] }),
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 1 },
  },
  {
    kind: "ProjectTags",
    declared: { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["pci", "owner:appsec"] },
    normalized: {},
    invalid: { inputs: { tags: ["pci", "pci"] }, property: "tags" },
    id: "acme/acme/web-app",
    live: (state) => project(state, "acme/web-app").tags,
    liveBefore: ["team:web", "tier:1", "managed-scan"],
    liveCreated: ["team:web", "tier:1", "managed-scan", "pci", "owner:appsec"],
    change: {
      inputs: { tags: ["pci", "owner:appsec", "tier:2"] },
      replaces: [],
      live: ["team:web", "tier:1", "managed-scan", "pci", "owner:appsec", "tier:2"],
    },
    drift: {
      write: (client) => client.projects.removeTags("acme", "acme/web-app", ["pci"]),
      props: { tags: ["owner:appsec"], projectTags: ["team:web", "tier:1", "managed-scan", "owner:appsec"] },
      inputs: { tags: ["owner:appsec"] },
    },
    // `tags` is required; its only optional input, restoreOnDelete, is behaviour, not a field of the project.
    restoresOnDelete: true,
    // Which of the project's tags the resource declares is not in the id: `tags` and `addedTags` come from its state.
    liveOutputs: ["deploymentSlug", "projectName", "projectId", "projectTags"],
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 1 },
  },
  {
    kind: "ManagedScan",
    declared: { deploymentSlug: "acme", projectName: "acme/mobile-app", diffScan: on(true), fullScan: on(true) },
    normalized: {},
    invalid: { inputs: { diffScan: { enabled: "yes" } }, property: "diffScan.enabled" },
    id: "acme/acme/mobile-app",
    live: (state) => project(state, "acme/mobile-app").managedScanConfig,
    liveBefore: scans(false, false),
    liveCreated: scans(true, true),
    change: { inputs: { diffScan: on(false) }, replaces: [], live: scans(false, true) },
    drift: {
      write: (client) => client.projects.updateManagedScans("acme", "acme/mobile-app", { full_scan: on(false) }),
      props: { fullScan: on(false) },
      inputs: { fullScan: on(false) },
    },
    drop: { input: "fullScan", replaces: [], changes: true, liveAfterDelete: scans(false, true) },
    restoresOnDelete: true,
    liveOutputs: ["deploymentSlug", "projectName", "projectId", "diffScan", "fullScan"],
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 1 },
  },
  {
    kind: "PolicyRuleMode",
    declared: { deploymentId: 1, policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK" },
    normalized: { deploymentId: "1" },
    invalid: { inputs: { mode: "BLOCK" }, property: "mode" },
    id: `1/${SAST_POLICY_ID}/${EVAL}`,
    live: (state) => rule(state, EVAL).policyMode,
    liveBefore: "MODE_COMMENT",
    liveCreated: "MODE_BLOCK",
    change: { inputs: { mode: "MODE_MONITOR" }, replaces: [], live: "MODE_MONITOR" },
    drift: {
      write: (client) => client.policies.updateRuleMode("1", SAST_POLICY_ID, { rulePath: EVAL, policyMode: "MODE_DISABLED" }),
      props: { mode: "MODE_DISABLED" },
      inputs: { mode: "MODE_DISABLED" },
    },
    // Every input but restoreOnDelete is required.
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "policyId", "rulePath", "mode", "ruleId", "severity", "confidence", "category", "url"],
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 1 },
  },
  {
    kind: "ProjectSettingsSet",
    declared: {
      deploymentSlug: "acme",
      projects: { "acme/web-app": { primaryBranch: "develop", tags: ["team:web", "pci"] } },
      select: { namePatterns: ["acme/infra"] },
      settings: { addTags: ["tier:2"] },
    },
    normalized: { projects: { "acme/web-app": { primaryBranch: "refs/heads/develop", tags: ["team:web", "pci"] } } },
    invalid: { inputs: { settings: undefined }, property: "settings" }, // select without settings
    id: `acme/${RESOURCE_NAME}`,
    live: (state) => {
      const { primaryBranch, tags } = project(state, "acme/web-app");
      return { primaryBranch, tags, infra: project(state, "acme/infra").tags };
    },
    liveBefore: { primaryBranch: "refs/heads/main", tags: ["team:web", "tier:1", "managed-scan"], infra: [] },
    liveCreated: { primaryBranch: "refs/heads/develop", tags: ["team:web", "pci", "managed-scan"], infra: ["tier:2"] },
    change: {
      inputs: { projects: { "acme/web-app": { primaryBranch: "develop", tags: ["team:web", "pci", "tier:2"] } } },
      replaces: [],
      live: { primaryBranch: "refs/heads/develop", tags: ["team:web", "pci", "tier:2", "managed-scan"], infra: ["tier:2"] },
    },
    drift: {
      write: (client) => client.projects.update("acme", "acme/infra", { tags: [] }),
      props: { deviations: ["acme/infra"] },
      inputs: {}, // the declaration stands: the next up converges the project
    },
    restoresOnDelete: true,
    liveOutputs: ["deploymentSlug"],
    // A new set with a selector lists the projects at check, to claim and name those it matches.
    checkRequests: 1,
    // One PATCH per project that changes, on the listing its check made (shared in the process).
    requests: { create: 2, diff: 0, delete: 3 },
  },
  {
    kind: "PolicyRuleModes",
    declared: {
      deploymentId: 1,
      policyId: SAST_POLICY_ID,
      modes: { [EVAL]: "MODE_BLOCK" },
      select: { rulePathPrefixes: ["java.lang.security.audit.formatted-sql-string."] },
      mode: "MODE_BLOCK",
    },
    normalized: { deploymentId: "1" },
    invalid: { inputs: { select: undefined }, property: "mode" }, // mode without select
    id: `1/${SAST_POLICY_ID}/${RESOURCE_NAME}`,
    live: (state) => [rule(state, EVAL).policyMode, rule(state, FORMATTED_SQL).policyMode],
    liveBefore: ["MODE_COMMENT", "MODE_DISABLED"],
    liveCreated: ["MODE_BLOCK", "MODE_BLOCK"],
    change: { inputs: { modes: { [EVAL]: "MODE_MONITOR" } }, replaces: [], live: ["MODE_MONITOR", "MODE_BLOCK"] },
    drift: {
      write: (client) => client.policies.updateRuleMode("1", SAST_POLICY_ID, { rulePath: EVAL, policyMode: "MODE_DISABLED" }),
      props: { deviations: { [EVAL]: "MODE_DISABLED" }, modeCounts: { MODE_DISABLED: 1, MODE_BLOCK: 1 } },
      inputs: {}, // the declaration stands: the next up converges the rule
    },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "policyId"],
    checkRequests: 0,
    requests: { create: 3, diff: 0, delete: 3 }, // one listing of the 320-rule policy, one write per rule
  },
  {
    kind: "SbomExport",
    declared: { deploymentId: 1, repositoryId: 101, ref: "refs/heads/main", sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON", triggers: ["v1"] },
    normalized: { deploymentId: "1", repositoryId: "101" },
    invalid: { inputs: { ref: "main" }, property: "ref" },
    id: /^1\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, // <deploymentId>/<the export's task token>
    live: (state) => state.sbomExports.map((e) => ({ repositoryId: e.repositoryId, ref: e.ref })),
    liveBefore: [],
    liveCreated: [{ repositoryId: 101, ref: "refs/heads/main" }],
    change: { inputs: { triggers: ["v2"] }, replaces: ["triggers"] },
    // No drift: an export job has nothing to change behind its back.
    drop: { input: "triggers", replaces: ["triggers"] },
    restoresOnDelete: false,
    // The request (repository, ref, format) is not in the status the service gives: it comes from the state.
    liveOutputs: ["deploymentId", "taskToken", "status", "downloadUrl"],
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 0 },
  },
  {
    kind: "DetectionPolicy",
    declared: { deploymentId: 1, product: "code", rules: ["acme.extra.rule"], disabled: [EVAL] },
    normalized: { deploymentId: "1" },
    invalid: { inputs: { product: "sast" }, property: "product" },
    id: "1/code",
    live: (state) => ({ rules: codeBundle(state).rules, disabled: codeBundle(state).disabled }),
    liveBefore: { rules: ["acme.no-hardcoded-internal-urls", "go.lang.security.audit.net.use-tls.use-tls"], disabled: PRESET_DISABLED },
    liveCreated: { rules: ["acme.extra.rule"], disabled: [EVAL] },
    change: { inputs: { disabled: [EVAL, "acme.x.y"] }, replaces: [], live: { rules: ["acme.extra.rule"], disabled: ["acme.x.y", EVAL] } },
    drift: {
      write: (client) => editCode(client, (bundle) => ({ ...bundle, disabled: ["acme.drift.rule"] })),
      props: { disabled: ["acme.drift.rule"] },
      inputs: { disabled: ["acme.drift.rule"] },
    },
    drop: { input: "rules", replaces: [], changes: true, liveAfterDelete: { rules: ["acme.extra.rule"], disabled: PRESET_DISABLED } },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "product", "rulesets", "rules", "disabled", "exceptions", "deploymentSlug", "stateVersion"],
    checkRequests: 2,
    requests: { create: 1, diff: 0, delete: 2 },
  },
  {
    kind: "DetectionPolicyException",
    declared: {
      deploymentId: "1",
      product: "code",
      exceptionType: "exclude",
      projectTagName: "legacy systems",
      rule: EVAL,
      ruleType: "rule",
    },
    normalized: {},
    invalid: { inputs: { ruleType: "file" }, property: "ruleType" },
    id: `1/code/project_tag/legacy%20systems/rule/${EVAL}`,
    live: legacyException,
    liveBefore: null,
    liveCreated: "exclude",
    change: { inputs: { exceptionType: "include" }, replaces: [], live: "include" },
    drift: {
      write: (client) =>
        editCode(client, (bundle) => ({
          ...bundle,
          exceptions: bundle.exceptions.map((e) =>
            e.project_tag_name === "legacy systems" && e.rule === EVAL ? { ...e, exception_type: "include" } : e,
          ),
        })),
      props: { exceptionType: "include" },
      inputs: { exceptionType: "include" },
    },
    // Every optional input is a choice of scope (exactly one is given) or behaviour.
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "product", "projectTagName", "rule", "ruleType", "exceptionType", "deploymentSlug", "stateVersion"],
    checkRequests: 2,
    requests: { create: 1, diff: 0, delete: 2 },
  },
  {
    kind: "RemediationPolicy",
    declared: {
      deploymentId: "1",
      slug: "lifecycle-policy",
      policyName: "Lifecycle",
      description: "A policy of the lifecycle table",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
      actions: [{ type: "pr_comment" }],
    },
    normalized: {},
    invalid: { inputs: { slug: "Not A Slug" }, property: "slug" },
    id: "1/lifecycle-policy",
    live: (state) => remediationPolicy(state, "lifecycle-policy"),
    liveBefore: null,
    liveCreated: { name: "Lifecycle", description: "A policy of the lifecycle table" },
    change: { inputs: { policyName: "Renamed" }, replaces: [], live: { name: "Renamed", description: "A policy of the lifecycle table" } },
    drift: {
      write: async (client) => {
        const { bundle, state_version } = await client.policiesV2.getRemediationPolicies(1);
        const policies = bundle.policies.map((p) => remediationPolicyInput(p.slug === "lifecycle-policy" ? { ...p, name: "Drifted" } : p));
        return client.policiesV2.applyRemediationPolicies(1, { policies }, { ifMatch: state_version });
      },
      props: { policyName: "Drifted" },
      inputs: { policyName: "Drifted" },
    },
    drop: { input: "description", replaces: [], changes: true, liveAfterDelete: null },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "slug", "policyName", "description", "active", "filters", "actions", "deploymentSlug", "stateVersion"],
    checkRequests: 2,
    requests: { create: 1, diff: 0, delete: 2 },
  },
  {
    kind: "UserRole",
    declared: { deploymentId: 1, userId: 104, role: "ORG_ROLE_READONLY" },
    normalized: { deploymentId: "1", userId: "104" },
    invalid: { inputs: { role: "ORG_ROLE_IMPERSONATOR" }, property: "role" },
    id: "1/104",
    live: (state) => state.users.find((u) => u.id === "104")!.orgRole,
    liveBefore: "ORG_ROLE_MEMBER",
    liveCreated: "ORG_ROLE_READONLY",
    change: { inputs: { role: "ORG_ROLE_ADMIN" }, replaces: [], live: "ORG_ROLE_ADMIN" },
    drift: {
      write: (client) => client.users.setRole(1, "104", "ORG_ROLE_ADMIN"),
      props: { role: "ORG_ROLE_ADMIN" },
      inputs: { role: "ORG_ROLE_ADMIN" },
    },
    // `role` is required; its only optional input, restoreOnDelete, is behaviour.
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "userId", "role", "userName", "login", "email"],
    // The deployment's users, listed once at check (to refuse an unknown user, or a deployment left without an admin) and shared with create.
    checkRequests: 1,
    requests: { create: 1, diff: 0, delete: 1 },
  },
  {
    kind: "DeploymentSettings",
    declared: { deploymentId: "1", sca: { blockPrEnabled: false }, secrets: { triagePermission: "TRIAGE_PERMISSION_REQUEST" } },
    normalized: {},
    invalid: { inputs: { sast: { triagePermission: "TRIAGE_PERMISSION_ALL" } }, property: "sast.triagePermission" },
    id: "1",
    live: productSwitches,
    liveBefore: { blockPr: true, secrets: "TRIAGE_PERMISSION_NONE" },
    liveCreated: { blockPr: false, secrets: "TRIAGE_PERMISSION_REQUEST" },
    change: { inputs: { sca: { blockPrEnabled: true } }, replaces: [], live: { blockPr: true, secrets: "TRIAGE_PERMISSION_REQUEST" } },
    drift: {
      write: (client) => client.products.update(1, { sca: { blockPrEnabled: true } }),
      props: { sca: expect.objectContaining({ blockPrEnabled: true }) },
      inputs: { sca: { blockPrEnabled: true } },
    },
    drop: { input: "secrets", replaces: [], changes: true, liveAfterDelete: { blockPr: true, secrets: "TRIAGE_PERMISSION_REQUEST" } },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "sast", "sca", "secrets", "ai", "hasDeveloperTriage", "approversTag", "mdrEnabled"],
    checkRequests: 0,
    requests: { create: 2, diff: 0, delete: 2 },
  },
  {
    kind: "NotificationRule",
    declared: {
      deploymentId: "1",
      name: "Lifecycle rule",
      channel: "CHANNEL_WEBHOOK",
      config: { url: "https://hooks.example/lifecycle" },
      plainConfigKeys: ["url"],
      policySlugs: ["comment-high-severity"],
      enabled: true,
    },
    normalized: {},
    invalid: { inputs: { channel: "CHANNEL_PAGER" }, property: "channel" },
    id: /^1\/\d+$/,
    live: (state) => notificationRule(state, "Lifecycle rule"),
    liveBefore: null,
    liveCreated: { enabled: true, url: "https://hooks.example/lifecycle" },
    change: { inputs: { enabled: false }, replaces: [], live: { enabled: false, url: "https://hooks.example/lifecycle" } },
    drift: {
      write: async (client) => {
        const rule = (await client.notificationRules.list(1)).find((r) => r.name === "Lifecycle rule")!;
        return client.notificationRules.replace(1, rule.id, { ...rule, channel: "CHANNEL_WEBHOOK", enabled: false });
      },
      props: { enabled: false },
      inputs: { enabled: false },
    },
    drop: { input: "enabled", replaces: [], changes: true, liveAfterDelete: null },
    restoresOnDelete: true,
    liveOutputs: [
      "deploymentId",
      "name",
      "ruleId",
      "channel",
      "config",
      "policySlugs",
      "enabled",
      "sendScanCompletion",
      "useNetworkBroker",
    ],
    // The policy slugs are checked against the deployment's remediation policies at preview.
    checkRequests: 1,
    requests: { create: 2, diff: 0, delete: 1 },
  },
  {
    kind: "Team",
    declared: {
      deploymentId: "1",
      name: "lifecycle-team",
      members: { "105": "TEAM_ROLE_READONLY", "106": "TEAM_ROLE_MEMBER" },
      projects: ["acme/mobile-app"],
    },
    normalized: {},
    invalid: { inputs: { members: { "105": "TEAM_ROLE_OWNER" } }, property: "members.105" },
    id: /^1\/\d+$/,
    live: (state) => teamContents(state, "lifecycle-team"),
    liveBefore: null,
    liveCreated: {
      members: [
        { userId: "105", role: "TEAM_ROLE_READONLY" },
        { userId: "106", role: "TEAM_ROLE_MEMBER" },
      ],
      repositoryIds: [103],
    },
    change: {
      inputs: { members: { "105": "TEAM_ROLE_MEMBER" } },
      replaces: [],
      live: { members: [{ userId: "105", role: "TEAM_ROLE_MEMBER" }], repositoryIds: [103] },
    },
    drift: {
      write: async (client) => {
        const [team] = await client.teams.list(1, { name: "lifecycle-team" }).toArray();
        return client.teams.update(1, team!.id, { users: [{ userId: "106", action: "UPDATE_ACTION_REMOVE" }] });
      },
      props: { members: { "105": "TEAM_ROLE_READONLY" } },
      inputs: { members: { "105": "TEAM_ROLE_READONLY" } },
    },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "teamId", "name", "slug", "members", "projects"],
    // The deployment's teams (is the name taken?), its users and its projects (are the ids and names known?), and the token's deployments.
    checkRequests: 4,
    requests: { create: 1, diff: 0, delete: 1 },
  },
  {
    kind: "TeamMembers",
    declared: { deploymentId: "1", teamId: "201", members: { "105": "TEAM_ROLE_READONLY", "101": "TEAM_ROLE_MEMBER" } },
    normalized: {},
    invalid: { inputs: { members: {} }, property: "members" },
    id: "1/201",
    live: (state) => state.teams.find((t) => t.id === 201)!.members,
    liveBefore: [
      { userId: "101", role: "TEAM_ROLE_MANAGER" },
      { userId: "102", role: "TEAM_ROLE_MEMBER" },
    ],
    liveCreated: [
      { userId: "101", role: "TEAM_ROLE_MEMBER" },
      { userId: "102", role: "TEAM_ROLE_MEMBER" },
      { userId: "105", role: "TEAM_ROLE_READONLY" },
    ],
    change: {
      inputs: { members: { "105": "TEAM_ROLE_MEMBER", "101": "TEAM_ROLE_MEMBER" } },
      replaces: [],
      live: [
        { userId: "101", role: "TEAM_ROLE_MEMBER" },
        { userId: "102", role: "TEAM_ROLE_MEMBER" },
        { userId: "105", role: "TEAM_ROLE_MEMBER" },
      ],
    },
    drift: {
      write: (client) => client.teams.update(1, 201, { users: [{ userId: "105", action: "UPDATE_ACTION_REMOVE" }] }),
      props: { members: { "101": "TEAM_ROLE_MEMBER" } },
      inputs: { members: { "101": "TEAM_ROLE_MEMBER" } },
    },
    restoresOnDelete: true,
    // Which of the team's members it declares is not in the id: `members` comes from its state.
    liveOutputs: ["deploymentId", "teamId"],
    checkRequests: 1, // the deployment's users
    requests: { create: 2, diff: 0, delete: 2 },
  },
  {
    kind: "TeamProjects",
    declared: { deploymentId: "1", teamId: "202", projects: ["acme/web-app"] },
    normalized: {},
    invalid: { inputs: { projects: [] }, property: "projects" },
    id: "1/202",
    live: (state) => state.teams.find((t) => t.id === 202)!.repositoryIds,
    liveBefore: [102],
    liveCreated: [102, 101],
    change: { inputs: { projects: ["acme/web-app", "acme/mobile-app"] }, replaces: [], live: [102, 101, 103] },
    drift: {
      write: (client) => client.teams.update(1, 202, { repositories: [{ repositoryId: "101", action: "UPDATE_ACTION_REMOVE" }] }),
      props: { projects: [] },
      inputs: { projects: [] },
    },
    restoresOnDelete: true,
    liveOutputs: ["deploymentId", "teamId"],
    checkRequests: 2, // the token's deployments (for the slug) and the project listing
    requests: { create: 2, diff: 0, delete: 4 },
  },
];

/** The name the resource class passes beside the program's inputs. */

/** The requests `work` makes. */
async function requestsOf(work: () => Promise<unknown>): Promise<string[]> {
  const before = env.requests().length;
  await work();
  return env
    .requests()
    .slice(before)
    .map((r) => `${r.method} ${r.operation}`);
}

/** The next step runs in a new provider process, as `pulumi refresh` and `pulumi destroy` start one. */
const newProcess = forgetProcessMemory;

/** The inputs the engine keeps after a read: those it returned, else the ones it had (the dynamic-provider host's rule). */
const keptInputs = (read: { inputs?: Props }, had: Props) => read.inputs ?? had;

const pick = (props: Props | undefined, keys: string[]) => Object.fromEntries(keys.map((key) => [key, props?.[key]]));

function without(props: Props, key: string): Props {
  const { [key]: _dropped, ...rest } = props;
  return rest;
}

it("has a row for every resource kind", () => {
  expect(rows.map((row) => row.kind).sort()).toEqual(Object.keys(handlers).sort());
});

/** Every row through each front end: the dynamic provider's host and the native plugin (test/support/native.ts). */
const runs = FRONT_ENDS.flatMap((frontEnd) => rows.map((row) => ({ ...row, frontEnd })));

describe.each(runs)("$kind ($frontEnd)", (row) => {
  const calls = provider(row.kind, row.frontEnd);
  const live = () => structuredClone(row.live(env.emulator.state()));
  // An input the kind does not echo (declare.ts notEchoed: a set's projects) is no output.
  const echoed = (inputs: Props) =>
    Object.fromEntries(
      Object.entries(inputs).filter(([input]) => (KINDS[row.kind].inputs as Record<string, { echoed?: false }>)[input]?.echoed !== false),
    );
  const outputsOf = (inputs: Props): Props => ({ ...echoed(inputs), ...row.outputsFor?.(inputs) });
  const declared = { ...row.declared, resourceName: RESOURCE_NAME };
  const changed = { ...declared, ...row.change.inputs };
  const update = "live" in row.change ? row.change : undefined;

  /** Checks and creates the row's declaration: the state every later step starts from. */
  async function created() {
    const inputs = await checked(calls, declared);
    const { id, outs } = await calls.create(inputs);
    return { inputs, id, outs };
  }

  // 1. Bad input stops at preview, before any request; good input comes back normalized (after the service's dry run, for the kinds that make one).
  it(`check: normalizes the declaration with ${row.checkRequests} requests, refuses a bad value naming its field with none`, async () => {
    expect(await calls.check(declared)).toEqual({ inputs: { ...declared, ...row.normalized } });
    expect(env.requests()).toHaveLength(row.checkRequests);
    newProcess();
    const { failures } = await calls.check({ ...declared, ...row.invalid.inputs });
    expect(failures).toEqual([{ property: row.invalid.property, reason: expect.stringContaining(`${row.invalid.property}: `) }]);
    expect(env.requests()).toHaveLength(row.checkRequests);
  });

  // 2. Create applies what is declared to the service and keeps every declared input in the outputs.
  it("create: applies the declaration, returns the kind's id and every declared input", async () => {
    expect(live()).toEqual(row.liveBefore);
    const { inputs, id, outs } = await created();
    expect(live()).toEqual(row.liveCreated);
    if (typeof row.id === "string") expect(id).toBe(row.id);
    else expect(id).toMatch(row.id);
    expect(outs).toMatchObject(outputsOf(inputs));
  });

  // 3. A no-op `up` shows nothing; a changed declaration updates or replaces exactly as the row says.
  it(`diff: no change for the same declaration; a change ${update ? "updates in place" : `replaces (${row.change.replaces.join(", ")})`}`, async () => {
    const { inputs, outs } = await created();
    expect(await calls.diff(outs, inputs)).toMatchObject({ changes: false });
    const diff = await calls.diff(outs, await checked(calls, changed));
    expect(diff).toMatchObject({ changes: true });
    expect(diff.replaces).toEqual(row.change.replaces);
  });

  // 4. A refresh right after create finds no drift, and leaves the inputs as the program declared them.
  it("read (refresh): the same id, no drift, the declared inputs", async () => {
    const { inputs, id, outs } = await created();
    newProcess();
    const read = await calls.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject(outputsOf(inputs));
    expect(await calls.diff(read.props!, inputs)).toMatchObject({ changes: false });
    expect(keptInputs(read, inputs)).toEqual(inputs);
  });

  // 5. `X.get(name, id)` (a resource constructed with `opts.id`): the engine reads it with no state.
  it("read from the id alone (X.get): the same id and the outputs the full read gives", async () => {
    const { id, outs } = await created();
    newProcess();
    const full = await calls.read(id, outs);
    expect(Object.keys(full.props ?? {})).toEqual(expect.arrayContaining(row.liveOutputs));
    newProcess();
    const alone = await calls.read(id, {});
    expect(alone.id).toBe(id);
    expect(pick(alone.props, row.liveOutputs)).toEqual(pick(full.props, row.liveOutputs));
  });

  // 6. An in-place change reaches the service, and the next refresh agrees with it.
  it.runIf(update)("update: applies a change live; a read after it finds no drift", async () => {
    const { id, outs } = await created();
    const news = await checked(calls, changed);
    const updated = await calls.update(id, outs, news);
    expect(live()).toEqual(update!.live);
    expect(updated.outs).toMatchObject(outputsOf(news));
    newProcess();
    const read = await calls.read(id, updated.outs);
    expect(read.id).toBe(id);
    expect(await calls.diff(read.props!, news)).toMatchObject({ changes: false });
    expect(keptInputs(read, news)).toEqual(news);
  });

  // 7. A change made out of band shows in a refresh: the outputs and the managed inputs take the live value.
  it.runIf(row.drift)("drift: read reports a change made behind the resource's back", async () => {
    const { inputs, id, outs } = await created();
    await row.drift!.write(env.client());
    newProcess();
    const read = await calls.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject(row.drift!.props);
    expect(keptInputs(read, inputs)).toEqual({ ...inputs, ...row.drift!.inputs });
    // The next `up` puts the declared value back in place.
    expect(await calls.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  // 8. Destroy puts back what create found (or, for a kind that cannot undo, forgets).
  it(`delete: ${row.restoresOnDelete ? "puts back the value create found" : "leaves the live value (nothing to undo)"}`, async () => {
    const { id, outs } = await created();
    newProcess();
    await calls.delete(id, outs);
    expect(live()).toEqual(row.restoresOnDelete ? row.liveBefore : row.liveCreated);
  });

  // 8b. A value create found as declared records nothing (an adopted program's every value); the
  // first update that changes it records the value it replaces, so delete puts that back.
  it.runIf(update && row.restoresOnDelete)("delete after an update: puts back what create found as declared", async () => {
    await created(); // the live value is now the declared one
    newProcess();
    const { id, outs } = await created(); // another stack's resource finds it as declared
    const updated = await calls.update(id, outs, await checked(calls, changed));
    expect(live()).toEqual(update!.live);
    newProcess();
    await calls.delete(id, updated.outs);
    expect(live()).toEqual(row.liveCreated);
  });

  it.runIf(row.restoresOnDelete)("delete with restoreOnDelete: false leaves the declared value", async () => {
    const inputs = await checked(calls, { ...declared, restoreOnDelete: false });
    const { id, outs } = await calls.create(inputs);
    newProcess();
    await calls.delete(id, outs);
    expect(live()).toEqual(row.liveCreated);
  });

  // 9. Request counts: the minimum the API allows, measured; a change here is a regression or a deliberate improvement.
  it(`requests: create ${row.requests.create}, diff of an unchanged declaration ${row.requests.diff}, delete ${row.requests.delete}`, async () => {
    const inputs = await checked(calls, declared);
    let result = { id: "", outs: {} as Props };
    const create = await requestsOf(async () => (result = await calls.create(inputs)));
    const diff = await requestsOf(() => calls.diff(result.outs, inputs));
    newProcess();
    const remove = await requestsOf(() => calls.delete(result.id, result.outs));
    expect({ create: create.length, diff: diff.length, delete: remove.length }).toEqual(row.requests);
  });

  // 10. A program that stops declaring an optional input: not managed any more (or, for an identifying input, a replacement).
  const drop = row.drop;
  it.runIf(drop)(
    drop
      ? `diff when the program drops ${drop.input}: ${drop.replaces.length ? "replaces" : "stops managing it, writes nothing, and delete leaves it"}`
      : "diff when the program drops an optional input (none that is a field of the service)",
    async () => {
      const { id, outs } = await created();
      const news = await checked(calls, without(declared, drop!.input));
      const stopsManaging = "liveAfterDelete" in drop! ? drop : undefined;
      const diff = await calls.diff(outs, news);
      expect(diff.changes).toBe(stopsManaging ? stopsManaging.changes : true);
      expect(diff.replaces).toEqual(drop!.replaces);
      if (!stopsManaging) return; // a replacement: the engine creates anew (step 2) and deletes the old (step 8)
      let updated = outs;
      expect(await requestsOf(async () => (updated = (await calls.update(id, outs, news)).outs))).toEqual([]);
      expect(live()).toEqual(row.liveCreated);
      newProcess();
      await calls.delete(id, updated);
      expect(live()).toEqual(stopsManaging.liveAfterDelete);
    },
  );
});

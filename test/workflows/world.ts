/**
 * The small world the workflow generator edits: two projects (the demo preset's other twelve, and
 * those created out of band, only through a ProjectSettingsSet), one v1 policy of 40 rules of mixed
 * severities, languages and categories (the demo preset's "Strict SAST (pilot)"), and the
 * deployment's Policies V2 bundles (code, secrets, remediation). One emulator serves both API
 * generations (started with `policiesV2: "both"`; a live deployment has one of the two: v1
 * answers 410 once it is migrated, Policies V2 403 until then), so all nine kinds live in one
 * stack.
 *
 * `liveValues` flattens everything a resource of the stack can change into one map, so that the
 * promises compare the service value for value: before the stack's first `up` (the snapshot),
 * after `up` (as declared), after `destroy` (as the snapshot).
 */
import { accessLiveValues, accessNamesOfValue } from "./access-model";
import { withoutSystemTags } from "../../provider/client";
import { DEMO_DEPLOYMENT, type EmulatorState, STRICT_POLICY_ID } from "../../provider/emulator";

export const DEPLOYMENT_ID = String(DEMO_DEPLOYMENT.id);
export const DEPLOYMENT_SLUG = DEMO_DEPLOYMENT.slug;
export const POLICY_ID = STRICT_POLICY_ID;
export const PROJECTS = ["acme/web-app", "acme/mobile-app"] as const;
/** The repositories of the projects (SbomExport's `repositoryId`). */
export const REPOSITORY_IDS = ["101", "103"] as const;
export const MODES = ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"] as const;
/** Tags the programs use; those holding SECRET are the texts promise 4 looks for when a program gives them as secrets. */
export const TAGS = ["team:web", "pci", "tier:1", "owner:appsec", "wf:a", "SECRET-tag-1", "SECRET-tag-2"] as const;
export const BRANCHES = ["main", "develop", "release", "None"] as const;

/**
 * ProjectSettingsSet's world: the projects its explicit entries may name (PROJECTS with every
 * field; the others with branch and scans only, so that no whole tag set it declares drops a tag
 * its selectors match on), the globs and tags its selectors use, the tags it adds.
 * SELECTOR_TAGS are the preset's team tags no program declares: a project starts or stops
 * matching one only out of band (generator.ts), never through another resource's write in the
 * same run (whose order against the set's listing the engine does not fix).
 */
export const SET_PROJECTS = [...PROJECTS, "acme/payments-api", "acme/infra", "acme/auth-service"] as const;
export const NAME_PATTERNS = ["acme/*-app", "acme/*-api", "acme/*-service", "acme/d*", "acme/new-*"] as const;
export const SELECTOR_TAGS = ["team:platform", "team:growth", "team:identity", "team:payments", "team:mobile"] as const;
export const ADD_TAGS = ["tier:1", "owner:appsec", "wf:a", "SECRET-tag-1"] as const;
/** Names of the projects created out of band (generator.ts), the k-th of a workflow. */
export const newProjectName = (k: number) => `acme/new-${k}-${["service", "api", "app"][k % 3]}`;

/** A rule of the world's policy as selectors see it. */
export interface WorldRule {
  path: string;
  severity: string;
  category: string;
  languages: string[];
  confidence: string;
  source: string;
}

/** The policy's rules, as the emulator holds them (fixed by the preset). */
export function worldRules(state: EmulatorState): WorldRule[] {
  const policy = state.policies.find((p) => p.id === POLICY_ID)!;
  return policy.rules.map((r) => ({
    path: r.path,
    severity: r.severity,
    category: r.category,
    languages: [...r.languages],
    confidence: r.confidence,
    source: r.source,
  }));
}

/** What the programs' exclusion lists may name besides real rules: a path no rule has, distinctive as a secret. */
export const SECRET_EXCLUDE = "acme.internal.SECRET-excluded";
export const RULESETS = ["p/default", "p/owasp-top-ten", "p/security-audit", "p/ci"] as const;
export const REGISTRY_RULES = [
  "acme.no-hardcoded-internal-urls",
  "go.lang.security.audit.net.use-tls.use-tls",
  "python.lang.security.audit.eval-detected.eval-detected",
  "acme.SECRET-registry-rule",
] as const;
export const REMEDIATION_SLUGS = ["wf-alpha", "wf-beta", "comment-high-severity"] as const;

/**
 * Every value a resource of the stack can change, by key: `rule:<path>` (mode), `project:<name>:<field>`
 * (primaryBranch, tags without the system tags, diffScan, fullScan), `detection:<product>:<field>`, `remediation:<slug>`,
 * and the access kinds' teams, org roles, product settings and notification rules (access-model.ts).
 * Lists the service treats as sets are sorted. SBOM exports are left out: a job cannot be undone.
 */
export function liveValues(state: EmulatorState): Map<string, string> {
  const values = new Map<string, string>();
  const policy = state.policies.find((p) => p.id === POLICY_ID)!;
  for (const rule of policy.rules) values.set(`rule:${rule.path}`, rule.policyMode);
  // Every project of the deployment (a set's selector reaches beyond PROJECTS), those created out of band too.
  for (const project of state.projects.filter((p) => p.deploymentId === DEMO_DEPLOYMENT.id)) {
    const name = project.name;
    values.set(`project:${name}:primaryBranch`, JSON.stringify(project.primaryBranch));
    // The system tag follows the diffScan/fullScan values below: the service's, never the stack's to set or put back.
    values.set(`project:${name}:tags`, JSON.stringify(withoutSystemTags(project.tags).sort()));
    values.set(`project:${name}:diffScan`, JSON.stringify(project.managedScanConfig.diff_scan.enabled));
    values.set(`project:${name}:fullScan`, JSON.stringify(project.managedScanConfig.full_scan.enabled));
  }
  for (const bundle of state.detectionPolicies.filter((d) => d.deploymentId === DEMO_DEPLOYMENT.id)) {
    for (const field of ["rulesets", "rules", "disabled"] as const)
      values.set(`detection:${bundle.product}:${field}`, JSON.stringify([...bundle[field]].sort()));
    const exceptions = bundle.exceptions.map((e) => JSON.stringify(e)).sort();
    values.set(`detection:${bundle.product}:exceptions`, JSON.stringify(exceptions));
  }
  for (const policy of state.remediationPolicies.filter((r) => r.deploymentId === DEMO_DEPLOYMENT.id && !r.systemManaged)) {
    const { name, description, active, filters, actions } = policy;
    values.set(`remediation:${policy.slug}`, JSON.stringify({ name, description, active, filters, actions }));
  }
  for (const [key, value] of accessLiveValues(state)) values.set(key, value);
  return values;
}

/** A project as selectors see it: its name and its whole tag set (system tags included). */
export interface WorldProject {
  name: string;
  tags: string[];
}

/** The deployment's projects as they are now, for the model's selectors. */
export function worldProjects(state: EmulatorState): WorldProject[] {
  return state.projects.filter((p) => p.deploymentId === DEMO_DEPLOYMENT.id).map((p) => ({ name: p.name, tags: [...p.tags] }));
}

/**
 * The texts a message must name for a value it says it leaves (promise 2's exception): the rule's
 * path, the project's name, the product, the slug.
 */
export function namesOfValue(key: string): string[] {
  const access = accessNamesOfValue(key);
  if (access) return access;
  const [kind, ...rest] = key.split(":");
  if (kind === "rule") return [rest.join(":")];
  if (kind === "project") return [rest.slice(0, -1).join(":")];
  if (kind === "detection") return [rest[0]!];
  return [rest.join(":")];
}

/**
 * The model of a workflow: the program as a list of declared resources (render.ts writes it as
 * each front end's program), and what it promises: the value each resource declares (checked
 * live after `up`), which values two resources declare (a conflict, refused before any write), and
 * which texts are secret (never printed).
 */
import { ACCESS_KINDS, accessDeclarations, alwaysSecret, PRESET_RULE } from "./access-model";
import { choiceAllowed } from "./known-defects";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { DEPLOYMENT_ID, DEPLOYMENT_SLUG, POLICY_ID, type WorldProject, type WorldRule } from "./world";

export const KINDS = [
  "ProjectSettings",
  "ProjectTags",
  "ManagedScan",
  "PolicyRuleMode",
  "PolicyRuleModes",
  "SbomExport",
  "DetectionPolicy",
  "DetectionPolicyException",
  "RemediationPolicy",
  "ProjectSettingsSet",
  ...ACCESS_KINDS,
] as const;
export type Kind = (typeof KINDS)[number];

/** One resource of the program. */
export interface Decl {
  kind: Kind;
  name: string;
  /** The inputs, plain JSON (identity inputs included). */
  props: Record<string, unknown>;
  /** Inputs given as `pulumi.secret(...)`. */
  secret: string[];
  /** The name this resource had before, given as an alias. */
  alias?: string;
  /**
   * A member this resource let go of in this step, to be declared by a taker in a later one (the
   * first half of a move in two steps, access-edits.ts): never rendered.
   */
  handOff?: { team: string; user: string; role: string; to: "Team" | "TeamMembers" };
  /** A resource of the program this one waits for: the giver of a rule moved in this step (the README's advice). */
  dependsOn?: string;
}

export type Program = Decl[];

const json = (value: unknown) => JSON.stringify(value);
/** JSON with object keys sorted, for comparing what the service may reorder. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** The inputs every resource of a kind has, by kind. */
export function identity(kind: Kind): Record<string, unknown> {
  if (kind === "ProjectSettings" || kind === "ProjectTags" || kind === "ManagedScan" || kind === "ProjectSettingsSet")
    return { deploymentSlug: DEPLOYMENT_SLUG };
  if (kind === "PolicyRuleMode" || kind === "PolicyRuleModes") return { deploymentId: DEPLOYMENT_ID, policyId: POLICY_ID };
  return { deploymentId: DEPLOYMENT_ID };
}

/** A selector of PolicyRuleModes, as the program gives it. */
export interface Selector {
  severities?: string[];
  languages?: string[];
  categories?: string[];
  rulePathPrefixes?: string[];
  exclude?: string[];
}

/** The rules a selector matches (less its exclusions), as getPolicyRules' filter does. */
export function selected(rules: readonly WorldRule[], select: Selector): string[] {
  const any = (wanted: string[] | undefined, value: string) => !wanted || wanted.includes(value);
  return rules
    .filter(
      (r) =>
        any(select.severities, r.severity) &&
        any(select.categories, r.category) &&
        (!select.languages || r.languages.some((l) => select.languages!.includes(l))) &&
        (!select.rulePathPrefixes || select.rulePathPrefixes.some((p) => r.path.startsWith(p))) &&
        !(select.exclude ?? []).includes(r.path),
    )
    .map((r) => r.path);
}

/** One value a resource declares: the key of `liveValues`, and whether a live value holds it. */
export interface Expectation {
  key: string;
  owner: string;
  /** What is declared, for messages. */
  declared: string;
  holds(live: string | undefined): boolean;
}

/** A claim on a value: `exclusive` ones conflict with any other claim; shared ones (ProjectTags, exceptions) only with exclusive ones. */
interface Claim {
  key: string;
  owner: string;
  exclusive: boolean;
  /** Known only from the policy's listing (a selector): documented as refused before the write, not at preview. */
  bySelector?: boolean;
  /** Made by a ProjectSettingsSet's selector (known from the project listing). */
  bySetSelector?: boolean;
}

const branchRef = (branch: string) => (branch === "None" ? null : branch.startsWith("refs/") ? branch : `refs/heads/${branch}`);
const sameSet = (list: unknown) => (live: string | undefined) => live === json([...(list as string[])].sort());
const toggle = (value: unknown) => json((value as { enabled: boolean }).enabled);
const projectKey = (props: Record<string, unknown>, field: string) => `project:${String(props.projectName)}:${field}`;

/** The modes a PolicyRuleModes declares, rule by rule: its explicit `modes`, then its selector's rules. */
export function rulesOf(decl: Decl, rules: readonly WorldRule[]): Map<string, { mode: string; bySelector: boolean }> {
  const declared = new Map<string, { mode: string; bySelector: boolean }>();
  if (decl.kind === "PolicyRuleMode") declared.set(String(decl.props.rulePath), { mode: String(decl.props.mode), bySelector: false });
  if (decl.kind !== "PolicyRuleModes") return declared;
  const select = decl.props.select as Selector | undefined;
  if (select) for (const path of selected(rules, select)) declared.set(path, { mode: String(decl.props.mode), bySelector: true });
  for (const [path, mode] of Object.entries((decl.props.modes ?? {}) as Record<string, string>))
    declared.set(path, { mode, bySelector: false });
  return declared;
}

/** A ProjectSettingsSet's selector, as the program gives it. */
export interface ProjectSelector {
  namePatterns?: string[];
  tags?: string[];
  exclude?: string[];
}

/** A glob over project names: `*` within a segment, `**` across (the patterns the programs use are simple). */
function globRegExp(glob: string): RegExp {
  const literal = glob.replace(/[.+^$|()[\]{}\\]/g, "\\$&");
  return new RegExp(`^${literal.replace(/\*\*|\*/g, (star) => (star === "**" ? ".*" : "[^/]*"))}$`);
}

/** The projects a set's selector matches among `projects`, sorted (getProjects' criteria: all given hold, any value within one). */
export function selectedProjects(select: ProjectSelector, projects: readonly WorldProject[]): string[] {
  const patterns = select.namePatterns?.map(globRegExp);
  return projects
    .filter(
      (p) =>
        !(select.exclude ?? []).includes(p.name) &&
        (!patterns || patterns.some((re) => re.test(p.name))) &&
        (!select.tags || p.tags.some((t) => select.tags!.includes(t))),
    )
    .map((p) => p.name)
    .sort();
}

/** One field a set wants of one project, and where it comes from (explicit entries win over the selector for their fields). */
export interface SetField {
  project: string;
  field: "primaryBranch" | "tags" | "diffScan" | "fullScan" | "addTags";
  value: unknown;
  bySelector: boolean;
}

/** What a ProjectSettingsSet wants of each project: the selector's settings on the projects it matches, then each explicit entry's fields over them. */
export function setFields(decl: Decl, projects: readonly WorldProject[]): SetField[] {
  const byProject = new Map<string, Map<SetField["field"], SetField>>();
  const put = (project: string, field: SetField["field"], value: unknown, bySelector: boolean) => {
    if (value === undefined) return;
    const fields = byProject.get(project) ?? new Map<SetField["field"], SetField>();
    fields.set(field, { project, field, value, bySelector });
    byProject.set(project, fields);
  };
  const p = decl.props;
  const settings = p.settings as { managedScanConfig?: Record<string, unknown>; addTags?: string[]; primaryBranch?: string } | undefined;
  if (p.select && settings)
    for (const name of selectedProjects(p.select as ProjectSelector, projects)) {
      put(name, "primaryBranch", settings.primaryBranch, true);
      put(name, "diffScan", settings.managedScanConfig?.diffScan, true);
      put(name, "fullScan", settings.managedScanConfig?.fullScan, true);
      put(name, "addTags", settings.addTags, true);
    }
  for (const [name, entry] of Object.entries((p.projects ?? {}) as Record<string, Record<string, unknown>>)) {
    put(name, "primaryBranch", entry.primaryBranch, false);
    const config = (entry.managedScanConfig ?? {}) as Record<string, unknown>;
    put(name, "diffScan", config.diffScan, false);
    put(name, "fullScan", config.fullScan, false);
    if (entry.tags !== undefined) {
      put(name, "tags", entry.tags, false);
      byProject.get(name)!.delete("addTags"); // the whole set declared: nothing added to it
    }
    if (!byProject.has(name)) byProject.set(name, new Map());
  }
  return [...byProject.values()].flatMap((fields) => [...fields.values()]);
}

/** What each resource declares of the service (its expectations) and claims (for conflicts); `projects`, what a set's selector sees. */
export function declarations(
  program: Program,
  rules: readonly WorldRule[],
  projects: readonly WorldProject[] = [],
): { expectations: Expectation[]; claims: Claim[] } {
  const expectations: Expectation[] = [];
  const claims: Claim[] = [];
  const expect = (key: string, owner: string, declared: string, holds: (live: string | undefined) => boolean, exclusive = true) => {
    expectations.push({ key, owner, declared, holds });
    claims.push({ key, owner, exclusive });
  };
  for (const decl of program) {
    const p = decl.props;
    const owner = `${decl.kind} "${decl.name}"`;
    switch (decl.kind) {
      case "PolicyRuleMode":
      case "PolicyRuleModes":
        for (const [path, { mode, bySelector }] of rulesOf(decl, rules)) {
          expectations.push({ key: `rule:${path}`, owner, declared: mode, holds: (live) => live === mode });
          claims.push({ key: `rule:${path}`, owner, exclusive: true, bySelector });
        }
        break;
      case "ProjectSettings": {
        if (p.primaryBranch !== undefined) {
          const ref = branchRef(String(p.primaryBranch));
          expect(projectKey(p, "primaryBranch"), owner, json(ref), (live) => live === json(ref));
        }
        if (p.tags !== undefined) expect(projectKey(p, "tags"), owner, json(p.tags), sameSet(p.tags));
        const config = (p.managedScanConfig ?? {}) as Record<string, unknown>;
        for (const field of ["diffScan", "fullScan"])
          if (config[field] !== undefined)
            expect(projectKey(p, field), owner, toggle(config[field]), (live) => live === toggle(config[field]));
        break;
      }
      case "ManagedScan":
        for (const field of ["diffScan", "fullScan"])
          if (p[field] !== undefined) expect(projectKey(p, field), owner, toggle(p[field]), (live) => live === toggle(p[field]));
        break;
      case "ProjectTags": {
        const tags = p.tags as string[];
        const holds = (live: string | undefined) => tags.every((t) => (JSON.parse(live ?? "[]") as string[]).includes(t));
        expect(projectKey(p, "tags"), owner, `⊇ ${json(tags)}`, holds, false);
        break;
      }
      case "DetectionPolicy":
        for (const field of ["rulesets", "rules", "disabled"])
          if (p[field] !== undefined) expect(`detection:${String(p.product)}:${field}`, owner, json(p[field]), sameSet(p[field]));
        if (p.exceptions !== undefined) {
          const wanted = (p.exceptions as Array<Record<string, string>>).map((e) => json(storedException(e))).sort();
          expect(`detection:${String(p.product)}:exceptions`, owner, json(wanted), (live) => live === json(wanted));
        }
        break;
      case "DetectionPolicyException": {
        const wanted = json(storedException(p as Record<string, string>));
        const holds = (live: string | undefined) => (JSON.parse(live ?? "[]") as string[]).includes(wanted);
        expect(`detection:${String(p.product)}:exceptions`, owner, `∋ ${wanted}`, holds, false);
        break;
      }
      case "RemediationPolicy": {
        const holds = (live: string | undefined) => {
          if (live === undefined) return false;
          const policy = JSON.parse(live) as Record<string, unknown>;
          const filters = policy.filters as { mode: string; conditions: Array<{ type: string; values: string[]; mode: string }> };
          const declaredFilters = p.filters as { mode: string; conditions: Array<{ type: string; values: string[]; mode?: string }> };
          const actions = (policy.actions as Array<{ type: string; config: Record<string, string> }>).map((a) => ({
            type: a.type,
            config: a.config,
          }));
          return (
            policy.name === p.policyName &&
            (p.description === undefined || policy.description === p.description) &&
            (p.active === undefined || policy.active === p.active) &&
            filters.mode === declaredFilters.mode &&
            json(filters.conditions) ===
              json(declaredFilters.conditions.map((c) => ({ type: c.type, values: c.values, mode: c.mode ?? "any" }))) &&
            canonical(actions) ===
              canonical(
                (p.actions as Array<{ type: string; config?: Record<string, string> }>).map((a) => ({
                  type: a.type,
                  config: a.config ?? {},
                })),
              )
          );
        };
        expect(`remediation:${String(p.slug)}`, owner, json({ ...p, deploymentId: undefined }), holds);
        break;
      }
      case "ProjectSettingsSet":
        for (const { project, field, value, bySelector } of setFields(decl, projects)) {
          const key = `project:${project}:${field === "addTags" ? "tags" : field}`;
          const tags = value as string[];
          const [declared, holds]: [string, (live: string | undefined) => boolean] =
            field === "primaryBranch"
              ? [json(branchRef(String(value))), (live) => live === json(branchRef(String(value)))]
              : field === "tags"
                ? [json(value), sameSet(value)]
                : field === "addTags"
                  ? [`⊇ ${json(tags)}`, (live) => tags.every((t) => (JSON.parse(live ?? "[]") as string[]).includes(t))]
                  : [toggle(value), (live) => live === toggle(value)];
          expectations.push({ key, owner, declared, holds });
          // Tags added to a project are a share of its tag set, as a ProjectTags' are.
          claims.push({ key, owner, exclusive: field !== "addTags", bySelector, bySetSelector: bySelector });
        }
        break;
      case "SbomExport":
        break;
    }
  }
  // The access kinds (access-model.ts): teams, product settings, notification rules, org roles.
  const access = accessDeclarations(program);
  expectations.push(...access.expectations);
  claims.push(...access.claims);
  return { expectations, claims };
}

/** An exception as the emulator stores it. */
function storedException(e: Record<string, string | undefined>) {
  return {
    exceptionType: e.exceptionType,
    ...(e.projectName !== undefined ? { project: e.projectName } : {}),
    ...(e.projectTagName !== undefined ? { projectTagName: e.projectTagName } : {}),
    rule: e.rule,
    ruleType: e.ruleType,
  };
}

/** A value two resources of the program declare. */
export interface Conflict {
  key: string;
  owners: string[];
  /**
   * The preview must fail: every conflict of a generated program, selectors included (a check
   * that finds a selector beside another resource on its policy lists the policy), since no input
   * of one is unknown at preview.
   */
  atPreview: boolean;
}

/** The values two resources of the program declare (promise 3). */
export function conflicts(program: Program, rules: readonly WorldRule[], projects: readonly WorldProject[] = []): Conflict[] {
  const byKey = new Map<string, Claim[]>();
  for (const claim of declarations(program, rules, projects).claims) byKey.set(claim.key, [...(byKey.get(claim.key) ?? []), claim]);
  const found: Conflict[] = [];
  for (const [key, claims] of byKey) {
    const owners = [...new Set(claims.map((c) => c.owner))];
    if (owners.length < 2 || !claims.some((c) => c.exclusive)) continue;
    // Until known-defects.ts drops the entry, a set's selector conflict is expected refused by the up, not its preview.
    found.push({ key, owners, atPreview: !claims.some((c) => c.bySetSelector) || choiceAllowed("set-selector-conflict-at-preview") });
  }
  return found;
}

/**
 * The texts promise 4 must never find in clear: the strings of secret inputs that hold `SECRET`,
 * and the rule paths of secret `modes` (their keys), unless some input in clear names them too, or
 * a selector in clear matches them. A selector does not make clear a rule another resource
 * declares in a secret input (issue 34, item 1): the two conflict, and the selector's refusal
 * must not name the rule, whose secrecy travels with the other resource's claim.
 */
export function secretTexts(program: Program, rules: readonly WorldRule[]): { secret: string[]; clear: Set<string> } {
  const inSecret = new Set<string>();
  const inClear = new Set<string>();
  const strings = (value: unknown, into: Set<string>): Set<string> => {
    if (typeof value === "string") into.add(value);
    else if (Array.isArray(value)) value.forEach((v) => strings(v, into));
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) {
        into.add(k);
        strings(v, into);
      }
    return into;
  };
  const secretOf = (decl: Decl) =>
    strings(
      decl.secret.map((key) => decl.props[key]),
      new Set<string>(),
    );
  /** Rules `decl` declares through a secret input. */
  const secretRules = (decl: Decl) => {
    const texts = secretOf(decl);
    return [...rulesOf(decl, rules).keys()].filter((path) => texts.has(path));
  };
  // A notification rule's URL is a secret even given in clear (and the preset rule's, once a program adopts it).
  const urls = new Set(program.flatMap(alwaysSecret));
  if (program.some((d) => d.kind === "NotificationRule" && d.props.name === PRESET_RULE)) urls.add(PRESET_WEBHOOK_URL);
  for (const decl of program) {
    for (const [key, value] of Object.entries(decl.props))
      for (const text of strings(value, new Set<string>())) (decl.secret.includes(key) || urls.has(text) ? inSecret : inClear).add(text);
    if (decl.kind === "PolicyRuleModes" && decl.props.select && !decl.secret.includes("select")) {
      const claimedInSecret = new Set(program.filter((other) => other !== decl).flatMap(secretRules));
      selected(rules, decl.props.select as Selector)
        .filter((path) => !claimedInSecret.has(path))
        .forEach((path) => inClear.add(path));
    }
  }
  const paths = new Set(rules.map((r) => r.path));
  return {
    secret: [...inSecret].filter((text) => !inClear.has(text) && (text.includes("SECRET") || paths.has(text) || urls.has(text))),
    clear: inClear,
  };
}

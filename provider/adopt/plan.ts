/**
 * From what was read to what the generated program declares: one ProjectSettings per project (or,
 * above the set threshold, one ProjectSettingsSet holding every project's fields), one
 * PolicyRuleModes per v1 policy, one DetectionPolicy per enabled product and one
 * RemediationPolicy per policy of a migrated deployment, each exactly as live, so that the first
 * `up` finds everything as declared and writes nothing.
 *
 * Every declaration passes the kind's own `check` schema before it is written: a live value the
 * program could not declare (a tag the resource refuses, a rule path that is not one) is left out
 * with a note saying why, never written into a program whose preview would fail.
 */
import { isDeepStrictEqual } from "node:util";
import { POLICY_MODES, type PolicyMode, type Project, rulePath, withoutSystemTags } from "../client/schemas";
import { liveManagedScans } from "../core/handlers/projects";
import { exceptionsOf, exceptionKey, keyString } from "../core/kinds/detection-exceptions";
import { inputSchema, type ResourceKind } from "../core/kinds";
import { remediationPolicyState } from "../core/kinds/remediation-policy";
import type { LiveDeployment } from "./read";
import { uniqueNames } from "./names";
import { planAccess, type AccessPlan } from "./plan-access";

type Args = Record<string, unknown>;

/** One resource of the generated program: its name, its arguments (without the deployment's), and notes for a reader. */
export interface Declared {
  name: string;
  args: Args;
  /** Why a live value is not declared (a comment beside the resource). */
  notes: string[];
  /**
   * The one of `notes` that most projects share (a primary branch left out for being the default
   * branch, or none): the summary counts these in one line instead of listing each.
   */
  commonNote?: string;
}

/** A v1 policy's rule modes: one PolicyRuleModes, its `modes` in a data file of its own. */
export interface DeclaredRuleModes extends Declared {
  policyId: string;
  policyName: string;
  modes: Record<string, PolicyMode>;
}

export interface AdoptionPlan extends AccessPlan {
  deployment: LiveDeployment["deployment"];
  /** The projects, each as a ProjectSettings would declare it (a ProjectSettingsSet's entry holds the same fields). */
  projects: Declared[];
  /**
   * Present when the projects are declared as one ProjectSettingsSet (more of them than the set
   * threshold, `--one-per-project` not given): the set's resource name. Absent: one ProjectSettings each.
   */
  projectSet?: { name: string };
  ruleModes: DeclaredRuleModes[];
  detectionPolicies: Declared[];
  remediationPolicies: Declared[];
  /** Areas the deployment does not have (a migrated deployment has no v1 policies), for the summary. */
  absent: string[];
  /** Objects not declared at all, and why (a required value the resource refuses). */
  leftOut: string[];
}

/** Projects above which adopt declares a deployment's projects as one ProjectSettingsSet (`--set-threshold`). */
export const DEFAULT_SET_THRESHOLD = 100;

/** The resource name of the ProjectSettingsSet adopt writes (`--2` if a policy already has it, in the one namespace of a YAML program). */
export const PROJECT_SET_NAME = "projects";

/** How the projects are declared: see {@link AdoptionPlan.projectSet}. */
export interface ProjectForm {
  /** Above this many projects, one ProjectSettingsSet; default {@link DEFAULT_SET_THRESHOLD}. */
  setThreshold?: number;
  /** One ProjectSettings per project whatever their number. */
  onePerProject?: boolean;
  /** A UserRole for every user (`--all-users`), not only the org admins. */
  allUsers?: boolean;
}

/** Code-point order: the same on every machine and locale (localeCompare is not), so the output is. */
export const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (values: readonly string[]) => [...values].sort(codePointOrder);

export function planAdoption(live: LiveDeployment, form: ProjectForm = {}): AdoptionPlan {
  const { deployment } = live;
  const absent = [
    ...(live.policies === undefined && live.unified !== undefined ? ["v1 policies (the deployment uses unified policies)"] : []),
    ...(live.unified === undefined && live.policies !== undefined ? ["unified policies (the deployment still uses v1 policies)"] : []),
  ];
  const leftOut: string[] = (live.goneProjects ?? []).map(
    (name) => `project ${name}: listed, then gone when adopt read it (deleted meanwhile)`,
  );
  const projects = live.projects ? planProjects(deployment.slug, live.projects, leftOut) : [];
  const ruleModes = live.policies ? planRuleModes(live.policies) : [];
  const detectionPolicies = live.unified ? planDetection(deployment.id, live.unified.detection, leftOut) : [];
  const remediationPolicies = live.unified ? planRemediation(deployment.id, live.unified.remediation, leftOut) : [];
  const asSet = !form.onePerProject && projects.length > (form.setThreshold ?? DEFAULT_SET_THRESHOLD);
  // A YAML program's resource names share one namespace: the set's must not be a policy's.
  const taken = new Set([...ruleModes, ...detectionPolicies, ...remediationPolicies].map((d) => d.name));
  let setName = PROJECT_SET_NAME;
  for (let n = 2; taken.has(setName); n++) setName = `${PROJECT_SET_NAME}--${n}`;
  // The access settings' names come after every other (so those stay as they were), none taking one of them.
  for (const name of [setName, ...projects.map((p) => p.name)]) taken.add(name);
  const access = planAccess(live, taken, leftOut, { allUsers: form.allUsers ?? false });
  return {
    ...access,
    deployment,
    projects,
    ...(asSet ? { projectSet: { name: setName } } : {}),
    ruleModes,
    detectionPolicies,
    remediationPolicies,
    absent,
    leftOut,
  };
}

/** A ProjectSettingsSet's `projects` map: each project's declared fields (those of its ProjectSettings but the name), by project name, sorted. */
export function projectEntries(projects: readonly Declared[]): Record<string, Args> {
  return Object.fromEntries(
    projects.map(({ args: { projectName, ...fields } }) => [String(projectName), fields] as const).sort(([a], [b]) => codePointOrder(a, b)),
  );
}

/**
 * The arguments as `check` takes them, or, field by field, without those it refuses (each named
 * in a note). Undefined when a field the resource cannot go without is refused.
 */
export function declarable(
  kind: ResourceKind,
  identity: Args,
  wanted: Args,
  notes: string[],
  leftOut: string[],
  what: string,
): Args | undefined {
  const args = { ...wanted };
  for (;;) {
    const parsed = inputSchema(kind).safeParse({ ...identity, ...args });
    const refused = parsed.success ? [] : [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))];
    const changed = parsed.success ? Object.keys(args).filter((field) => !isDeepStrictEqual(parsed.data[field], args[field])) : [];
    const dropped = [...refused, ...changed];
    if (!dropped.length) return args;
    for (const field of dropped) {
      if (!(field in args)) {
        leftOut.push(`${what}: ${[...notes, `${field || "inputs"}: ${issueMessage(parsed, field)}`].join("; ")}`);
        return undefined; // an identity field or a required one: the resource cannot be declared
      }
      notes.push(`${field} left out: the live value ${JSON.stringify(args[field])} cannot be declared (${issueMessage(parsed, field)})`);
      delete args[field];
    }
  }
}

/** What `check` says of a field, or why an accepted value is still not the live one. */
function issueMessage(parsed: ReturnType<ReturnType<typeof inputSchema>["safeParse"]>, field: string): string {
  const issue = parsed.success ? undefined : parsed.error.issues.find((i) => String(i.path[0] ?? "") === field);
  return issue ? issue.message : "the resource would write it in another form";
}

function planProjects(deploymentSlug: string, projects: readonly Project[], leftOut: string[]): Declared[] {
  const byName = [...projects].sort((a, b) => codePointOrder(a.name, b.name));
  const names = uniqueNames(byName.map((p) => p.name));
  return byName.flatMap((project, index): Declared[] => {
    const primary = project.primary_branch ?? undefined;
    const branch = primary !== undefined && primary !== project.default_branch ? { primaryBranch: primary } : {};
    const shown = primary ?? project.default_branch;
    const commonNote =
      "primaryBranch" in branch
        ? undefined
        : shown
          ? `primaryBranch left out: ${shown} is also the default branch, and the service does not say whether the project ` +
            `follows it ("None") or is pinned to it ("${shown}")`
          : "primaryBranch left out: the service gives none";
    const notes = commonNote ? [commonNote] : [];
    const wanted = { ...branch, tags: sorted(withoutSystemTags(project.tags)), managedScanConfig: liveManagedScans(project) };
    const args = declarable(
      "ProjectSettings",
      { deploymentSlug, projectName: project.name },
      wanted,
      notes,
      leftOut,
      `project ${project.name}`,
    );
    return args
      ? [{ name: names[index]!, args: { projectName: project.name, ...args }, notes, ...(commonNote ? { commonNote } : {}) }]
      : [];
  });
}

function planRuleModes(policies: NonNullable<LiveDeployment["policies"]>): DeclaredRuleModes[] {
  const byId = [...policies].sort((a, b) => Number(a.policy.id) - Number(b.policy.id));
  const names = uniqueNames(byId.map(({ policy }) => policy.slug || policy.name || `policy-${policy.id}`));
  return byId.map(({ policy, rules }, index) => {
    const notes: string[] = [];
    const modes: Record<string, PolicyMode> = {};
    // The modes listed for each path: a path listed twice with two modes has no one live mode to
    // declare (and taking the last would make the program depend on the listing's order).
    const listed = new Map<string, Set<string>>();
    for (const rule of rules) listed.set(rule.path, (listed.get(rule.path) ?? new Set()).add(rule.policyMode as string));
    for (const path of sorted([...listed.keys()])) {
      const found = sorted([...listed.get(path)!]);
      if (!rulePath.safeParse(path).success) notes.push(`rule ${JSON.stringify(path)} left out: not a rule path PolicyRuleModes takes`);
      else if (found.length > 1)
        notes.push(`rule ${path} left out: listed with ${found.length} modes (${found.join(", ")}), so none is the live one`);
      else if (!(POLICY_MODES as readonly string[]).includes(found[0]!))
        notes.push(`rule ${path} left out: its mode ${found[0]} is not one PolicyRuleModes sets`);
      else modes[path] = found[0] as PolicyMode;
    }
    return {
      name: names[index]!,
      policyId: String(policy.id),
      policyName: policy.name,
      args: { policyId: String(policy.id) },
      modes,
      notes,
    };
  });
}

function planDetection(deploymentId: string, summary: NonNullable<LiveDeployment["unified"]>["detection"], leftOut: string[]): Declared[] {
  const products = (["code", "secrets"] as const).filter((product) => summary[product] !== undefined);
  return products.flatMap((product): Declared[] => {
    const { bundle } = summary[product]!;
    const notes: string[] = [];
    const exceptions = exceptionsOf(bundle.exceptions).sort((a, b) =>
      codePointOrder(keyString(exceptionKey(a)), keyString(exceptionKey(b))),
    );
    const wanted = {
      ...(product === "secrets" && !bundle.rulesets.length ? {} : { rulesets: sorted(bundle.rulesets) }),
      rules: sorted(bundle.rules),
      disabled: sorted(bundle.disabled),
      exceptions,
    };
    const args = declarable("DetectionPolicy", { deploymentId, product }, wanted, notes, leftOut, `the ${product} detection policy`);
    return args ? [{ name: `detection-${product}`, args: { product, ...args }, notes }] : [];
  });
}

function planRemediation(
  deploymentId: string,
  state: NonNullable<LiveDeployment["unified"]>["remediation"],
  leftOut: string[],
): Declared[] {
  const policies = [...state.bundle.policies].sort((a, b) => codePointOrder(a.slug, b.slug));
  const names = uniqueNames(policies.map((p) => p.slug));
  return policies.flatMap((policy, index): Declared[] => {
    const notes: string[] = [];
    const { name, description, active, filters, actions } = remediationPolicyState(policy);
    const wanted = { policyName: name, description, active, filters, actions };
    const args = declarable(
      "RemediationPolicy",
      { deploymentId, slug: policy.slug },
      wanted,
      notes,
      leftOut,
      `remediation policy ${policy.slug}`,
    );
    return args ? [{ name: names[index]!, args: { slug: policy.slug, ...args }, notes }] : [];
  });
}

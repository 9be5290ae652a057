/**
 * The edits a user makes to a program, each a pure function of the program and a number (the
 * generator's choice, shrunk towards 0): add, change, remove a resource; rename it with or without
 * an alias; move a rule or a tag between kinds; declare a value another resource declares; drop
 * a field; give an input as a secret; add two resources declaring one value, one or both in
 * secret. Choices prefer values no other resource declares, so that most steps run an `up`;
 * `overlap` and `secret-conflict` alone make conflicts on purpose.
 */
import { seededRandom } from "../../provider/emulator/random";
import { chance, pick, type Random, subset } from "./choices";
import { type Decl, declarations, identity, type Kind, KINDS, type Program, rulesOf, selected, type Selector } from "./model";
import { moveToSet, newSetProps, setOverlap, setSelect } from "./set-edits";
import { accessOverlap, moveMember, moveProject, newAccessProps } from "./access-edits";
import {
  BRANCHES,
  MODES,
  PROJECTS,
  REGISTRY_RULES,
  REMEDIATION_SLUGS,
  REPOSITORY_IDS,
  RULESETS,
  SECRET_EXCLUDE,
  TAGS,
  type WorldProject,
  type WorldRule,
} from "./world";
import { secretConflict } from "./secret-conflicts";

/** The selectors the programs use: each matches some of the 40 rules, several overlap. */
const SELECTORS: Selector[] = [
  { severities: ["SEVERITY_CRITICAL"] },
  { languages: ["go"] },
  { categories: ["best-practice"] },
  { rulePathPrefixes: ["python."] },
  { severities: ["SEVERITY_HIGH"], languages: ["typescript"] },
  { languages: ["kotlin", "rust"] },
];

/** The edit kinds, as KNOWN_DEFECTS and the report name them. */
export const EDIT_KINDS = [
  "add",
  "change",
  "remove",
  "rename",
  "rename-alias",
  "move-rule",
  "move-tag",
  "overlap",
  "overlap-selector",
  "selector-only",
  "selector-broad",
  "drop-field",
  "secret",
  "secret-select",
  "invalid-secret",
  "secret-conflict",
  "set-move",
  "set-select",
  "set-overlap",
  "team-move-member",
  "team-move-project",
  "access-overlap",
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/**
 * The steps of a workflow besides edits: a change made on the service then `refresh`; an `up`
 * cut short as a CI runner cancels a job (`interrupt`: SIGINT, SIGTERM, SIGKILL) or by SIGKILL
 * (`kill`), each followed by the README's recovery; `destroy`; a project created out of band, or
 * one's team tag changed there, so that a set's selector starts or stops matching it, then `up`
 * (`project-out-of-band`).
 */
export const OTHER_STEPS = ["out-of-band", "interrupt", "kill", "destroy", "project-out-of-band"] as const;
export type StepKind = EditKind | (typeof OTHER_STEPS)[number];

/** What the world offers a new resource, and what the program already declares. */
export interface Context {
  rules: readonly WorldRule[];
  /** The deployment's projects now (what a set's selector matches). */
  projects: readonly WorldProject[];
  /** A fresh name for a resource of `kind`. */
  name(kind: Kind): string;
}

export const claimedKeys = (program: Program, ctx: Context) =>
  new Set(declarations(program, ctx.rules, ctx.projects).claims.map((c) => c.key));

/** New inputs of a resource of `kind` (identity included), preferring values `program` does not declare yet. */
export function newProps(kind: Kind, r: Random, program: Program, ctx: Context): Record<string, unknown> {
  const taken = claimedKeys(program, ctx);
  const free = <T>(items: readonly T[], key: (item: T) => string) => items.filter((i) => !taken.has(key(i)));
  const project = pick(r, PROJECTS);
  const base = identity(kind);
  switch (kind) {
    case "ProjectSettings": {
      const props: Record<string, unknown> = { ...base, projectName: project };
      if (chance(r, 0.6)) props.primaryBranch = pick(r, BRANCHES);
      if (chance(r, 0.4)) props.tags = subset(r, TAGS);
      if (chance(r, 0.4) || Object.keys(props).length === 2)
        props.managedScanConfig = { [pick(r, ["diffScan", "fullScan"])]: { enabled: chance(r) } };
      return props;
    }
    case "ProjectTags":
      return { ...base, projectName: project, tags: subset(r, TAGS, 2) };
    case "ManagedScan":
      return { ...base, projectName: project, [pick(r, ["diffScan", "fullScan"])]: { enabled: chance(r) } };
    case "PolicyRuleMode": {
      const rules = free(ctx.rules, (rule) => `rule:${rule.path}`);
      return { ...base, rulePath: pick(r, rules.length ? rules : ctx.rules).path, mode: pick(r, MODES) };
    }
    case "PolicyRuleModes": {
      const rules = free(ctx.rules, (rule) => `rule:${rule.path}`);
      const props: Record<string, unknown> = { ...base };
      if (chance(r, 0.7) || !rules.length)
        props.modes = Object.fromEntries(subset(r, rules.length ? rules : ctx.rules, 3).map((rule) => [rule.path, pick(r, MODES)]));
      else Object.assign(props, selectorOnly(r, taken, ctx));
      return props;
    }
    case "SbomExport":
      return {
        ...base,
        repositoryId: pick(r, REPOSITORY_IDS),
        ref: "refs/heads/main",
        ...(chance(r) ? { triggers: [`v${Math.floor(r() * 3)}`] } : {}),
      };
    case "DetectionPolicy": {
      const product = pick(r, ["code", "code", "secrets"]);
      const props: Record<string, unknown> = { ...base, product };
      if (product === "code" && chance(r)) props.rulesets = subset(r, RULESETS, 2);
      if (chance(r, 0.4)) props.rules = subset(r, REGISTRY_RULES, 2);
      if (chance(r, 0.4) || Object.keys(props).length === 2)
        props.disabled = chance(r, 0.2)
          ? []
          : subset(
              r,
              ctx.rules.map((x) => x.path),
              2,
            );
      if (chance(r, 0.2)) props.exceptions = [exception(r, product)];
      return props;
    }
    case "DetectionPolicyException":
      return { ...base, product: "code", ...exception(r, "code") };
    case "RemediationPolicy": {
      const slugs = free(REMEDIATION_SLUGS, (slug) => `remediation:${slug}`);
      const slug = pick(r, slugs.length ? slugs : REMEDIATION_SLUGS);
      const props: Record<string, unknown> = {
        ...base,
        slug,
        policyName: `Workflow ${slug} ${Math.floor(r() * 3)}`,
        filters: {
          mode: pick(r, ["all", "any"]),
          conditions: [
            { type: "severity", values: subset(r, ["critical", "high", "medium"], 2) },
            ...(chance(r)
              ? [
                  {
                    type: "repository_tag",
                    values: [pick(r, ["pci", "SECRET-team"])],
                    ...(chance(r) ? { mode: pick(r, ["none", "any"]) } : {}),
                  },
                ]
              : []),
          ],
        },
        actions: chance(r)
          ? [{ type: "pr_comment" }, { type: "block" }]
          : [{ type: "jira", config: { project_id: pick(r, ["SEC", "SECRETPROJ"]), credential_slug: "acme-jira" } }],
      };
      if (chance(r, 0.4)) props.description = pick(r, ["Made by a workflow.", "SECRET description"]);
      if (chance(r, 0.4)) props.active = chance(r);
      return props;
    }
    case "ProjectSettingsSet":
      return newSetProps(r, taken, ctx);
    case "Team":
    case "TeamMembers":
    case "TeamProjects":
    case "DeploymentSettings":
    case "NotificationRule":
    case "UserRole":
      return newAccessProps(kind, r, program, ctx);
  }
}

/** A selector-only PolicyRuleModes's inputs: `select` and `mode`, no `modes` (case 1's form); its rules free of `taken` where a selector allows. */
function selectorOnly(r: Random, taken: Set<string>, ctx: Context): Record<string, unknown> {
  const free = SELECTORS.filter((s) => selected(ctx.rules, s).every((path) => !taken.has(`rule:${path}`)));
  const select: Selector = { ...pick(r, free.length ? free : SELECTORS) };
  if (chance(r, 0.3)) select.exclude = [SECRET_EXCLUDE];
  return { select, mode: pick(r, MODES) };
}

function exception(r: Random, product: string): Record<string, string> {
  const scope: Record<string, string> = chance(r)
    ? { projectName: pick(r, PROJECTS) }
    : { projectTagName: pick(r, ["pci", "SECRET-scope-tag"]) };
  const rule =
    product === "code"
      ? pick(r, ["p/security-audit", "python.lang.security.audit.eval-detected.eval-detected"])
      : "generic.secrets.SECRET-rule";
  return { exceptionType: pick(r, ["include", "exclude"]), ...scope, rule, ruleType: rule.startsWith("p/") ? "pack" : "rule" };
}

/** Fields an edit may drop (never identity, never a required one). */
const OPTIONAL: Record<Kind, string[]> = {
  ProjectSettings: ["primaryBranch", "tags", "managedScanConfig"],
  ProjectTags: [],
  ManagedScan: ["diffScan", "fullScan"],
  PolicyRuleMode: [],
  PolicyRuleModes: ["modes"],
  SbomExport: ["triggers"],
  DetectionPolicy: ["rulesets", "rules", "disabled", "exceptions"],
  DetectionPolicyException: [],
  RemediationPolicy: ["description", "active"],
  ProjectSettingsSet: ["projects", "restoreOnDelete"],
  Team: ["members", "projects"],
  TeamMembers: [],
  TeamProjects: [],
  DeploymentSettings: ["sast", "sca", "secrets", "ai", "hasDeveloperTriage", "approversTag"],
  // Not `config`: a webhook needs its URL.
  NotificationRule: ["policySlugs", "enabled", "sendScanCompletion", "plainConfigKeys"],
  UserRole: [],
};
/** Inputs that hold values worth hiding (never identity inputs, which are part of the id). */
const SECRETABLE: Record<Kind, string[]> = {
  ProjectSettings: ["primaryBranch", "tags", "managedScanConfig"],
  ProjectTags: ["tags"],
  ManagedScan: ["diffScan", "fullScan"],
  PolicyRuleMode: ["mode"],
  PolicyRuleModes: ["modes", "select", "mode"],
  SbomExport: ["triggers"],
  DetectionPolicy: ["rulesets", "rules", "disabled", "exceptions"],
  DetectionPolicyException: [],
  RemediationPolicy: ["description", "filters", "actions", "policyName"],
  ProjectSettingsSet: ["projects", "settings"],
  Team: ["members", "projects"],
  TeamMembers: ["members"],
  TeamProjects: ["projects"],
  DeploymentSettings: ["sca", "secrets", "approversTag"],
  NotificationRule: ["config", "policySlugs"],
  UserRole: ["role"],
};
const IDENTITY = [
  "deploymentSlug",
  "deploymentId",
  "policyId",
  "projectName",
  "rulePath",
  "product",
  "slug",
  "rule",
  "ruleType",
  "projectTagName",
  // The access kinds': a Team's and a NotificationRule's name (the team or rule it adopts), the team and user of the others.
  "name",
  "teamId",
  "userId",
];

/** A program edit: the new program and what it did, in words (for the printed sequence). */
export interface Edited {
  program: Program;
  said: string;
  /** The edit makes the program invalid (a typo in a secret input): its preview must fail, and print no secret. */
  invalid?: boolean;
}

const replaceAt = (program: Program, index: number, decl: Decl | undefined): Program =>
  decl ? program.map((d, i) => (i === index ? decl : d)) : program.filter((_, i) => i !== index);

/** Applies edit `kind` with choice `n`; undefined when it does not apply to this program (the generator skips it). */
export function applyEdit(kind: EditKind, n: number, program: Program, ctx: Context): Edited | undefined {
  const r = seededRandom(n + 1);
  const at = program.length ? Math.floor(r() * program.length) : -1;
  const target = program[at];
  const strip = (decl: Decl): Decl => ({ ...decl, alias: undefined, dependsOn: undefined });
  switch (kind) {
    case "add": {
      const k = KINDS[n % KINDS.length]!;
      const decl: Decl = { kind: k, name: ctx.name(k), props: newProps(k, r, program, ctx), secret: [] };
      return { program: [...program.map(strip), decl], said: `add ${k} "${decl.name}"` };
    }
    case "change": {
      if (!target) return undefined;
      const fresh = newProps(target.kind, r, replaceAt(program, at, undefined), ctx);
      const drawnFor = fresh.product;
      for (const key of IDENTITY) if (key in target.props) fresh[key] = target.props[key];
      for (const key of IDENTITY) if (!(key in target.props)) delete fresh[key];
      // Drawn for the other product: its rulesets and exceptions would not fit this one (a secrets policy takes no rulesets).
      if (target.kind === "DetectionPolicy" && drawnFor !== fresh.product) {
        delete fresh.rulesets;
        delete fresh.exceptions;
        if (!["rules", "disabled"].some((f) => f in fresh)) fresh.disabled = [];
      }
      const secret = target.secret.filter((s) => s in fresh);
      return {
        program: replaceAt(program.map(strip), at, { ...target, props: fresh, secret }),
        said: `change ${target.kind} "${target.name}"`,
      };
    }
    case "remove":
      if (!target) return undefined;
      return { program: replaceAt(program.map(strip), at, undefined), said: `remove ${target.kind} "${target.name}"` };
    case "rename":
    case "rename-alias": {
      if (!target) return undefined;
      const renamed: Decl = { ...target, name: `${target.name}-r`, alias: kind === "rename-alias" ? target.name : undefined };
      return {
        program: replaceAt(program.map(strip), at, renamed),
        said: `rename ${target.kind} "${target.name}" to "${renamed.name}"${kind === "rename-alias" ? " with an alias" : " without an alias"}`,
      };
    }
    // With nothing to move yet, the move adds what it would move from (the next move moves it).
    case "move-rule":
      return moveRule(r, program.map(strip), ctx) ?? addRulesToMove(r, program.map(strip), ctx);
    case "move-tag":
      return moveTag(r, program.map(strip), ctx) ?? applyEdit("add", KINDS.indexOf("ProjectTags") + 9 * n, program, ctx);
    case "overlap":
    case "overlap-selector":
      return overlap(r, program.map(strip), ctx, kind === "overlap-selector");
    case "selector-only": {
      const decl: Decl = {
        kind: "PolicyRuleModes",
        name: ctx.name("PolicyRuleModes"),
        props: { ...identity("PolicyRuleModes"), ...selectorOnly(r, claimedKeys(program, ctx), ctx) },
        secret: [],
      };
      return {
        program: [...program.map(strip), decl],
        said: `add selector-only PolicyRuleModes "${decl.name}" ${JSON.stringify(decl.props.select)} → ${String(decl.props.mode)}`,
      };
    }
    // Many writes in one create (most of the policy's 40 rules): the edit a cut `up` applies most.
    case "selector-broad": {
      const taken = claimedKeys(program, ctx);
      const exclude = ctx.rules.filter((rule) => taken.has(`rule:${rule.path}`)).map((rule) => rule.path);
      const select: Selector = {
        severities: [...new Set(ctx.rules.map((rule) => rule.severity))].sort(),
        ...(exclude.length ? { exclude } : {}),
      };
      const decl: Decl = {
        kind: "PolicyRuleModes",
        name: ctx.name("PolicyRuleModes"),
        props: { ...identity("PolicyRuleModes"), select, mode: pick(r, MODES) },
        secret: [],
      };
      return {
        program: [...program.map(strip), decl],
        said: `add PolicyRuleModes "${decl.name}" selecting every rule no other resource declares (${selected(ctx.rules, select).length}) → ${String(decl.props.mode)}`,
      };
    }
    case "drop-field": {
      const candidates = program.flatMap((d, i) => OPTIONAL[d.kind].filter((f) => f in d.props).map((f) => [i, f] as const));
      const chosen = candidates.length ? pick(r, candidates) : undefined;
      if (!chosen) return undefined;
      const [i, field] = chosen;
      const decl = program[i]!;
      const props = Object.fromEntries(Object.entries(decl.props).filter(([k]) => k !== field));
      const { expectations } = declarations([{ ...decl, props }], ctx.rules, ctx.projects);
      if (!expectations.length && decl.kind !== "SbomExport" && decl.kind !== "PolicyRuleModes" && decl.kind !== "ProjectSettingsSet")
        return undefined; // would declare nothing (refused at check)
      if ((decl.kind === "PolicyRuleModes" || decl.kind === "ProjectSettingsSet") && !props.select) return undefined;
      return {
        program: replaceAt(program.map(strip), i, { ...decl, props, secret: decl.secret.filter((s) => s !== field) }),
        said: `drop ${field} of ${decl.kind} "${decl.name}"`,
      };
    }
    case "invalid-secret":
      return invalidSecret(r, program.map(strip), ctx);
    case "set-move":
      return moveToSet(r, program.map(strip), ctx);
    case "set-select":
      return setSelect(r, program.map(strip), ctx);
    case "set-overlap":
      return setOverlap(r, program.map(strip), ctx);
    case "team-move-member":
      return moveMember(r, program.map(strip), ctx);
    case "team-move-project":
      return moveProject(r, program.map(strip), ctx);
    case "access-overlap":
      return accessOverlap(r, program.map(strip), ctx);
    case "secret-conflict": {
      const { added, said } = secretConflict(r, program.map(strip), ctx);
      return { program: [...program.map(strip), ...added], said };
    }
    case "secret":
    case "secret-select": {
      const candidates = program.flatMap((d, i) =>
        SECRETABLE[d.kind]
          .filter(
            (f) => f in d.props && !d.secret.includes(f) && (kind === "secret-select") === (d.kind === "PolicyRuleModes" && f === "select"),
          )
          .map((f) => [i, f] as const),
      );
      const chosen = candidates.length ? pick(r, candidates) : undefined;
      if (!chosen) return undefined;
      const [i, field] = chosen;
      const decl = program[i]!;
      return {
        program: replaceAt(program.map(strip), i, { ...decl, secret: [...decl.secret, field] }),
        said: `give ${field} of ${decl.kind} "${decl.name}" as a secret`,
      };
    }
  }
}

/** A PolicyRuleModes with explicit `modes` (rules no other resource declares), for a later move-rule to move from. */
function addRulesToMove(r: Random, program: Program, ctx: Context): Edited {
  const taken = claimedKeys(program, ctx);
  const rules = ctx.rules.filter((rule) => !taken.has(`rule:${rule.path}`));
  const modes = Object.fromEntries(subset(r, rules.length ? rules : ctx.rules, 3).map((rule) => [rule.path, pick(r, MODES)]));
  const decl: Decl = {
    kind: "PolicyRuleModes",
    name: ctx.name("PolicyRuleModes"),
    props: { ...identity("PolicyRuleModes"), modes },
    secret: [],
  };
  return { program: [...program, decl], said: `add PolicyRuleModes "${decl.name}" (rules to move later)` };
}

/**
 * Moves one rule between a PolicyRuleModes `modes` entry and a PolicyRuleMode or another
 * PolicyRuleModes, in one edit (case 2's workflow), its mode changed more often than kept (a move usually changes it).
 */
function moveRule(r: Random, program: Program, ctx: Context): Edited | undefined {
  const withEntries = program.flatMap((d, i) =>
    d.kind === "PolicyRuleModes" && Object.keys((d.props.modes ?? {}) as object).length ? [i] : [],
  );
  const singles = program.flatMap((d, i) => (d.kind === "PolicyRuleMode" ? [i] : []));
  const toSingle = withEntries.length && (!singles.length || chance(r));
  if (toSingle) {
    const i = pick(r, withEntries);
    const from = program[i]!;
    const modes = { ...(from.props.modes as Record<string, string>) };
    const path = pick(r, Object.keys(modes));
    const mode = chance(r, 0.25)
      ? modes[path]!
      : pick(
          r,
          MODES.filter((m) => m !== modes[path]),
        );
    delete modes[path];
    const props: Record<string, unknown> = { ...from.props, modes };
    if (!Object.keys(modes).length) delete props.modes;
    const stays = Boolean(props.modes || props.select);
    const next: Program = replaceAt(program, i, stays ? { ...from, props } : undefined);
    const others = next.flatMap((d, j) => (d.kind === "PolicyRuleModes" && d.name !== from.name ? [j] : []));
    if (others.length && chance(r, 0.4)) {
      const j = pick(r, others);
      const to = next[j]!;
      const modesTo = { ...((to.props.modes ?? {}) as Record<string, string>), [path]: mode };
      const moved: Decl = { ...to, props: { ...to.props, modes: modesTo }, ...(stays ? { dependsOn: from.name } : {}) };
      return {
        program: replaceAt(next, j, moved),
        said: `move rule ${path} from the modes of PolicyRuleModes "${from.name}" into the modes of PolicyRuleModes "${to.name}" (${mode})`,
      };
    }
    // The giver hands its original over when the taker waits for it (the README's advice); a taker
    // declared first in the program, without it, takes the rule first: the giver must then warn.
    const waits = stays && chance(r);
    const decl: Decl = {
      kind: "PolicyRuleMode",
      name: ctx.name("PolicyRuleMode"),
      props: { ...identity("PolicyRuleMode"), rulePath: path, mode },
      secret: [],
      ...(waits ? { dependsOn: from.name } : {}),
    };
    return {
      program: waits ? [...next, decl] : [decl, ...next],
      said: `move rule ${path} from the modes of PolicyRuleModes "${from.name}" to new PolicyRuleMode "${decl.name}" (${mode}${waits ? ", dependsOn the giver" : ", declared first"})`,
    };
  }
  if (!singles.length) return undefined;
  const i = pick(r, singles);
  const from = program[i]!;
  const path = String(from.props.rulePath);
  const mode = chance(r, 0.25)
    ? String(from.props.mode)
    : pick(
        r,
        MODES.filter((m) => m !== from.props.mode),
      );
  const targets = program.flatMap((d, j) => (d.kind === "PolicyRuleModes" ? [j] : []));
  const without = replaceAt(program, i, undefined);
  if (targets.length && chance(r, 0.7)) {
    const j = pick(r, targets);
    const to = program[j]!;
    const moved = { ...to, props: { ...to.props, modes: { ...((to.props.modes ?? {}) as Record<string, string>), [path]: mode } } };
    return {
      program: program.map((d, k) => (k === j ? moved : d)).filter((_, k) => k !== i),
      said: `move rule ${path} from PolicyRuleMode "${from.name}" into the modes of PolicyRuleModes "${to.name}" (${mode})`,
    };
  }
  const decl: Decl = {
    kind: "PolicyRuleModes",
    name: ctx.name("PolicyRuleModes"),
    props: { ...identity("PolicyRuleModes"), modes: { [path]: mode } },
    secret: [],
  };
  return {
    program: [...without, decl],
    said: `move rule ${path} from PolicyRuleMode "${from.name}" into new PolicyRuleModes "${decl.name}" (${mode})`,
  };
}

/** Moves tags between a ProjectTags and a ProjectSettings' `tags` of the same project (the two may not both declare a project's tags). */
function moveTag(r: Random, program: Program, ctx: Context): Edited | undefined {
  const sources = program.flatMap((d, i) => (d.kind === "ProjectTags" || (d.kind === "ProjectSettings" && d.props.tags) ? [i] : []));
  if (!sources.length) return undefined;
  const i = pick(r, sources);
  const from = program[i]!;
  const project = String(from.props.projectName);
  const tags = from.props.tags as string[];
  if (from.kind === "ProjectTags") {
    // Every ProjectTags of the project gives way to the settings' whole set.
    const others = program.filter((d) => d.kind === "ProjectTags" && d.props.projectName === project);
    const all = [...new Set(others.flatMap((d) => d.props.tags as string[]))];
    const rest = program.filter((d) => !(d.kind === "ProjectTags" && d.props.projectName === project));
    const settings = rest.findIndex((d) => d.kind === "ProjectSettings" && d.props.projectName === project);
    if (settings >= 0) {
      const s = rest[settings]!;
      return {
        program: replaceAt(rest, settings, { ...s, props: { ...s.props, tags: all } }),
        said: `move tags ${JSON.stringify(all)} of project ${project} from ProjectTags into the tags of ProjectSettings "${s.name}"`,
      };
    }
    const decl: Decl = {
      kind: "ProjectSettings",
      name: ctx.name("ProjectSettings"),
      props: { ...identity("ProjectSettings"), projectName: project, tags: all },
      secret: [],
    };
    return {
      program: [...rest, decl],
      said: `move tags ${JSON.stringify(all)} of project ${project} from ProjectTags into new ProjectSettings "${decl.name}"`,
    };
  }
  const props = { ...from.props };
  delete props.tags;
  const keep = Object.keys(props).some((k) => k === "primaryBranch" || k === "managedScanConfig");
  const next = replaceAt(program, i, keep ? { ...from, props, secret: from.secret.filter((s) => s !== "tags") } : undefined);
  const decl: Decl = {
    kind: "ProjectTags",
    name: ctx.name("ProjectTags"),
    props: { ...identity("ProjectTags"), projectName: project, tags: chance(r) ? tags : tags.slice(0, 1) },
    secret: [],
  };
  if (!tags.length) return undefined;
  return {
    program: [...next, decl],
    said: `move tags of project ${project} from ProjectSettings "${from.name}" into new ProjectTags "${decl.name}"`,
  };
}

/**
 * Adds a resource declaring a value another resource of the program declares (promise 3).
 * `bySelector`: a rule one side declares through a selector (known only from the listing);
 * otherwise explicit modes, project fields or a remediation slug (known at preview).
 */
function overlap(r: Random, program: Program, ctx: Context, bySelector: boolean): Edited | undefined {
  const ruleOwners = program.filter((d) => d.kind === "PolicyRuleMode" || d.kind === "PolicyRuleModes");
  const projectOwners = bySelector ? [] : program.filter((d) => ["ProjectSettings", "ManagedScan"].includes(d.kind));
  const remediation = bySelector ? [] : program.filter((d) => d.kind === "RemediationPolicy");
  const options: Array<() => Edited | undefined> = [];
  if (ruleOwners.length)
    options.push(() => {
      const owner = pick(r, ruleOwners);
      const declared = [...rulesOf(owner, ctx.rules)];
      // Explicit on both sides, or a selector on at least one.
      const ownerBySelector = declared.filter(([, d]) => d.bySelector).map(([path]) => path);
      const explicit = declared.filter(([, d]) => !d.bySelector).map(([path]) => path);
      const rules = bySelector ? [...ownerBySelector, ...explicit] : explicit;
      if (!rules.length) return undefined;
      const path = pick(r, rules);
      const selectorSide = bySelector && !ownerBySelector.includes(path);
      const k = selectorSide ? "PolicyRuleModes" : pick(r, ["PolicyRuleMode", "PolicyRuleModes"] as const);
      const props =
        k === "PolicyRuleMode"
          ? { ...identity(k), rulePath: path, mode: pick(r, MODES) }
          : selectorSide
            ? { ...identity(k), select: { rulePathPrefixes: [path] }, mode: pick(r, MODES) }
            : { ...identity(k), modes: { [path]: pick(r, MODES) } };
      const decl: Decl = { kind: k, name: ctx.name(k), props, secret: [] };
      return {
        program: [...program, decl],
        said: `add ${k} "${decl.name}" also declaring rule ${path} (declared by ${owner.kind} "${owner.name}"${ownerBySelector.includes(path) ? " through its selector" : ""})`,
      };
    });
  if (projectOwners.length)
    options.push(() => {
      const owner = pick(r, projectOwners);
      const project = owner.props.projectName;
      const decl: Decl =
        owner.kind === "ManagedScan"
          ? {
              kind: "ProjectSettings",
              name: ctx.name("ProjectSettings"),
              props: {
                ...identity("ProjectSettings"),
                projectName: project,
                managedScanConfig: { diffScan: owner.props.diffScan, fullScan: owner.props.fullScan },
              },
              secret: [],
            }
          : { kind: "ProjectSettings", name: ctx.name("ProjectSettings"), props: { ...owner.props }, secret: [] };
      return {
        program: [...program, decl],
        said: `add ProjectSettings "${decl.name}" also declaring fields of project ${String(project)} (declared by ${owner.kind} "${owner.name}")`,
      };
    });
  if (remediation.length)
    options.push(() => {
      const owner = pick(r, remediation);
      const decl: Decl = {
        kind: "RemediationPolicy",
        name: ctx.name("RemediationPolicy"),
        props: { ...owner.props, policyName: "Another team's" },
        secret: [],
      };
      return { program: [...program, decl], said: `add RemediationPolicy "${decl.name}" with the slug of "${owner.name}"` };
    });
  return options.length ? pick(r, options)() : undefined;
}

/**
 * Adds a resource with a typo inside a secret input, as users make them: the check or the
 * service's dry run refuses it at preview, and the message must not print the secret (case 5).
 */
function invalidSecret(r: Random, program: Program, ctx: Context): Edited {
  const options: Array<[Kind, Record<string, unknown>, string]> = [
    ["PolicyRuleModes", { select: { severities: ["SEVERITY_SECRET"], exclude: [SECRET_EXCLUDE] }, mode: "MODE_BLOCK" }, "select"],
    ["PolicyRuleModes", { modes: { "acme.SECRET-rule": "BLOCK" } }, "modes"],
    [
      "RemediationPolicy",
      {
        slug: "wf-invalid",
        policyName: "Typo",
        filters: { mode: "all", conditions: [{ type: "severity", values: ["SECRET-critical"] }] },
        actions: [{ type: "pr_comment" }],
      },
      "filters",
    ],
    [
      "DetectionPolicy",
      {
        product: "code",
        exceptions: [{ exceptionType: "exclude", projectName: "acme/SECRET-no-such-project", rule: "p/ci", ruleType: "pack" }],
      },
      "exceptions",
    ],
  ];
  const [kind, props, secret] = pick(r, options);
  const decl: Decl = { kind, name: ctx.name(kind), props: { ...identity(kind), ...props }, secret: [secret] };
  return { program: [...program, decl], said: `add ${kind} "${decl.name}" with a typo in its secret ${secret}`, invalid: true };
}

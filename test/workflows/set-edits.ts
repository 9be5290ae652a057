/**
 * The edits of a program that involve ProjectSettingsSet (issue 35): a new set (explicit
 * `projects`, a selector with `settings`, or both; sometimes `restoreOnDelete: false`); a
 * project's field moved in one edit between a single resource (ProjectSettings, ProjectTags,
 * ManagedScan) and a set's `projects` map, either way; a selector edited so that it gains or
 * loses projects (a glob, a team tag or an exclusion added or dropped, its settings redrawn, the
 * selector itself added or dropped); a resource declaring a field a set declares (a conflict, on
 * purpose). Choices prefer fields no other resource declares, so that most steps run an `up`.
 */
import { chance, pick, type Random, subset } from "./choices";
import { choiceAllowed } from "./known-defects";
import type { Context, Edited } from "./edits";
import { claimedKeys } from "./edits";
import { type Decl, identity, type Kind, type Program, type ProjectSelector, selectedProjects, setFields } from "./model";
import { ADD_TAGS, BRANCHES, NAME_PATTERNS, PROJECTS, SELECTOR_TAGS, SET_PROJECTS, TAGS } from "./world";

type Entry = Record<string, unknown>;
type Settings = Record<string, unknown>;
const SCANS = ["diffScan", "fullScan"] as const;
/** The branches a set declares: "None" too once known-defects.ts no longer leaves it out. */
const SET_BRANCHES = BRANCHES.filter((b) => b !== "None" || choiceAllowed("set-follows-default-branch"));

const entriesOf = (decl: Decl) => (decl.props.projects ?? {}) as Record<string, Entry>;
const say = (value: unknown) => JSON.stringify(value);

/** The fields of an explicit entry for `project`, free of `taken` where it can: tags only for PROJECTS (whose tags no selector matches on). */
function newEntry(r: Random, project: string, taken: Set<string>): Entry {
  const free = (field: string) => !taken.has(`project:${project}:${field}`);
  const entry: Entry = {};
  if (chance(r, 0.5) && free("primaryBranch")) entry.primaryBranch = pick(r, SET_BRANCHES);
  if ((PROJECTS as readonly string[]).includes(project) && chance(r, 0.4) && free("tags")) entry.tags = subset(r, TAGS, 2);
  const scan = pick(r, SCANS);
  if (!Object.keys(entry).length || chance(r, 0.4)) entry.managedScanConfig = { [scan]: { enabled: chance(r) } };
  return entry;
}

/** A selector and its settings; of a few drawn, the first whose projects' fields no other resource declares. */
function newSelection(r: Random, taken: Set<string>, ctx: Context): { select: ProjectSelector; settings: Settings } {
  let first: { select: ProjectSelector; settings: Settings } | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const select: ProjectSelector = {};
    const by = pick(r, ["names", "names", "tags", "both"] as const);
    if (by !== "tags") select.namePatterns = subset(r, NAME_PATTERNS, 2);
    if (by !== "names") select.tags = subset(r, SELECTOR_TAGS, 2);
    const matched = selectedProjects(select, ctx.projects);
    if (matched.length > 1 && chance(r, 0.3)) select.exclude = [pick(r, matched)];
    const settings: Settings = {};
    if (chance(r, 0.6)) settings.managedScanConfig = { [pick(r, SCANS)]: { enabled: chance(r) } };
    if (chance(r, 0.4)) settings.addTags = subset(r, ADD_TAGS, 2);
    if (chance(r, 0.3) || !Object.keys(settings).length) settings.primaryBranch = pick(r, SET_BRANCHES);
    const drawn = { select, settings };
    first ??= drawn;
    const decl: Decl = { kind: "ProjectSettingsSet", name: "", props: { ...identity("ProjectSettingsSet"), ...drawn }, secret: [] };
    const clash = setFields(decl, ctx.projects).some(
      (f) => f.field !== "addTags" && taken.has(`project:${f.project}:${f.field === "tags" ? "tags" : f.field}`),
    );
    if (!clash) return drawn;
  }
  return first!;
}

/** New inputs of a ProjectSettingsSet: explicit projects, a selector, or both. */
export function newSetProps(r: Random, taken: Set<string>, ctx: Context): Record<string, unknown> {
  const props: Record<string, unknown> = { ...identity("ProjectSettingsSet") };
  const explicit = chance(r, 0.6);
  if (explicit) Object.assign(props, explicitSet(r, taken));
  if (!explicit || chance(r, 0.4)) Object.assign(props, newSelection(r, taken, ctx));
  if (chance(r, 0.25)) props.restoreOnDelete = false;
  return props;
}

const isSingle = (d: Decl) => d.kind === "ProjectSettings" || d.kind === "ManagedScan" || d.kind === "ProjectTags";

/** The fields of a single resource that can move, each as a set entry gives it. */
function movable(d: Decl): Array<{ field: string; entry: Entry }> {
  const p = d.props;
  if (d.kind === "ProjectTags") return [{ field: "tags", entry: { tags: p.tags } }];
  if (d.kind === "ManagedScan") {
    const config = Object.fromEntries(SCANS.filter((s) => p[s] !== undefined).map((s) => [s, p[s]]));
    return [{ field: "managedScanConfig", entry: { managedScanConfig: config } }];
  }
  return ["primaryBranch", "tags", "managedScanConfig"].filter((f) => p[f] !== undefined).map((f) => ({ field: f, entry: { [f]: p[f] } }));
}

/**
 * Moves one field of one project between a single resource and a set's `projects` map, in one
 * edit, either way (the giver drops it, the taker declares it; sometimes the taker waits for the
 * giver, as the README advises for a hand-over).
 */
export function moveToSet(r: Random, program: Program, ctx: Context): Edited | undefined {
  const singles = program.flatMap((d, i) => (isSingle(d) && movable(d).length ? [i] : []));
  const sets = program.flatMap((d, i) => (d.kind === "ProjectSettingsSet" ? [i] : []));
  const withEntries = sets.filter((i) => Object.keys(entriesOf(program[i]!)).length);
  if (singles.length && (!withEntries.length || chance(r))) return singleToSet(r, program, ctx, pick(r, singles), sets);
  if (withEntries.length) return setToSingle(r, program, ctx, pick(r, withEntries));
  // Nothing to move yet: a set with explicit projects, for a later move to move from.
  const decl: Decl = {
    kind: "ProjectSettingsSet",
    name: ctx.name("ProjectSettingsSet"),
    props: explicitSet(r, claimedKeys(program, ctx)),
    secret: [],
  };
  return {
    program: [...program, decl],
    said: `add ProjectSettingsSet "${decl.name}" ${say(decl.props.projects)} (projects to move later)`,
  };
}

/** A set of explicit projects only, free of `taken` where it can. */
function explicitSet(r: Random, taken: Set<string>): Record<string, unknown> {
  const free = SET_PROJECTS.filter((p) => ![...taken].some((key) => key.startsWith(`project:${p}:`)));
  const names = subset(r, free.length ? free : SET_PROJECTS, 2);
  return { ...identity("ProjectSettingsSet"), projects: Object.fromEntries(names.map((name) => [name, newEntry(r, name, taken)])) };
}

function singleToSet(r: Random, program: Program, ctx: Context, i: number, sets: number[]): Edited {
  const from = program[i]!;
  const project = String(from.props.projectName);
  const { field, entry: moved } = pick(r, movable(from));
  // A ProjectTags' tags become the whole set, as every ProjectTags of the project gives way (edits.ts moveTag).
  const tagsOfProject =
    from.kind === "ProjectTags"
      ? [
          ...new Set(
            program.filter((d) => d.kind === "ProjectTags" && d.props.projectName === project).flatMap((d) => d.props.tags as string[]),
          ),
        ]
      : undefined;
  const entry: Entry = tagsOfProject ? { tags: tagsOfProject } : moved;
  let next: Program;
  let stays = false;
  if (from.kind === "ProjectTags") next = program.filter((d) => !(d.kind === "ProjectTags" && d.props.projectName === project));
  else {
    const props = { ...from.props };
    if (from.kind === "ManagedScan") for (const s of SCANS) delete props[s];
    else delete props[field];
    stays = from.kind === "ProjectSettings" && ["primaryBranch", "tags", "managedScanConfig"].some((f) => props[f] !== undefined);
    const kept: Decl = { ...from, props, secret: from.secret.filter((s) => s in props) };
    next = program.flatMap((d) => (d !== from ? [d] : stays ? [kept] : []));
  }
  const waits = stays && chance(r);
  const target = sets.length && chance(r, 0.6) ? program[pick(r, sets)]! : undefined;
  if (target) {
    const entries = entriesOf(target);
    const merged = { ...entries, [project]: { ...(entries[project] ?? {}), ...entry } };
    const taker: Decl = { ...target, props: { ...target.props, projects: merged }, ...(waits ? { dependsOn: from.name } : {}) };
    return {
      program: next.map((d) => (d.name === target.name ? taker : d)),
      said: `move ${field} of project ${project} from ${from.kind} "${from.name}" into the projects of ProjectSettingsSet "${target.name}" (${say(entry)}${waits ? ", dependsOn the giver" : ""})`,
    };
  }
  const decl: Decl = {
    kind: "ProjectSettingsSet",
    name: ctx.name("ProjectSettingsSet"),
    props: { ...identity("ProjectSettingsSet"), projects: { [project]: entry } },
    secret: [],
    ...(waits ? { dependsOn: from.name } : {}),
  };
  return {
    program: [...next, decl],
    said: `move ${field} of project ${project} from ${from.kind} "${from.name}" into new ProjectSettingsSet "${decl.name}" (${say(entry)}${waits ? ", dependsOn the giver" : ""})`,
  };
}

function setToSingle(r: Random, program: Program, ctx: Context, i: number): Edited {
  const from = program[i]!;
  const entries = { ...entriesOf(from) };
  const project = pick(r, Object.keys(entries));
  const entry = { ...entries[project]! };
  const field = pick(r, Object.keys(entry));
  const value = entry[field];
  delete entry[field];
  if (Object.keys(entry).length) entries[project] = entry;
  else delete entries[project];
  const props: Record<string, unknown> = { ...from.props, projects: entries };
  if (!Object.keys(entries).length && props.select) delete props.projects;
  // A set left managing nothing is removed, or kept with `projects: {}`.
  const stays = Boolean(props.select) || chance(r);
  const giver: Decl = { ...from, props, secret: from.secret.filter((s) => s in props) };
  const next = program.flatMap((d) => (d !== from ? [d] : stays ? [giver] : []));
  const waits = stays && chance(r);
  const wait = waits ? { dependsOn: from.name } : {};
  // The taker: a single of the project that does not declare the field yet, or a new one.
  const existing = next.findIndex((d) => d.kind === "ProjectSettings" && d.props.projectName === project && d.props[field] === undefined);
  if (existing >= 0 && chance(r, 0.6)) {
    const to = next[existing]!;
    const taker: Decl = { ...to, props: { ...to.props, [field]: value }, ...wait };
    return {
      program: next.map((d, j) => (j === existing ? taker : d)),
      said: `move ${field} of project ${project} from the projects of ProjectSettingsSet "${from.name}" into ProjectSettings "${to.name}" (${say(value)}${waits ? ", dependsOn the giver" : ""})`,
    };
  }
  const kind: Kind =
    field === "managedScanConfig" && chance(r) ? "ManagedScan" : field === "tags" && chance(r, 0.3) ? "ProjectTags" : "ProjectSettings";
  const base = { ...identity(kind), projectName: project };
  const taken = kind === "ManagedScan" ? { ...base, ...(value as Record<string, unknown>) } : { ...base, [field]: value };
  const decl: Decl = { kind, name: ctx.name(kind), props: taken, secret: [], ...wait };
  return {
    program: [...next, decl],
    said: `move ${field} of project ${project} from the projects of ProjectSettingsSet "${from.name}"${stays ? "" : " (removed, nothing left)"} into new ${kind} "${decl.name}" (${say(value)}${waits ? ", dependsOn the giver" : ""})`,
  };
}

/** Adds or drops one value of a list (keeping it non-empty when `keep`), or undefined to leave the list out. */
function toggleOne<T>(r: Random, list: readonly T[] | undefined, pool: readonly T[]): T[] | undefined {
  const current = [...(list ?? [])];
  const absent = pool.filter((v) => !current.includes(v));
  if (absent.length && (current.length < 2 || chance(r))) return [...current, pick(r, absent)];
  const next = current.filter((v) => v !== pick(r, current));
  return next.length ? next : undefined;
}

/**
 * Edits a set's selector so that it gains or loses projects, or its settings, or
 * `restoreOnDelete`; adds a selector to a set without one, drops it from one with explicit
 * projects; adds a selector-only set to a program without a set.
 */
export function setSelect(r: Random, program: Program, ctx: Context): Edited | undefined {
  const sets = program.flatMap((d, i) => (d.kind === "ProjectSettingsSet" ? [i] : []));
  const taken = claimedKeys(program, ctx);
  if (!sets.length) {
    const decl: Decl = {
      kind: "ProjectSettingsSet",
      name: ctx.name("ProjectSettingsSet"),
      props: { ...identity("ProjectSettingsSet"), ...newSelection(r, taken, ctx), ...(chance(r, 0.25) ? { restoreOnDelete: false } : {}) },
      secret: [],
    };
    return {
      program: [...program, decl],
      said: `add selector ProjectSettingsSet "${decl.name}" ${say(decl.props.select)} → ${say(decl.props.settings)} (matches ${selectedProjects(decl.props.select as ProjectSelector, ctx.projects).length})`,
    };
  }
  const i = pick(r, sets);
  const set = program[i]!;
  const props = { ...set.props };
  const before = props.select ? selectedProjects(props.select as ProjectSelector, ctx.projects) : [];
  let what: string;
  if (!props.select) {
    Object.assign(props, newSelection(r, taken, ctx));
    what = `add select ${say(props.select)} → ${say(props.settings)}`;
  } else {
    const select = { ...(props.select as ProjectSelector) };
    const choice = pick(r, ["names", "tags", "exclude", "exclude", "settings", "restore", "drop"] as const);
    if (choice === "drop" && props.projects) {
      delete props.select;
      delete props.settings;
      what = "drop select and settings";
    } else if (choice === "settings") {
      props.settings = newSelection(r, taken, ctx).settings;
      what = `settings → ${say(props.settings)}`;
    } else if (choice === "restore") {
      props.restoreOnDelete = props.restoreOnDelete === false ? true : false;
      what = `restoreOnDelete → ${String(props.restoreOnDelete)}`;
    } else if (choice === "exclude") {
      const matched = selectedProjects({ ...select, exclude: undefined }, ctx.projects);
      const exclude = toggleOne(r, select.exclude, matched.length ? matched : SET_PROJECTS);
      if (exclude) select.exclude = exclude;
      else delete select.exclude;
      props.select = select;
      what = `exclude → ${say(select.exclude ?? [])}`;
    } else {
      const key = choice === "names" ? "namePatterns" : "tags";
      const list = toggleOne<string>(r, select[key], choice === "names" ? NAME_PATTERNS : SELECTOR_TAGS);
      if (list) select[key] = list;
      else delete select[key];
      // A selector keeps one criterion at least (one without would match every project: refused).
      if (!select.namePatterns && !select.tags)
        select[key === "tags" ? "namePatterns" : "tags"] = [pick(r, key === "tags" ? NAME_PATTERNS : SELECTOR_TAGS)];
      props.select = select;
      what = `select → ${say(select)}`;
    }
  }
  const after = props.select ? selectedProjects(props.select as ProjectSelector, ctx.projects) : [];
  const gained = after.filter((p) => !before.includes(p));
  const lost = before.filter((p) => !after.includes(p));
  return {
    program: program.map((d, j) => (j === i ? { ...set, props, secret: set.secret.filter((s) => s in props) } : d)),
    said: `edit ProjectSettingsSet "${set.name}": ${what} (gains ${say(gained)}, loses ${say(lost)})`,
  };
}

/**
 * Adds a resource declaring a field a set declares (a single resource on a project of the set's,
 * explicit or matched by its selector), or a set declaring a field a single resource declares
 * (in its `projects`, or through a selector naming the project): refused before any write.
 */
export function setOverlap(r: Random, program: Program, ctx: Context): Edited | undefined {
  const options: Array<() => Edited | undefined> = [];
  const sets = program.filter((d) => d.kind === "ProjectSettingsSet");
  const fields = sets.flatMap((set) =>
    setFields(set, ctx.projects)
      .filter((f) => f.field !== "addTags")
      .map((f) => ({ set, f })),
  );
  if (fields.length)
    options.push(() => {
      const { set, f } = pick(r, fields);
      const base = { ...identity("ProjectSettings"), projectName: f.project };
      const decl: Decl =
        f.field === "diffScan" || f.field === "fullScan"
          ? chance(r)
            ? { kind: "ManagedScan", name: ctx.name("ManagedScan"), props: { ...base, [f.field]: { enabled: chance(r) } }, secret: [] }
            : {
                kind: "ProjectSettings",
                name: ctx.name("ProjectSettings"),
                props: { ...base, managedScanConfig: { [f.field]: { enabled: chance(r) } } },
                secret: [],
              }
          : f.field === "tags" && chance(r)
            ? { kind: "ProjectTags", name: ctx.name("ProjectTags"), props: { ...base, tags: [pick(r, TAGS)] }, secret: [] }
            : {
                kind: "ProjectSettings",
                name: ctx.name("ProjectSettings"),
                props: { ...base, [f.field]: f.field === "tags" ? [pick(r, TAGS)] : pick(r, BRANCHES) },
                secret: [],
              };
      return {
        program: [...program, decl],
        said: `add ${decl.kind} "${decl.name}" also declaring ${f.field} of project ${f.project} (declared by ProjectSettingsSet "${set.name}"${f.bySelector ? " through its selector" : ""})`,
      };
    });
  const singles = program.filter((d) => d.kind === "ProjectSettings" || d.kind === "ManagedScan");
  if (singles.length)
    options.push(() => {
      const single = pick(r, singles);
      const project = String(single.props.projectName);
      const { field, entry } = pick(r, movable(single));
      const bySelector = field !== "tags" && chance(r);
      const settings: Settings =
        field === "primaryBranch" ? { primaryBranch: pick(r, SET_BRANCHES) } : { managedScanConfig: entry.managedScanConfig };
      const props = bySelector
        ? { ...identity("ProjectSettingsSet"), select: { namePatterns: [project] }, settings }
        : { ...identity("ProjectSettingsSet"), projects: { [project]: entry } };
      const decl: Decl = { kind: "ProjectSettingsSet", name: ctx.name("ProjectSettingsSet"), props, secret: [] };
      return {
        program: [...program, decl],
        said: `add ProjectSettingsSet "${decl.name}" also declaring ${field} of project ${project}${bySelector ? " through a selector" : ""} (declared by ${single.kind} "${single.name}")`,
      };
    });
  if (options.length) return pick(r, options)();
  // Nothing to overlap yet: a set, for a later overlap to declare a field of.
  const decl: Decl = {
    kind: "ProjectSettingsSet",
    name: ctx.name("ProjectSettingsSet"),
    props: newSetProps(r, claimedKeys(program, ctx), ctx),
    secret: [],
  };
  return { program: [...program, decl], said: `add ProjectSettingsSet "${decl.name}" (to overlap later)` };
}

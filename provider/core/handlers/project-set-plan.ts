/**
 * What a ProjectSettingsSet wants of each project and what it writes there: the declared values
 * (the selector's settings, then the explicit entries over them, field by field), compared with
 * the project's live values, into one PATCH per project and the originals it records. Pure but
 * for the journal (fields.ts planApply journals each original before the write that replaces it).
 */
import type { Project, UpdateProjectRequest } from "../../client";
import { isSystemTag, PRIMARY_BRANCH_FOLLOWS_DEFAULT, withoutSystemTags } from "../../client/schemas";
import type { ProjectEntryArgs, ProjectOriginals, ProjectSetSettingsArgs } from "../kinds/project-settings-set";
import type { Props } from "../runtime/check";
import { sameSet } from "../runtime/diff";
import { planApply, type FieldToApply } from "../runtime/fields";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import type { Declared } from "./project-set-digests";

/** The fields of a project a set manages, as claims name them (a toggle by its short name, as ManagedScan declares it). */
export const FIELDS = ["primaryBranch", "tags", "diffScan", "fullScan"] as const;
export type Field = (typeof FIELDS)[number];
type Toggle = { enabled: boolean };

/** What the set wants of one project: field values, and the tags the selector adds (none where `tags` is explicit). */
export interface Wanted {
  values: Partial<Record<Field, unknown>>;
  addTags: string[];
  /** The input each field's value comes from, for claims and secrecy. */
  from: Partial<Record<Field, "projects" | "settings">>;
}

/** A project's live values, as the set compares them (`diffScan`/`fullScan` only where it read the project on its own). */
export interface Live {
  primaryBranch: string | null;
  defaultBranch: string | null;
  /** The whole tag set, system tags included. */
  tags: string[];
  diffScan?: Toggle;
  fullScan?: Toggle;
}

export function liveOf(listed: Project, own?: Project): Live {
  const config = own?.managed_scan_config;
  return {
    primaryBranch: listed.primary_branch ?? listed.default_branch ?? null,
    defaultBranch: listed.default_branch ?? null,
    tags: [...listed.tags],
    ...(own
      ? { diffScan: { enabled: config?.diff_scan?.enabled ?? false }, fullScan: { enabled: config?.full_scan?.enabled ?? false } }
      : {}),
  };
}

/** Every managed project and what it wants: the selected projects get `settings`, then each explicit entry wins for its fields. */
export function wantedOf(declared: Props, selected: readonly string[]): Map<string, Wanted> {
  const wanted = new Map<string, Wanted>();
  const settings = declared.settings as ProjectSetSettingsArgs | undefined;
  if (declared.select && settings) {
    for (const name of selected) {
      const w: Wanted = { values: {}, addTags: [...(settings.addTags ?? [])], from: {} };
      put(w, "primaryBranch", settings.primaryBranch, "settings");
      put(w, "diffScan", settings.managedScanConfig?.diffScan, "settings");
      put(w, "fullScan", settings.managedScanConfig?.fullScan, "settings");
      wanted.set(name, w);
    }
  }
  for (const [name, entry] of Object.entries((declared.projects as Record<string, ProjectEntryArgs> | undefined) ?? {})) {
    const w = wanted.get(name) ?? { values: {}, addTags: [], from: {} };
    put(w, "primaryBranch", entry.primaryBranch, "projects");
    put(w, "diffScan", entry.managedScanConfig?.diffScan, "projects");
    put(w, "fullScan", entry.managedScanConfig?.fullScan, "projects");
    if (entry.tags !== undefined) {
      put(w, "tags", entry.tags, "projects");
      w.addTags = []; // the whole set is declared: nothing to add to it
    }
    wanted.set(name, w);
  }
  return wanted;
}

function put(w: Wanted, field: Field, value: unknown, from: "projects" | "settings") {
  if (value === undefined) return;
  w.values[field] = value;
  w.from[field] = from;
}

/** Whether `wanted` needs the project's own read: the listing has no managed-scan switches. */
export const needsOwnRead = (wanted: Wanted | undefined) => wanted?.values.diffScan !== undefined || wanted?.values.fullScan !== undefined;

/** Whether two values of `field` are the same (a ref, a tag set in any order less system tags, a toggle). */
export function same(field: Field, a: unknown, b: unknown): boolean {
  if (field === "tags") return sameSet(managedTags(a), managedTags(b));
  if (field === "primaryBranch") return a === b;
  return (a as Toggle | undefined)?.enabled === (b as Toggle | undefined)?.enabled;
}

const managedTags = (tags: unknown) => (Array.isArray(tags) ? withoutSystemTags(tags as string[]) : undefined);

/** A field's live value, as an original records it (tags less the system tags). */
function liveValue(live: Live, field: Field): unknown {
  return field === "tags" ? managedTags(live.tags) : live[field];
}

/**
 * Whether a live field holds the declared value. `"None"` (follow the default branch) is told
 * from a branch pinned to the default one only by the set's own record: it holds where the set
 * declared `"None"` for the project before (`wasNone`) and the project shows its default branch.
 */
function holds(field: Field, live: Live, wanted: unknown, wasNone: boolean): boolean {
  if (field === "primaryBranch" && wanted === PRIMARY_BRANCH_FOLLOWS_DEFAULT) return wasNone && live.primaryBranch === live.defaultBranch;
  return same(field, liveValue(live, field), wanted);
}

/** What one project's convergence does: the PATCH (none when all holds), the originals it records, what it found as declared. */
export interface ProjectPlan {
  body?: UpdateProjectRequest;
  originals?: ProjectOriginals;
  /** Fields it found as the program declares them, managed for the first time: no original recorded. */
  foundAsDeclared: Field[];
  /** Fields it put back (no longer managed). */
  putBack: Field[];
  /** Fields it changed whose value before it cannot record (a branch that may have been followed or pinned). */
  unrecordable: Field[];
}

export interface Before {
  /** What the set declared of the project before this update (absent: it did not manage it). */
  declared?: Declared;
  originals?: ProjectOriginals;
}

/** The fields an original entry records, flattened by field. */
export function originalsByField(originals: ProjectOriginals | undefined): Partial<Record<Field, unknown>> {
  const byField: Partial<Record<Field, unknown>> = {};
  if (originals?.primaryBranch !== undefined) byField.primaryBranch = originals.primaryBranch;
  if (originals?.tags !== undefined) byField.tags = originals.tags;
  if (originals?.managedScanConfig?.diffScan !== undefined) byField.diffScan = originals.managedScanConfig.diffScan;
  if (originals?.managedScanConfig?.fullScan !== undefined) byField.fullScan = originals.managedScanConfig.fullScan;
  return byField;
}

function originalsOf(byField: Partial<Record<Field, unknown>>, addedTags: readonly string[]): ProjectOriginals | undefined {
  const originals: ProjectOriginals = {};
  if (byField.primaryBranch !== undefined) originals.primaryBranch = byField.primaryBranch as string;
  if (byField.tags !== undefined) originals.tags = byField.tags as string[];
  const scans = {
    ...(byField.diffScan !== undefined ? { diffScan: byField.diffScan as Toggle } : {}),
    ...(byField.fullScan !== undefined ? { fullScan: byField.fullScan as Toggle } : {}),
  };
  if (Object.keys(scans).length) originals.managedScanConfig = scans;
  if (addedTags.length) originals.addedTags = [...addedTags].sort();
  return Object.keys(originals).length ? originals : undefined;
}

/** How the journal names a field of a project (under the input `projects`, whose secrecy it follows). */
const journalName = (project: string, field: string) => `projects.${project}.${field}`;

/**
 * Plans one project: applies what `wanted` declares (recording the value each first change
 * replaces, fields.ts planApply), puts back what it managed before and no longer does (`restore`,
 * unless another resource of the run holds the field: `heldElsewhere`), adds the selector's tags
 * the project lacks and removes those it added and no longer adds.
 */
export function planProject(
  project: string,
  wanted: Wanted | undefined,
  before: Before,
  live: Live,
  options: { restore: boolean; heldElsewhere: (field: Field | `tag ${string}`) => boolean },
): ProjectPlan {
  const name = (field: string) => journalName(project, field);
  const recorded = originalsByField(before.originals);
  const wasNone = before.declared?.wasNone ?? false;
  const fields: FieldToApply[] = FIELDS.filter((field) => wanted?.values[field] !== undefined).map((field) => {
    const want = wanted!.values[field];
    const have = liveValue(live, field);
    const follows = field === "primaryBranch" && want === PRIMARY_BRANCH_FOLLOWS_DEFAULT;
    return {
      name: name(field),
      wanted: want,
      // A project the set made follow its default branch: what a change replaces is "None", not the branch it shows.
      have: field === "primaryBranch" && wasNone && live.primaryBranch === live.defaultBranch ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : have,
      differs: !holds(field, live, want, wasNone),
      // A branch equal to the default one may have been followed or pinned: nothing to record then.
      recordable: !follows || live.primaryBranch !== live.defaultBranch,
    };
  });
  const managedBefore = FIELDS.filter((field) => before.declared?.fields.includes(field) || recorded[field] !== undefined);
  const plan = planApply(fields, {
    managed: managedBefore.map(name),
    originals: Object.fromEntries(Object.entries(recorded).map(([field, value]) => [name(field), value])),
  });
  const changes: Partial<Record<Field, unknown>> = {};
  const kept: Partial<Record<Field, unknown>> = {};
  for (const field of FIELDS) {
    if (name(field) in plan.changes) changes[field] = plan.changes[name(field)];
    if (plan.originals[name(field)] !== undefined) kept[field] = plan.originals[name(field)];
  }
  // Fields no longer managed: their originals go back (or, left to another resource or not restored, are dropped).
  const putBack: Field[] = [];
  for (const field of managedBefore) {
    if (wanted?.values[field] !== undefined || recorded[field] === undefined) continue;
    if (!options.restore || options.heldElsewhere(field)) continue;
    if (field === "primaryBranch" || !same(field, liveValue(live, field), recorded[field])) changes[field] = recorded[field];
    putBack.push(field);
  }
  const tags = planTags(project, wanted, before, live, changes, options);
  const body = request(changes, tags, live);
  return {
    ...(body ? { body } : {}),
    ...(originalsOf(kept, tags.added) ? { originals: originalsOf(kept, tags.added) } : {}),
    foundAsDeclared: fields.filter((f) => plan.foundAsDeclared.includes(f.name)).map((f) => f.name.slice(name("").length) as Field),
    putBack,
    unrecordable: fields.filter((f) => plan.unrecordable.includes(f.name)).map((f) => f.name.slice(name("").length) as Field),
  };
}

/**
 * The tag set a project ends with, where the selector adds tags: those it lacks are added (the
 * journal told first: a run killed after the write finds them and still knows them as added),
 * those added before and no longer wanted removed (unless kept: `restore` false, or another
 * resource of the run declares the tag). `set` is the tag set to write, if it changes.
 */
function planTags(
  project: string,
  wanted: Wanted | undefined,
  before: Before,
  live: Live,
  changes: Partial<Record<Field, unknown>>,
  options: { restore: boolean; heldElsewhere: (field: `tag ${string}`) => boolean },
): { set?: string[]; added: string[] } {
  const liveTags = managedTags(live.tags)!;
  const explicit = wanted?.values.tags !== undefined; // the whole set declared: nothing added or removed besides it
  const start = (changes.tags as string[] | undefined) ?? liveTags;
  const previously = before.originals?.addedTags ?? [];
  const adds = wanted?.addTags ?? [];
  const missing = adds.filter((tag) => !start.includes(tag));
  const name = (tag: string) => journalName(project, `addTag.${tag}`);
  // A tag found present that a killed run of this resource added (its journal says): still its own.
  const journaled = adds.filter((tag) => start.includes(tag) && !previously.includes(tag) && journaledOriginal(name(tag)) !== undefined);
  const dropped = previously.filter((tag) => !adds.includes(tag));
  const removed = explicit ? [] : dropped.filter((tag) => options.restore && !options.heldElsewhere(`tag ${tag}`));
  const added = [...new Set([...previously.filter((tag) => adds.includes(tag)), ...missing, ...journaled])];
  const set = [...start.filter((tag) => !removed.includes(tag)), ...missing];
  if (missing.length) journalBefore(Object.fromEntries(missing.map((tag) => [name(tag), "absent"])));
  return sameSet(set, liveTags) ? { added } : { set, added };
}

/** The PATCH body, or none: a tag set keeps the project's system tags (the service keeps them whatever it is sent). */
function request(changes: Partial<Record<Field, unknown>>, tags: { set?: string[] }, live: Live): UpdateProjectRequest | undefined {
  const body: UpdateProjectRequest = {};
  if (changes.primaryBranch !== undefined) body.primary_branch = changes.primaryBranch as string;
  const set = tags.set ?? (changes.tags as string[] | undefined);
  if (set !== undefined && !sameSet(set, managedTags(live.tags))) body.tags = [...set, ...live.tags.filter(isSystemTag)];
  const diffScan = changes.diffScan as Toggle | undefined;
  const fullScan = changes.fullScan as Toggle | undefined;
  if (diffScan || fullScan)
    body.managed_scan_config = { ...(diffScan ? { diff_scan: diffScan } : {}), ...(fullScan ? { full_scan: fullScan } : {}) };
  return Object.keys(body).length ? body : undefined;
}

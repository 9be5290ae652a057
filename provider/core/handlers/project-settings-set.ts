/**
 * ProjectSettingsSet in the provider process: the settings of many projects of one deployment as
 * one resource (explicit `projects`, and `settings` for every project `select` matches). Reads
 * are the deployment's one listing per phase (project-listing.ts) and a project's own read only
 * where it manages a managed-scan switch (the listing has none); writes are one PATCH per project
 * that changes, a few at a time (policy-rule-modes.ts eachLimited). Its state records, per
 * project, only the fields it changed and what it found there (`originals`): what destroy needs.
 */
import { isDeepStrictEqual } from "node:util";
import { NotFoundError, type Project } from "../../client";
import type { projectSettingsSetKind } from "../kinds";
import type { ProjectEntryArgs, ProjectOriginals, ProjectSetSettingsArgs } from "../kinds/project-settings-set";
import { withoutSystemTags } from "../../client/schemas";
import { selectProjects, type ProjectSelectorArgs } from "../kinds/project-selector";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import { type Checked, declaredOutputs, type DiffResult, type Handler, type Outputs, type State } from "../runtime/handler";
import { about, missingDeployment } from "../runtime/lookup";
import { groupedLines, noteLeftWithoutOriginal } from "../runtime/left-by-delete";
import { notifyOnce, someOf } from "../runtime/notices";
import { checkOwned, known } from "../runtime/owned";
import { type Claim, type Conflict, declarersOf, ownerName, Refusal, sameOwner } from "../runtime/ownership";
import { PartiallyApplied } from "../runtime/partial";
import { eachLimited } from "./policy-rule-modes";
import { projectApi } from "./project-index";
import { projectListing } from "./project-listing";
import { type Declared, declaredOf, digestsOf, entryDigest, liveEntry, managesSwitch, storedDigests } from "./project-set-digests";
import {
  type Before,
  type Field,
  FIELDS,
  liveOf,
  needsOwnRead,
  originalsByField,
  planProject,
  type ProjectPlan,
  type Wanted,
  wantedOf,
} from "./project-set-plan";
import { projectObject, tagClaim } from "./projects";

const KIND = "ProjectSettingsSet";
type Kind = typeof projectSettingsSetKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

const subject = (ctx: CallContext, props: Props) =>
  `ProjectSettingsSet ${ctx.owner?.name ?? ""} in deployment ${String(props.deploymentSlug)}`;

/** Whether the program gave the projects or the settings as secrets: messages then name no project. */
const secretSet = (ctx: CallContext) => ctx.secret("projects") || ctx.secret("settings") || ctx.secret("select");

/** `n projects (a, b, c and 7 more)`, or the count alone where the names are a secret's. */
function projectsNamed(ctx: CallContext, names: readonly string[]): string {
  const count = `${names.length} project${names.length === 1 ? "" : "s"}`;
  return names.length && !secretSet(ctx) ? `${count} (${someOf(names)})` : count;
}

/**
 * Below a preview's one-line note, every project of each list it shortened (`… and 290 more`), one
 * a line, headed by what the update does to them: the reviewer of a pull request sees each project
 * a selector change touches. None where the names are a secret's.
 */
function projectLines(ctx: CallContext, lists: ReadonlyArray<[heading: string, names: readonly string[]]>): string {
  if (secretSet(ctx)) return "";
  return groupedLines(
    "project",
    lists.filter(([, names]) => names.length > 10).map(([heading, names]) => ({ heading, items: names })),
  );
}

/** The claims on one project's fields (a toggle by its short name, as ManagedScan and ProjectSettings declare them), and its tags. */
function claimsOn(secrecy: Secrecy, slug: string, project: string, wanted: Wanted): Claim[] {
  const object = projectObject({ deploymentSlug: slug, projectName: project });
  const fields = FIELDS.filter((field) => wanted.values[field] !== undefined).map((field) => ({
    object,
    field,
    property: wanted.from[field]!,
    value: wanted.values[field],
    secret: secrecy.secret(wanted.from[field]!),
  }));
  const tags = [...((wanted.values.tags as string[] | undefined) ?? []), ...wanted.addTags];
  const secret = secrecy.secret(wanted.values.tags !== undefined ? "projects" : "settings");
  // Tags it adds are a share of the project's tags, as a ProjectTags' are: in conflict with a
  // resource that declares the whole set (a ProjectSettings' tags), beside other shares.
  const share = wanted.addTags.length ? [{ object, field: "tags", shared: true, secret: secrecy.secret("settings") }] : [];
  return [...fields, ...share, ...tags.map((tag) => tagClaim({ deploymentSlug: slug, projectName: project }, tag, secret))];
}

const claimsOf = (secrecy: Secrecy, slug: string, wanted: ReadonlyMap<string, Wanted>) =>
  [...wanted].flatMap(([project, w]) => claimsOn(secrecy, slug, project, w));

/** What its `projects` declare (its selector's projects are known only from the listing: claimed at diff and before any write). */
function explicitClaims(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentSlug, declared.projects ?? {})) return [];
  return claimsOf(secrecy, String(declared.deploymentSlug), wantedOf({ projects: declared.projects as Inputs["projects"] }, []));
}

/** The conflicts as one error (before any write), naming both resources for each. */
function refuse(ctx: CallContext, conflicts: readonly Conflict[]): Error {
  // A secret selector's matches, or a secret map's keys, are the program's secret: no project named.
  const object = (claim: Claim) => (secretSet(ctx) ? "a project [secret]" : claim.object);
  const lines = conflicts.map(
    ({ claim, other }) => `${ctx.name} declares ${claim.field} of ${object(claim)}, which ${ownerName(other)} declares too.`,
  );
  return new Refusal(
    `${lines.slice(0, 10).join(" ")}${lines.length > 10 ? ` (and ${lines.length - 10} more)` : ""} ` +
      "Declare each field of a project in one resource only: two would overwrite each other's value, " +
      "and destroying either would put back the wrong original.",
  );
}

/** The projects the selector matches in the listing, sorted. */
const selectedIn = (declared: Props, listing: ReadonlyMap<string, Project>): string[] =>
  declared.select && declared.settings
    ? selectProjects(listing.values(), declared.select as ProjectSelectorArgs)
        .map((p) => p.name)
        .sort()
    : [];

/** Whether another resource of the run declares this field (or tag) of the project. */
function heldElsewhere(ctx: CallContext, slug: string, project: string) {
  const object = projectObject({ deploymentSlug: slug, projectName: project });
  return (field: Field | `tag ${string}`) => {
    const claim: Claim = field.startsWith("tag ")
      ? tagClaim({ deploymentSlug: slug, projectName: project }, field.slice(4), false)
      : { object, field };
    return declarersOf(claim).some((holder) => !ctx.owner || !sameOwner(holder.owner, ctx.owner));
  };
}

/** The live values of the projects to plan: the listing's, and each one's own read where `ownRead` (it manages a switch). */
async function liveValues(
  slug: string,
  listing: ReadonlyMap<string, Project>,
  names: readonly string[],
  ownRead: (name: string) => boolean,
) {
  const own = new Map<string, Project>();
  const reads = names.filter((name) => listing.has(name) && ownRead(name));
  await eachLimited(reads, async (name) => void own.set(name, await projectApi(slug, name).get()));
  return new Map(names.filter((name) => listing.has(name)).map((name) => [name, liveOf(listing.get(name)!, own.get(name))]));
}

/** Explicit projects must exist (projects appear with their first scan): refused before any write. */
async function requireListed(declared: Props, listing: ReadonlyMap<string, Project>): Promise<void> {
  const missing = Object.keys((declared.projects as Record<string, ProjectEntryArgs> | undefined) ?? {}).filter((n) => !listing.has(n));
  if (!missing.length) return;
  const slug = String(declared.deploymentSlug);
  if (!listing.size) {
    const gone = await missingDeployment(slug);
    if (gone) throw gone;
  }
  throw new Error(
    `${missing.length === 1 ? "project" : "projects"} ${someOf(missing.map((n) => JSON.stringify(n)))} ` +
      `${missing.length === 1 ? "does" : "do"} not exist in deployment "${slug}" (projects appear after their first scan; check the names, e.g. "org/repo")`,
  );
}

interface Convergence {
  selected: string[];
  wanted: Map<string, Wanted>;
  /** What the state keeps of the explicit projects (project-set-digests.ts). */
  digests: Record<string, string>;
  plans: Map<string, ProjectPlan>;
}

/** Plans every project the set manages now or managed before, from one listing (and the own reads its switches need). */
async function planAll(ctx: CallContext, declared: Props, olds: State<Kind> | undefined, restore: boolean): Promise<Convergence> {
  const slug = String(declared.deploymentSlug);
  const listing = await projectListing(slug);
  await requireListed(declared, listing);
  const selected = selectedIn(declared, listing);
  const wanted = wantedOf(declared, selected);
  const conflicts = ctx.claims.declare(claimsOf(ctx, slug, wanted));
  if (conflicts.length) throw refuse(ctx, conflicts);
  const digests = digestsOf(declared.projects as Inputs["projects"]);
  const declaredNow = declaredOf(declared, selected, digests);
  const declaredBefore = olds ? declaredOf(olds, olds.selected ?? [], storedDigests(olds)) : new Map<string, Declared>();
  const recorded = (olds?.originals ?? {}) as Record<string, ProjectOriginals>;
  // A project whose switches it manages is read on its own only where there may be work: its
  // declaration changed, it is new to the set, a refresh found it not as declared, or it leaves
  // the set. Drift of the others is found by `pulumi refresh` (deviations), as for every kind.
  const deviations = new Set(olds?.deviations ?? []);
  const mayChange = (name: string) =>
    !olds || deviations.has(name) || !wanted.has(name) || declaredNow.get(name)?.key !== declaredBefore.get(name)?.key;
  const names = [...new Set([...wanted.keys(), ...Object.keys(recorded)])]
    .filter((name) => !needsOwnRead(wanted.get(name)) || mayChange(name))
    .sort();
  const live = await liveValues(slug, listing, names, (name) => needsOwnRead(wanted.get(name)));
  const plans = new Map<string, ProjectPlan>();
  for (const name of names) {
    const now = live.get(name);
    if (!now) continue; // a project gone from the service: nothing to write or put back
    const before = beforeOf(declaredBefore, recorded, name);
    plans.set(name, planProject(name, wanted.get(name), before, now, { restore, heldElsewhere: heldElsewhere(ctx, slug, name) }));
  }
  return { selected, wanted, digests, plans };
}

/** What the set declared of a project and recorded there before this call. */
const beforeOf = (declared: ReadonlyMap<string, Declared>, recorded: Record<string, ProjectOriginals>, name: string): Before => ({
  ...(declared.get(name) ? { declared: declared.get(name) } : {}),
  ...(recorded[name] ? { originals: recorded[name] } : {}),
});

/**
 * Sets every managed project to what is declared, recording what it changes, and puts back what
 * it found on the projects (or fields) it no longer manages. When writes fail after some landed,
 * the state records those projects as written (their originals) and the others as before, with
 * each project left in `deviations`, so that the next `up` makes the writes left.
 */
async function converge(ctx: CallContext, id: string, declared: Inputs, olds?: State<Kind>): Promise<Outputs<Kind>> {
  const restore = declared.restoreOnDelete !== false;
  const { selected, wanted, digests, plans } = await planAll(ctx, declared, olds, restore);
  const slug = declared.deploymentSlug;
  const listing = await projectListing(slug);
  const writes = [...plans].filter(([, plan]) => plan.body);
  const written = new Set<string>();
  const failure = await eachLimited(writes, async ([name, plan]) => {
    const project = await projectApi(slug, name)
      .update(plan.body!)
      .catch((error: unknown) => {
        throw new Error(
          `writing ${secretSet(ctx) ? "a project" : `project ${name}`}: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
      });
    listing.set(name, { ...listing.get(name)!, ...project });
    written.add(name);
  }).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  await noteFound(ctx, plans);
  await noteUnrecordable(ctx, plans);
  const before = (olds?.originals ?? {}) as Record<string, ProjectOriginals>;
  // A project not planned (nothing to do there) keeps what it recorded; one whose write failed too.
  const originals: Record<string, ProjectOriginals> = { ...before };
  const left: string[] = [];
  for (const [name, plan] of plans) {
    const landed = !plan.body || written.has(name);
    if (!landed) left.push(name);
    else if (plan.originals) originals[name] = plan.originals;
    else delete originals[name];
  }
  const { projects: _kept, ...echoed } = declared; // kept in the inputs only: the outputs keep its digests
  const outs = outputs({
    ...echoed,
    managedProjects: wanted.size,
    selected,
    deviations: left.sort(),
    originals: sorted(originals),
    projectDigests: digests,
  });
  if (!failure) return outs;
  throw new PartiallyApplied(
    id,
    outs,
    `${written.size} of ${writes.length} project writes landed before one failed (the next \`up\` makes the writes left): ${String(
      failure.error instanceof Error ? failure.error.message : failure.error,
    )}`,
    { cause: failure.error },
  );
}

const sorted = <V>(record: Record<string, V>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Says, once, which projects it found already as declared and so recorded nothing for (destroy leaves those fields as they are). */
async function noteFound(ctx: CallContext, plans: ReadonlyMap<string, ProjectPlan>): Promise<void> {
  const found = [...plans].filter(([, plan]) => plan.foundAsDeclared.length).map(([name]) => name);
  if (!found.length) return;
  await notifyOnce(
    `${ctx.name}:found`,
    "info",
    `${ctx.name} found ${projectsNamed(ctx, found)} already as declared for some fields and recorded no original for those: ` +
      "destroy leaves them as they are.",
  );
}

/**
 * Says, once, which projects it makes follow their default branch from a branch pinned to that
 * same branch: the service shows both alike, so nothing is recorded to put back (as ProjectSettings says).
 */
async function noteUnrecordable(ctx: CallContext, plans: ReadonlyMap<string, ProjectPlan>): Promise<void> {
  const projects = [...plans].filter(([, plan]) => plan.unrecordable.length).map(([name]) => name);
  if (!projects.length) return;
  await notifyOnce(
    `${ctx.name}:unrecordable`,
    "info",
    `${ctx.name}: the primary branch of ${projectsNamed(ctx, projects)} was ${projects.length === 1 ? "its" : "their"} default branch; ` +
      "the service does not say whether a project followed its default branch or was pinned to it, so nothing is recorded to " +
      "put back on delete: destroy leaves " +
      (projects.length === 1 ? "it" : "them") +
      " following the default branch.",
  );
}

/**
 * Says, at delete, the values of each project it leaves as they are because it recorded no
 * original for them (found as declared), as every kind's delete does (left-by-delete.ts): by
 * project, each field with its live value where the listing carries it (branch, tags), a tag it
 * did not add, and the managed-scan switches by name (naming their values would take a read of
 * each project).
 */
async function noteLeft(ctx: CallContext, props: Props, declared: ReadonlyMap<string, Declared>, listing: ReadonlyMap<string, Project>) {
  const recorded = (props.originals ?? {}) as Record<string, ProjectOriginals>;
  const addTags = (props.select ? ((props.settings as ProjectSetSettingsArgs | undefined)?.addTags ?? []) : []) as string[];
  const digests = storedDigests(props);
  const secret = secretSet(ctx);
  const groups = [...declared].flatMap(([name, fields]) => {
    const project = listing.get(name);
    if (!project) return []; // gone from the service
    const kept = originalsByField(recorded[name]);
    const live = liveOf(project);
    const items = fields.fields
      .filter((field) => kept[field] === undefined)
      .map((field) =>
        secret || field === "diffScan" || field === "fullScan"
          ? field
          : `${field} ${JSON.stringify(field === "tags" ? withoutSystemTags(live.tags).sort() : live.primaryBranch)}`,
      );
    // Tags the selector adds that it found there (an explicit tag set is named above).
    const added = recorded[name]?.addedTags ?? [];
    if (!digests[name]?.split(":")[0]!.includes("t"))
      items.push(
        ...addTags
          .filter((tag) => !added.includes(tag) && live.tags.includes(tag))
          .map((tag) => (secret ? "a tag" : `tag ${JSON.stringify(tag)}`)),
      );
    const heading = secret ? "a project [secret]" : projectObject({ deploymentSlug: props.deploymentSlug, projectName: name });
    return items.length ? [{ heading, items }] : [];
  });
  await noteLeftWithoutOriginal(ctx, "value", groups);
}

/**
 * What an `up` will do that the input diff does not show, as a note in the preview, from the one
 * listing: the projects `select` newly matches (created or tagged since the last run), those it
 * no longer matches (their originals go back), and those whose listed values (branch, tags) are
 * not as declared. Returns whether there is any.
 */
async function noteSelection(ctx: CallContext, olds: State<Kind>, news: Inputs): Promise<boolean> {
  if (!news.select || !known(news.select, news.settings ?? {}, news.projects ?? {})) return false;
  if (String(olds.deploymentSlug) !== news.deploymentSlug) return false; // a replacement
  const listing = await projectListing(news.deploymentSlug);
  const selected = selectedIn(news, listing);
  const wanted = wantedOf(news, selected);
  const conflicts = ctx.claims.declare(claimsOf(ctx, news.deploymentSlug, wanted));
  if (conflicts.length) throw refuse(ctx, conflicts);
  const was = new Set(olds.selected ?? []);
  const recorded = (olds.originals ?? {}) as Record<string, ProjectOriginals>;
  const newly = selected.filter((name) => !was.has(name));
  const now = new Set(selected);
  const explicit = (news.projects ?? {}) as Record<string, unknown>;
  const leaving = [...was].filter((name) => !now.has(name) && !(name in explicit) && recorded[name] !== undefined);
  // Drift the listing shows on projects it matched before: a branch or an added tag not as declared.
  const drifted = selected.filter((name) => {
    if (!was.has(name)) return false;
    const w = wanted.get(name)!;
    const live = liveOf(listing.get(name)!);
    const branch = w.from.primaryBranch === "settings" ? (w.values.primaryBranch as string) : undefined;
    const branchDrift = branch !== undefined && branch !== "None" && live.primaryBranch !== branch;
    return branchDrift || w.addTags.some((tag) => !live.tags.includes(tag));
  });
  if (!newly.length && !leaving.length && !drifted.length) return false;
  const parts = [
    ...(newly.length ? [`converges ${projectsNamed(ctx, newly)} it newly matches`] : []),
    ...(drifted.length ? [`converges ${projectsNamed(ctx, drifted)} not as declared`] : []),
    ...(leaving.length
      ? [
          `${news.restoreOnDelete === false ? "leaves as they are" : "puts back what it found on"} ${projectsNamed(ctx, leaving)} it no longer matches`,
        ]
      : []),
  ];
  const lines = projectLines(ctx, [
    ["newly matched", newly],
    ["not as declared", drifted],
    ["no longer matched", leaving],
  ]);
  await notifyOnce(
    `${ctx.name}:selection`,
    "info",
    `${ctx.name}: select ${parts.join("; ")}; it will manage ${wanted.size} projects.${lines}`,
  );
  return true;
}

/**
 * A new set's selector at check: claims the fields of the projects it matches (returning the
 * refusal of a conflict) and names them in a note of the preview.
 */
async function claimFirstSelection(ctx: CallContext, declared: Props): Promise<Error | undefined> {
  if (!declared.select || !known(declared.deploymentSlug, declared.select, declared.settings ?? {}, declared.projects ?? {})) return;
  const slug = String(declared.deploymentSlug);
  const selected = selectedIn(declared, await projectListing(slug));
  const conflicts = ctx.claims.declare(claimsOf(ctx, slug, wantedOf(declared, selected)));
  if (conflicts.length) return refuse(ctx, conflicts);
  await notifyOnce(
    `${ctx.name}:selection`,
    "info",
    selected.length
      ? `${ctx.name}: select matches ${projectsNamed(ctx, selected)}; the update converges those not as declared.` +
          projectLines(ctx, [["matched", selected]])
      : `${ctx.name}: select matches no project of deployment ${slug} now; a project that matches later is converged by the next update.`,
  );
}

/** Inputs only, plus the drift a refresh recorded in `deviations`: without `select`, a no-change `up` reads nothing. */
function diffInputs(olds: State<Kind>, news: Inputs): DiffResult {
  const replaces = String(olds.deploymentSlug) !== news.deploymentSlug ? ["deploymentSlug"] : [];
  const changed =
    !isDeepStrictEqual(storedDigests(olds), digestsOf(news.projects)) ||
    !isDeepStrictEqual(olds.select ?? undefined, news.select ?? undefined) ||
    !isDeepStrictEqual(olds.settings ?? undefined, news.settings ?? undefined) ||
    (olds.restoreOnDelete ?? true) !== (news.restoreOnDelete ?? true) ||
    (olds.deviations ?? []).length > 0;
  return {
    changes: replaces.length > 0 || changed,
    replaces,
    stables: replaces.length ? [] : ["deploymentSlug"],
    deleteBeforeReplace: false,
  };
}

/** The inputs as declared, for `read`'s `inputs` (the next diff compares them with the program). */
function declaredInputs(props: Props): Props {
  const keys = ["deploymentSlug", "projects", "select", "settings", "restoreOnDelete"] as const;
  return Object.fromEntries(keys.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
}

export const projectSettingsSet: Handler<Kind> = {
  changedEntries: (olds, news) => {
    // A map unknown at preview (computed from another resource's output) is one entry.
    if (news.projects !== undefined && (typeof news.projects !== "object" || news.projects === null || !known(news.projects)))
      return [{ input: "projects", kind: "update" }];
    const [before, after] = [storedDigests(olds), digestsOf(news.projects as Inputs["projects"])];
    return [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((name) => before[name] !== after[name])
      .sort()
      .map((name) => ({ input: "projects", key: name, kind: !before[name] ? "add" : !after[name] ? "delete" : "update" }));
  },

  claims: (declared, secrecy) => explicitClaims(secrecy, declared),

  check: async (olds, news, ctx) => {
    const result = checkOwned(KIND, ctx, news, (declared) => explicitClaims(ctx, declared));
    // A new set's preview has no diff (an update's claims its selector's projects and names them
    // there: noteSelection): here, from the listing its create shares, it claims the fields of the
    // projects its selector matches, refusing a conflict at preview, and names them.
    if (result.failures?.length || olds.deploymentSlug !== undefined || !result.inputs) return result;
    const refused = await claimFirstSelection(ctx, result.inputs).catch(async (error: unknown) => {
      await notifyOnce(`${ctx.name}:selection`, "info", `${ctx.name}: could not list the projects select matches (${String(error)})`);
      return undefined;
    });
    return refused ? { inputs: result.inputs, failures: [{ property: "select", reason: refused.message }] } : result;
  },

  diff: async (_id, olds, news, ctx) => {
    const result = diffInputs(olds, news);
    const selection = await noteSelection(ctx, olds, news);
    if ((olds.deviations ?? []).length) {
      await notifyOnce(
        `${ctx.name}:deviations`,
        "info",
        `${ctx.name}: ${projectsNamed(ctx, olds.deviations!)} not as it left them (found by refresh, or left by a failed or interrupted run); the update converges them.`,
      );
    }
    return { ...result, changes: result.changes === true || selection };
  },

  create: (declared, ctx) =>
    about(subject(ctx, declared), async () => {
      if (!ctx.owner) throw new Error("ProjectSettingsSet needs its resource name: construct it with the ProjectSettingsSet class");
      const id = `${declared.deploymentSlug}/${ctx.owner.name}`;
      return { id, outs: await converge(ctx, id, declared) };
    }),

  read: (id, props, ctx) =>
    about(subject(ctx, props), async () => {
      const slug = String(props.deploymentSlug);
      const listing = await projectListing(slug);
      const selected = props.selected ?? [];
      const digests = storedDigests(props);
      const declared = declaredOf(props, selected, digests);
      const recorded = (props.originals ?? {}) as Record<string, ProjectOriginals>;
      const names = [...new Set([...declared.keys(), ...Object.keys(recorded)])].sort();
      const live = await liveValues(slug, listing, names, (name) => managesSwitch(declared.get(name)?.fields));
      // An explicit project whose live values no longer hash to its digest is a deviation; one
      // that does is planned with its live values as the declared ones (they hold), so that what
      // the selector's settings and the recorded originals ask of it is planned as an update would,
      // with nothing journaled or written: a project with a write to make is a deviation.
      const deviations = new Set<string>();
      const holding: Record<string, ProjectEntryArgs> = {};
      for (const [name, digest] of Object.entries(digests)) {
        const now = live.get(name);
        if (!now) continue;
        const entry = liveEntry(now, digest);
        if (entryDigest(entry) === digest) holding[name] = entry;
        else deviations.add(name);
      }
      const wanted = wantedOf({ ...props, projects: holding }, selected);
      for (const name of names) {
        const now = live.get(name);
        if (!now || deviations.has(name) || (name in digests && !(name in holding))) continue;
        const plan = planProject(name, wanted.get(name), beforeOf(declared, recorded, name), now, {
          restore: props.restoreOnDelete !== false,
          heldElsewhere: () => false,
        });
        if (plan.body) deviations.add(name);
      }
      const state = {
        ...props,
        managedProjects: declared.size,
        selected,
        deviations: [...deviations].sort(),
        originals: props.originals ?? {},
      };
      // The engine keeps the inputs it has when a read returns none: the `projects` map, which
      // state of this version does not echo (a state of an older version does, and is given back).
      return { id, props: state, ...(props.projectDigests === undefined ? { inputs: declaredInputs(props) } : {}) };
    }),

  update: (id, olds, declared, ctx) =>
    about(subject(ctx, declared), async () => {
      return { outs: await converge(ctx, id, declared, olds) };
    }),

  delete: (_id, props, ctx) =>
    about(subject(ctx, props), async () => {
      if (props.restoreOnDelete === false) return;
      const declared = declaredOf(props, props.selected ?? [], storedDigests(props));
      if (!Object.keys(props.originals ?? {}).length) {
        // Nothing to put back: the listing serves only the note of what it leaves, and a deployment
        // gone from the service leaves nothing to name (a destroy must not fail on it).
        if (!declared.size) return;
        const listing = await projectListing(String(props.deploymentSlug)).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (listing) await noteLeft(ctx, props, declared, listing);
        return;
      }
      const { plans } = await planAll(ctx, { deploymentSlug: props.deploymentSlug }, props, true);
      // A field another resource of the run declares now is left to it (project-set-plan.ts planProject).
      const writes = [...plans].filter(([, plan]) => plan.body);
      // Each answer goes into the shared listing, as converge's do: a second set's delete in this
      // run writes a project's tags from it, and a stale one would put back a tag this one removed.
      const listing = await projectListing(String(props.deploymentSlug));
      await eachLimited(writes, async ([name, plan]) => {
        const project = await projectApi(String(props.deploymentSlug), name).update(plan.body!);
        listing.set(name, { ...listing.get(name)!, ...project });
      });
      await noteLeft(ctx, props, declared, listing);
    }),
};

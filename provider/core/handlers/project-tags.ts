/**
 * ProjectTags in the provider process: additive. It adds its tags, and removes only those it
 * added that were not there before and that no other resource of the stack still declares, so
 * several can share a project, and a tag, with other owners.
 */
import { createHash } from "node:crypto";
import type { Project } from "../../client";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { noteLeftWithoutOriginal } from "../runtime/left-by-delete";
import { fieldRules, type projectTagsKind } from "../kinds";
import { ABSENT } from "../kinds/declare";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs, type State } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { checkOwned, known, noteFoundAsDeclared, warnHandedOver } from "../runtime/owned";
import { type Claim, declarersOf, type Holder, holderOf, release, sameOwner, take, wasReleased, wasTaken } from "../runtime/ownership";
import { projectOf } from "./project-index";
import { createOnProject, projectObject, projectSubject, readProject, tagClaim } from "./projects";
import type { CallContext, Secrecy } from "../runtime/call-context";

const KIND = "ProjectTags";

type Kind = typeof projectTagsKind;
type Inputs = Checked<Kind>;
const checked = declaredOutputs<Kind>();

const knownTags = (props: Props): string[] => (Array.isArray(props.tags) ? props.tags.filter((t): t is string => known(t)) : []);

/**
 * What a ProjectTags declares: a share of the project's tags (in conflict with a ProjectSettings
 * that declares the whole set), and each of its tags, shared with any other resource.
 */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentSlug, declared.projectName)) return [];
  const secret = secrecy.secret("tags");
  return [
    { object: projectObject(declared), field: "tags", shared: true, secret },
    ...knownTags(declared).map((tag) => tagClaim(declared, tag, secret)),
  ];
}

/** The claim on one of its tags (secret when the program gave the tags as a secret). */
const tagOf = (ctx: CallContext, props: Props, tag: string) => tagClaim(props, tag, ctx.secret("tags"));

/** What a ProjectTags in this state recorded of each tag (by claim field): ABSENT (the project lacked it) for a tag it added, or nothing. */
function recorded(outputs: Props): Record<string, unknown> {
  const added = (outputs.addedTags as string[] | undefined) ?? [];
  return Object.fromEntries(knownTags(outputs).map((tag) => [tagClaim(outputs, tag, false).field, added.includes(tag) ? ABSENT : null]));
}

/** Outputs: the declared tags the project has, those this resource added, and the project's whole set. */
function outputs(declared: Inputs, project: Project, addedTags: string[]): Outputs<Kind> {
  return checked({
    ...declared,
    tags: declared.tags.filter((t) => project.tags.includes(t)),
    addedTags: addedTags.filter((t) => project.tags.includes(t)),
    projectId: project.id,
    projectTags: project.tags,
  });
}

/**
 * Removes tags this resource added, but those another resource of the stack holds, which it
 * says. `holderFor` finds that resource: in a delete (which the engine runs once every resource
 * is checked and applied) one that holds the tag now; in an update, any that declares it so far.
 * The removal is queued first and the removed tags released, so that a resource checked later in
 * this run that declares one of them puts it back after the removal (see `diff`).
 */
async function removeAdded(
  ctx: CallContext,
  props: Props,
  tags: string[],
  holderFor: (claim: Claim) => Holder | undefined,
  verb: string,
): Promise<Project | undefined> {
  const held = new Map<string, Holder>();
  for (const tag of tags) {
    const holder = holderFor(tagOf(ctx, props, tag));
    if (holder) held.set(tag, holder);
  }
  const gone = tags.filter((t) => !held.has(t));
  const removal = gone.length ? unlessGone(() => projectOf(props).removeTags(gone)) : undefined;
  removal?.catch(() => {}); // awaited below, after the warnings: a failure must not go unhandled meanwhile
  for (const tag of gone) release(tagOf(ctx, props, tag));
  for (const [tag, holder] of held) {
    const what = `the tag ${ctx.shown("tags", JSON.stringify(tag))} of ${projectObject(props)}`;
    await warnHandedOver({
      ctx,
      verb,
      what,
      name: tag,
      holder,
      wrote: false,
      original: ABSENT,
      show: String,
      secretOriginal: false,
    });
  }
  return removal;
}

/** Tags this resource declares that another resource removed earlier in this run. */
const releasedTags = (ctx: CallContext, declared: Props): string[] =>
  knownTags(declared).filter((t) => wasReleased(tagOf(ctx, declared, t)));

/** A tag as the journal names it: a digest (the tag's text may be a secret, which the journal never holds). */
const tagObject = (tag: string) => `tag:${createHash("sha256").update(tag).digest("hex")}`;

export const projectTags: Handler<Kind> = {
  recorded,

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: (_olds, news, ctx) => checkOwned(KIND, ctx, news, (declared) => claimsOf(ctx, declared)),

  diff: async (_id, olds, news, ctx) => {
    const result = diffDeclared(olds, news, fieldRules(KIND));
    return releasedTags(ctx, news).length ? { ...result, changes: true } : result;
  },

  create: (declared, ctx) => {
    const adopt = async (found: Project) => {
      let project = found;
      const released = releasedTags(ctx, declared);
      // A tag another resource of this run added is the stack's own too: this one counts it as added.
      const takenInRun = declared.tags.filter((t) => project.tags.includes(t) && wasTaken(tagOf(ctx, declared, t)));
      // A tag a killed run of this resource added (its journal says so: journal.ts) is one it added.
      const addedByKilledRun = declared.tags.filter(
        (t) =>
          project.tags.includes(t) &&
          !released.includes(t) &&
          !takenInRun.includes(t) &&
          journaledOriginal(tagObject(t), `the tag ${ctx.shown("tags", JSON.stringify(t))}`) !== undefined,
      );
      const present = declared.tags.filter(
        (t) => project.tags.includes(t) && !released.includes(t) && !takenInRun.includes(t) && !addedByKilledRun.includes(t),
      );
      const missing = declared.tags.filter((t) => !present.includes(t) && !takenInRun.includes(t) && !addedByKilledRun.includes(t));
      if (present.length) {
        const plural = present.length > 1;
        const what =
          `the tag${plural ? "s" : ""} ${present.map((t) => ctx.shown("tags", JSON.stringify(t))).join(", ")} ` +
          `of ${projectObject(declared)}`;
        await noteFoundAsDeclared(ctx, { what, plural, unset: "not in addedTags" });
      }
      for (const tag of missing) take(tagOf(ctx, declared, tag));
      journalBefore(Object.fromEntries(missing.map((t) => [tagObject(t), "absent"])));
      if (missing.length) project = await projectOf(declared).addTags(missing);
      return outputs(declared, project, [...missing, ...takenInRun, ...addedByKilledRun]);
    };
    return createOnProject(KIND, declared, adopt);
  },

  read: (id, props) =>
    readProject(KIND, id, props, (project) => {
      // Read by id alone (`ProjectTags.get`), it declares no tags.
      const live = outputs({ ...props, tags: props.tags ?? [] } as Inputs, project, props.addedTags ?? []);
      const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
      const inputs = {
        deploymentSlug: slug,
        projectName: name,
        tags: live.tags,
        restoreOnDelete: restore,
      };
      return { props: live, inputs };
    }),

  update: (_id, olds, declared, ctx) => {
    const news = declared as Props;
    return about(projectSubject(KIND, declared), async () => {
      const present = olds.projectTags ?? [];
      let added = olds.addedTags ?? [];
      let project: Project | undefined;
      const released = releasedTags(ctx, declared);
      const missing = declared.tags.filter((t) => !present.includes(t) || released.includes(t));
      if (missing.length) {
        for (const tag of missing) take(tagOf(ctx, declared, tag));
        project = await projectOf(declared).addTags(missing);
        added = [...new Set([...added, ...missing])];
      }
      // Tags no longer declared go only if this resource added them and no other resource declares them.
      const dropped = added.filter((t) => !declared.tags.includes(t));
      if (dropped.length) {
        const self = ctx.owner;
        const declarer = (claim: Claim) => declarersOf(claim).find((d) => !self || !sameOwner(d.owner, self));
        project = (await removeAdded(ctx, news, dropped, declarer, "stopped declaring a tag")) ?? project;
        added = added.filter((t) => !dropped.includes(t));
      }
      const outs: Outputs<Kind> = project
        ? outputs(declared, project, added)
        : checked({ ...declared, addedTags: added, projectTags: present, projectId: olds.projectId as number });
      return { outs };
    });
  },

  delete: (_id, props: State<Kind>, ctx) =>
    about(projectSubject(KIND, props), async () => {
      const added = props.addedTags ?? [];
      if (props.restoreOnDelete === false) return;
      // A tag it found already there (none recorded as added) stays: named, unless another resource holds it.
      const found = knownTags(props).filter((t) => !added.includes(t) && !holderOf(tagOf(ctx, props, t)));
      const tags = found.map((t) => ctx.shown("tags", JSON.stringify(t)));
      await noteLeftWithoutOriginal(ctx, "tag", [{ heading: projectObject(props), items: tags }]);
      if (added.length) await removeAdded(ctx, props, added, holderOf, "was deleted");
    }),
};

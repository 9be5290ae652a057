/**
 * ProjectTags in the provider process: additive. It adds its tags, and removes only those it
 * added that were not there before and that no other resource of the stack still declares, so
 * several can share a project, and a tag, with other owners.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Project } from "../client";
import type { Props } from "./check";
import { diffDeclared, type FieldRule, sameSet } from "./diff";
import { declaredTags, deploymentSlug, projectName, restoreOnDelete } from "./inputs";
import { about, unlessGone } from "./lookup";
import { type Claim, checkOwned, diffOwned, holderOf, known, noteFoundAsDeclared, settleOwner, warnHandedOver } from "./owned";
import { declarersOf, type Holder, release, wasReleased } from "./ownership";
import { projectOf } from "./project-index";
import { projectObject, projectResourceId, projectSubject, requireProject } from "./projects";
import { metaOutputs, refreshedMetaInputs, shown } from "./resource-meta";

const KIND = "ProjectTags";

export const inputs = z.strictObject({ deploymentSlug, projectName, tags: declaredTags, restoreOnDelete });
type Inputs = z.output<typeof inputs>;

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  { name: "tags", equal: sameSet },
];

/**
 * What a ProjectTags declares: a share of the project's tags (in conflict with a ProjectSettings
 * that declares the whole set), and each of its tags, shared with any other ProjectTags.
 */
function claimsOf(declared: Props): Claim[] {
  if (!known(declared.deploymentSlug, declared.projectName)) return [];
  const object = projectObject(declared);
  const tags = Array.isArray(declared.tags) ? declared.tags.filter((t) => known(t)) : [];
  return [{ object, field: "tags", shared: true }, ...tags.map((tag) => tagClaim(declared, String(tag)))];
}

const tagClaim = (props: Props, tag: string): Claim => ({
  object: projectObject(props),
  field: `tag ${JSON.stringify(tag)}`,
  property: "tags",
  shared: true,
});

/** Outputs: the declared tags the project has, those this resource added, and the project's whole set. */
function outputs(declared: Inputs, props: Props, project: Project, addedTags: string[]): Props {
  return {
    ...declared,
    ...metaOutputs(props),
    tags: declared.tags.filter((t) => project.tags.includes(t)),
    addedTags: addedTags.filter((t) => project.tags.includes(t)),
    projectId: project.id,
    projectTags: project.tags,
  };
}

/**
 * Removes tags this resource added, but those another resource of the stack holds, which it
 * says. `holderFor` finds that resource: in a delete (which the engine runs once every resource
 * is checked and applied) one that holds the tag now; in an update, any that declares it so far.
 * A tag removed here is released, so that a resource checked later in this run that declares it
 * puts it back (see `diff`).
 */
async function removeAdded(props: Props, tags: string[], holderFor: (claim: Claim) => Holder | undefined): Promise<Project | undefined> {
  const gone: string[] = [];
  for (const tag of tags) {
    const claim = tagClaim(props, tag);
    const holder = holderFor(claim);
    if (!holder) {
      release(claim);
      gone.push(tag);
      continue;
    }
    const what = `the tag ${shown(props, "tags", JSON.stringify(tag))} of ${projectObject(props)}`;
    await warnHandedOver({ kind: KIND, props, what, holder, before: "the project did not have it before this stack added it" });
  }
  return gone.length ? unlessGone(() => projectOf(props).removeTags(gone)) : undefined;
}

/** Tags this resource declares that another resource removed earlier in this run. */
const releasedTags = (declared: Props): string[] =>
  Array.isArray(declared.tags) ? declared.tags.filter((t): t is string => known(t) && wasReleased(tagClaim(declared, String(t)))) : [];

export const projectTags = {
  check: (_olds: Props, news: Props) => checkOwned(KIND, inputs, news, claimsOf),

  diff: async (_id: string, olds: Props, news: Props) => {
    const result = diffDeclared(olds, news, FIELDS);
    return diffOwned(KIND, olds, news, releasedTags(news).length ? { ...result, changes: true } : result);
  },

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      let project = await requireProject(declared.deploymentSlug, declared.projectName);
      const present = declared.tags.filter((t) => project.tags.includes(t));
      const missing = declared.tags.filter((t) => !project.tags.includes(t));
      if (present.length) {
        const plural = present.length > 1;
        const tags = present.map((t) => shown(props, "tags", JSON.stringify(t))).join(", ");
        const what = `the tag${plural ? "s" : ""} ${tags} of ${projectObject(declared)}`;
        await noteFoundAsDeclared(KIND, props, { what, plural, unset: "not in addedTags" });
      }
      if (missing.length) project = await projectOf(declared).addTags(missing);
      settleOwner(KIND, props, "created");
      return { id: projectResourceId(declared), outs: outputs(declared, props, project, missing) };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject(KIND, props), async () => {
      const project = await unlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = outputs(props as Inputs, props, project, (props.addedTags as string[] | undefined) ?? []);
      const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
      const inputs = { deploymentSlug: slug, projectName: name, tags: live.tags, restoreOnDelete: restore, ...refreshedMetaInputs(KIND, props) };
      return { id, props: live, inputs };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      const present = (olds.projectTags as string[] | undefined) ?? [];
      let added = (olds.addedTags as string[] | undefined) ?? [];
      let project: Project | undefined;
      const released = releasedTags(declared);
      const missing = declared.tags.filter((t) => !present.includes(t) || released.includes(t));
      if (missing.length) {
        project = await projectOf(declared).addTags(missing);
        added = [...new Set([...added, ...missing])];
      }
      // Tags no longer declared go only if this resource added them and no other resource declares them.
      const dropped = added.filter((t) => !declared.tags.includes(t));
      if (dropped.length) {
        const self = news.resourceName;
        const declarer = (claim: Claim) => declarersOf(claim).find((d) => !(d.owner.kind === KIND && d.owner.name === self));
        project = (await removeAdded(news, dropped, declarer)) ?? project;
        added = added.filter((t) => !dropped.includes(t));
      }
      settleOwner(KIND, news, "updated");
      if (!project) return { outs: { ...declared, ...metaOutputs(news), addedTags: added, projectId: olds.projectId, projectTags: present } };
      return { outs: outputs(declared, news, project, added) };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject(KIND, props), async () => {
      const added = (props.addedTags as string[] | undefined) ?? [];
      if (props.restoreOnDelete === false || !added.length) return;
      await removeAdded(props, added, holderOf);
    }),
};

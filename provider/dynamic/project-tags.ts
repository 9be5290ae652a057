/**
 * ProjectTags in the provider process: additive. It adds its tags, and on delete removes only
 * those it added that were not there before, so several can share a project with other owners.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Project } from "../client";
import { checkInputs, type Props } from "./check";
import { projectOf } from "./project-index";
import { diffDeclared, type FieldRule, sameSet } from "./diff";
import { declaredTags, deploymentSlug, projectName, restoreOnDelete } from "./inputs";
import { about, readUnlessGone } from "./lookup";
import { projectResourceId, projectSubject, requireProject } from "./projects";

export const inputs = z.strictObject({ deploymentSlug, projectName, tags: declaredTags, restoreOnDelete });
type Inputs = z.output<typeof inputs>;

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  { name: "tags", equal: sameSet },
];

/** Outputs: the declared tags the project has, those this resource added, and the project's whole set. */
function outputs(declared: Inputs, project: Project, addedTags: string[]): Props {
  return {
    ...declared,
    tags: declared.tags.filter((t) => project.tags.includes(t)),
    addedTags: addedTags.filter((t) => project.tags.includes(t)),
    projectId: project.id,
    projectTags: project.tags,
  };
}

export const projectTags = {
  check: (_olds: Props, news: Props) => checkInputs(inputs, news),

  diff: async (_id: string, olds: Props, news: Props) => diffDeclared(olds, news, FIELDS),

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject("ProjectTags", declared), async () => {
      let project = await requireProject(declared.deploymentSlug, declared.projectName);
      const missing = declared.tags.filter((t) => !project.tags.includes(t));
      if (missing.length) project = await projectOf(declared).addTags(missing);
      return { id: projectResourceId(declared), outs: outputs(declared, project, missing) };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject("ProjectTags", props), async () => {
      const project = await readUnlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = outputs(props as Inputs, project, (props.addedTags as string[] | undefined) ?? []);
      const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
      return { id, props: live, inputs: { deploymentSlug: slug, projectName: name, tags: live.tags, restoreOnDelete: restore } };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject("ProjectTags", declared), async () => {
      const api = projectOf(declared);
      const present = (olds.projectTags as string[] | undefined) ?? [];
      let added = (olds.addedTags as string[] | undefined) ?? [];
      let project: Project | undefined;
      const missing = declared.tags.filter((t) => !present.includes(t));
      if (missing.length) {
        project = await api.addTags(missing);
        added = [...new Set([...added, ...missing])];
      }
      // Tags no longer declared go only if this resource added them.
      const dropped = added.filter((t) => !declared.tags.includes(t));
      if (dropped.length) {
        project = await api.removeTags(dropped);
        added = added.filter((t) => !dropped.includes(t));
      }
      if (!project) {
        const { addedTags, projectId, projectTags: all } = olds;
        return { outs: { ...declared, addedTags, projectId, projectTags: all } };
      }
      return { outs: outputs(declared, project, added) };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject("ProjectTags", props), async () => {
      const added = (props.addedTags as string[] | undefined) ?? [];
      if (props.restoreOnDelete === false || !added.length) return;
      await readUnlessGone(() => projectOf(props).removeTags(added));
    }),
};

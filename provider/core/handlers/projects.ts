/** What the project resources share: finding the project, and its live values as outputs. */
import type { Project } from "../../client";
import type { ResourceKind } from "../kinds";
import type { Props } from "../runtime/check";
import { projectApi, projectOf } from "./project-index";
import { about, missingDeployment, unlessGone } from "../runtime/lookup";
import { type Claim, heldUnder } from "../runtime/ownership";

export interface ManagedScans {
  diffScan?: { enabled: boolean };
  fullScan?: { enabled: boolean };
}

/** `ProjectSettings acme/web-app` — the subject of this resource's error messages. */
export function projectSubject(kind: string, props: Props): string {
  return `${kind} ${String(props.deploymentSlug)}/${String(props.projectName)}`;
}

/** The id of a project resource: `<deploymentSlug>/<projectName>`. */
export function projectResourceId(props: { deploymentSlug: string; projectName: string }): string {
  return `${props.deploymentSlug}/${props.projectName}`;
}

/** The project, or an error saying that it, or its deployment, does not exist (projects come from scans: scan it first). */
export async function requireProject(deploymentSlug: string, projectName: string): Promise<Project> {
  const project = await unlessGone(projectApi(deploymentSlug, projectName).get);
  if (project) return project;
  throw (
    (await missingDeployment(deploymentSlug)) ??
    new Error(
      `project "${projectName}" does not exist in deployment "${deploymentSlug}" ` +
        `(projects appear after their first scan; check the name, e.g. "org/repo")`,
    )
  );
}

/**
 * The create of a project resource: projects come from scans, so the project must exist, and the
 * resource adopts it: `adopt` applies what is declared to it and answers the outputs, whose
 * originals (`recorded`) settle the resource's ownership for the rest of the run.
 */
export function createOnProject<O extends Props>(
  kind: ResourceKind,
  declared: Props & { deploymentSlug: string; projectName: string },
  adopt: (project: Project) => Promise<O>,
): Promise<{ id: string; outs: O }> {
  return about(projectSubject(kind, declared), async () => {
    const outs = await adopt(await requireProject(declared.deploymentSlug, declared.projectName));
    return { id: projectResourceId(declared), outs };
  });
}

/**
 * The read of a project resource: a project gone from the service reads as gone (an empty id, so
 * that the next `up` reports it); else `answer` gives the live outputs and the inputs of the next diff.
 */
export function readProject<P>(
  kind: ResourceKind,
  id: string,
  props: Props,
  answer: (project: Project) => { props: P; inputs: Props },
): Promise<{ id: string; props?: P; inputs?: Props }> {
  return about(projectSubject(kind, props), async () => {
    const project = await unlessGone(projectOf(props).get);
    return project ? { id, ...answer(project) } : { id: "" };
  });
}

/** `project acme/web-app (deployment acme)`: a project as messages and claims name it. */
export function projectObject(props: Props): string {
  return `project ${String(props.projectName)} (deployment ${String(props.deploymentSlug)})`;
}

/**
 * One tag of a project, which any number of resources may declare: ProjectTags, and the
 * ProjectSettings that declares the whole set (a conflict with ProjectTags on its own). `secret`:
 * the program gave the tags as a secret.
 */
export function tagClaim(props: Props, tag: string, secret: boolean): Claim {
  return { object: projectObject(props), field: `tag ${JSON.stringify(tag)}`, property: "tags", shared: true, value: tag, secret };
}

/** The tags of this project that some resource of the run holds now, and whether the program gave them as secrets. */
export function heldTags(props: Props): Array<{ tag: string; secret: boolean }> {
  return heldUnder(projectObject(props), "tag ").map((holder) => ({ tag: holder.value as string, secret: holder.secret }));
}

export function liveManagedScans(project: Project): Required<ManagedScans> {
  const config = project.managed_scan_config;
  return {
    diffScan: { enabled: config?.diff_scan?.enabled ?? false },
    fullScan: { enabled: config?.full_scan?.enabled ?? false },
  };
}

/** Output names of a project's live values. */
export const LIVE_PROJECT_OUTPUTS = [
  "projectId",
  "defaultBranch",
  "primaryBranch",
  "tags",
  "url",
  "managedScanConfig",
  "latestScanAt",
] as const;

/** A project's live values, under the output names every project resource uses. */
export type ProjectOutputs = {
  projectId: number;
  defaultBranch: string | null;
  primaryBranch: string | null;
  tags: string[];
  url: string | null;
  managedScanConfig: Required<ManagedScans>;
  latestScanAt: string | null;
};

/** The live values kept in a resource's outputs (from state, without asking the service). */
export function keptProjectOutputs(props: Props): ProjectOutputs {
  return Object.fromEntries(LIVE_PROJECT_OUTPUTS.map((key) => [key, props[key]])) as unknown as ProjectOutputs;
}

/** The project's live values, under the output names every project resource uses. */
export function projectOutputs(project: Project): ProjectOutputs {
  return {
    projectId: project.id,
    defaultBranch: project.default_branch ?? null,
    primaryBranch: project.primary_branch ?? project.default_branch ?? null,
    tags: project.tags,
    url: project.url ?? null,
    managedScanConfig: liveManagedScans(project),
    latestScanAt: project.latest_scan_at ?? null,
  };
}

/** Data source: the projects of a deployment, optionally those a project selector picks. */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { deploymentSlug } from "../client/schemas";
import { projectMatcher, projectSelector, type ProjectSelectorArgs } from "../core/kinds/project-selector";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { type ListedProjectInfo, listedProjectInfo } from "./shapes";

export interface GetProjectsArgs {
  /** Slug of the deployment, e.g. `"acme"`. */
  deploymentSlug: string;
  /**
   * Only the projects this selector picks, exactly as a `select` of project settings would pick
   * them (at least one of `namePatterns` and `tags`); absent: every project of the deployment.
   */
  select?: ProjectSelectorArgs;
}

/** {@link GetProjectsArgs} as `getProjectsOutput` takes them: every field may be a `pulumi.Input`. */
export type GetProjectsOutputArgs = OutputArgs<GetProjectsArgs>;

export interface GetProjectsResult {
  /** The projects, sorted by name, as the project listing gives them (archived repositories are not listed). */
  projects: ListedProjectInfo[];
  /** Their names, in the same order, e.g. `["acme/payments-api", "acme/web-app"]`. */
  names: string[];
}

const projectsArgs = z.strictObject({ deploymentSlug, select: projectSelector.optional() });

/**
 * The projects of a deployment, or those a selector picks, from the project listing read 3,000
 * a page (its largest page; the listing gives no total, so only a page of fewer ends it: 2,999
 * projects take one read, 3,000 two) and no read of any single project. The listing carries each
 * project's name, tags and branches, not its managed-scan switches: read those with `getProject`.
 *
 * @example
 * ```ts
 * import { getProjects } from "pulumi-semgrep";
 * const { names } = await getProjects({
 *   deploymentSlug: "acme",
 *   select: { namePatterns: ["acme/*-api"], tags: ["tier:0", "tier:1"], exclude: ["acme/legacy-api"] },
 * });
 * console.log(`${names.length} projects would be selected`);
 * ```
 */
export async function getProjects(args: GetProjectsArgs, opts?: SemgrepInvokeOptions): Promise<GetProjectsResult> {
  const { deploymentSlug: slug, select } = parseArgs("getProjects", projectsArgs, args);
  const matches = select ? projectMatcher(select) : () => true;
  const projects: ListedProjectInfo[] = [];
  for await (const project of (await clientFor(opts)).projects.list(slug)) {
    if (matches(project)) projects.push(listedProjectInfo(project));
  }
  projects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { projects, names: projects.map((p) => p.name) };
}

/** The projects as an Output: each project's whole tag set is a secret Output, as getProjectOutput's. */
export type GetProjectsOutputResult = Omit<GetProjectsResult, "projects"> & {
  projects: Array<Omit<ListedProjectInfo, "tags"> & { tags: pulumi.Output<string[]> }>;
};

/**
 * {@link getProjects} with `pulumi.Input` arguments, as an Output. Each project's `tags` are a
 * Pulumi secret, as getProjectOutput's are (the live tag set includes any tag a stack declares as
 * a secret); the names are not.
 *
 * @example
 * ```ts
 * import { getProjectsOutput } from "pulumi-semgrep";
 * export const payments = getProjectsOutput({ deploymentSlug: "acme", select: { tags: ["team:payments"] } }).names;
 * ```
 */
export function getProjectsOutput(args: GetProjectsOutputArgs, opts?: SemgrepInvokeOutputOptions): pulumi.Output<GetProjectsOutputResult> {
  return outputForm(getProjects)(args, opts).apply(
    (result) =>
      ({
        ...result,
        projects: result.projects.map((project) => ({ ...project, tags: pulumi.secret(project.tags) })),
      }) as GetProjectsOutputResult,
  );
}

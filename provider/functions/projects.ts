/** Data source: one project. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { deploymentSlug, projectName } from "../client/schemas";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { type ProjectInfo, projectInfo } from "./shapes";

export interface GetProjectArgs {
  /** Slug of the deployment, e.g. `"acme"`. */
  deploymentSlug: string;
  /** The project, typically `"<organization>/<repository>"`. */
  projectName: string;
}

/** {@link GetProjectArgs} as `getProjectOutput` takes them: every field may be a `pulumi.Input`. */
export type GetProjectOutputArgs = OutputArgs<GetProjectArgs>;

/** The project (fields at the top level). */
export type GetProjectResult = ProjectInfo;

const projectArgs = z.strictObject({ deploymentSlug, projectName });

/**
 * One project: its tags, branches, managed-scan configuration and latest scan.
 *
 * @example
 * ```ts
 * import { getProject } from "pulumi-semgrep";
 * const project = await getProject({ deploymentSlug: "acme", projectName: "acme/web-app" });
 * console.log(project.tags, project.latestScanAt);
 * ```
 */
export async function getProject(args: GetProjectArgs, opts?: SemgrepInvokeOptions): Promise<GetProjectResult> {
  const { deploymentSlug: slug, projectName: name } = parseArgs("getProject", projectArgs, args);
  return projectInfo(await (await clientFor(opts)).projects.get(slug, name));
}

/**
 * {@link getProject} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getProjectOutput } from "pulumi-semgrep";
 * export const webAppTags = getProjectOutput({ deploymentSlug: "acme", projectName: "acme/web-app" }).tags;
 * ```
 */
export const getProjectOutput: (args: GetProjectOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetProjectResult> =
  outputForm(getProject);

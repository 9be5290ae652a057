/** Data source: one project. */
import * as pulumi from "@pulumi/pulumi";
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

/** A project as an Output: its whole tag set is a secret Output. */
export type GetProjectOutputResult = Omit<ProjectInfo, "tags"> & { tags: pulumi.Output<string[]> };

/**
 * {@link getProject} with `pulumi.Input` arguments, as an Output. The project's `tags` are a Pulumi
 * secret (encrypted in state, masked in the CLI): the live tag set includes any tag a ProjectTags
 * or ProjectSettings of some stack declares as a secret, as their `projectTags` output does
 * (`pulumi.unsecret()` to read them in clear). `getProject`, a plain Promise, cannot mark them.
 *
 * @example
 * ```ts
 * import { getProjectOutput } from "pulumi-semgrep";
 * export const webAppTags = getProjectOutput({ deploymentSlug: "acme", projectName: "acme/web-app" }).tags; // a secret
 * ```
 */
export function getProjectOutput(args: GetProjectOutputArgs, opts?: SemgrepInvokeOutputOptions): pulumi.Output<GetProjectOutputResult> {
  return outputForm(getProject)(args, opts).apply(
    (project) => ({ ...project, tags: pulumi.secret(project.tags) }) as GetProjectOutputResult,
  );
}

/**
 * Which projects of a deployment a selector picks, declared once: the schema of `select` and the
 * matcher. The data source getProjects lists what a selector matches with these; the set-shaped
 * project kind applies its settings to the same projects, so that what a program reads is what
 * an `up` converges.
 */
import { z } from "zod";
import { projectName, tagName } from "../../client/schemas";

/**
 * Which projects a selector picks: every criterion given must hold (within a list, any value),
 * and a name in `exclude` is left out although it matches.
 */
export interface ProjectSelectorArgs {
  /**
   * Projects whose name matches any of these globs, e.g. `["acme/*-api", "acme/platform/**"]`. `*`
   * is any run of characters within one path segment (not `/`), `**` any run across segments
   * (`/` too), `?` one character other than `/`; every other character stands for itself, and the
   * whole name must match.
   */
  namePatterns?: string[];
  /** Projects carrying any of these tags, e.g. `["team:payments"]` (system tags such as `managed-scan` count too). */
  tags?: string[];
  /** Project names to leave out although they match, e.g. `["acme/legacy-api"]`. */
  exclude?: string[];
}

/** What a selector reads of a project: the name and the tags, both in the project listing. */
export interface SelectableProject {
  name: string;
  tags: readonly string[];
}

/** A criterion's list, given empty, would restrict nothing: refused, so that a list computed empty cannot widen the selection to every project. */
const nonEmpty = <S extends z.ZodType<readonly unknown[] | undefined>>(schema: S) =>
  schema.refine((list) => list === undefined || list.length > 0, "must not be empty: an empty list restricts nothing (leave it out)");

const namePattern = z.string({ error: "must be a glob over project names" }).min(1, "a name pattern must not be empty");

const CRITERIA = ["namePatterns", "tags"] as const;

/**
 * The schema of `select`: at least one criterion, since a selector without one would pick every
 * project of the deployment.
 */
export const projectSelector = z
  .strictObject(
    {
      namePatterns: nonEmpty(z.array(namePattern, { error: "must be a list of project name globs" }).optional()),
      tags: nonEmpty(z.array(tagName, { error: "must be a list of tags" }).optional()),
      exclude: z.array(projectName, { error: "must be a list of project names" }).optional(),
    },
    { error: "must be a selector: { namePatterns?, tags?, exclude? }" },
  )
  .refine((select) => CRITERIA.some((name) => select[name] !== undefined), {
    message: "must give at least one criterion (namePatterns, tags): a selector without one would pick every project of the deployment",
  });

/**
 * A glob over project names as a regular expression: `**` any characters, `*` any characters but
 * `/`, `?` one character but `/`; the rest literal, anchored at both ends.
 */
export function namePatternRegExp(glob: string): RegExp {
  let body = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      body += ".*";
      i++;
    } else if (c === "*") body += "[^/]*";
    else if (c === "?") body += "[^/]";
    else body += c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`^${body}$`, "s");
}

/** A selector compiled once, to test thousands of projects against it. */
export function projectMatcher(select: ProjectSelectorArgs): (project: SelectableProject) => boolean {
  const patterns = select.namePatterns?.map(namePatternRegExp);
  const tags = select.tags ? new Set(select.tags) : undefined;
  const excluded = new Set(select.exclude ?? []);
  return (project) =>
    !excluded.has(project.name) &&
    (patterns === undefined || patterns.some((pattern) => pattern.test(project.name))) &&
    (tags === undefined || project.tags.some((tag) => tags.has(tag)));
}

/** The projects `select` picks, in the order given. */
export function selectProjects<P extends SelectableProject>(projects: Iterable<P>, select: ProjectSelectorArgs): P[] {
  const matches = projectMatcher(select);
  return [...projects].filter(matches);
}

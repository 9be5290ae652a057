/** Input schemas shared by the resources' `check`: identity fields, branches, tags, toggles. */
import { z } from "zod";
import { numericId, PRIMARY_BRANCH_FOLLOWS_DEFAULT, tagList } from "../client/schemas";

export { tagList, numericId };

const noEdgeSpace = (s: string) => s.trim() === s;

/** A deployment's slug, as in project paths (`acme`). */
export const deploymentSlug = z
  .string({ error: "must be a string: the deployment's slug, e.g. \"acme\"" })
  .min(1, "must not be empty: give the deployment's slug, e.g. \"acme\"")
  .max(128, "must be at most 128 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be a deployment slug: letters, digits, '.', '_' or '-', e.g. \"acme\"");

/** A project's name, typically `<organization>/<project>`. */
export const projectName = z
  .string({ error: "must be a string: the project's name, e.g. \"acme/web-app\"" })
  .min(1, "must not be empty: give the project's name, e.g. \"acme/web-app\"")
  .max(256, "must be at most 256 characters")
  .refine(noEdgeSpace, "must not start or end with white space")
  .refine((s) => !/[\s?#]/.test(s), "must not contain white space, '?' or '#'");

/** A deployment or policy id: digits, as a string or a number. */
export const id = (what: string) =>
  z
    .union([z.string(), z.number().int().nonnegative().transform(String)], { error: `must be the ${what} id: digits, e.g. "1"` })
    .pipe(z.string().regex(/^\d+$/, `must be the ${what} id: digits only, e.g. "1"`).max(20, `must be at most 20 digits`));

function validBranchName(name: string): boolean {
  return (
    name.length > 0 &&
    !/[\s~^:?*[\\\x00-\x1f\x7f]/.test(name) &&
    !name.includes("..") &&
    !name.includes("@{") &&
    !name.includes("//") &&
    !name.startsWith("/") &&
    !name.startsWith("-") &&
    !name.endsWith("/") &&
    !name.endsWith(".") &&
    !name.endsWith(".lock")
  );
}

/**
 * A primary branch: `refs/heads/<branch>`, a bare branch name (written back as
 * `refs/heads/<branch>`), or `None` to follow the default branch.
 */
export const primaryBranch = z
  .string({ error: "must be a string: a branch such as \"main\" or \"refs/heads/main\", or \"None\"" })
  .max(256, "must be at most 256 characters")
  .transform((value, ctx) => {
    if (value === PRIMARY_BRANCH_FOLLOWS_DEFAULT) return value;
    if (value.startsWith("refs/") && !value.startsWith("refs/heads/")) {
      ctx.addIssue({ code: "custom", message: "must be a branch (refs/heads/<branch>), not another kind of ref" });
      return z.NEVER;
    }
    const name = value.startsWith("refs/heads/") ? value.slice("refs/heads/".length) : value;
    if (!validBranchName(name)) {
      ctx.addIssue({ code: "custom", message: "is not a valid branch name (no spaces, '..', '~', '^', ':', '?', '*', '[' or '\\\\', no trailing '/', '.' or '.lock')" });
      return z.NEVER;
    }
    return `refs/heads/${name}`;
  });

export const toggle = z.strictObject({ enabled: z.boolean({ error: "must be true or false" }) }, { error: "must be an object { enabled: boolean }" });

export const restoreOnDelete = z.boolean({ error: "must be true or false" }).optional();

/** Tags a resource declares: at least one when given. */
export const declaredTags = tagList.pipe(z.array(z.string()).min(1, "must name at least one tag"));

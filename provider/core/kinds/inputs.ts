/** Input schemas of the resources' `check`: identity fields (shared with the data sources), branches, tags, toggles. */
import { z } from "zod";
import { isBranchName, isSystemTag, PRIMARY_BRANCH_FOLLOWS_DEFAULT, tagList } from "../../client/schemas";

export { declaredToggle as toggle, deploymentSlug, id, projectName } from "../../client/schemas";
export { tagList };

/**
 * A primary branch: `refs/heads/<branch>`, a bare branch name (written back as
 * `refs/heads/<branch>`), or `None` to follow the default branch.
 */
export const primaryBranch = z
  .string({ error: 'must be a string: a branch such as "main" or "refs/heads/main", or "None"' })
  .max(256, "must be at most 256 characters")
  .transform((value, ctx) => {
    if (value === PRIMARY_BRANCH_FOLLOWS_DEFAULT) return value;
    if (value.startsWith("refs/") && !value.startsWith("refs/heads/")) {
      ctx.addIssue({ code: "custom", message: "must be a branch (refs/heads/<branch>), not another kind of ref" });
      return z.NEVER;
    }
    const name = value.startsWith("refs/heads/") ? value.slice("refs/heads/".length) : value;
    if (!isBranchName(name)) {
      ctx.addIssue({
        code: "custom",
        message: "is not a valid branch name (no spaces, '..', '~', '^', ':', '?', '*', '[' or '\\\\', no trailing '/', '.' or '.lock')",
      });
      return z.NEVER;
    }
    return `refs/heads/${name}`;
  });

export const restoreOnDelete = z.boolean({ error: "must be true or false" }).optional();

/**
 * Tags a resource may declare: no system tag (`managed-scan`). The service sets those itself and
 * keeps them whatever a write sends, so a declared one could not be added, and could not be removed.
 */
export const settableTags = tagList.superRefine((tags, ctx) => {
  for (const [index, tag] of tags.entries()) {
    if (!isSystemTag(tag)) continue; // the check's message quotes the value before this one
    ctx.addIssue({
      code: "custom",
      path: [index],
      message:
        "is a system tag: the service sets it (on projects with managed scans) and keeps it whatever a write sends, " +
        "so it is not this stack's to declare; leave it out (ProjectSettings and ProjectTags never remove it; a ManagedScan turns managed scans on)",
    });
  }
});

/** Tags a resource declares: at least one when given. */
export const declaredTags = settableTags.pipe(z.array(z.string()).min(1, "must name at least one tag"));

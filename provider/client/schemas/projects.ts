/** Projects: read, update, managed scans, tags (operations 8 to 12). */
import { z } from "zod";
import { flag, list, looseInt, timestamp } from "./common";

/** `refs/heads/<branch>`, or `None` (the primary branch then follows the default branch). */
export const PRIMARY_BRANCH_FOLLOWS_DEFAULT = "None";

/** Whether `name` is a branch name git accepts (`git check-ref-format --branch`'s main rules). */
export function isBranchName(name: string): boolean {
  return (
    name.length > 0 &&
    // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names
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

const HEADS = "refs/heads/";

export const branchRef = z
  .string()
  .refine((s) => s.startsWith(HEADS), "must be a full branch ref of the form refs/heads/<branch>")
  .refine((s) => !s.startsWith(HEADS) || isBranchName(s.slice(HEADS.length)), "is not a valid branch name");

export const tagName = z
  .string()
  .min(1, "a tag must not be empty")
  .max(256, "a tag must be at most 256 characters")
  .refine((s) => s.trim() === s, "a tag must not start or end with white space");

/**
 * Tags the service sets and keeps whatever a client sends: `managed-scan` marks a project with
 * managed scans (Semgrep's own tag scripts allow-list it and find managed-scan projects by it). A
 * PATCH of `tags` that leaves one out does not remove it, nor a `DELETE …/tags` naming it. Not a
 * stack's to manage: the resources neither write nor compare them, and an `adopt` leaves them out.
 */
export const SYSTEM_TAGS: readonly string[] = ["managed-scan"];

/** The system tag of a project with managed scans. */
export const MANAGED_SCAN_TAG = "managed-scan";

/** Whether the service sets and keeps `tag` itself (see {@link SYSTEM_TAGS}). */
export const isSystemTag = (tag: unknown): boolean => typeof tag === "string" && SYSTEM_TAGS.includes(tag);

/** The tags a client manages: `tags` without the system tags. */
export const withoutSystemTags = (tags: readonly string[]): string[] => tags.filter((t) => !isSystemTag(t));

/** A list of tags with no repeats. */
export const tagList = z.array(tagName).refine((tags) => new Set(tags).size === tags.length, "tags must not repeat");

const enabled = z.boolean({ error: "must be true or false" });
const toggleOf = <T extends z.ZodType>(shape: { enabled: T }) => z.strictObject(shape, { error: "must be an object { enabled: boolean }" });

/** A managed-scan switch as sent; `{}` is how protobuf's JSON mapping writes `{enabled: false}`. */
export const toggle = toggleOf({ enabled: enabled.optional() });

/** A managed-scan switch as a program declares it (the resources' `check`): `enabled` is required. */
export const declaredToggle = toggleOf({ enabled });

export const managedScanConfig = z.looseObject({
  diff_scan: z.looseObject({ enabled: flag }).nullish(),
  full_scan: z.looseObject({ enabled: flag }).nullish(),
});

export const project = z.looseObject({
  id: looseInt,
  name: z.string(),
  tags: list(z.string()),
  created_at: timestamp.nullish(),
  default_branch: z.string().nullish(),
  latest_scan_at: timestamp.nullish(),
  managed_scan_config: managedScanConfig.nullish(),
  primary_branch: z.string().nullish(),
  url: z.string().nullish(),
});
export type Project = z.output<typeof project>;

export const projectEnvelope = z.looseObject({ project });

export const updateProjectRequest = z.strictObject({
  deploymentSlug: z.string().optional(),
  projectName: z.string().optional(),
  primary_branch: z.union([branchRef, z.literal(PRIMARY_BRANCH_FOLLOWS_DEFAULT)]).optional(),
  tags: tagList.optional(),
  managed_scan_config: z.strictObject({ diff_scan: toggle.optional(), full_scan: toggle.optional() }).optional(),
});
export type UpdateProjectRequest = z.input<typeof updateProjectRequest>;

export const managedScanRequest = z.strictObject({
  deploymentSlug: z.string().optional(),
  projectName: z.string().optional(),
  diff_scan: toggle.optional(),
  full_scan: toggle.optional(),
});
export type ManagedScanRequest = z.input<typeof managedScanRequest>;

/**
 * Add tags: the OpenAPI's `AddProjectTagsRequest`. The client sends `{ tags }`, as Semgrep's own
 * scripts do; the names repeat the path when given.
 */
export const addTagsRequest = z.strictObject({
  deploymentSlug: z.string().optional(),
  projectName: z.string().optional(),
  tags: tagList.optional(),
});

/**
 * The largest page of the project list: 3,000, "the maximum allowed by API" in two independent
 * clients of the live service (the OpenAPI gives the same bound for another listing's
 * `page_size`, and none for this one).
 */
export const MAX_PROJECT_PAGE_SIZE = 3_000;

export const projectListResponse = z.looseObject({ projects: list(project) });
export type ProjectListResponse = z.output<typeof projectListResponse>;

export const deployment = z.looseObject({ id: looseInt, name: z.string().nullish(), slug: z.string() });
export type Deployment = z.output<typeof deployment>;
export const deploymentListResponse = z.looseObject({ deployments: list(deployment) });

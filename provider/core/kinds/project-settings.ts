/** ProjectSettings, declared once: see declare.ts. */
import { z } from "zod";
import { sameSet } from "../runtime/diff";
import { PRIMARY_BRANCH_FOLLOWS_DEFAULT, withoutSystemTags } from "../../client/schemas";
import { deploymentSlug, primaryBranch, projectName, restoreOnDelete, settableTags, toggle } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";
import { PROJECT_ID, PROJECT_SERVICE, type ScanToggle } from "./projects";

/** Managed-scan toggles: each left out is not managed. */
export interface ManagedScanConfig {
  /** Managed diff scans (on pull requests). */
  diffScan?: ScanToggle;
  /** Managed full scans (of the primary branch). */
  fullScan?: ScanToggle;
}

/** The project follows its default branch because this resource asked it to, and still does. */
export const followsDefault = (props: Record<string, unknown>) =>
  props.followsDefaultBranch === true && props.primaryBranch === props.defaultBranch;

/** Whether the live branch is the one declared: "None" once followed; a branch pinned (not followed). */
export function branchHolds(live: Record<string, unknown>, declared: unknown): boolean {
  return declared === PRIMARY_BRANCH_FOLLOWS_DEFAULT
    ? followsDefault(live)
    : live.primaryBranch === declared && live.followsDefaultBranch !== true;
}

/** A tag set as a ProjectSettings manages it: without the system tags, which the service sets and keeps. */
export const managedTags = (tags: unknown): string[] | undefined => (Array.isArray(tags) ? withoutSystemTags(tags as string[]) : undefined);

export const projectSettingsKind = defineKind({
  kind: "ProjectSettings",
  inputs: {
    /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
    deploymentSlug: input(deploymentSlug, { replaces: true }),
    /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
    projectName: input(projectName, { replaces: true }),
    /** `"main"`, `"refs/heads/main"`, or `"None"` to follow the default branch. Not managed when left out. */
    primaryBranch: input(primaryBranch.optional(), { equal: (_live, declared, olds) => branchHolds(olds, declared) }),
    /**
     * The project's whole tag set (authoritative), but the system tags: `managed-scan`, which the
     * service sets on projects with managed scans, is neither declared here (an error) nor removed,
     * compared or put back (see `SYSTEM_TAGS`). Not managed when left out; use ProjectTags to add
     * tags instead.
     */
    tags: input(settableTags.optional(), { equal: (live, declared) => sameSet(managedTags(live), declared) }),
    /** Managed-scan toggles; a toggle left out is not managed. */
    managedScanConfig: typedInput<ManagedScanConfig | undefined>()(
      z.strictObject({ diffScan: toggle.optional(), fullScan: toggle.optional() }).optional(),
    ),
    /** Put back, on delete, the values this resource changed, as it found them (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The project's numeric id. */
    projectId: output<number>(),
    /** Live primary branch (a full ref). */
    primaryBranch: output<string | null>(),
    /** True when `primaryBranch: "None"` was declared (the primary branch follows the default branch). */
    followsDefaultBranch: output<boolean | undefined>({ derivedFrom: "primaryBranch" }),
    /** Live default branch (a full ref). */
    defaultBranch: output<string | null>(),
    /** Live tags: the project's whole set, system tags (`managed-scan`) included. */
    tags: output<string[]>({ sharedSet: true }),
    /** Live managed-scan configuration, both toggles. */
    managedScanConfig: output<Required<ManagedScanConfig>>(),
    /** The project's page on semgrep.dev, where the service gives it. */
    url: output<string | null>(),
    /** When the project was last scanned, where the service says. */
    latestScanAt: output<string | null>(),
    /** The primary branch this resource found and changed, put back on delete; unset when not managed, or found as declared and not changed since. */
    originalPrimaryBranch: output<string | undefined>({ derivedFrom: "primaryBranch" }),
    /**
     * The tags this resource found and changed, put back on delete (the system tags left as they
     * are then); unset when not managed, or found as declared and not changed since. Never holds a system tag.
     */
    originalTags: output<string[] | undefined>({ derivedFrom: "tags", sharedSet: true }),
    /** The managed-scan toggles this resource found and changed, put back on delete. */
    originalManagedScanConfig: output<ManagedScanConfig | undefined>({ derivedFrom: "managedScanConfig" }),
    /**
     * The fields this resource manages (those declared): `primaryBranch`, `tags`,
     * `managedScanConfig.diffScan`, `managedScanConfig.fullScan`.
     */
    managedFields: output<string[]>(),
  },
  managed: {
    primaryBranch: managed("originalPrimaryBranch", {
      // A project this resource made follow its default branch refreshes as "None", as declared.
      refreshed: (live) => (followsDefault(live) ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : live.primaryBranch),
    }),
    // The declared set never holds a system tag, nor does an original: without them, or every refresh would show a diff.
    tags: managed("originalTags", { refreshed: (live) => managedTags(live.tags), fromState: managedTags }),
    "managedScanConfig.diffScan": managed("originalManagedScanConfig.diffScan"),
    "managedScanConfig.fullScan": managed("originalManagedScanConfig.fullScan"),
  },
  id: PROJECT_ID,
  service: {
    create:
      "Reads the project (one read per project and run, shared by every resource of that project), records the value of each " +
      "declared field, and writes the fields that differ in one `PATCH` of the project.",
    update:
      "Writes the declared fields that differ from the last known values in " +
      "one `PATCH`; a field dropped from the program is no longer managed.",
    delete:
      "Puts back, in one `PATCH`, each field it changed as it found it " +
      "(unless `restoreOnDelete` is `false`), leaving to another resource " +
      "of the stack what that resource now declares.",
    read: PROJECT_SERVICE.read,
    adoption: PROJECT_SERVICE.adoption("ProjectSettings"),
  },
});

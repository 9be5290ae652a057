/** ProjectSettingsSet, declared once: see declare.ts. */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { deploymentSlug, primaryBranch, projectName, restoreOnDelete, settableTags, toggle } from "./inputs";
import { defineKind, input, notEchoed, output, typedInput } from "./declare";
import type { ManagedScanConfig } from "./project-settings";
import { projectSelector, type ProjectSelectorArgs } from "./project-selector";

/** The fields of one project a ProjectSettingsSet manages, as ProjectSettings declares them: each left out is not managed. */
export interface ProjectEntryArgs {
  /** `"main"`, `"refs/heads/main"`, or `"None"` to follow the default branch. */
  primaryBranch?: string;
  /** The project's whole tag set (authoritative) less the system tags (`managed-scan`), which are neither declared nor removed. */
  tags?: string[];
  /** Managed-scan toggles; a toggle left out is not managed. */
  managedScanConfig?: ManagedScanConfig;
}

/** What every project `select` matches gets: each left out is not managed. */
export interface ProjectSetSettingsArgs {
  /** Managed-scan toggles; a toggle left out is not managed. */
  managedScanConfig?: ManagedScanConfig;
  /** Tags added to each project (its other tags are left as they are); destroy removes those it added. */
  addTags?: string[];
  /** `"main"`, `"refs/heads/main"`, or `"None"` to follow the default branch. */
  primaryBranch?: string;
}

/** What a ProjectSettingsSet found and changed on one project, put back on delete: only the fields it changed. */
export interface ProjectOriginals {
  /** The primary branch found (`"None"`: it followed the default branch). */
  primaryBranch?: string;
  /** The tag set found, less the system tags. */
  tags?: string[];
  /** The managed-scan toggles found. */
  managedScanConfig?: ManagedScanConfig;
  /** The tags of `settings.addTags` the project lacked, which this resource added (delete removes them). */
  addedTags?: string[];
}

const scanConfig = z.strictObject({ diffScan: toggle.optional(), fullScan: toggle.optional() });

/** At least one field: an entry that manages nothing is a mistake (drop the project from the map instead). */
const someField = (entry: Record<string, unknown>) => Object.values(entry).some((value) => value !== undefined);

const entry = z
  .strictObject(
    { primaryBranch: primaryBranch.optional(), tags: settableTags.optional(), managedScanConfig: scanConfig.optional() },
    { error: "must be a project's fields: { primaryBranch?, tags?, managedScanConfig? }" },
  )
  .refine(someField, "must declare at least one field (primaryBranch, tags, managedScanConfig)");

const settings = z
  .strictObject(
    {
      managedScanConfig: scanConfig.optional(),
      addTags: settableTags.pipe(z.array(z.string()).min(1, "must name at least one tag")).optional(),
      primaryBranch: primaryBranch.optional(),
    },
    { error: "must be the settings of the selected projects: { managedScanConfig?, addTags?, primaryBranch? }" },
  )
  .refine(someField, "must declare at least one setting (managedScanConfig, addTags, primaryBranch)");

const sameValue = (live: unknown, declared: unknown) => isDeepStrictEqual(live ?? undefined, declared ?? undefined);

export const projectSettingsSetKind = defineKind({
  kind: "ProjectSettingsSet",
  inputs: {
    /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
    deploymentSlug: input(deploymentSlug, { replaces: true }),
    /**
     * Explicit projects and the fields each manages, by project name, e.g.
     * `{ "acme/web-app": { tags: ["team:web"] } }`: the fields ProjectSettings manages, each only
     * where declared. They win over `select` for their fields. `{}` without `select` manages no project.
     * Kept once, in the inputs the engine stores: not an output (`projectDigests` is what the outputs keep of it).
     */
    projects: notEchoed(
      typedInput<Record<string, ProjectEntryArgs> | undefined>()(
        z.record(projectName, entry, { error: "must map project names to their fields" }).optional(),
        { equal: sameValue },
      ),
    ),
    /**
     * Every project of the deployment this selector matches gets `settings`, at each `up`: a
     * project created since the last run and matching is converged by the next one, and a project
     * that stops matching gets back what this resource found (the criteria are getProjects' `select`'s:
     * every criterion given must hold, and within a list any value does).
     */
    select: typedInput<ProjectSelectorArgs | undefined>()(projectSelector.optional(), { equal: sameValue }),
    /** What the projects `select` matches get; required with `select`. */
    settings: typedInput<ProjectSetSettingsArgs | undefined>()(settings.optional(), { equal: sameValue }),
    /** Put back, on delete and for a project it stops managing, the values this resource changed, as it found them (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [
    {
      holds: (declared) => declared.select === undefined || declared.settings !== undefined,
      message: "is required with select: what the selected projects get",
      path: "settings",
    },
    {
      holds: (declared) => declared.settings === undefined || declared.select !== undefined,
      message: "needs select: settings apply to the projects select matches (give explicit projects in projects)",
      path: "settings",
    },
    {
      holds: (declared) => declared.select !== undefined || declared.projects !== undefined,
      message: "must name at least one project, or give select and settings (`projects: {}` manages no project)",
      path: "projects",
    },
  ],
  outputs: {
    /** How many projects this resource manages (its `projects` and those `select` matched at the last `up`). */
    managedProjects: output<number>(),
    /** The projects `select` matched at the last `up` or refresh, sorted (empty without `select`). */
    selected: output<string[]>(),
    /** The managed projects not as declared, found by a refresh (the next `up` converges them), and those it has yet to put back. */
    deviations: output<string[]>({ derivedFrom: ["projects", "settings"] }),
    /** What it found and changed, by project, put back on delete: only the projects and fields it changed. */
    originals: output<Record<string, ProjectOriginals>>({ derivedFrom: ["projects", "settings"] }),
    /**
     * What each project of `projects` declared at the last `up`: the fields (`b` a branch, `n` the
     * default branch, `t` tags, `d` diff scans, `f` full scans) and a digest of their values, e.g.
     * `"tdf:1f2e3d4c5b6a"`. The next `up` and a refresh compare the program and the live projects
     * with it, so that the state holds the map once (in the inputs), not twice.
     */
    projectDigests: output<Record<string, string>>({ derivedFrom: "projects" }),
  },
  // No `managed` (declare.ts): it manages fields of many projects. Its claims are one per project
  // field, made at check for `projects` and, for the projects `select` matches (known only from
  // the listing), at diff and before any write (handlers/project-settings-set.ts).
  id: {
    format: "<deploymentSlug>/<resource name>",
    parse: (text) => {
      const at = text.indexOf("/");
      return at > 0 && at < text.length - 1 ? { deploymentSlug: text.slice(0, at) } : undefined;
    },
  },
  service: {
    create:
      "Lists the deployment's projects once (3,000 a page; shared with getProjects' reads in the run), reads a project on its own only " +
      "where `managedScanConfig` is declared for it (the listing does not carry it), records the value of each field it changes, and " +
      "writes each project that differs in one `PATCH`, a few at a time. The preview of a new set with `select` lists the projects " +
      "once (the same listing) to name those it matches and refuse a field of theirs another resource declares.",
    update:
      "Lists the projects again when `select` is given (at preview too, to name the projects a new match converges), writes each project " +
      "whose declared fields differ, and puts back what it found on the projects it no longer manages (with `restoreOnDelete: false` it " +
      "leaves them as they are). A no-change `up` without `select` makes no request. A change of deployment replaces it.",
    delete:
      "Lists the projects, and puts back, in one `PATCH` per project, each field it changed as it found it and removes the tags it " +
      "added (unless `restoreOnDelete` is `false`), leaving to another resource of the run what that resource now declares; it " +
      "names, by project, the values it leaves because it found them as declared and recorded no original.",
    read:
      "Lists the projects (and reads those whose `managedScanConfig` it manages) and reports in `deviations` each managed project " +
      "not as declared, which the next `up` converges.",
    adoption:
      "Projects already exist: the resource takes the declared fields over, recording what it changes. " +
      '`ProjectSettingsSet.get(name, "<deploymentSlug>/<name>")` reads nothing it would manage. `pulumi import` of it declares ' +
      "no project, which its check refuses: declare it in the program, or let `pulumi-semgrep adopt` write it.",
  },
});

export type { ProjectSelectorArgs };

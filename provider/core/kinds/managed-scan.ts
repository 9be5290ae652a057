/** ManagedScan, declared once: see declare.ts. */
import { deploymentSlug, projectName, restoreOnDelete, toggle } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";
import { PROJECT_ID, PROJECT_SERVICE, type ScanToggle } from "./projects";

export const managedScanKind = defineKind({
  kind: "ManagedScan",
  inputs: {
    /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
    deploymentSlug: input(deploymentSlug, { replaces: true }),
    /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
    projectName: input(projectName, { replaces: true }),
    /** Managed diff scans (on pull requests). Not managed when left out. */
    diffScan: typedInput<ScanToggle | undefined>()(toggle.optional()),
    /** Managed full scans (of the primary branch). Not managed when left out. */
    fullScan: typedInput<ScanToggle | undefined>()(toggle.optional()),
    /** Put back, on delete, the toggles this resource changed, as it found them (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [
    {
      holds: (declared) => declared.diffScan !== undefined || declared.fullScan !== undefined,
      message: "declare diffScan, fullScan or both: a ManagedScan without either manages nothing",
      path: "diffScan",
    },
  ],
  outputs: {
    /** Live diff-scan toggle. */
    diffScan: output<ScanToggle>(),
    /** Live full-scan toggle. */
    fullScan: output<ScanToggle>(),
    /** The project's numeric id. */
    projectId: output<number>(),
    /** The diff-scan toggle this resource found and changed, put back on delete; unset when it found it as declared and no update has changed it since. */
    originalDiffScan: output<ScanToggle | undefined>({ derivedFrom: "diffScan" }),
    /** The full-scan toggle this resource found and changed, put back on delete; unset when it found it as declared and no update has changed it since. */
    originalFullScan: output<ScanToggle | undefined>({ derivedFrom: "fullScan" }),
    /** The toggles this resource manages (those declared): `diffScan`, `fullScan`. */
    managedFields: output<string[]>(),
  },
  managed: {
    diffScan: managed("originalDiffScan"),
    fullScan: managed("originalFullScan"),
  },
  id: PROJECT_ID,
  service: {
    create:
      "Reads the project (one read per project and run, shared by every resource of that project), records each declared " +
      "toggle, and writes those that differ in one request.",
    update:
      "Writes the declared toggles that differ from the last known values in " +
      "one request; a toggle dropped from the program is no longer managed.",
    delete: "Puts back, in one request, each toggle it changed as it found it (unless `restoreOnDelete` is `false`).",
    read: PROJECT_SERVICE.read,
    adoption: PROJECT_SERVICE.adoption("ManagedScan"),
  },
});

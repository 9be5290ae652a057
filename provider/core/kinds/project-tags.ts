/** ProjectTags, declared once: see declare.ts. */
import { sameSet } from "../runtime/diff";
import { declaredTags, deploymentSlug, projectName, restoreOnDelete } from "./inputs";
import { defineKind, input, output } from "./declare";
import { PROJECT_ID, PROJECT_SERVICE } from "./projects";

export const projectTagsKind = defineKind({
  kind: "ProjectTags",
  inputs: {
    /** Slug of the deployment, e.g. `"acme"`. Changing it replaces the resource. */
    deploymentSlug: input(deploymentSlug, { replaces: true }),
    /** The project, typically `"<organization>/<repository>"`. Changing it replaces the resource. */
    projectName: input(projectName, { replaces: true }),
    /**
     * Tags to add (at least one), beside whatever tags the project has. A system tag
     * (`managed-scan`, see `SYSTEM_TAGS`) is refused at preview: the service sets it on projects
     * with managed scans and keeps it; a ManagedScan turns managed scans on.
     */
    tags: input(declaredTags, { equal: sameSet }),
    /** Remove, on delete, the tags this resource added (default `true`); `false` leaves them. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The declared tags the project has. */
    tags: output<string[]>(),
    /** The tags this resource added (those not on the project before it). */
    addedTags: output<string[]>({ derivedFrom: "tags" }),
    /** Every tag of the project at the last read or write, system tags (`managed-scan`) included. */
    projectTags: output<string[]>({ sharedSet: true }),
    /** The project's numeric id. */
    projectId: output<number>(),
  },
  // No `managed` (declare.ts): it adds tags beside the project's others, with no original to
  // record. Its claims are one per tag, shared with any other resource that declares the tag
  // (handlers/projects.ts `tagClaim`, made at check in handlers/project-tags.ts `claimsOf`), each
  // recording only whether this resource added it (`addedTags`: removed on delete).
  id: PROJECT_ID,
  service: {
    create:
      "Reads the project (one read per project and run, shared by every resource of that project) and adds the declared tags " +
      "it lacks in one request; the tags it found already there are recorded as not added.",
    update: "Adds the newly declared tags the project lacks, and removes the tags it added that the program no longer declares.",
    delete:
      "Removes the tags it added (unless `restoreOnDelete` is `false`), except those another resource of the stack still declares; " +
      "a tag it found on the project stays.",
    read: PROJECT_SERVICE.read,
    adoption: PROJECT_SERVICE.adoption("ProjectTags"),
  },
});

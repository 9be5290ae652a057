/**
 * A deployment's project listing as the set-shaped project kind reads it: one listing per
 * deployment and phase (3,000 projects a page), shared by every ProjectSettingsSet of the
 * deployment in this provider process. The map is the cached one: a writer puts each write's
 * answer in it, so that a second set of the run decides on what the first left.
 */
import type { Project } from "../../client";
import { apiAddress, apiClient } from "../runtime/credentials";
import { sharedReads } from "../runtime/shared-reads";

const listings = sharedReads<Map<string, Project>>();

const keyOf = (deploymentSlug: string) => `${apiAddress()}|${deploymentSlug}`;

/**
 * Puts the answer of a write to one project into the deployment's cached listing, if this process
 * holds one (every project write goes through project-index.ts): a set that plans later in the
 * phase, from a listing it loaded at its check, decides on what that write left (a tag another
 * resource added) and does not write it away.
 */
export function noteProjectWritten(deploymentSlug: string, project: Project): void {
  void listings.peek(keyOf(deploymentSlug))?.then(
    (byName) => {
      if (byName.has(project.name)) byName.set(project.name, { ...byName.get(project.name)!, ...project });
    },
    () => {},
  );
}

/** Every listed project of the deployment, by name (no project's own read: the listing has no managed-scan switches). */
export function projectListing(deploymentSlug: string): Promise<Map<string, Project>> {
  return listings.get(keyOf(deploymentSlug), async () => {
    const byName = new Map<string, Project>();
    for await (const project of apiClient().projects.list(deploymentSlug)) byName.set(project.name, project);
    return byName;
  });
}

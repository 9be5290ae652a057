/**
 * Projects as the project resources read and write them: one GET per project shared by every
 * resource in this provider process (the ProjectSettings, ProjectTags and ManagedScan of one
 * project read it once), replaced by the answer of each write (see shared-reads.ts). Writes to
 * one project leave in the order they are made, and a read waits for the writes before it, so
 * that a tag one resource removes and another then adds back (ownership.ts) ends present, and no
 * resource decides on a project a queued write is about to change.
 */
import type { ManagedScanRequest, Project, UpdateProjectRequest } from "../../client";
import { apiAddress, apiClient } from "../runtime/credentials";
import { onForget } from "../runtime/process-memory";
import { sharedReads } from "../runtime/shared-reads";
import { noteProjectWritten } from "./project-listing";

const projects = sharedReads<Project>();
/** The last write to each project, which the next one waits for. */
const lastWrites = new Map<string, Promise<unknown>>();
onForget(() => lastWrites.clear());

/** Reads and writes of one project, through the shared reads. */
export function projectApi(deploymentSlug: string, projectName: string) {
  const key = `${apiAddress()}|${deploymentSlug}|${projectName}`;
  const write = (request: () => Promise<Project>): Promise<Project> => {
    const written = (lastWrites.get(key) ?? Promise.resolve())
      .catch(() => undefined) // a failed write is its own resource's error, not the next one's
      .then(request)
      .then((project) => {
        projects.set(key, project);
        noteProjectWritten(deploymentSlug, project);
        return project;
      });
    lastWrites.set(key, written);
    return written;
  };
  const client = apiClient().projects;
  return {
    /** The project (a NotFoundError when it does not exist). */
    get: () =>
      (lastWrites.get(key) ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => projects.get(key, () => client.get(deploymentSlug, projectName))),
    update: (body: UpdateProjectRequest) => write(() => client.update(deploymentSlug, projectName, body)),
    updateManagedScans: (body: ManagedScanRequest) => write(() => client.updateManagedScans(deploymentSlug, projectName, body)),
    addTags: (tags: string[]) => write(() => client.addTags(deploymentSlug, projectName, tags)),
    removeTags: (tags: string[]) => write(() => client.removeTags(deploymentSlug, projectName, tags)),
  };
}

/** {@link projectApi} of the project a resource's properties name. */
export function projectOf(props: { deploymentSlug?: unknown; projectName?: unknown }) {
  return projectApi(String(props.deploymentSlug), String(props.projectName));
}

/** Reading an object that may be gone, without mistaking a token problem for a deletion. */
import { type Deployment, NotFoundError } from "../../client";
import { apiAddress, apiClient } from "./credentials";
import { sharedReads } from "./shared-reads";

const deploymentLists = sharedReads<Deployment[]>();

/**
 * The token's deployments, read once per process. A 404 here too means the token lacks Web API
 * access (the live service answers 404 to everything then), or the address is not the API's.
 */
export async function tokenDeployments(): Promise<Deployment[]> {
  return deploymentLists.get(apiAddress(), async () => {
    try {
      return await apiClient().deployments.list();
    } catch (probe) {
      if (probe instanceof NotFoundError) {
        throw new Error(
          `the deployment list answers 404 too (${probe.message}), so the token most likely lacks Web API access, ` +
            `or ${apiAddress()} is not the Semgrep API's address; nothing is treated as deleted until this is fixed`,
          { cause: probe },
        );
      }
      throw probe;
    }
  });
}

/**
 * Runs `read`, a request about an object that may have been deleted; a 404 means it is gone
 * (undefined), unless the API answers 404 to everything, which is what a token without Web API
 * access gets: refreshing must then fail rather than drop the resource from the stack.
 */
export async function unlessGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    try {
      await tokenDeployments();
    } catch (probe) {
      // The probe's error is shared by every caller (one read per process): never changed, only wrapped.
      throw new Error(`${error.message}. Also, ${probe instanceof Error ? probe.message : String(probe)}`, { cause: probe });
    }
    return undefined;
  }
}

/**
 * After a 404 about a project: an error saying that the deployment does not exist, when the
 * token's deployments do not include `slug` (a deployment id given as the slug, say).
 */
export async function missingDeployment(slug: string): Promise<Error | undefined> {
  const deployments = await tokenDeployments();
  if (deployments.some((d) => d.slug === slug)) return undefined;
  const known = deployments.map((d) => `"${d.slug}" (id ${d.id})`).join(", ") || "none";
  return new Error(
    `deployment "${slug}" does not exist for this token (its deployments: ` +
      `${known}); deploymentSlug takes the deployment's slug, not its numeric id`,
  );
}

/**
 * Prefixes an error's message with the resource it concerns, in a new error (the original may be
 * shared by several resources: the rejection of one read made once for all of them).
 */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Error) || error.message.startsWith(subject)) throw error;
    throw new Error(`${subject}: ${error.message}`, { cause: error });
  }
}

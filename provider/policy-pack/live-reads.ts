/**
 * What a policy reads of the service, once per deployment, address and token in a run (one
 * analyzer process per run): the read's promise is kept and shared by every resource it judges.
 */
import { SemgrepClient } from "../client";
import type { Credentials } from "./severities";

/** Reads kept by their key, per kind of read; `forgetLiveReads` empties them all. */
const caches: Map<string, Promise<unknown>>[] = [];

/**
 * A reader of one kind: `read(client, deploymentId)` runs once per deployment and credentials, with
 * a client of its own (closed after); a read that fails gives `failed(error)` instead.
 */
export function liveReader<T>(
  read: (client: SemgrepClient, deploymentId: string) => Promise<T>,
  failed: (error: Error) => T,
): (credentials: Credentials, deploymentId: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  caches.push(cache as Map<string, Promise<unknown>>);
  return (credentials, deploymentId) => {
    const key = [credentials.url ?? "", credentials.token, deploymentId].join("\u0000");
    let found = cache.get(key);
    if (!found) {
      found = (async () => {
        const client = new SemgrepClient({
          token: credentials.token,
          baseUrl: credentials.url,
          tokenSource: credentials.tokenSource,
          env: {},
        });
        try {
          return await read(client, deploymentId);
        } catch (error) {
          return failed(error as Error);
        } finally {
          await client.close();
        }
      })();
      cache.set(key, found);
    }
    return found;
  };
}

/** Forgets every read (tests emulate one run after another in one process). */
export function forgetLiveReads(): void {
  for (const cache of caches) cache.clear();
}

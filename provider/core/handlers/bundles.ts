/**
 * A Policies V2 bundle (one product's detection policy, or the deployment's remediation policies)
 * as the resources of one provider process share it. The API applies a bundle strictly and with
 * optimistic concurrency (`If-Match: <state_version>`), so every write here is read-modify-write:
 *  - the bundle is read once per process (single flight, shared-reads.ts) and kept fresh from each
 *    PUT's answer, which carries the bundle and its new `state_version`: N changed resources on
 *    one bundle cost one read plus N writes;
 *  - writes to one bundle are serialized, so resources of one `pulumi up` never race each other;
 *  - a 409 (someone else changed the bundle meanwhile) re-reads and applies the same edit to what
 *    is there now: each resource's edit touches only what it declares, so nobody's change is lost.
 */
import { StateVersionConflictError } from "../../client";
import { apiAddress } from "../runtime/credentials";
import { sharedReads } from "../runtime/shared-reads";

/** A bundle with the version the service gave it. */
export interface Versioned<B> {
  bundle: B;
  stateVersion: string;
}

/** How one bundle is read and written. */
export interface BundleEndpoint<B> {
  /** What messages call it: `the code detection policy of deployment 1`. */
  readonly name: string;
  /** Identifies the bundle within the service (deployment and product). */
  readonly key: string;
  read(): Promise<Versioned<B>>;
  write(bundle: B, ifMatch: string): Promise<Versioned<B>>;
}

/** How often a write re-reads after a conflict before giving up (another writer that never stops). */
const CONFLICT_RETRIES = 5;

// Kept for the whole phase: each write's answer keeps it right, and a conflict reads it again.
const reads = sharedReads<Versioned<unknown>>({ ttlMs: Infinity });
/** The tail of each bundle's queue of writes. */
const queues = new Map<string, Promise<unknown>>();

const cacheKey = (endpoint: BundleEndpoint<unknown>) => `${apiAddress()}|${endpoint.key}`;

/** The bundle as last read or written by this process. */
export function readBundle<B>(endpoint: BundleEndpoint<B>): Promise<Versioned<B>> {
  return reads.get(cacheKey(endpoint), () => endpoint.read()) as Promise<Versioned<B>>;
}

/** What an edit is told besides the live bundle. */
export interface EditContext {
  /**
   * An earlier attempt of this same edit may have been applied (its answer was lost, then the
   * retry met a conflict the client could not confirm as its own): the live bundle may already
   * hold this resource's own write, so what it finds now is not what was there before it.
   */
  ownWriteMayHaveLanded: boolean;
}
export type BundleEdit<B> = (live: B, context: EditContext) => B | undefined;

/**
 * Applies `edit` to the bundle and writes the result, after every write queued before it. `edit`
 * gets the live bundle and returns the bundle to write, or `undefined` when nothing needs writing
 * (then no request is made). Returns the bundle as written, or as it is when nothing was.
 */
export function editBundle<B>(endpoint: BundleEndpoint<B>, edit: BundleEdit<B>): Promise<Versioned<B>> {
  const key = cacheKey(endpoint);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => writeWithRetries(endpoint, edit));
  queues.set(key, run);
  void run.finally(() => queues.get(key) === run && queues.delete(key)).catch(() => {});
  return run;
}

async function writeWithRetries<B>(endpoint: BundleEndpoint<B>, edit: BundleEdit<B>): Promise<Versioned<B>> {
  const key = cacheKey(endpoint);
  let ownWriteMayHaveLanded = false;
  for (let attempt = 0; ; attempt++) {
    const live = await readBundle(endpoint);
    const wanted = edit(live.bundle, { ownWriteMayHaveLanded });
    if (wanted === undefined) return live;
    try {
      const written = await endpoint.write(wanted, live.stateVersion);
      reads.set(key, written);
      return written;
    } catch (error) {
      if (!(error instanceof StateVersionConflictError) || attempt >= CONFLICT_RETRIES) throw error;
      // Someone else wrote the bundle: read it again and apply the same edit to what is there now.
      ownWriteMayHaveLanded ||= error.mayHaveApplied;
      reads.delete(key);
    }
  }
}

/** Transient faults injected into API requests, as a flaky network or an overloaded service would. */
import { seededRandom } from "./random";

/**
 * `429` (with Retry-After), `503` (a proxy's HTML page) and `drop` (connection closed before the
 * request is handled) are the transient faults of `--fault-rate`. `lost` (the request is handled,
 * then the connection closes before the answer) is chosen only when asked for: a retried write
 * must then end as the first would have, and only a request that is not idempotent (starting an
 * SBOM export) may take effect twice. `concurrent-write` (another client's apply lands just before
 * the request is handled) is chosen only when asked for too, and only for the Policies V2 applies
 * (the bundle changes, so the request's `If-Match` is stale and answers 409
 * `STATE_VERSION_MISMATCH`): other requests never draw it.
 */
export type FaultKind = "429" | "503" | "drop" | "lost" | "concurrent-write";
export const FAULT_KINDS: readonly FaultKind[] = ["429", "503", "drop", "lost", "concurrent-write"];
/** The faults `--fault-rate` injects unless told otherwise. */
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ["429", "503", "drop"];

export interface FaultSettings {
  /** Share of API requests answered with a transient fault, 0 to 1. */
  faultRate: number;
  /** Delay before every API answer, in ms. */
  latencyMs: number;
  /**
   * The delay only from the first write on (that write included; see isWriteRequest): the reads
   * before it answer at once. Set, it waits for a write again. How a test holds a run's first
   * writes in flight while it cuts the run, whatever the load of the machine.
   */
  slowFromFirstWrite: boolean;
  /** `Retry-After` (seconds) sent with an injected 429. */
  retryAfterSeconds: number;
  /** Which faults to choose from; default all three. */
  kinds: FaultKind[];
  /** Only requests of these operations (e.g. `sbom.createExport`) get faults; empty for every request. */
  operations: string[];
  /** How many more faults to inject at most; null for no limit. Counts down as faults are injected. */
  maxFaults: number | null;
}

/** Random numbers for fault decisions: seeded, so a fault sequence can be replayed, or Math.random. */
export function faultRandom(seed: number | undefined): () => number {
  return seed === undefined ? Math.random : seededRandom(seed);
}

/**
 * The fault to inject for one request of `operation` (when it names one), if any; counts it against
 * `maxFaults`. `concurrent-write` is a candidate only where it can act (`takesConcurrentWrite`: a
 * Policies V2 apply), so that it is neither counted nor logged on a request it leaves alone.
 */
export function chooseFault(
  settings: FaultSettings,
  random: () => number,
  operation: string | undefined,
  takesConcurrentWrite = false,
): FaultKind | undefined {
  const kinds = settings.kinds.filter((kind) => kind !== "concurrent-write" || takesConcurrentWrite);
  if (settings.faultRate <= 0 || settings.maxFaults === 0 || kinds.length === 0) return undefined;
  if (settings.operations.length && !(operation && settings.operations.includes(operation))) return undefined;
  if (random() >= settings.faultRate) return undefined;
  if (settings.maxFaults !== null) settings.maxFaults--;
  return kinds[Math.floor(random() * kinds.length)];
}

/** What is wrong with fault settings, if anything; `operations` must name operations the emulator serves. */
export function validateFaultSettings(settings: Partial<FaultSettings>, knownOperations: readonly string[] = []): string | undefined {
  const { faultRate, latencyMs, slowFromFirstWrite, retryAfterSeconds, kinds, operations, maxFaults, ...unknown } = settings;
  const [stray] = Object.keys(unknown);
  if (stray !== undefined)
    return `unknown setting ${stray}: use faultRate, latencyMs, slowFromFirstWrite, retryAfterSeconds, kinds, operations or maxFaults`;
  if (
    operations !== undefined &&
    !(Array.isArray(operations) && operations.every((o) => typeof o === "string" && knownOperations.includes(o)))
  ) {
    return `operations must be a list of operation names: ${knownOperations.join(", ")}`;
  }
  if (maxFaults !== undefined && maxFaults !== null && !(Number.isInteger(maxFaults) && maxFaults >= 0)) {
    return "maxFaults must be a whole number of 0 or more, or null";
  }
  if (faultRate !== undefined && !(typeof faultRate === "number" && faultRate >= 0 && faultRate <= 1))
    return "faultRate must be a number from 0 to 1";
  if (latencyMs !== undefined && !(Number.isInteger(latencyMs) && latencyMs >= 0)) return "latencyMs must be a whole number of 0 or more";
  if (slowFromFirstWrite !== undefined && typeof slowFromFirstWrite !== "boolean") return "slowFromFirstWrite must be true or false";
  if (retryAfterSeconds !== undefined && !(Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 0))
    return "retryAfterSeconds must be a whole number of 0 or more";
  if (kinds !== undefined && !(Array.isArray(kinds) && kinds.length > 0 && kinds.every((k) => FAULT_KINDS.includes(k)))) {
    return `kinds must be a non-empty list of ${FAULT_KINDS.join(", ")}`;
  }
  return undefined;
}

/**
 * Whether a request changes the service: every method but GET, less the Policies V2 dry runs
 * (validation only) and the listings the API serves by POST (teams, users, notification rules,
 * scans: a body carries the filter), which read.
 */
export const isWriteRequest = (r: { method: string; operation?: string }) =>
  r.method !== "GET" && !(r.operation ?? "").includes("dryRun") && !/\.(list|search)$/.test(r.operation ?? "");

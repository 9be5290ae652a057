/** When to try a request again, and how long to wait first. */
import { causeChain } from "./errors";

/**
 * Retries after a refused connection, whatever the configured count: nothing listens at the
 * address (most often a wrong port in the configured address), and waiting rarely changes that;
 * a server restarting gets one short second chance. Resets and timeouts keep the full count.
 */
export const REFUSED_RETRIES = 1;

/** How many retries a failed connection gets at most, given the configured count. */
export function connectionRetries(error: unknown, configured: number): number {
  return errorCode(error) === "ECONNREFUSED" ? Math.min(configured, REFUSED_RETRIES) : configured;
}

/** Statuses that say "not now" rather than "no". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Error codes of a connection that failed before any byte of the request could reach the server. */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Error codes of a connection that broke or timed out: the request may or may not have been processed. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  ...NEVER_SENT_CODES,
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);

/** The error code of a failed connection, looking through `cause` chains. */
export function errorCode(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** Whether a failed connection may be tried again: resets, timeouts and connections never made. */
export function isRetryableConnectionError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/** Whether an answer with this status may be tried again: "not now" rather than "no". */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * Whether a request whose connection failed may nonetheless have been processed: unless the
 * connection was never made, the service may have acted before the answer was lost.
 */
export function mayHaveBeenProcessed(error: unknown): boolean {
  const code = errorCode(error);
  return code === undefined || !NEVER_SENT_CODES.has(code);
}

/**
 * The TLS handshake failed: most often an https:// address of a server that speaks plain http.
 * (A connection reset during the handshake is a reset, retried like any other.)
 */
export function isTlsError(error: unknown): boolean {
  const code = errorCode(error);
  if (code && TRANSIENT_CODES.has(code)) return false;
  if (code && (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_") || code === "EPROTO")) return true;
  return [...causeChain(error)].some((e) => e instanceof Error && /SSL routines|wrong version number/.test(e.message));
}

/**
 * The wait the service asked for, in ms: `retry-after-ms`, else `Retry-After` in seconds or as an
 * HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(first(headers["retry-after-ms"]) ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = first(headers["retry-after"]);
  if (raw === undefined) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter for attempt `retry` (1 for the first retry), or the service's
 * own `Retry-After`, never more than `maxMs`.
 */
export function retryDelayMs(retry: number, baseMs: number, maxMs: number, serverAskedMs?: number, random = Math.random): number {
  if (serverAskedMs !== undefined) return Math.min(serverAskedMs, maxMs);
  const exponential = Math.min(baseMs * 2 ** (retry - 1), maxMs);
  // "Equal jitter": at least half the exponential delay, so retries still spread out over time.
  return exponential / 2 + random() * (exponential / 2);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

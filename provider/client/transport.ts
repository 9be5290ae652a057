/**
 * The one place where requests are sent: URL building, auth header, validation of what goes out
 * and comes back, retries with backoff, timeouts, the concurrency limit and error mapping.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import type { z } from "zod";
import type { ResolvedConfig } from "./config";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ExperimentalEndpointError,
  type ErrorDetails,
  InvalidRequestError,
  type MissingReference,
  type RequestInfo,
  ResponseValidationError,
  type SemgrepError,
  type ServiceValidationError,
  type Stability,
} from "./errors";
import {
  errorCode,
  connectionRetries,
  isRetryableConnectionError,
  isRetryableStatus,
  isTlsError,
  mayHaveBeenProcessed,
  retryAfterMs,
  retryDelayMs,
  TIMEOUT_CODES,
} from "./retry";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Options of one call, taken by every client method as its last argument (as the OpenAI and
 * Anthropic SDKs do), over the client's own settings.
 */
export interface RequestOptions {
  /** Aborts the call: the request in flight, or the wait before a retry (`APIUserAbortError`). */
  signal?: AbortSignal;
  /** Deadline of each attempt, in ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
}
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestSpec<S extends z.ZodType> {
  /** Client operation name used in errors, e.g. `policies.listRules`. */
  operation: string;
  method: HttpMethod;
  /** Path from {@link prefix}, with every path parameter already encoded. */
  path: string;
  /** Where the API's paths start: `/api/v1` (the default), or `/api/policies/v2` for Policies V2. */
  prefix?: string;
  /** Query parameters; arrays become repeated keys (`?tags=a&tags=b`). */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema of a 2xx answer. */
  response: S;
  /**
   * For a request that is not idempotent, what sending it twice does (e.g. "an SBOM export may
   * already have started"). Such a request is retried like any other (every one here is harmless
   * to repeat, while a failure stops a whole `pulumi up`), and its final error says this when an
   * attempt may have reached the service.
   */
  repeatEffect?: string;
  /**
   * The error code a `410 Gone` of this operation stands for when the answer names none (the
   * deprecated v1 policy operations: `DEPLOYMENT_MIGRATED`), so the typed error does not depend
   * on the error body's exact shape.
   */
  goneCode?: string;
  /**
   * Sent as the `If-Match` header: the `state_version` a Policies V2 apply was computed against.
   * A 409 answer then raises {@link StateVersionConflictError} with the current version.
   *
   * Retries: such a request is retried like every other (429, 502/503/504, a lost connection),
   * with the same `If-Match`, and that is safe. The precondition makes the service apply it only
   * onto the very bundle it was computed against, so a repeat can never overwrite a change made
   * in between; if an earlier attempt did apply (its answer lost), the bundle's version has
   * moved, and the repeat is refused with 409 instead of applying twice. That 409 is then marked
   * `mayHaveApplied`, with `repeatEffect`'s note, since it may be the earlier attempt's own
   * doing; the Policies V2 area confirms it with a dry run (see `PoliciesV2`).
   */
  ifMatch?: string;
  /**
   * The operation's standing in Semgrep's OpenAPI. An experimental one answered 501, or 404 when
   * the path names no object ({@link addresses}), fails with {@link ExperimentalEndpointError}:
   * the service does not serve it.
   */
  stability?: Stability;
  /**
   * The object the path names (`team 12`), for an experimental operation: its 404 then means that
   * object is gone (`NotFoundError`), not that the endpoint is absent.
   */
  addresses?: string;
  /** The caller's per-call options. */
  options?: RequestOptions;
}

/** Validates a request value before anything is sent; issues name the field. */
export function validateRequest<S extends z.ZodType>(operation: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InvalidRequestError(operation, formatIssues(parsed.error.issues));
  return parsed.data;
}

/** `field.path: message` lines of a zod error. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join(".") : "(value)";
    return `${where}: ${issue.message}`;
  });
}

/** Encodes one path segment (a project name `org/repo` becomes `org%2Frepo`). */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

export class Transport {
  readonly #config: ResolvedConfig;
  readonly #dispatcher: Dispatcher;
  /** Whether the dispatcher is the client's own pool (closed by `close`), not the caller's. */
  readonly #ownsDispatcher: boolean;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    // One keep-alive pool per client; `connections` caps the requests in flight (no pipelining),
    // so a burst of calls queues here instead of opening a socket each.
    this.#ownsDispatcher = config.dispatcher === undefined;
    this.#dispatcher =
      config.dispatcher ??
      new Agent({
        connections: config.maxConcurrency,
        pipelining: 1,
        keepAliveTimeout: 10_000,
        connect: { timeout: config.timeoutMs },
        // The per-attempt deadline (an AbortSignal) bounds each request; these only back it up.
        headersTimeout: config.timeoutMs * 2,
        bodyTimeout: config.timeoutMs * 2,
      });
  }

  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** Sends a request, retrying what may be retried, and returns the validated answer. */
  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const info: RequestInfo = { operation: spec.operation, method: spec.method, path: `${spec.prefix ?? "/api/v1"}${spec.path}` };
    const url = this.#config.baseUrl + info.path + queryString(spec.query);
    const { signal: callerSignal, maxRetries, timeoutMs } = callOptions(info, spec.options, this.#config);
    // Whether a failed attempt may have been carried out all the same (for `repeatEffect`).
    let mayHaveActed = false;
    const fail = (error: SemgrepError): never => {
      if (spec.repeatEffect && mayHaveActed)
        error.message += `. The request may have reached the service before it failed: ${spec.repeatEffect}`;
      throw error;
    };

    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= maxRetries;
      // The attempt's deadline covers waiting for a connection, the answer's headers and its body.
      if (callerSignal?.aborted) throw new APIUserAbortError(info, { cause: callerSignal.reason });
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
      let status: number;
      let headers: Dispatcher.ResponseData["headers"];
      let text: string;
      try {
        const response = await undiciRequest(url, {
          dispatcher: this.#dispatcher,
          method: spec.method,
          headers: this.#headers(spec.body !== undefined, spec.ifMatch),
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal,
        });
        ({ statusCode: status, headers } = response);
        text = await response.body.text();
      } catch (error) {
        if (callerSignal?.aborted) throw new APIUserAbortError(info, { cause: error });
        const failure = deadline.aborted ? new TimeoutError(timeoutMs, error) : error;
        mayHaveActed ||= mayHaveBeenProcessed(failure);
        if (attempt <= connectionRetries(failure, maxRetries) && isRetryableConnectionError(failure)) {
          await this.#backoff(info, attempt, describeConnectionError(failure), undefined, callerSignal);
          continue;
        }
        return fail(connectionError(info, failure, attempt, this.#config));
      }

      if (status >= 200 && status < 300) return parseAnswer(info, spec.response, text);
      mayHaveActed ||= status >= 500; // the service (or a proxy) failed, perhaps after acting; a 4xx refused
      if (retriesLeft && isRetryableStatus(status)) {
        await this.#backoff(info, attempt, `status ${status}`, retryAfterMs(headers), callerSignal);
        continue;
      }
      const { message, code, details: said } = serviceError(text);
      const conditional = spec.ifMatch !== undefined;
      const details: ErrorDetails = {
        ...said,
        conditional,
        // A bundle's version means something only in the answer to a conditional write.
        stateVersion: conditional ? (said.stateVersion ?? entityTag(headers.etag)) : undefined,
        earlierAttemptMayHaveActed: mayHaveActed,
        tokenSource: this.#config.tokenSource,
        stability: spec.stability,
      };
      if (spec.stability === "experimental" && (status === 501 || (status === 404 && spec.addresses === undefined)))
        return fail(new ExperimentalEndpointError(info, status, message, attempt, code, details));
      return fail(APIError.fromStatus(info, status, message, attempt, code ?? (status === 410 ? spec.goneCode : undefined), details));
    }
  }

  /**
   * Splits the values of a repeated query parameter (`?tags=a&tags=b`) into batches whose URLs
   * stay within `maxUrlLength`, in order; one empty batch for no values.
   */
  splitRepeatedQuery(path: string, key: string, values: readonly string[], maxUrlLength: number): string[][] {
    const base = this.#config.baseUrl.length + "/api/v1".length + path.length;
    const batches: string[][] = [[]];
    let length = base;
    for (const value of values) {
      const added = queryString({ [key]: [value] }).length; // "?key=value", or "&key=value" after the first
      const batch = batches[batches.length - 1]!;
      if (batch.length && length + added > maxUrlLength) {
        batches.push([value]);
        length = base + added;
      } else {
        batch.push(value);
        length += added;
      }
    }
    return batches;
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #headers(hasBody: boolean, ifMatch: string | undefined): Record<string, string> {
    return {
      authorization: `Bearer ${this.#config.token}`,
      accept: "application/json",
      "user-agent": "pulumi-semgrep",
      ...(hasBody ? { "content-type": "application/json" } : {}),
      ...(ifMatch !== undefined ? { "if-match": ifMatch } : {}),
    };
  }

  async #backoff(
    info: RequestInfo,
    attempt: number,
    reason: string,
    askedMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const delay = retryDelayMs(attempt, this.#config.retryBaseDelayMs, this.#config.maxRetryDelayMs, askedMs);
    const request = `${info.operation} (${info.method} ${info.path})`;
    this.#config.log(`semgrep: retrying ${request} after ${reason}: attempt ${attempt + 1} in ${Math.round(delay)} ms`);
    try {
      await sleep(delay, undefined, { signal });
    } catch (error) {
      throw new APIUserAbortError(info, { cause: error });
    }
  }
}

/** The client's settings for one call, with the caller's options over them (checked first). */
function callOptions(
  info: RequestInfo,
  options: RequestOptions | undefined,
  config: ResolvedConfig,
): { signal?: AbortSignal; maxRetries: number; timeoutMs: number } {
  const { signal, maxRetries = config.maxRetries, timeoutMs = config.timeoutMs } = options ?? {};
  const problems = [
    ...(Number.isInteger(maxRetries) && maxRetries >= 0
      ? []
      : [`options.maxRetries: must be a whole number, 0 or more (got ${String(maxRetries)})`]),
    ...(Number.isFinite(timeoutMs) && timeoutMs > 0
      ? []
      : [`options.timeoutMs: must be a number of ms above 0 (got ${String(timeoutMs)})`]),
  ];
  if (problems.length) throw new InvalidRequestError(info.operation, problems);
  return { signal, maxRetries, timeoutMs };
}

/** An attempt that ran past its deadline. The code makes it retryable like a socket timeout. */
class TimeoutError extends Error {
  readonly code = "ETIMEDOUT";
  constructor(ms: number, cause: unknown) {
    super(`no answer within ${ms} ms`, { cause });
  }
}

function queryString(query: RequestSpec<z.ZodType>["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function parseAnswer<S extends z.ZodType>(info: RequestInfo, schema: S, text: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseValidationError(info, [`the body is not JSON: ${excerpt(text)}`]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ResponseValidationError(info, formatIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * The service's own message, `{"error": "..."}` (Flask style) or `{"message": "..."}`, else a
 * short excerpt of the body; its machine-readable code, when there is one: `code` as a string,
 * or the `reason` of a gRPC-style `details` entry (where `code` is a number); and what a Policies
 * V2 refusal says beyond them (see {@link refusalDetails}).
 */
function serviceError(text: string): { message: string; code?: string; details: ErrorDetails } {
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === "object") {
      const { error, message, code, details } = json as Record<string, unknown>;
      const said = typeof error === "string" ? error : typeof message === "string" ? message : undefined;
      const entries = (Array.isArray(details) ? details : []) as Array<{ reason?: unknown } | null>;
      const reason = entries.map((d) => d?.reason).find((r) => typeof r === "string" && r !== "");
      const named = typeof code === "string" && code !== "" ? code : (reason as string | undefined);
      if (said !== undefined || named)
        return { message: said ?? "", ...(named ? { code: named } : {}), details: refusalDetails(json as Record<string, unknown>) };
    }
  } catch {
    // Not JSON: proxies answer 502/503/504 with HTML or nothing.
  }
  if (/^\s*</.test(text)) return { message: "(an HTML error page)", details: {} };
  return { message: excerpt(text), details: {} };
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * What a Policies V2 refusal carries beyond its message and code, at the top of the body or in the
 * `metadata` of a gRPC-style `details` entry: the bundle's current version (`current_state_version`,
 * as the live service names it, or `state_version`, as earlier answers did), the
 * `missing_references` of `UNKNOWN_REFERENCE`, the `missing_companion` (and `action_type`) of
 * `MISSING_DEPENDENT_ACTION`, the `policy_slug` a refusal is about, and its `validation_errors`.
 */
function refusalDetails(body: Record<string, unknown>): ErrorDetails {
  const metadata = (Array.isArray(body.details) ? body.details : [])
    .map((d) => (d && typeof d === "object" ? (d as { metadata?: unknown }).metadata : undefined))
    .filter((m): m is Record<string, unknown> => !!m && typeof m === "object");
  const first = (key: string, read: (v: unknown) => unknown = nonEmpty) =>
    [body, ...metadata].map((source) => read(source[key])).find((v) => v !== undefined);
  const stateVersion = (first("current_state_version") ?? first("state_version")) as string | undefined;
  const missingReferences = first("missing_references", missingReferencesOf) as MissingReference[] | undefined;
  const missingCompanion = first("missing_companion", (v) => (Array.isArray(v) ? nonEmpty(v.filter(nonEmpty).join(", ")) : nonEmpty(v)));
  const actionType = first("action_type") as string | undefined;
  const policySlug = first("policy_slug") as string | undefined;
  const validationErrors = Array.isArray(body.validation_errors) ? (body.validation_errors as ServiceValidationError[]) : undefined;
  return {
    ...(stateVersion ? { stateVersion } : {}),
    ...(missingReferences ? { missingReferences } : {}),
    ...(missingCompanion ? { missingCompanion: missingCompanion as string } : {}),
    ...(actionType ? { actionType } : {}),
    ...(policySlug ? { policySlug } : {}),
    ...(validationErrors ? { validationErrors } : {}),
  };
}

/**
 * `missing_references` in any of the shapes a service could give it: a list of names, of
 * `{type, value, field}` objects (`kind`/`reference_type` for the type, `name`/`id`/`reference`/
 * `path` for the name), one such name or object, or a map from a type to its names.
 */
function missingReferencesOf(value: unknown): MissingReference[] | undefined {
  const one = (item: unknown, type?: string): MissingReference[] => {
    if (typeof item === "string" || typeof item === "number")
      return String(item) === "" ? [] : [{ value: String(item), ...(type ? { type } : {}) }];
    if (!item || typeof item !== "object") return [];
    const o = item as Record<string, unknown>;
    const name = ["value", "name", "id", "reference", "path", "slug"]
      .map((k) => o[k])
      .find((v) => typeof v === "string" || typeof v === "number");
    const kind = nonEmpty(o.type) ?? nonEmpty(o.kind) ?? nonEmpty(o.reference_type) ?? type;
    if (name === undefined) return Object.entries(o).flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((x) => one(x, k)) : one(v, k)));
    return [{ value: String(name), ...(kind ? { type: kind } : {}), ...(nonEmpty(o.field) ? { field: o.field as string } : {}) }];
  };
  const references = Array.isArray(value) ? value.flatMap((item) => one(item)) : one(value);
  return references.length ? references : undefined;
}

/** An `ETag` header's value without its quotes and weak mark (`W/"a1b2"` → `a1b2`); undefined when absent. */
function entityTag(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const tag = raw
    ?.trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
  return tag || undefined;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function describeConnectionError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code} (${message})` : message;
}

/** The error for an attempt that got no answer, naming the address and where it was set. */
function connectionError(info: RequestInfo, error: unknown, attempts: number, config: ResolvedConfig): APIConnectionError {
  const code = errorCode(error);
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  const address = `${config.baseUrl}, from ${config.baseUrlSource}`;
  if (isTlsError(error)) {
    // The raw OpenSSL message (a dump of the record it could not read) helps no one; keep it as the cause.
    const hint = config.baseUrl.startsWith("https:") ? `; is it an http:// address? Check ${config.baseUrlSource}` : "";
    return new APIConnectionError(info, `no TLS connection could be made${tries} to ${address}${hint}`, attempts, { cause: error });
  }
  if (code === "ECONNREFUSED") {
    // One line the user can act on: the raw `connect ECONNREFUSED 127.0.0.1:1` says less.
    return new APIConnectionError(
      info,
      `connection refused (ECONNREFUSED)${tries} (${address}): nothing listens at that address; check the address in ${config.baseUrlSource}`,
      attempts,
      { cause: error },
    );
  }
  const reason = `${describeConnectionError(error)} (${address})`;
  return code && TIMEOUT_CODES.has(code)
    ? new APIConnectionTimeoutError(info, `timed out${tries}: ${reason}`, attempts, { cause: error })
    : new APIConnectionError(info, `connection failed${tries}: ${reason}`, attempts, { cause: error });
}

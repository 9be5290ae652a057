/** Where the client's token and address come from: explicit options first, then the environment. */
import { MissingTokenError } from "./errors";

export const DEFAULT_BASE_URL = "https://semgrep.dev";
export const TOKEN_ENV = "SEMGREP_APP_TOKEN";
export const URL_ENV = "SEMGREP_APP_URL";

export interface ClientOptions {
  /** API token; default `SEMGREP_APP_TOKEN`. Never logged, never part of an error. */
  token?: string;
  /** Address of the service; default `SEMGREP_APP_URL`, else https://semgrep.dev. */
  baseUrl?: string;
  /** Retries after the first attempt of a request (429, 502, 503, 504, resets, timeouts). Default 8. */
  maxRetries?: number;
  /** Time allowed for the answer's headers, and again for its body, per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Requests in flight at once per client; further requests wait their turn. Default 8. */
  maxConcurrency?: number;
  /** First backoff delay; doubles each retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest wait between two attempts, `Retry-After` included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** Receives one line per retry; never holds the token or a header. */
  log?: (line: string) => void;
  /** The environment to read `SEMGREP_APP_TOKEN` / `SEMGREP_APP_URL` from; default `process.env`. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedConfig {
  token: string;
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
  maxConcurrency: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  log: (line: string) => void;
}

/** Fills in the defaults; throws {@link MissingTokenError} when no token is found anywhere. */
export function resolveConfig(options: ClientOptions = {}): ResolvedConfig {
  const env = options.env ?? process.env;
  const token = nonBlank(options.token) ?? nonBlank(env[TOKEN_ENV]);
  if (!token) throw new MissingTokenError();
  const baseUrl = (nonBlank(options.baseUrl) ?? nonBlank(env[URL_ENV]) ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return {
    token,
    baseUrl,
    maxRetries: options.maxRetries ?? 8,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxConcurrency: options.maxConcurrency ?? 8,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    log: options.log ?? (() => {}),
  };
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

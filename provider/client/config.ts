/**
 * Where the client's token and address come from: explicit settings first (the client's options,
 * or the provider's and data sources' own: a call's options, the stack config), then the
 * environment (SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN; SEMGREP_APP_URL, else SEMGREP_URL),
 * then the default address.
 */
import type { Dispatcher } from "undici";
import { InvalidBaseUrlError, MissingTokenError } from "./errors";

export const DEFAULT_BASE_URL = "https://semgrep.dev";
/** Where a token given to the client directly came from, as errors name it. */
const TOKEN_OPTION = "the token option";
export const TOKEN_ENV = "SEMGREP_APP_TOKEN";
export const URL_ENV = "SEMGREP_APP_URL";
/**
 * Read when {@link TOKEN_ENV} is unset: Semgrep's GitOps reference for unified policies and its
 * GitLab samples keep the token there.
 */
export const TOKEN_ENV_FALLBACK = "SEMGREP_API_TOKEN";
/** Read when {@link URL_ENV} is unset: the Semgrep CLI and Semgrep's MCP server take the address from it. */
export const URL_ENV_FALLBACK = "SEMGREP_URL";
/** The environment variables a token is read from, in the order they are tried. */
export const TOKEN_ENVS: readonly string[] = [TOKEN_ENV, TOKEN_ENV_FALLBACK];
/** The environment variables an address is read from, in the order they are tried. */
export const URL_ENVS: readonly string[] = [URL_ENV, URL_ENV_FALLBACK];

export interface ClientOptions {
  /** API token; default `SEMGREP_APP_TOKEN`, else `SEMGREP_API_TOKEN`. Never logged, never part of an error. */
  token?: string;
  /** Where `token` was set, named in the errors a bad token causes (401, 404), e.g. `semgrep:token`. Default `the token option`. */
  tokenSource?: string;
  /**
   * Address of the service, e.g. `https://semgrep.dev` (no path); default `SEMGREP_APP_URL`, else
   * `SEMGREP_URL`, else https://semgrep.dev.
   */
  baseUrl?: string;
  /**
   * Where `baseUrl` was set, named in every error about the address (a malformed address, a
   * refused connection, an https address of an http server), e.g. `semgrep:url`. Default `baseUrl`.
   */
  baseUrlSource?: string;
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
  /** The environment to read the token and address from ({@link TOKEN_ENVS}, {@link URL_ENVS}); default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * The undici dispatcher requests go through, e.g. a `MockAgent` with canned answers in a unit
   * test. Default: the client's own keep-alive pool of `maxConcurrency` connections, which
   * `close()` closes (a dispatcher given here is the caller's to close).
   */
  dispatcher?: Dispatcher;
}

export interface ResolvedConfig {
  token: string;
  /** Where the token came from (`semgrep:token`, `SEMGREP_API_TOKEN`, ...), for error messages. */
  tokenSource: string;
  baseUrl: string;
  /** Where the address came from (`semgrep:url`, `SEMGREP_APP_URL`, ...), for error messages. */
  baseUrlSource: string;
  maxRetries: number;
  timeoutMs: number;
  maxConcurrency: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  log: (line: string) => void;
  dispatcher?: Dispatcher;
}

/**
 * Fills in the defaults; throws {@link MissingTokenError} when no token is found anywhere and
 * {@link InvalidBaseUrlError} when the address is not one the client can use.
 */
export function resolveConfig(options: ClientOptions = {}): ResolvedConfig {
  const given = {
    token: options.token,
    tokenSource: options.tokenSource ?? TOKEN_OPTION,
    url: options.baseUrl,
    urlSource: options.baseUrlSource ?? "baseUrl",
  };
  const { token, tokenSource, baseUrl, baseUrlSource } = resolveCredentials([given], options.env);
  if (!token) throw new MissingTokenError();
  return {
    token,
    tokenSource: tokenSource ?? TOKEN_OPTION,
    baseUrl: parseBaseUrl(baseUrl ?? DEFAULT_BASE_URL, baseUrlSource),
    baseUrlSource,
    maxRetries: options.maxRetries ?? 8,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxConcurrency: options.maxConcurrency ?? 8,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    log: options.log ?? (() => {}),
    dispatcher: options.dispatcher,
  };
}

/** One place a token and an address may be set; `tokenSource` and `urlSource` name it in errors. */
export interface CredentialSource {
  token?: string;
  tokenSource?: string;
  url?: string;
  urlSource: string;
}

/** The token and address to use, and where each came from. */
export interface Credentials {
  token?: string;
  /** Where the token came from; unset with the token. */
  tokenSource?: string;
  /** Unset when no source gives one: the client then uses {@link DEFAULT_BASE_URL}. */
  baseUrl?: string;
  baseUrlSource: string;
}

/**
 * Each of the token and the address from the first of `sources` that sets it (blank counts as
 * unset), else from the environment `env`, read now: {@link TOKEN_ENVS} and {@link URL_ENVS} in
 * that order. The token stays unset when none has one ({@link resolveConfig} then throws
 * {@link MissingTokenError}).
 */
export function resolveCredentials(
  sources: readonly CredentialSource[],
  env: Record<string, string | undefined> = process.env,
): Credentials {
  const fromEnv = (names: readonly string[]) => names.map((name) => ({ name, value: env[name] }));
  const tokens = [...sources.map((source) => ({ name: source.tokenSource ?? TOKEN_OPTION, value: source.token })), ...fromEnv(TOKEN_ENVS)];
  const urls = [...sources.map((source) => ({ name: source.urlSource, value: source.url })), ...fromEnv(URL_ENVS)];
  const token = tokens.find((source) => nonBlank(source.value) !== undefined);
  const address = urls.find((source) => nonBlank(source.value) !== undefined);
  return {
    token: nonBlank(token?.value),
    tokenSource: token?.name,
    baseUrl: nonBlank(address?.value),
    baseUrlSource: address?.name ?? "the default address",
  };
}

/**
 * The service's address as the client uses it (`https://host[:port]`), or an error naming the
 * setting it came from. The client adds `/api/v1` itself, so an address with a path
 * (`https://semgrep.dev/api/v1`, a page copied from the browser) would send every request to the
 * wrong place, where the only symptom is a 404 that looks like a token problem.
 */
export function parseBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidBaseUrlError(source, value, "is not an address: give the scheme and host, e.g. https://semgrep.dev");
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}${url.search}${url.hash}`; // never the user:password part
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidBaseUrlError(source, shown, "must start with https:// (or http:// for a local emulator)");
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    throw new InvalidBaseUrlError(
      source,
      shown,
      `must start with https://: http:// would send the token in clear, so it is accepted only for a loopback address ` +
        `(127.0.0.0/8, ::1, localhost), such as a local emulator. Use ${shown.replace(/^http:/, "https:")}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError(source, shown, "must not carry credentials: the token goes in semgrep:token or SEMGREP_APP_TOKEN");
  }
  const extra = [url.search && `a query (${url.search})`, url.hash && `a fragment (${url.hash})`].filter(Boolean);
  if (url.pathname.replace(/\/+$/, "") === "" && extra.length) {
    throw new InvalidBaseUrlError(
      source,
      shown,
      `must be the service's address without ${extra.join(" or ")} (e.g. https://semgrep.dev): the client adds /api/v1 itself`,
    );
  }
  if (url.pathname.replace(/\/+$/, "") !== "" || url.search || url.hash) {
    const example = `e.g. https://semgrep.dev, not …${url.pathname}`;
    throw new InvalidBaseUrlError(
      source,
      shown,
      `must be the service's address without a path (${example}): the client adds /api/v1 itself`,
    );
  }
  return url.origin;
}

/**
 * Whether `hostname` (as the URL parser normalizes it: `127.0.0.1` for `0x7f.1`, `[::1]`) is a
 * loopback address, the only place plain http:// may carry the token: it never leaves the machine.
 */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Where the provider process finds its token and address: the stack config given to `configure`
 * (`semgrep:token`, set with `pulumi config set --secret`, and `semgrep:url`), else
 * the environment read at call time (SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN; SEMGREP_APP_URL,
 * else SEMGREP_URL). Held in this process's memory only.
 */
import type { ConfigureRequest } from "./handler";
import { AuthenticationError, causeChain, MissingTokenError, type SemgrepClient, sharedClient } from "../../client";
import { parseBaseUrl, resolveCredentials } from "../../client/config";
import { redacted } from "./redact";

let configured: { token?: string; url?: string } = {};

/** Called by the dynamic-provider host with the stack's configuration. */
export function configure(req: ConfigureRequest): void {
  configureCredentials({ token: req.config.get("semgrep:token"), url: req.config.get("semgrep:url") });
}

/**
 * The provider's `semgrep:token` and `semgrep:url`, as either front end received them (empty counts
 * as unset). A `semgrep:url` the client would refuse (no address, a path, http:// to another
 * machine) is refused here, at configure, before any resource is read or written.
 */
export function configureCredentials(config: { token?: string; url?: string }): void {
  if (config.url?.trim()) parseBaseUrl(config.url, "semgrep:url");
  configured = { token: config.token || undefined, url: config.url || undefined };
}

/** The configured credentials, for what the provider calls on the program's behalf (the native plugin's Invoke). */
export function configuredCredentials(): { token?: string; url?: string } {
  return { ...configured };
}

/** The client for the current credentials. */
export function apiClient(): SemgrepClient {
  const credentials = resolveCredentials([{ ...configured, tokenSource: "semgrep:token", urlSource: "semgrep:url" }]);
  return sharedClient({ ...credentials, log: (line) => process.stderr.write(`${redacted(line)}\n`) });
}

/** The address requests go to, as a key for caches shared between resources. */
export function apiAddress(): string {
  return apiClient().baseUrl;
}

/**
 * `pulumi refresh` and `pulumi destroy` configure the provider from the stack's state, not from
 * its current config: after the token was set, moved or rotated, they use the old one until the
 * next `pulumi up`. Errors that can come of that (a missing token, a 401, possibly wrapped) say so.
 */
export function withCredentialsHint(error: unknown): unknown {
  const cause = [...causeChain(error)].find((e) => e instanceof MissingTokenError || e instanceof AuthenticationError);
  if (!(error instanceof Error) || cause === undefined) return error;
  const hint =
    "If semgrep:token was set or rotated after this stack's last `pulumi up`, " +
    "`pulumi refresh` and `pulumi destroy` still use the token saved in the stack's state: " +
    "run `pulumi up` (or `pulumi refresh --run-program`) once so the provider picks up the new one.";
  return new Error(`${error.message.replace(/\.$/, "")}. ${hint}`, { cause: error });
}

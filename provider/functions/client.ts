/**
 * The client the data-source functions use in the Pulumi program's process: the call's own
 * options first, then the stack config (`semgrep:token`, secret, and `semgrep:url`), then
 * SEMGREP_APP_TOKEN / SEMGREP_APP_URL.
 */
import * as pulumi from "@pulumi/pulumi";
import { type SemgrepClient, sharedClient, TOKEN_ENV, URL_ENV } from "../client";

/** Options every data-source function takes (beside Pulumi's own invoke options). */
export interface SemgrepInvokeOptions extends pulumi.InvokeOptions {
  /** API token for this call, instead of `semgrep:token` / SEMGREP_APP_TOKEN. */
  token?: string;
  /** Service address for this call, instead of `semgrep:url` / SEMGREP_APP_URL. */
  url?: string;
}

function stackConfig(key: string): string | undefined {
  try {
    // The raw accessor: reading a secret this way does not warn, and the value never leaves this process.
    return pulumi.runtime.getConfig(`semgrep:${key}`) || undefined;
  } catch {
    return undefined; // not inside a Pulumi program
  }
}

export function clientFor(opts: SemgrepInvokeOptions = {}): SemgrepClient {
  const configuredUrl = stackConfig("url");
  const [baseUrl, baseUrlSource] = opts.url
    ? [opts.url, "the url invoke option"]
    : configuredUrl
      ? [configuredUrl, "semgrep:url"]
      : [process.env[URL_ENV], URL_ENV];
  return sharedClient({ token: opts.token ?? stackConfig("token") ?? process.env[TOKEN_ENV], baseUrl, baseUrlSource });
}

/**
 * The client the data-source functions use in the Pulumi program's process: the call's own
 * options first, then the stack config (`semgrep:token`, secret, and `semgrep:url`), then
 * SEMGREP_APP_TOKEN / SEMGREP_APP_URL. One client per token and address, kept for the program.
 */
import * as pulumi from "@pulumi/pulumi";
import { SemgrepClient } from "../client";

/** Options every data-source function takes (beside Pulumi's own invoke options). */
export interface SemgrepInvokeOptions extends pulumi.InvokeOptions {
  /** API token for this call, instead of `semgrep:token` / SEMGREP_APP_TOKEN. */
  token?: string;
  /** Service address for this call, instead of `semgrep:url` / SEMGREP_APP_URL. */
  url?: string;
}

const clients = new Map<string, SemgrepClient>();

function stackConfig(key: string): string | undefined {
  try {
    // The raw accessor: reading a secret this way does not warn, and the value never leaves this process.
    return pulumi.runtime.getConfig(`semgrep:${key}`) || undefined;
  } catch {
    return undefined; // not inside a Pulumi program
  }
}

export function clientFor(opts: SemgrepInvokeOptions = {}): SemgrepClient {
  const token = opts.token ?? stackConfig("token") ?? process.env.SEMGREP_APP_TOKEN;
  const baseUrl = opts.url ?? stackConfig("url") ?? process.env.SEMGREP_APP_URL;
  const key = `${baseUrl ?? ""}\n${token ?? ""}`;
  let client = clients.get(key);
  if (!client) clients.set(key, (client = new SemgrepClient({ token, baseUrl })));
  return client;
}

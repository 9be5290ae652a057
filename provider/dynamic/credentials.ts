/**
 * Where the provider process finds its token and address: the stack config given to `configure`
 * (`semgrep:token`, set with `pulumi config set --secret`, and `semgrep:url`), else
 * SEMGREP_APP_TOKEN / SEMGREP_APP_URL read at call time. Held in this process's memory only.
 */
import type * as pulumi from "@pulumi/pulumi";
import { MissingTokenError, SemgrepClient } from "../client";

let configured: { token?: string; url?: string } = {};

/** Called by the dynamic-provider host with the stack's configuration. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  configured = { token: req.config.get("semgrep:token") || undefined, url: req.config.get("semgrep:url") || undefined };
}

const clients = new Map<string, SemgrepClient>();

/** The client for the current credentials (one per token and address, kept for the process's life). */
export function apiClient(): SemgrepClient {
  const token = configured.token ?? process.env.SEMGREP_APP_TOKEN;
  const baseUrl = configured.url ?? process.env.SEMGREP_APP_URL;
  const key = `${baseUrl ?? ""}\n${token ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    try {
      client = new SemgrepClient({ token, baseUrl, log: (line) => process.stderr.write(`${line}\n`) });
    } catch (error) {
      if (error instanceof MissingTokenError) {
        // `pulumi refresh` and `destroy` configure the provider from the stack's state, not its current config.
        error.message +=
          " If semgrep:token was set after this stack's last `pulumi up`, run `pulumi up` (or `pulumi refresh --run-program`) once so the provider picks it up.";
      }
      throw error;
    }
    clients.set(key, client);
  }
  return client;
}

/** The address requests go to, as a key for caches shared between resources. */
export function apiAddress(): string {
  return apiClient().baseUrl;
}

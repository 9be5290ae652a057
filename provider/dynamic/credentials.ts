/**
 * Where the provider process finds its token and address: the stack config given to `configure`
 * (`semgrep:token`, set with `pulumi config set --secret`, and `semgrep:url`), else
 * SEMGREP_APP_TOKEN / SEMGREP_APP_URL read at call time. Held in this process's memory only.
 */
import type * as pulumi from "@pulumi/pulumi";
import { MissingTokenError, type SemgrepClient, sharedClient } from "../client";

let configured: { token?: string; url?: string } = {};

/** Called by the dynamic-provider host with the stack's configuration. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  configured = { token: req.config.get("semgrep:token") || undefined, url: req.config.get("semgrep:url") || undefined };
}

/** The client for the current credentials. */
export function apiClient(): SemgrepClient {
  const token = configured.token ?? process.env.SEMGREP_APP_TOKEN;
  const baseUrl = configured.url ?? process.env.SEMGREP_APP_URL;
  try {
    return sharedClient({ token, baseUrl, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    if (error instanceof MissingTokenError) {
      // `pulumi refresh` and `destroy` configure the provider from the stack's state, not its current config.
      error.message +=
        " If semgrep:token was set after this stack's last `pulumi up`, run `pulumi up` (or `pulumi refresh --run-program`) once so the provider picks it up.";
    }
    throw error;
  }
}

/** The address requests go to, as a key for caches shared between resources. */
export function apiAddress(): string {
  return apiClient().baseUrl;
}

/**
 * The client the data-source functions use in the Pulumi program's process: the call's own
 * options first, then the stack config (`semgrep:token`, secret, and `semgrep:url`), then
 * the environment (SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN; SEMGREP_APP_URL, else SEMGREP_URL).
 */
import * as pulumi from "@pulumi/pulumi";
import { type SemgrepClient, sharedClient } from "../client";
import { resolveCredentials } from "../client/config";

/**
 * Options of every data-source function. The functions read the API from the program's own
 * process (there is no provider plugin to send an invoke to), so Pulumi's `parent`, `provider`
 * and `version` have nothing to act on and are not offered.
 */
export interface SemgrepInvokeOptions {
  /**
   * API token for this call, instead of `semgrep:token` / SEMGREP_APP_TOKEN / SEMGREP_API_TOKEN: a string or any
   * `pulumi.Input`, e.g. `config.requireSecret("token")`. It stays a secret: it is used for the
   * request only, never stored or printed (the results hold none of it, so they are not secrets).
   */
  token?: pulumi.Input<string>;
  /** Service address for this call, instead of `semgrep:url` / SEMGREP_APP_URL / SEMGREP_URL. */
  url?: string;
}

/** Options of every `getXOutput`: those of `getX`, and resources to wait for before reading. */
export interface SemgrepInvokeOutputOptions extends SemgrepInvokeOptions {
  /**
   * Read only once these resources exist (created or updated in this run), e.g. a project's
   * tags after the ProjectTags that adds some. In a preview where one of them is still to be
   * created, the result is unknown and nothing is read.
   */
  dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>;
}

function stackConfig(key: string): string | undefined {
  try {
    // The raw accessor: reading a secret this way does not warn, and the value never leaves this process.
    return pulumi.runtime.getConfig(`semgrep:${key}`) || undefined;
  } catch {
    return undefined; // not inside a Pulumi program
  }
}

/**
 * The token of `opts` as a string. An Output's value is read where Pulumi's own runtime keeps it
 * (an Output is not awaitable); one not known yet (a preview, a token computed by a resource
 * still to be created) cannot be used by `getX`, which says to use `getXOutput` (whose result is
 * then unknown and nothing is read).
 */
async function plainToken(token: pulumi.Input<string> | undefined): Promise<string | undefined> {
  if (!pulumi.Output.isInstance(token)) return token;
  const output = token as pulumi.Output<string> & { isKnown?: Promise<boolean>; promise?: () => Promise<string> };
  if (output.isKnown === undefined || output.promise === undefined)
    return new Promise((resolve) => output.apply((value) => resolve(value)));
  if (!(await output.isKnown))
    throw new Error(
      "opts.token is not known yet (it comes from a resource still to be created): use the getXOutput form of this data source",
    );
  return output.promise();
}

/**
 * Marks invoke options that carry the provider's own `semgrep:token` and `semgrep:url` (the native
 * plugin's Invoke passes its configuration this way), so that an error names those, not an
 * invoke option the program never set.
 */
export const FROM_PROVIDER_CONFIG: unique symbol = Symbol("pulumi-semgrep.fromProviderConfig");

/** The client for a data source's call: its own options first, then the stack config, then the environment. */
export async function clientFor(opts: SemgrepInvokeOptions & { [FROM_PROVIDER_CONFIG]?: true } = {}): Promise<SemgrepClient> {
  const [tokenSource, urlSource] = opts[FROM_PROVIDER_CONFIG]
    ? ["semgrep:token", "semgrep:url"]
    : ["the token invoke option", "the url invoke option"];
  return sharedClient(
    resolveCredentials([
      { token: await plainToken(opts.token), tokenSource, url: opts.url, urlSource },
      { token: stackConfig("token"), tokenSource: "semgrep:token", url: stackConfig("url"), urlSource: "semgrep:url" },
    ]),
  );
}

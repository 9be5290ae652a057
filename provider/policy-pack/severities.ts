/**
 * Rule severities for `critical-rules-not-weakened`, from the API: the pack sees a rule-mode
 * resource's inputs (rule paths or a selector, and a mode), never the rules. Each policy's rules
 * are listed once per run (one analyzer process per run) and shared by every resource checked;
 * these are reads during preview, as docs/guides/guarding-pull-requests.md says.
 */
import { SemgrepClient } from "../client";
import { resolveCredentials } from "../client/config";
import type { RuleFacts } from "../core/kinds/rule-criteria";

/** Where the pack's requests go: the policy's config first, then the environment of the Pulumi run. */
export interface Credentials {
  token: string;
  url?: string;
  /** Where `token` was set, as a 401 or 404 names it. */
  tokenSource?: string;
  /** Where `url` was set, as an error about it names it. */
  urlSource?: string;
}

/**
 * The service's address without the API's own path: the pack's `url` was long documented as
 * `https://semgrep.dev/api/v1`, and the client adds `/api/v1` itself (any other path is still refused,
 * naming the setting).
 */
const withoutApiPath = (url: string) => url.trim().replace(/\/api\/v1\/*$/, "");

/**
 * The credentials in `config` (`token`, `url`), else the environment of the Pulumi run
 * (SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN; SEMGREP_APP_URL, else SEMGREP_URL), as the provider
 * reads them; undefined without a token.
 */
export function credentialsFrom(config: { token?: unknown; url?: unknown }, env = process.env): Credentials | undefined {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const url = text(config.url);
  const found = resolveCredentials(
    [
      {
        token: text(config.token),
        tokenSource: "the token of the policy's config",
        url: url && withoutApiPath(url),
        urlSource: "the url of the policy's config",
      },
    ],
    env,
  );
  if (!found.token) return undefined;
  const address = found.baseUrl ? { url: found.baseUrl, urlSource: found.baseUrlSource } : {};
  return { token: found.token, tokenSource: found.tokenSource, ...address };
}

/** The rules of a policy by path, as the criteria see them (with each rule's severity). */
export type PolicyListing = (deploymentId: string, policyId: string) => Promise<ReadonlyMap<string, RuleFacts>>;

const listings = new Map<string, PolicyListing>();

/** The listing for `credentials`, shared by every check of the run that uses the same ones. */
export function policyListing(credentials: Credentials): PolicyListing {
  const key = `${credentials.url ?? ""}\u0000${credentials.token}`;
  let listing = listings.get(key);
  if (!listing) {
    listing = listingOnce(
      new SemgrepClient({
        token: credentials.token,
        tokenSource: credentials.tokenSource,
        baseUrl: credentials.url,
        baseUrlSource: credentials.urlSource,
        env: {},
      }),
    );
    listings.set(key, listing);
  }
  return listing;
}

function listingOnce(client: SemgrepClient): PolicyListing {
  const byPolicy = new Map<string, Promise<Map<string, RuleFacts>>>();
  return (deploymentId, policyId) => {
    const key = `${deploymentId}/${policyId}`;
    let listing = byPolicy.get(key);
    if (!listing) {
      listing = (async () => {
        const rules = new Map<string, RuleFacts>();
        for await (const rule of client.policies.listRules(deploymentId, policyId)) rules.set(rule.path, rule);
        return rules;
      })();
      byPolicy.set(key, listing);
      listing.catch(() => byPolicy.delete(key)); // a failed listing is tried again by the next check
    }
    return listing;
  };
}

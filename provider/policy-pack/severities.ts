/**
 * Rule severities for `critical-rules-not-weakened`, from the API: the pack sees a PolicyRuleMode's
 * inputs (a rule path and a mode), never the rule. Each policy's rules are listed once per run
 * (one analyzer process per run) and shared by every resource checked; these are reads during
 * preview, as the README says.
 */
import { SemgrepClient, TOKEN_ENV, URL_ENV } from "../client";

/** Where the pack's requests go: the policy's config first, then the environment of the Pulumi run. */
export interface Credentials {
  token: string;
  url?: string;
}

/** The credentials in `config` (`token`, `url`), else SEMGREP_APP_TOKEN / SEMGREP_APP_URL; undefined without a token. */
export function credentialsFrom(config: { token?: unknown; url?: unknown }, env = process.env): Credentials | undefined {
  const token = typeof config.token === "string" && config.token ? config.token : env[TOKEN_ENV];
  const url = typeof config.url === "string" && config.url ? config.url : env[URL_ENV] || undefined;
  return token ? { token, ...(url ? { url } : {}) } : undefined;
}

/** A rule's severity as listed; null where the service gives none; undefined when the policy has no such rule. */
export type SeverityLookup = (deploymentId: string, policyId: string, rulePath: string) => Promise<string | null | undefined>;

const lookups = new Map<string, SeverityLookup>();

/** The lookup for `credentials`, shared by every check of the run that uses the same ones. */
export function severityLookup(credentials: Credentials): SeverityLookup {
  const key = `${credentials.url ?? ""}\u0000${credentials.token}`;
  let lookup = lookups.get(key);
  if (!lookup) {
    lookup = listingLookup(new SemgrepClient({ token: credentials.token, baseUrl: credentials.url, env: {} }));
    lookups.set(key, lookup);
  }
  return lookup;
}

function listingLookup(client: SemgrepClient): SeverityLookup {
  const listings = new Map<string, Promise<Map<string, string | null>>>();
  return async (deploymentId, policyId, rulePath) => {
    const key = `${deploymentId}/${policyId}`;
    let listing = listings.get(key);
    if (!listing) {
      listing = (async () => {
        const severities = new Map<string, string | null>();
        for await (const rule of client.policies.listRules(deploymentId, policyId)) severities.set(rule.path, rule.severity ?? null);
        return severities;
      })();
      listings.set(key, listing);
      listing.catch(() => listings.delete(key)); // a failed listing is tried again by the next check
    }
    return (await listing).get(rulePath);
  };
}

/** The Semgrep AppSec Platform web API client: one object, operations grouped by API area. */
import { type ClientOptions, resolveConfig } from "./config";
import { Dependencies } from "./api/dependencies";
import { Deployments } from "./api/deployments";
import { NotificationRules } from "./api/notification-rules";
import { Policies } from "./api/policies";
import { PoliciesV2 } from "./api/policies-v2";
import { Products } from "./api/products";
import { Projects } from "./api/projects";
import { Sbom } from "./api/sbom";
import { Scans } from "./api/scans";
import { Teams } from "./api/teams";
import { Transport } from "./transport";
import { Users } from "./api/users";

/**
 * Typed client for the 13 operations of the Semgrep web API (v1), plus the live service's
 * deployment, project-list and SBOM-status helpers, and the Policies V2 API (unified policies,
 * beta) as `policiesV2`.
 *
 * @example
 * ```ts
 * import { SemgrepClient } from "pulumi-semgrep/client";
 *
 * const client = new SemgrepClient(); // SEMGREP_APP_TOKEN, SEMGREP_APP_URL (or SEMGREP_API_TOKEN, SEMGREP_URL)
 * const [policy] = await client.policies.list(1);
 * for await (const rule of client.policies.listRules(1, policy.id)) {
 *   console.log(rule.path, rule.policyMode);
 * }
 * await client.close();
 * ```
 */
export class SemgrepClient {
  readonly scans: Scans;
  readonly projects: Projects;
  readonly policies: Policies;
  /** Policies V2 (unified policies, beta): detection and remediation policy bundles, applied strictly with If-Match. */
  readonly policiesV2: PoliciesV2;
  readonly dependencies: Dependencies;
  readonly sbom: Sbom;
  readonly deployments: Deployments;
  /** The deployment's product configuration (experimental): read, and changed field by field. */
  readonly products: Products;
  /** Notification rules (experimental): list, create, replace, delete, test. */
  readonly notificationRules: NotificationRules;
  /** A deployment's users and their org roles (experimental). */
  readonly users: Users;
  /** Teams (beta): role-based access control teams, their members and their repositories. */
  readonly teams: Teams;
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.#transport = new Transport(resolveConfig(options));
    this.scans = new Scans(this.#transport);
    this.projects = new Projects(this.#transport);
    this.policies = new Policies(this.#transport);
    this.policiesV2 = new PoliciesV2(this.#transport);
    this.dependencies = new Dependencies(this.#transport);
    this.sbom = new Sbom(this.#transport);
    this.deployments = new Deployments(this.#transport);
    this.products = new Products(this.#transport);
    this.notificationRules = new NotificationRules(this.#transport);
    this.users = new Users(this.#transport);
    this.teams = new Teams(this.#transport);
  }

  /** The service address requests go to. */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** Closes the client's keep-alive connections. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** What `JSON.stringify` shows of a client: its address, never its token. */
  toJSON(): object {
    return { baseUrl: this.baseUrl };
  }
}

const shared = new Map<string, SemgrepClient>();

/**
 * One client per token and address for the life of the process, for callers that run many
 * operations with the same credentials (the provider process, a Pulumi program's data sources),
 * so they share one connection pool and its concurrency limit.
 */
export function sharedClient(options: Pick<ClientOptions, "token" | "tokenSource" | "baseUrl" | "baseUrlSource" | "log">): SemgrepClient {
  const key = [options.baseUrl, options.baseUrlSource, options.tokenSource, options.token].map((part) => part ?? "").join("\n");
  const client = shared.get(key) ?? new SemgrepClient(options);
  shared.set(key, client);
  return client;
}

/**
 * The live tier (`npm run test:live`): read-only operations against the real Semgrep service with
 * `SEMGREP_APP_TOKEN` (and `SEMGREP_APP_URL` if set), every answer validated twice: by the client's
 * own schemas (the call fails otherwise) and, when `SEMGREP_OPENAPI_V1` names the file, by the
 * OpenAPI (the Policies V2 reads by the v2 file, `SEMGREP_OPENAPI_V2`). It never writes: only GET
 * requests and the POST searches, which change nothing.
 * Without a token it does nothing and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APIError,
  DeploymentMigratedError,
  DeploymentNotMigratedError,
  SemgrepClient,
  TOKEN_ENV,
  URL_ENV,
  DEFAULT_BASE_URL,
  type Deployment,
} from "../../provider/client";
import { Contract, contractFileFrom, OPENAPI_V1_ENV, OPENAPI_V2_ENV } from "../support/openapi";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";

const token = process.env[TOKEN_ENV];
const contractFile = contractFileFrom(process.env, OPENAPI_V1_ENV);
const contractFileV2 = contractFileFrom(process.env, OPENAPI_V2_ENV);
/** The Policies V2 paths, checked against the v2 file; every other path against the v1 file. */
const POLICIES_V2 = /^\/api\/policies\/v2\//;

if (!token) {
  it.skip(`live tier did not run: set ${TOKEN_ENV} (and optionally ${URL_ENV}) to run read-only checks against the real service`, () => {});
} else {
  describe("the real service, read-only", () => {
    let proxy: RecordingProxy;
    let client: SemgrepClient;
    let deployment: Deployment;
    beforeAll(async () => {
      // Every request goes through a recording proxy, so the raw answers can be checked against the OpenAPI.
      proxy = await startRecordingProxy((process.env[URL_ENV] || DEFAULT_BASE_URL).replace(/\/+$/, ""));
      client = new SemgrepClient({ baseUrl: proxy.url, token, env: {} });
      [deployment] = (await client.deployments.list()) as [Deployment];
      expect(deployment, "the token sees no deployment").toBeDefined();
    });
    afterAll(async () => {
      await client?.close();
      await proxy?.close();
    });

    it("reads one page of the deployment's projects and one project", async () => {
      const { projects } = await client.projects.listPage(deployment.slug, 0, 20);
      if (projects[0]) expect((await client.projects.get(deployment.slug, projects[0].name)).name).toBe(projects[0].name);
    });

    it("lists policies and one page of a policy's rules (or learns that the deployment uses unified policies)", async () => {
      try {
        const [policy] = await client.policies.list(deployment.id);
        if (policy) await client.policies.listRulesPage(deployment.id, policy.id, { limit: 50 });
      } catch (error) {
        if (!(error instanceof DeploymentMigratedError)) throw error;
        console.log(`live: deployment ${deployment.slug} uses unified policies: ${error.message}`);
      }
    });

    it("reads the unified policies (Policies V2, beta): the detection policies, the remediation policies, the vocabulary", async () => {
      try {
        await client.policiesV2.getDetectionPolicySummary(deployment.id);
        await client.policiesV2.getRemediationPolicies(deployment.id);
        await client.policiesV2.getVocab(deployment.id, { product: "remediation" });
      } catch (error) {
        if (error instanceof DeploymentNotMigratedError) {
          console.log(`live: deployment ${deployment.slug} still uses v1 policies: ${error.message}`);
          return;
        }
        if (!(error instanceof APIError && [403, 404].includes(error.status))) throw error;
        console.log(`live: the Policies V2 API does not answer for deployment ${deployment.slug}: ${error.message}`);
      }
    });

    it("reads one page of scans and one scan", async () => {
      const { scans } = await client.scans.searchPage(deployment.id, { limit: 20 });
      if (scans[0]) await client.scans.get(deployment.id, scans[0].id);
    });

    it("reads one page of repositories with dependencies and one repository's lockfiles", async () => {
      const { repositorySummaries } = await client.dependencies.listRepositoriesPage(deployment.id, { pageSize: 10 });
      if (repositorySummaries[0]) await client.dependencies.listLockfilesPage(deployment.id, repositorySummaries[0].id, { pageSize: 10 });
    });

    it.skipIf(!contractFile && !contractFileV2)("answers in the shape of Semgrep's OpenAPI (extra fields are reported, not failed)", () => {
      const contracts = (file: string | undefined) =>
        file ? { lenient: new Contract(file, { strict: false }), strict: new Contract(file) } : undefined;
      const v1 = contracts(contractFile);
      const v2 = contracts(contractFileV2);
      const problems: string[] = [];
      const extras = new Set<string>();
      for (const exchange of proxy.exchanges) {
        const path = new URL(exchange.url, "http://live").pathname;
        const contract = POLICIES_V2.test(path) ? v2 : v1;
        const op = contract?.lenient.match(exchange.method, path);
        if (!contract || !op || exchange.status !== 200) continue;
        problems.push(...contract.lenient.checkAnswer(op, exchange.answer));
        for (const line of contract.strict.checkAnswer(op, exchange.answer)) if (line.includes("is not documented")) extras.add(line);
      }
      if (extras.size) console.log(`live: fields the OpenAPI does not document:\n  ${[...extras].join("\n  ")}`);
      expect(problems).toEqual([]);
    });

    it("wrote nothing: only GETs and the POST searches, which change nothing", () => {
      const writes = proxy.exchanges.filter(
        (e) =>
          e.method !== "GET" &&
          !/\/scans\/search$|\/dependencies\/repositories(\/\d+\/lockfiles)?$/.test(new URL(e.url, "http://live").pathname),
      );
      expect(writes).toEqual([]);
      expect(proxy.exchanges.length).toBeGreaterThan(4);
    });
  });
}

/**
 * Conformance with Semgrep's published OpenAPI (`SEMGREP_OPENAPI_V1`): every operation the client
 * implements, checked on the wire (through a recording proxy) in both directions:
 * - each request the client sends matches the documented operation (path template, path and
 *   query parameters, body, no undeclared field);
 * - each answer the emulator gives matches the documented 200 schema, also when the emulator
 *   leaves out default values (`--omit-empty`) as protobuf's JSON mapping does;
 * - requests shaped exactly as the OpenAPI documents them, sent straight to the emulator, are
 *   accepted and answered in the documented shape.
 * Without the file the tier reports that it did not run (the summary lists it), never a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeploymentMigratedError, SemgrepClient } from "../../provider/client";
import { DEMO_DEPLOYMENT, type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { routes } from "../../provider/emulator/api";
import { Contract, contractFileFrom, type Exchange, OPENAPI_V1_ENV } from "../support/openapi";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";

const file = contractFileFrom(process.env, OPENAPI_V1_ENV);
const DEPLOYMENT = DEMO_DEPLOYMENT.id;
const SLUG = DEMO_DEPLOYMENT.slug;
const PROJECT = "acme/web-app";

/** The documented operation behind each client method. */
const CLIENT_OPERATIONS = {
  "deployments.list": "DeploymentsService_ListDeployments",
  "policies.list": "PoliciesService_ListPolicies",
  "policies.listRules": "PoliciesService_ListPolicyRules",
  "policies.updateRuleMode": "PoliciesService_UpdatePolicy",
  "projects.list": "ProjectsService_ListProjects",
  "projects.get": "ProjectsService_GetProject",
  "projects.update": "ProjectsService_UpdateProject",
  "projects.updateManagedScans": "ProjectsService_ToggleProjectManagedScan",
  "projects.addTags": "ProjectsService_AddProjectTags",
  "projects.removeTags": "ProjectsService_DeleteProjectTags",
  "scans.search": "ScansService_SearchScans",
  "scans.get": "ScansService_GetScan",
  "dependencies.listRepositories": "SupplyChainService_ListRepositoriesForDependencies",
  "dependencies.listLockfiles": "SupplyChainService_ListLockfilesForDependencies",
  "sbom.createExport": "SupplyChainService_CreateSbomExport",
  "sbom.getExport": "SupplyChainService_GetSbomExport",
} as const;

/**
 * Operations the emulator serves for users' own scripts and the client has no use for, with the
 * documented operation behind each: checked with the requests written from the OpenAPI below.
 */
const EMULATOR_ONLY_OPERATIONS = { "projects.delete": "ProjectsService_DeleteProject" } as const;

/**
 * Where the client's requests depart from this OpenAPI on purpose, because public clients of the
 * live service show what it takes (docs/live-service.md, "From real clients"; issue 22: that
 * evidence wins): each as the exact problem the checker reports, with the reason. Each must
 * occur, so the list cannot go stale, and no other problem may.
 */
const REAL_CLIENT_DEPARTURES: Readonly<Record<string, string>> = {
  "ScansService_SearchScans: body.is_full_scan: must be integer":
    "is_full_scan is sent as a boolean, as Semgrep's scan-health script sends it: the OpenAPI types it " +
    "integer, but its description speaks of true and false, and protobuf's JSON mapping reads a bool " +
    "field only from true or false",
};

if (!file) {
  it.skip(`OpenAPI conformance tier did not run: set ${OPENAPI_V1_ENV} to semgrep-public-v1.openapi.yaml (CI does; node test/tools/openapi-files.mjs --out DIR downloads it)`, () => {});
} else {
  const contract = new Contract(file);

  describe("the OpenAPI file's own defects", () => {
    it("are corrected before anything is validated, and listed", () => {
      const text = contract.corrections.join("\n");
      expect(text).toContain("protos.openapi.v1.UpdatePolicyRequest: rule_path → rulePath");
      expect(text).toContain("protos.openapi.v1.GetProjectResponse: projects → project");
      expect(text).toMatch(/bound from the path[^\n]*ProjectsService_AddProjectTags \(deploymentSlug, projectName\)/);
      expect(text).toMatch(
        /typed as arrays[^\n]*protos\.openapi\.v1\.Project\.tags[^\n]*protos\.openapi\.v1\.SearchScansRequest\.statuses/,
      );
      expect(text).toMatch(/array-level enums dropped[^\n]*protos\.sca\.v1\.DependencyFilter\.ecosystem/);
      expect(text).toContain("protos.openapi.v1.GetScanResponse_ScanMeta");
      expect(text).toMatch(/naming no property dropped[^\n]*protos\.openapi\.v1\.DeleteProjectResponse \(projects\)/);
    });

    it("the checker finds what does not conform (so a pass means something)", () => {
      const op = contract.byId("ProjectsService_UpdateProject");
      const url = `/api/v1/deployments/${SLUG}/projects/acme%2Fweb-app?dryRun=1`;
      const problems = contract.checkRequest({ method: "PATCH", url, body: { tags: "x", primaryBranch: "refs/heads/main" } });
      expect(problems).toEqual([
        "ProjectsService_UpdateProject: query parameter dryRun is not documented",
        "ProjectsService_UpdateProject: body: field primaryBranch is not documented",
        "ProjectsService_UpdateProject: body.tags: must be array",
      ]);
      expect(contract.checkAnswer(op, { project: { id: 1, name: "a", tags: [], extra: true } })).toEqual([
        "ProjectsService_UpdateProject: answer.project: field extra is not documented",
      ]);
      expect(contract.checkAnswer(op, { project: { id: 1, name: "a" } })).toEqual([
        "ProjectsService_UpdateProject: answer.project: must have required property 'tags'",
      ]);
      expect(contract.checkRequest({ method: "GET", url: "/api/v1/deployments/acme/policies" })).toEqual([
        'PoliciesService_ListPolicies: path parameter deploymentId: must match format "int64"',
      ]);
    });
  });

  for (const omitEmpty of [false, true]) {
    describe(`every client operation against the emulator${omitEmpty ? " with --omit-empty" : ""}`, () => {
      let emulator: RunningEmulator;
      let proxy: RecordingProxy;
      let client: SemgrepClient;
      beforeAll(async () => {
        emulator = await startEmulator({ preset: "demo", omitEmpty });
        proxy = await startRecordingProxy(emulator.url);
        client = new SemgrepClient({ baseUrl: proxy.url, token: emulator.token, env: {}, retryBaseDelayMs: 5 });
        await driveEveryOperation(client);
      });
      afterAll(async () => {
        await client?.close();
        await proxy?.close();
        await emulator?.close();
      });

      it("covers every operation the client implements (every operation the emulator serves, but the listed few), each answered 200", () => {
        const served = new Set(routes.map((r) => r.operation));
        for (const operation of Object.keys(EMULATOR_ONLY_OPERATIONS)) served.delete(operation);
        expect(Object.keys(CLIENT_OPERATIONS).sort()).toEqual([...served].sort());
        const answered = new Set(
          proxy.exchanges
            .filter((e) => e.status === 200)
            .map((e) => contract.match(e.method, new URL(e.url, "http://x").pathname)?.operationId),
        );
        expect([...answered].sort()).toEqual(Object.values(CLIENT_OPERATIONS).sort());
      });

      it("sends only documented requests, except the departures real clients show (each stated)", () => {
        const problems = proxy.exchanges.flatMap((e) => contract.checkRequest(e));
        expect(problems.filter((p) => !(p in REAL_CLIENT_DEPARTURES))).toEqual([]);
        expect([...new Set(problems)].sort()).toEqual(Object.keys(REAL_CLIENT_DEPARTURES).sort());
      });

      it("is answered only in the documented shape", () => {
        expect(proxy.exchanges.flatMap((e) => answerProblems(contract, e))).toEqual([]);
      });
    });
  }

  describe("requests shaped as the OpenAPI documents them, sent straight to the emulator", () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo" });
    });
    afterAll(() => emulator?.close());

    for (const request of documentedRequests()) {
      it(`${request.operationId}: ${request.title}`, async () => {
        const op = contract.byId(request.operationId);
        if (request.documentedBy === "schema") expect(contract.checkRequest(request)).toEqual([]);
        else expect(shapeOf(request.body)).toBe(shapeOf(contract.exampleOf(op.requestSchema!)));
        const response = await fetch(emulator.url + request.url, {
          method: request.method,
          headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        });
        const answer = (await response.json()) as unknown;
        expect({ status: response.status, answer }).toMatchObject({ status: 200 });
        expect(contract.checkAnswer(op, answer)).toEqual([]);
        request.expect?.(answer);
      });
    }
  });

  describe("a deployment migrated to unified policies (--policies-v2)", () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo", policiesV2: true });
    });
    afterAll(() => emulator?.close());

    it("answers every v1 policy operation 410 DEPLOYMENT_MIGRATED, and those are the deprecated ones", async () => {
      const deprecated = contract.operations
        .filter((op) => op.deprecated)
        .map((op) => op.operationId)
        .sort();
      expect(deprecated).toEqual(["PoliciesService_ListPolicies", "PoliciesService_ListPolicyRules", "PoliciesService_UpdatePolicy"]);
      const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
      const calls = [
        () => client.policies.list(DEPLOYMENT),
        () => client.policies.listRulesPage(DEPLOYMENT, SAST_POLICY_ID),
        () => client.policies.updateRuleMode(DEPLOYMENT, SAST_POLICY_ID, { rulePath: "a.b", policyMode: "MODE_BLOCK" }),
      ];
      for (const call of calls) await expect(call()).rejects.toBeInstanceOf(DeploymentMigratedError);
      expect(emulator.requests().map((r) => r.status)).toEqual([410, 410, 410]);
      await client.close();
    });
  });
}

/** A value's JSON shape, e.g. `string[]` or `{tags:string[]}`: what an example documents. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `${value.length ? shapeOf(value[0]) : "unknown"}[]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}:${shapeOf(v)}`)
      .join(",")}}`;
  return value === null ? "null" : typeof value;
}

function answerProblems(contract: Contract, exchange: Exchange): string[] {
  if (exchange.status !== 200) return [`${exchange.method} ${exchange.url} answered ${exchange.status}`];
  const op = contract.match(exchange.method, new URL(exchange.url, "http://x").pathname);
  return op ? contract.checkAnswer(op, exchange.answer) : [];
}

/** Calls every client operation once or more, with every field the client can send. */
async function driveEveryOperation(client: SemgrepClient): Promise<void> {
  await client.deployments.list();
  const [policy] = await client.policies.list(DEPLOYMENT);
  const rules = await client.policies.listRules(DEPLOYMENT, policy!.id, { limit: 100 }).toArray(150);
  await client.policies.updateRuleMode(DEPLOYMENT, policy!.id, { rulePath: rules[0]!.path, policyMode: "MODE_BLOCK" });
  await client.projects.list(SLUG, 5).toArray();
  await client.projects.get(SLUG, PROJECT);
  await client.projects.update(SLUG, PROJECT, {
    primary_branch: "refs/heads/main",
    tags: ["team-web"],
    managed_scan_config: { diff_scan: { enabled: true }, full_scan: { enabled: false } },
  });
  await client.projects.update(SLUG, PROJECT, { primary_branch: "None" });
  await client.projects.updateManagedScans(SLUG, PROJECT, { diff_scan: { enabled: false }, full_scan: { enabled: true } });
  await client.projects.addTags(SLUG, PROJECT, ["pci", "tier 1"]);
  await client.projects.removeTags(SLUG, PROJECT, ["pci", "tier 1", "absent"]);
  const scans = await client.scans
    .search(DEPLOYMENT, {
      branch: "refs/heads/main",
      is_full_scan: 1,
      limit: 5,
      products: ["PRODUCT_SAST"],
      repository_id: 101,
      since: "2020-01-01T00:00:00Z",
      statuses: ["SCAN_STATUS_COMPLETED", "SCAN_STATUS_ERROR"],
      total_time: { min: 0, max: 100_000 },
    })
    .toArray(6);
  await client.scans.searchPage(DEPLOYMENT, { statuses: ["SCAN_STATUS_PENDING", "SCAN_STATUS_CANCELLED"] });
  await client.scans.get(DEPLOYMENT, scans[0]!.id);
  const filter = {
    license: ["MIT"],
    lockfilePath: "package-lock.json",
    name: "a",
    packageFilters: [{ name: "a", exactNameMatch: false, versionLowerBound: "0.0.1", versionUpperBound: "99" }],
    repositoryId: [101],
    ecosystem: ["npm" as const, "pypi" as const],
    transitivity: ["DIRECT" as const, "TRANSITIVE" as const],
    licensePolicySettings: ["LICENSE_POLICY_SETTING_ALLOW" as const],
    includeArchived: false,
  };
  const [repository] = await client.dependencies.listRepositories(DEPLOYMENT, { pageSize: 2 }).toArray(3);
  await client.dependencies.listRepositoriesPage(DEPLOYMENT, { dependencyFilter: filter });
  await client.dependencies.listLockfiles(DEPLOYMENT, repository!.id, { pageSize: 1 }).toArray(2);
  await client.dependencies.listLockfilesPage(DEPLOYMENT, repository!.id, { dependencyFilter: { ...filter, repositoryId: undefined } });
  const { taskToken } = await client.sbom.createExport(DEPLOYMENT, {
    repositoryId: String(101),
    ref: "refs/heads/main",
    formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" },
    sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON",
    metadataComponentType: "SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_APPLICATION",
    metadataSupplier: { name: "Acme", url: "https://acme.example", contact: { name: "Sec", email: "sec@acme.example", phone: "1" } },
  });
  await client.sbom.getExport(DEPLOYMENT, taskToken);
  await client.sbom.getExport(DEPLOYMENT, taskToken);
}

interface DocumentedRequest {
  operationId: string;
  title: string;
  method: string;
  url: string;
  body?: unknown;
  /** `schema`: the request validates against the documented schema; `example`: it is the schema's own example form. */
  documentedBy: "schema" | "example";
  expect?: (answer: unknown) => void;
}

/** Requests written from the OpenAPI alone, one or more forms per operation. */
function documentedRequests(): DocumentedRequest[] {
  const dep = `/api/v1/deployments/${DEPLOYMENT}`;
  const project = `/api/v1/deployments/${SLUG}/projects/${encodeURIComponent(PROJECT)}`;
  const tagged = (tag: string) => (answer: unknown) => expect((answer as { project: { tags: string[] } }).project.tags).toContain(tag);
  return [
    {
      operationId: "DeploymentsService_ListDeployments",
      title: "no parameters",
      method: "GET",
      url: "/api/v1/deployments",
      documentedBy: "schema",
    },
    {
      operationId: "PoliciesService_ListPolicies",
      title: "by deployment id",
      method: "GET",
      url: `${dep}/policies`,
      documentedBy: "schema",
    },
    {
      operationId: "PoliciesService_ListPolicyRules",
      title: "cursor and limit",
      method: "GET",
      url: `${dep}/policies/${SAST_POLICY_ID}?limit=2000&cursor=`,
      documentedBy: "schema",
    },
    {
      operationId: "PoliciesService_UpdatePolicy",
      title: "every documented field, ids repeating the path",
      method: "PUT",
      url: `${dep}/policies/${SAST_POLICY_ID}`,
      body: {
        deploymentId: String(DEPLOYMENT),
        policyId: SAST_POLICY_ID,
        rulePath: "python.lang.security.audit.eval-detected.eval-detected",
        policyMode: "MODE_COMMENT",
      },
      documentedBy: "schema",
    },
    {
      operationId: "ProjectsService_ListProjects",
      title: "page and page_size",
      method: "GET",
      url: `/api/v1/deployments/${SLUG}/projects?page=0&page_size=100`,
      documentedBy: "schema",
    },
    { operationId: "ProjectsService_GetProject", title: "name with a slash, encoded", method: "GET", url: project, documentedBy: "schema" },
    {
      operationId: "ProjectsService_UpdateProject",
      title: "every documented field, names repeating the path",
      method: "PATCH",
      url: project,
      body: {
        deploymentSlug: SLUG,
        projectName: PROJECT,
        primary_branch: "None",
        tags: ["a"],
        managed_scan_config: { diff_scan: { enabled: true }, full_scan: {} },
      },
      documentedBy: "schema",
    },
    {
      operationId: "ProjectsService_ToggleProjectManagedScan",
      title: "diff_scan and full_scan, names repeating the path",
      method: "PATCH",
      url: `${project}/managed-scan`,
      body: { deploymentSlug: SLUG, projectName: PROJECT, diff_scan: { enabled: true }, full_scan: { enabled: true } },
      documentedBy: "schema",
    },
    {
      operationId: "ProjectsService_AddProjectTags",
      title: "the schema's object, {tags}",
      method: "PUT",
      url: `${project}/tags`,
      body: { tags: ["object"] },
      documentedBy: "schema",
      expect: tagged("object"),
    },
    {
      operationId: "ProjectsService_AddProjectTags",
      title: "the full object, names repeating the path",
      method: "PUT",
      url: `${project}/tags`,
      body: { deploymentSlug: SLUG, projectName: PROJECT, tags: ["full"] },
      documentedBy: "schema",
      expect: tagged("full"),
    },
    {
      operationId: "ProjectsService_AddProjectTags",
      title: "the example's bare array",
      method: "PUT",
      url: `${project}/tags`,
      body: ["bare"],
      documentedBy: "example",
      expect: tagged("bare"),
    },
    {
      operationId: "ProjectsService_DeleteProjectTags",
      title: "repeated tags keys",
      method: "DELETE",
      url: `${project}/tags?tags=a&tags=b`,
      documentedBy: "schema",
    },
    {
      operationId: EMULATOR_ONLY_OPERATIONS["projects.delete"],
      title: "a project that exists, by its name",
      method: "DELETE",
      url: `/api/v1/deployments/${SLUG}/projects/${encodeURIComponent("acme/mobile-app")}`,
      documentedBy: "schema",
      expect: (answer) => expect(answer).toEqual({ project_name: "acme/mobile-app" }),
    },
    {
      operationId: "ScansService_SearchScans",
      title: "every documented field, UNSPECIFIED values included",
      method: "POST",
      url: `${dep}/scans/search`,
      body: {
        deploymentId: String(DEPLOYMENT),
        branch: "refs/heads/main",
        cursor: "",
        is_full_scan: 1,
        limit: 500,
        products: ["PRODUCT_UNSPECIFIED", "PRODUCT_SAST"],
        repository_id: 101,
        since: "2020-01-01T00:00:00Z",
        statuses: ["SCAN_STATUS_UNSPECIFIED", "SCAN_STATUS_PENDING", "SCAN_STATUS_CANCELLED", "SCAN_STATUS_COMPLETED"],
        total_time: { min: 0, max: 1e6 },
      },
      documentedBy: "schema",
    },
    { operationId: "ScansService_GetScan", title: "by id", method: "GET", url: `${dep}/scan/50000`, documentedBy: "schema" },
    {
      operationId: "SupplyChainService_ListRepositoriesForDependencies",
      title: "every documented filter field",
      method: "POST",
      url: `${dep}/dependencies/repositories`,
      body: {
        deploymentId: String(DEPLOYMENT),
        cursor: 0,
        pageSize: 100,
        dependencyFilter: {
          ecosystem: ["npm", "pypi"],
          includeArchived: false,
          license: ["MIT"],
          licensePolicySettings: ["LICENSE_POLICY_SETTING_UNSPECIFIED"],
          lockfilePath: "package-lock.json",
          name: "a",
          packageFilters: [{ name: "a", exactNameMatch: false, exactVersion: "", versionLowerBound: "0", versionUpperBound: "99" }],
          repositoryId: [101],
          transitivity: ["DIRECT", "TRANSITIVE", "UNKNOWN_TRANSITIVITY"],
          version: "",
        },
      },
      documentedBy: "schema",
    },
    {
      operationId: "SupplyChainService_ListLockfilesForDependencies",
      title: "ids repeating the path, a filter",
      method: "POST",
      url: `${dep}/dependencies/repositories/101/lockfiles`,
      body: {
        deploymentId: String(DEPLOYMENT),
        repositoryId: "101",
        cursor: "",
        pageSize: 5,
        dependencyFilter: { ecosystem: ["npm"], transitivity: ["DIRECT"] },
      },
      documentedBy: "schema",
    },
    {
      operationId: "SupplyChainService_CreateSbomExport",
      title: "every documented field, cyclonedxVersion",
      method: "POST",
      url: `${dep}/sbom/export`,
      body: {
        deploymentId: String(DEPLOYMENT),
        repositoryId: "101",
        ref: "refs/pull/1234/merge",
        formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_7" },
        sbomOutputFormat: "SBOM_OUTPUT_FORMAT_CYCLONEDX",
        metadataComponentType: "SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_LIBRARY",
        metadataSupplier: { name: "Acme", url: "https://acme.example", contact: { name: "Sec", email: "sec@acme.example", phone: "1" } },
      },
      documentedBy: "schema",
    },
  ];
}

/** Error mapping, refusal of bad input before any request, configuration, and keeping the token secret. */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  DeploymentMigratedError,
  DeploymentNotMigratedError,
  InvalidBaseUrlError,
  InvalidRequestError,
  MissingTokenError,
  NotFoundError,
  PermissionDeniedError,
  ResponseValidationError,
  SemgrepClient,
} from "../../provider/client";
import * as errors from "../../provider/client/errors";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { json, type StubServer, startStub } from "../support/stub-server";

const env = useEmulator({ preset: "demo" });
const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

describe("error mapping", () => {
  it("maps 410 DEPLOYMENT_MIGRATED to DeploymentMigratedError, saying what to use instead; other operations still work", async () => {
    const migrated = await startEmulator({ policiesV2: true });
    const client = new SemgrepClient({ baseUrl: migrated.url, token: migrated.token, env: {} });
    try {
      const error = await client.policies.list(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeploymentMigratedError);
      expect(error).toMatchObject({ status: 410, code: "DEPLOYMENT_MIGRATED", attempts: 1, operation: "policies.list" });
      expect((error as Error).message).toBe(
        "Semgrep API policies.list failed (GET /api/v1/deployments/1/policies → 410): This deployment has been migrated to Unified Policies; use the Policies V2 API. " +
          "DEPLOYMENT_MIGRATED: this deployment uses Semgrep's unified policies (Policies V2), where the v1 policy operations are gone: " +
          "PolicyRuleMode, PolicyRuleModes, getPolicies, getPolicy and getPolicyRules work only on deployments still on v1 policies. " +
          "Manage this deployment's rules with DetectionPolicy (rulesets, rules, disabled rules, exceptions), DetectionPolicyException and RemediationPolicy, " +
          "and read them with getDetectionPolicy and getRemediationPolicies (Policies V2 API, /api/policies/v2/deployments/{deploymentId}/detection-policy/{product}). " +
          "A PolicyRuleMode or PolicyRuleModes of this deployment already in the stack: remove it from the program, and the next `pulumi up` lets it go " +
          "with a warning (there is nothing left to restore), or drop it from the state with `pulumi state delete <urn>`",
      );
      await expect(client.projects.get("acme", "acme/web-app")).resolves.toMatchObject({ name: "acme/web-app" });
    } finally {
      await client.close();
      await migrated.close();
    }
  });

  it("maps 403 DEPLOYMENT_NOT_MIGRATED to DeploymentNotMigratedError: v1 policies, not the token's scopes, and what to use instead", async () => {
    const v1 = await startEmulator({ preset: "demo" });
    const client = new SemgrepClient({ baseUrl: v1.url, token: v1.token, env: {} });
    try {
      const error = await client.policiesV2.getDetectionPolicy(1, "code").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeploymentNotMigratedError);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error).toMatchObject({
        status: 403,
        code: "DEPLOYMENT_NOT_MIGRATED",
        attempts: 1,
        operation: "policiesV2.getDetectionPolicy",
      });
      expect((error as Error).message).toBe(
        "Semgrep API policiesV2.getDetectionPolicy failed (GET /api/policies/v2/deployments/1/detection-policy/code → 403): " +
          "This deployment has not been migrated to Unified Policies; the Policies V2 API is not available for it (emulator: started without --policies-v2). " +
          "DEPLOYMENT_NOT_MIGRATED: this deployment still uses v1 policies (it is not migrated to Semgrep's unified policies, Policies V2), " +
          "so the Policies V2 operations are refused, whatever the token's scopes: DetectionPolicy, DetectionPolicyException, RemediationPolicy, " +
          "getDetectionPolicy, getDetectionPolicies, getRemediationPolicies and getPolicyVocabulary work only on migrated deployments. " +
          "Manage this deployment's rules with PolicyRuleMode and PolicyRuleModes, and read them with getPolicies, getPolicy and getPolicyRules " +
          "(v1 policy API, /api/v1/deployments/{deploymentId}/policies), until Semgrep migrates it",
      );
      expect((error as Error).message).not.toMatch(/check its scopes/);
      for (const call of [
        () => client.policiesV2.getDetectionPolicySummary(1),
        () => client.policiesV2.dryRunDetectionPolicy(1, "code", {}),
        () => client.policiesV2.applyDetectionPolicy(1, "code", {}, { ifMatch: "v1" }),
        () => client.policiesV2.getRemediationPolicies(1),
        () => client.policiesV2.dryRunRemediationPolicies(1, { policies: [] }),
        () => client.policiesV2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "v1" }),
        () => client.policiesV2.getVocab(1, {}),
      ])
        await expect(call()).rejects.toBeInstanceOf(DeploymentNotMigratedError);
      expect(v1.requests().filter((r) => r.status !== 403)).toEqual([]); // one request each: a 403 is not retried
      expect(v1.requests()).toHaveLength(8);
      await expect(client.policies.list(1)).resolves.not.toHaveLength(0);
    } finally {
      await client.close();
      await v1.close();
    }
  });

  it("maps a gRPC-style 403 (numeric code, the reason DEPLOYMENT_NOT_MIGRATED in details) to DeploymentNotMigratedError", async () => {
    const body = { code: 7, message: "deployment not migrated", details: [{ reason: "DEPLOYMENT_NOT_MIGRATED" }] };
    const stub = await startStub((_req, res) => json(res, 403, body));
    try {
      const error = await new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} }).policiesV2.getVocab(1, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeploymentNotMigratedError);
      expect((error as Error).message).toMatch(/DEPLOYMENT_NOT_MIGRATED: this deployment still uses v1 policies/);
    } finally {
      await stub.close();
    }
  });

  it("a 403 of another code, or of none, keeps the scopes hint", async () => {
    const stub = await startStub((_req, res) => json(res, 403, { error: "forbidden" }));
    try {
      const error = await new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} }).policiesV2
        .getRemediationPolicies(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error).not.toBeInstanceOf(DeploymentNotMigratedError);
      expect((error as Error).message).toMatch(/check its scopes in the deployment's Tokens settings$/);
    } finally {
      await stub.close();
    }
  });

  it.each([
    [
      "a gRPC-style body (numeric code, the reason in details)",
      { code: 9, message: "deployment migrated", details: [{ reason: "DEPLOYMENT_MIGRATED" }] },
    ],
    ["a body naming no code", { error: "Gone" }],
  ])("maps a 410 of a v1 policy operation with %s to DeploymentMigratedError", async (_name, body) => {
    const stub = await startStub((_req, res) => json(res, 410, body));
    try {
      const error = await new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} }).policies.list(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeploymentMigratedError);
      expect(error).toMatchObject({ status: 410, code: "DEPLOYMENT_MIGRATED" });
    } finally {
      await stub.close();
    }
  });

  it("maps 401 to AuthenticationError with a hint, and never shows the token", async () => {
    const lines: string[] = [];
    const client = env.client({ token: SECRET, log: (l) => lines.push(l) });
    const error = await client.policies.list(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, method: "GET", path: "/api/v1/deployments/1/policies", operation: "policies.list" });
    expect((error as Error).message).toMatch(/Check the token \(from the token option\): it is missing, unknown or revoked/);
    for (const text of [
      String(error),
      (error as Error).stack ?? "",
      JSON.stringify(error),
      inspect(error, { depth: 5 }),
      inspect(client, { depth: 5 }),
      JSON.stringify(client),
      ...lines,
    ]) {
      expect(text).not.toContain(SECRET);
    }
    expect(JSON.stringify(env.emulator.requests())).not.toContain(SECRET);
  });

  it("maps 404 to NotFoundError with the Web API access hint", async () => {
    const error = await env
      .client()
      .policies.listRulesPage(1, 999)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      "Semgrep API policies.listRules failed (GET /api/v1/deployments/1/policies/999 → 404): policy 999 not found. " +
        "The object does not exist, or the token (from the token option) lacks Web API access (enable 'Web API' for the token in the deployment's Tokens settings)",
    );
  });

  it("names every error after its class, as an own property (what a log line or a JSON dump of the error shows)", async () => {
    const info = { operation: "projects.get", method: "GET", path: "/api/v1/deployments/acme/projects/web" };
    // Constructor arguments of the classes that take other than (info, status, message).
    const args: Record<string, unknown[]> = {
      SemgrepError: ["m"],
      APIUserAbortError: [info],
      APIConnectionError: [info, "reset"],
      APIConnectionTimeoutError: [info, "timed out"],
      ResponseValidationError: [info, ["id: expected a number"]],
      InvalidRequestError: ["projects.get", ["projectName: must not be empty"]],
      MissingTokenError: [],
      InvalidBaseUrlError: ["semgrep:url", "ftp://x", "is not an http(s) address"],
    };
    type ErrorClass = new (...a: unknown[]) => Error;
    const classes = (Object.entries(errors) as Array<[string, unknown]>).filter(
      (entry): entry is [string, ErrorClass] => typeof entry[1] === "function" && entry[1].prototype instanceof errors.SemgrepError,
    );
    expect(classes.length).toBeGreaterThan(20);
    for (const [name, Kind] of [["SemgrepError", errors.SemgrepError as ErrorClass] as const, ...classes]) {
      const error = new Kind(...(args[name] ?? [info, 400, "bad"]));
      expect(Object.getOwnPropertyDescriptor(error, "name"), name).toMatchObject({ value: name, enumerable: true });
      expect(String(error).startsWith(`${name}: `), name).toBe(true);
    }
  });

  it("maps the service's 400 to BadRequestError with its message", async () => {
    const error = await env
      .client()
      .scans.searchPage(1, { cursor: "not-a-cursor" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).serviceMessage).toMatch(/cursor/);
  });
});

describe("bad input is refused before any request", () => {
  const cases: Array<[string, (c: SemgrepClient) => Promise<unknown>, RegExp]> = [
    ["a non-numeric deployment id", (c) => c.policies.list("acme"), /\(value\): must be a numeric id/],
    [
      "an unknown rule mode",
      (c) => c.policies.updateRuleMode(1, SAST_POLICY_ID, { rulePath: "a.b", policyMode: "MODE_LOUD" as never }),
      /policyMode: Invalid option/,
    ],
    [
      "a rule path that is not dotted",
      (c) => c.policies.updateRuleMode(1, SAST_POLICY_ID, { rulePath: "eval-detected", policyMode: "MODE_BLOCK" }),
      /rulePath: must be a dotted rule path/,
    ],
    ["a page size over the maximum", (c) => c.scans.searchPage(1, { limit: 501 }), /limit: Too big/],
    ["an unknown scan status", (c) => c.scans.searchPage(1, { statuses: ["SCAN_STATUS_FINE" as never] }), /statuses\.0: Invalid option/],
    [
      "a branch that is not a full ref",
      (c) => c.projects.update("acme", "acme/web-app", { primary_branch: "main" }),
      /primary_branch: .*refs\/heads/,
    ],
    ["repeated tags", (c) => c.projects.addTags("acme", "acme/web-app", ["a", "a"]), /tags must not repeat/],
    ["an empty project name", (c) => c.projects.get("acme", " "), /projectName: must not be empty/],
    ["an unknown field", (c) => c.projects.update("acme", "acme/web-app", { tagz: ["a"] } as never), /Unrecognized key: "tagz"/],
    ["a malformed SBOM ref", (c) => c.sbom.createExport(1, { repositoryId: "101", ref: "main" }), /ref: must be refs\/heads/],
    ["a page size of 0", (c) => c.dependencies.listRepositoriesPage(1, { pageSize: 0 }), /pageSize: Too small/],
    [
      "an unknown ecosystem",
      (c) => c.dependencies.listRepositoriesPage(1, { dependencyFilter: { ecosystem: ["npm", "npmjs" as never] } }),
      /dependencyFilter\.ecosystem\.1: must be one of no_package_manager, npm, pypi, /,
    ],
    [
      "an unknown transitivity",
      (c) => c.dependencies.listLockfilesPage(1, 101, { dependencyFilter: { transitivity: ["INDIRECT" as never] } }),
      /dependencyFilter\.transitivity\.0: must be one of UNKNOWN_TRANSITIVITY, TRANSITIVE, DIRECT$/,
    ],
    [
      "an unknown license policy outcome",
      (c) =>
        c.dependencies.listRepositoriesPage(1, { dependencyFilter: { licensePolicySettings: ["LICENSE_POLICY_SETTING_WARN" as never] } }),
      /dependencyFilter\.licensePolicySettings\.0: must be one of LICENSE_POLICY_SETTING_UNSPECIFIED, /,
    ],
    [
      "a primary branch git would refuse (one rule for the client, the resources and SBOM refs)",
      (c) => c.projects.update("acme", "acme/web-app", { primary_branch: "refs/heads/-x" }),
      /primary_branch: is not a valid branch name/,
    ],
    [
      "an SBOM ref whose branch git would refuse",
      (c) => c.sbom.createExport(1, { repositoryId: "101", ref: "refs/heads/a..b" }),
      /ref: must be refs\/heads\/<branch> or refs\/pull\/<number>\/merge/,
    ],
    [
      "includeArchived that is not a boolean",
      (c) => c.dependencies.listLockfilesPage(1, 101, { dependencyFilter: { includeArchived: "yes" as never } }),
      /dependencyFilter\.includeArchived: Invalid input: expected boolean/,
    ],
  ];
  it.each(cases)("refuses %s", async (_name, call, message) => {
    const error = await call(env.client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(message);
    expect(env.emulator.requests()).toHaveLength(0);
  });
});

describe("configuration", () => {
  it("reads SEMGREP_APP_TOKEN and SEMGREP_APP_URL when no option is given", async () => {
    const client = new SemgrepClient({ env: { SEMGREP_APP_TOKEN: env.emulator.token, SEMGREP_APP_URL: `${env.emulator.url}/` } });
    expect(client.baseUrl).toBe(env.emulator.url);
    expect(await client.policies.list(1)).toHaveLength(3);
    await client.close();
  });

  it("falls back to SEMGREP_API_TOKEN and SEMGREP_URL (as Semgrep's CLI, MCP server and GitOps reference name them), after the SEMGREP_APP_* names", async () => {
    const fallbacks = { SEMGREP_API_TOKEN: env.emulator.token, SEMGREP_URL: env.emulator.url };
    const client = new SemgrepClient({ env: fallbacks });
    expect(client.baseUrl).toBe(env.emulator.url);
    expect(await client.policies.list(1)).toHaveLength(3);
    await client.close();
    const both = new SemgrepClient({ env: { ...fallbacks, SEMGREP_APP_URL: "https://app.example", SEMGREP_APP_TOKEN: "app" } });
    expect(both.baseUrl).toBe("https://app.example");
    expect(() => new SemgrepClient({ token: "t", env: { SEMGREP_URL: "https://semgrep.dev/api/v1" } })).toThrow(
      /^SEMGREP_URL "https:\/\/semgrep\.dev\/api\/v1" must be/,
    );
  });

  it("names where the token came from when the service refuses it (401) or finds nothing (404)", async () => {
    const wrong = new SemgrepClient({ env: { SEMGREP_API_TOKEN: "not-the-token", SEMGREP_URL: env.emulator.url }, maxRetries: 0 });
    const refused = await wrong.policies.list(1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as Error).message).toMatch(/Check the token \(from SEMGREP_API_TOKEN\): it is missing, unknown or revoked/);
    await wrong.close();
    const configured = new SemgrepClient({ token: env.emulator.token, tokenSource: "semgrep:token", baseUrl: env.emulator.url, env: {} });
    const missing = await configured.projects.get("acme", "acme/no-such-project").catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/the token \(from semgrep:token\) lacks Web API access/);
    await configured.close();
    expect(() => new SemgrepClient({ env: {} })).toThrow(/SEMGREP_APP_TOKEN environment variable \(or SEMGREP_API_TOKEN\)/);
  });

  it("prefers explicit options over the environment, and defaults to https://semgrep.dev", () => {
    expect(new SemgrepClient({ token: "a", baseUrl: "https://x", env: { SEMGREP_APP_URL: "https://y" } }).baseUrl).toBe("https://x");
    expect(new SemgrepClient({ token: "a", env: {} }).baseUrl).toBe("https://semgrep.dev");
  });

  it("refuses an address it cannot use, naming the setting it came from", () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { baseUrl: "http://127.0.0.1:8080/api/v1", baseUrlSource: "semgrep:url" },
        /^semgrep:url "http:\/\/127\.0\.0\.1:8080\/api\/v1" must be the service's address without a path .*the client adds \/api\/v1 itself/,
      ],
      [{ baseUrl: "semgrep.dev", baseUrlSource: "semgrep:url" }, /^semgrep:url "semgrep\.dev" is not an address: give the scheme and host/],
      [{ baseUrl: "ftp://semgrep.dev" }, /^baseUrl "ftp:\/\/semgrep\.dev\/?" must start with https:\/\//],
      [{ baseUrl: "https://user:hunter2@semgrep.dev" }, /^baseUrl "https:\/\/semgrep\.dev\/" must not carry credentials/],
    ];
    for (const [options, message] of cases) {
      const error = (() => {
        try {
          return new SemgrepClient({ token: "t", env: {}, ...options });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidBaseUrlError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("hunter2");
    }
    expect(() => new SemgrepClient({ token: "t", env: { SEMGREP_APP_URL: "https://semgrep.dev/orgs/acme" } })).toThrow(
      /^SEMGREP_APP_URL "https:\/\/semgrep\.dev\/orgs\/acme" must be the service's address without a path/,
    );
    expect(new SemgrepClient({ token: "t", env: {}, baseUrl: "https://semgrep.dev/" }).baseUrl).toBe("https://semgrep.dev");
    // A fragment or a query is named as such, not as a path.
    expect(() => new SemgrepClient({ token: "t", env: {}, baseUrl: "http://127.0.0.1:18081/#x", baseUrlSource: "semgrep:url" })).toThrow(
      /^semgrep:url "http:\/\/127\.0\.0\.1:18081\/#x" must be the service's address without a fragment \(#x\) \(e\.g\. https:\/\/semgrep\.dev\)/,
    );
    expect(() => new SemgrepClient({ token: "t", env: { SEMGREP_APP_URL: "https://semgrep.dev/?x=1" } })).toThrow(
      /^SEMGREP_APP_URL "https:\/\/semgrep\.dev\/\?x=1" must be the service's address without a query \(\?x=1\)/,
    );
  });

  it("says an https address of a plain http server is probably meant as http, instead of dumping the TLS failure", async () => {
    const address = env.emulator.url.replace("http:", "https:");
    const client = new SemgrepClient({ token: "t", env: {}, baseUrl: address, baseUrlSource: "semgrep:url", maxRetries: 0 });
    const error = await client.policies.list(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      `Semgrep API policies.list failed (GET /api/v1/deployments/1/policies): no TLS connection could be made to ${address}, from semgrep:url; is it an http:// address? Check semgrep:url`,
    );
    await client.close();
  });

  it("says where to put the token when there is none", () => {
    expect(() => new SemgrepClient({ env: { SEMGREP_APP_TOKEN: "  " } })).toThrow(MissingTokenError);
    expect(() => new SemgrepClient({ env: {} })).toThrow(/pulumi config set --secret semgrep:token/);
  });
});

describe("answers of an unexpected shape", () => {
  let stub: StubServer | undefined;
  afterEach(async () => stub?.close());

  it("raises ResponseValidationError naming the field", async () => {
    stub = await startStub((_req, res) => json(res, 200, { project: { id: "not-a-number", name: "a/b" } }));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {} });
    const error = await client.projects.get("a", "a/b").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/project\.id/);
    await client.close();
  });

  it("reads an HTML error page as such", async () => {
    stub = await startStub((_req, res) => res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>"));
    const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {}, maxRetries: 0 });
    await expect(client.policies.list(1)).rejects.toMatchObject({ status: 502, serviceMessage: "(an HTML error page)" });
    await client.close();
  });
});

/**
 * Conformance with Semgrep's v2 OpenAPI (`SEMGREP_OPENAPI_V2`) of the Policies V2 operations
 * (`PoliciesV2Service_*`), as the v1 tier does for the v1 operations:
 * - each request the client's `policiesV2` area sends matches the documented operation (path
 *   template, path and query parameters, the `If-Match` header, body, no undeclared field);
 * - each answer the emulator gives matches the documented 200 schema, with and without
 *   `--omit-empty`;
 * - requests written from the OpenAPI alone (its examples), sent straight to the emulator, are
 *   accepted and answered in the documented shape;
 * - the answers the descriptions promise besides 200 (428, 409 with the current state_version,
 *   404 PRODUCT_NOT_ENABLED, 409 RESERVED_SLUG) are given.
 * Without the file the tier reports that it did not run (the summary lists it), never a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectionBundleInput, remediationPolicyInput, SemgrepClient } from "../../provider/client";
import { DEMO_DEPLOYMENT, type RunningEmulator, startEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { policiesV2Routes } from "../../provider/emulator/policies-v2";
import { Contract, contractFileFrom, type Exchange, OPENAPI_V2_ENV } from "../support/openapi";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";

const file = contractFileFrom(process.env, OPENAPI_V2_ENV);
const DEPLOYMENT = DEMO_DEPLOYMENT.id;
const BASE = `/api/policies/v2/deployments/${DEPLOYMENT}`;

/** The documented operation behind each client method. */
const CLIENT_OPERATIONS = {
  "policiesV2.getDetectionPolicy": "PoliciesV2Service_GetDetectionPolicy",
  "policiesV2.applyDetectionPolicy": "PoliciesV2Service_ApplyDetectionPolicy",
  "policiesV2.dryRunDetectionPolicy": "PoliciesV2Service_DryRunDetectionPolicy",
  "policiesV2.getDetectionPolicySummary": "PoliciesV2Service_GetDetectionPolicySummary",
  "policiesV2.getRemediationPolicies": "PoliciesV2Service_GetRemediationPolicies",
  "policiesV2.applyRemediationPolicies": "PoliciesV2Service_ApplyRemediationPolicies",
  "policiesV2.dryRunRemediationPolicies": "PoliciesV2Service_DryRunRemediationPolicies",
  "policiesV2.getVocab": "PoliciesV2Service_GetVocab",
} as const;

if (!file) {
  it.skip(`OpenAPI v2 conformance tier did not run: set ${OPENAPI_V2_ENV} to semgrep-public-v2.openapi.yaml (CI does; node test/tools/openapi-files.mjs --out DIR downloads it)`, () => {});
} else {
  const contract = new Contract(file);

  describe("the v2 file's own defects", () => {
    it("are corrected before anything is validated, and listed", () => {
      const text = contract.corrections.join("\n");
      expect(text).toMatch(/bound from the path[^\n]*PoliciesV2Service_ApplyDetectionPolicy \(deployment_id, product\)/);
      expect(text).toMatch(/bound from the path[^\n]*PoliciesV2Service_DryRunDetectionPolicy \(deployment_id, product\)/);
      expect(text).toMatch(/bound from the path[^\n]*PoliciesV2Service_ApplyRemediationPolicies \(deployment_id\)/);
      expect(text).toMatch(/bound from the path[^\n]*PoliciesV2Service_DryRunRemediationPolicies \(deployment_id\)/);
      expect(text).toMatch(
        /If-Match[^\n]*\(2\): PoliciesV2Service_ApplyDetectionPolicy \(PUT [^)]+\); PoliciesV2Service_ApplyRemediationPolicies \(PUT [^)]+\)/,
      );
    });

    it("the checker finds what does not conform (so a pass means something)", () => {
      const put = { method: "PUT", url: `${BASE}/detection-policy/code` };
      expect(
        contract.checkRequest({ ...put, headers: {}, body: { bundle: { exceptions: [{ exceptionType: "exclude", rule: "a" }] } } }),
      ).toEqual([
        "PoliciesV2Service_ApplyDetectionPolicy: header If-Match is required",
        "PoliciesV2Service_ApplyDetectionPolicy: body.bundle.exceptions.0: must have required property 'exception_type'",
        "PoliciesV2Service_ApplyDetectionPolicy: body.bundle.exceptions.0: must have required property 'rule_type'",
        "PoliciesV2Service_ApplyDetectionPolicy: body.bundle.exceptions.0: field exceptionType is not documented",
      ]);
      expect(contract.checkRequest({ method: "GET", url: "/api/policies/v2/deployments/acme/vocab?products=code" })).toEqual([
        "PoliciesV2Service_GetVocab: path parameter deploymentId: must be integer",
        'PoliciesV2Service_GetVocab: path parameter deploymentId: must match format "int64"',
        "PoliciesV2Service_GetVocab: query parameter products is not documented",
      ]);
      const op = contract.byId("PoliciesV2Service_GetDetectionPolicy");
      expect(contract.checkAnswer(op, { bundle: { rulesets: "p/default" }, stateVersion: "a1" })).toEqual([
        "PoliciesV2Service_GetDetectionPolicy: answer: field stateVersion is not documented",
        "PoliciesV2Service_GetDetectionPolicy: answer.bundle.rulesets: must be array",
      ]);
    });

    it("the client implements every Policies V2 operation of the file, and the emulator serves each", () => {
      const documented = contract.operations.filter((op) => op.operationId.startsWith("PoliciesV2Service_")).map((op) => op.operationId);
      expect(documented.sort()).toEqual(Object.values(CLIENT_OPERATIONS).sort());
      expect(policiesV2Routes.map((r) => r.operation).sort()).toEqual(Object.keys(CLIENT_OPERATIONS).sort());
    });
  });

  for (const omitEmpty of [false, true]) {
    describe(`every policiesV2 client operation against the emulator${omitEmpty ? " with --omit-empty" : ""}`, () => {
      let emulator: RunningEmulator;
      let proxy: RecordingProxy;
      let client: SemgrepClient;
      beforeAll(async () => {
        emulator = await startEmulator({ preset: "demo", omitEmpty, policiesV2: true });
        proxy = await startRecordingProxy(emulator.url);
        client = new SemgrepClient({ baseUrl: proxy.url, token: emulator.token, env: {}, retryBaseDelayMs: 5 });
        await driveEveryOperation(client);
      });
      afterAll(async () => {
        await client?.close();
        await proxy?.close();
        await emulator?.close();
      });

      it("covers every operation, each answered 200", () => {
        const answered = new Set(
          proxy.exchanges
            .filter((e) => e.status === 200)
            .map((e) => contract.match(e.method, new URL(e.url, "http://x").pathname)?.operationId),
        );
        expect([...answered].sort()).toEqual(Object.values(CLIENT_OPERATIONS).sort());
      });

      it("sends only documented requests, If-Match included", () => {
        expect(proxy.exchanges.flatMap((e) => contract.checkRequest(e))).toEqual([]);
        const puts = proxy.exchanges.filter((e) => e.method === "PUT");
        expect(puts.length).toBeGreaterThanOrEqual(3);
        for (const put of puts) expect(put.headers?.["if-match"]).toMatch(/^[0-9a-f]{16}$/);
      });

      it("is answered only in the documented shape", () => {
        expect(proxy.exchanges.flatMap((e) => answerProblems(contract, e))).toEqual([]);
      });
    });
  }

  describe("requests shaped as the OpenAPI documents them (its examples), sent straight to the emulator", () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo", policiesV2: true });
    });
    afterAll(() => emulator?.close());

    for (const request of documentedRequests()) {
      it(`${request.operationId}: ${request.title}`, async () => {
        const op = contract.byId(request.operationId);
        const headers: Record<string, string> = {};
        if (request.ifMatchOf) headers["if-match"] = ((await get(emulator, request.ifMatchOf)) as { state_version: string }).state_version;
        expect(contract.checkRequest({ ...request, headers })).toEqual([]);
        const response = await send(emulator, request.method, request.url, request.body, headers);
        expect({ status: response.status, answer: response.answer }).toMatchObject({ status: 200 });
        expect(contract.checkAnswer(op, response.answer)).toEqual([]);
        request.expect?.(response.answer);
      });
    }
  });

  describe("the answers the descriptions promise besides 200", () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo", policiesV2: true, detectionProducts: ["code"] });
    });
    afterAll(() => emulator?.close());
    const policy = (slug: string) => ({
      slug,
      name: "Comment on criticals",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
      actions: [{ type: "pr_comment" }],
    });

    // The OpenAPI's prose says "409 with the current state_version" without naming the field; the
    // live service names it current_state_version (docs/live-service.md, "From real clients").
    it("an apply without If-Match: 428; with a stale one: 409 with the current state_version", async () => {
      const current = (await get(emulator, "/detection-policy/code")) as { state_version: string; bundle: object };
      const body = { bundle: { rulesets: ["p/default"] } };
      expect(await send(emulator, "PUT", `${BASE}/detection-policy/code`, body)).toMatchObject({ status: 428 });
      expect(await send(emulator, "PUT", `${BASE}/detection-policy/code`, body, { "if-match": "0000000000000000" })).toMatchObject({
        status: 409,
        answer: { current_state_version: current.state_version },
      });
      expect(await get(emulator, "/detection-policy/code")).toEqual(current);
    });

    it("a product the deployment lacks: 404 with code PRODUCT_NOT_ENABLED, and the summary leaves it out", async () => {
      expect(await send(emulator, "GET", `${BASE}/detection-policy/secrets`)).toMatchObject({
        status: 404,
        answer: { code: "PRODUCT_NOT_ENABLED" },
      });
      const summary = (await get(emulator, "/detection-policy")) as Record<string, unknown>;
      expect(Object.keys(summary).sort()).toEqual(["code", "deployment_slug"]);
    });

    it("a policy with a system-managed policy's slug: 409 RESERVED_SLUG; system-managed policies are never in the bundle", async () => {
      const { state_version, bundle } = (await get(emulator, "/remediation-policies")) as {
        state_version: string;
        bundle: { policies: Array<{ slug: string }> };
      };
      expect(bundle.policies.map((p) => p.slug)).not.toContain(SYSTEM_REMEDIATION_SLUG);
      const answer = await send(
        emulator,
        "PUT",
        `${BASE}/remediation-policies`,
        { bundle: { policies: [policy(SYSTEM_REMEDIATION_SLUG)] } },
        { "if-match": state_version },
      );
      expect(answer).toMatchObject({ status: 409, answer: { code: "RESERVED_SLUG" } });
    });

    it("a dry run with validation errors has an empty diff, and the apply of the same bundle fails with the first error's code", async () => {
      const { state_version } = (await get(emulator, "/remediation-policies")) as { state_version: string };
      const bundle = { policies: [{ ...policy("bad"), filters: { mode: "most", conditions: [] } }] };
      const dry = await send(emulator, "POST", `${BASE}/remediation-policies:dryRun`, { bundle });
      expect(dry.status).toBe(200);
      expect(dry.answer).toMatchObject({ creates: [], updates: [], deletes: [], state_version });
      const codes = (dry.answer as { validation_errors: Array<{ code: string }> }).validation_errors.map((e) => e.code);
      expect(codes).toEqual(["INVALID_ENUM_VALUE", "NO_CONDITIONS"]);
      const apply = await send(emulator, "PUT", `${BASE}/remediation-policies`, { bundle }, { "if-match": state_version });
      expect(apply).toMatchObject({ status: 400, answer: { code: "INVALID_ENUM_VALUE" } });
    });
  });
}

async function send(emulator: RunningEmulator, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(emulator.url + url, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, answer: (await response.json()) as unknown };
}

async function get(emulator: RunningEmulator, path: string): Promise<unknown> {
  const { status, answer } = await send(emulator, "GET", BASE + path);
  expect(status).toBe(200);
  return answer;
}

function answerProblems(contract: Contract, exchange: Exchange): string[] {
  if (exchange.status !== 200) return [`${exchange.method} ${exchange.url} answered ${exchange.status}`];
  const op = contract.match(exchange.method, new URL(exchange.url, "http://x").pathname);
  return op ? contract.checkAnswer(op, exchange.answer) : [];
}

/** Calls every policiesV2 operation once or more, with every field the client can send, and dry runs that find problems. */
async function driveEveryOperation(client: SemgrepClient): Promise<void> {
  const v2 = client.policiesV2;
  await v2.getDetectionPolicySummary(DEPLOYMENT);
  const code = await v2.getDetectionPolicy(DEPLOYMENT, "code");
  const changed = detectionBundleInput(code.bundle);
  changed.disabled!.push("python.lang.security.audit.eval-detected.eval-detected");
  changed.exceptions = [
    ...changed.exceptions!.slice(1),
    { exception_type: "include", project_tag_name: "team:web", rule: "p/react", rule_type: "pack" },
  ];
  const dry = await v2.dryRunDetectionPolicy(DEPLOYMENT, "code", changed);
  await v2.applyDetectionPolicy(DEPLOYMENT, "code", changed, { ifMatch: dry.state_version! });
  await v2.dryRunDetectionPolicy(DEPLOYMENT, "secrets", {
    rulesets: ["p/default"],
    exceptions: [{ exception_type: "skip", project: "acme/web-app", project_tag_name: "pci", rule: "x", rule_type: "rules" }],
  });
  const secrets = await v2.getDetectionPolicy(DEPLOYMENT, "secrets");
  await v2.applyDetectionPolicy(
    DEPLOYMENT,
    "secrets",
    { ...detectionBundleInput(secrets.bundle), deployment_slug: secrets.bundle.deployment_slug, product: "secrets", rules: ["a.b"] },
    { ifMatch: secrets.state_version },
  );
  const remediation = await v2.getRemediationPolicies(DEPLOYMENT);
  const [first, ...rest] = remediation.bundle.policies.map(remediationPolicyInput);
  const policies = [
    ...rest.slice(1),
    { ...first!, description: "Changed." },
    {
      slug: "every-field",
      name: "Every field",
      description: "A policy with every field.",
      active: false,
      filters: { mode: "any", conditions: [{ type: "repository_tag", values: ["pci"], mode: "none" }] },
      actions: [{ type: "webhook", config: { webhook_slug: "siem" } }],
    },
    { name: "Derived slug", filters: { mode: "all", conditions: [{ type: "severity", values: ["low"] }] }, actions: [{ type: "triage" }] },
  ];
  const preview = await v2.dryRunRemediationPolicies(DEPLOYMENT, { policies });
  await v2.applyRemediationPolicies(DEPLOYMENT, { policies }, { ifMatch: preview.state_version! });
  await v2.dryRunRemediationPolicies(DEPLOYMENT, {
    policies: [{ name: "!", filters: { mode: "all", conditions: [{ type: "colour", values: [] }] }, actions: [{ type: "block" }] }],
  });
  await v2.getVocab(DEPLOYMENT);
  for (const product of ["code", "secrets", "remediation"] as const) await v2.getVocab(DEPLOYMENT, { product });
}

interface DocumentedRequest {
  operationId: string;
  title: string;
  method: string;
  url: string;
  body?: unknown;
  /** The GET path (from the deployment) whose `state_version` the request sends as `If-Match`. */
  ifMatchOf?: string;
  expect?: (answer: unknown) => void;
}

/** Requests written from the OpenAPI alone (its examples, where the demo deployment has what they name). */
function documentedRequests(): DocumentedRequest[] {
  const exampleBundle = {
    product: "code",
    rulesets: ["p/owasp-top-10", "p/cwe-top-25"],
    rules: ["python.lang.security.audit.dangerous-system-call"],
    disabled: ["python.lang.security.audit.dangerous-eval"],
    exceptions: [
      {
        exception_type: "exclude",
        project: "my-org/legacy-svc",
        rule: "python.lang.security.audit.dangerous-system-call",
        rule_type: "rule",
      },
      {
        exception_type: "exclude",
        project_tag_name: "segment",
        rule: "python.lang.security.audit.dangerous-system-call",
        rule_type: "rule",
      },
    ],
  };
  const examplePolicy = {
    slug: "block-high-confidence-criticals",
    name: "Block high-confidence criticals",
    description: "",
    active: true,
    filters: { mode: "all", conditions: [{ type: "severity", values: ["critical", "high"], mode: "any" }] },
    actions: [{ type: "block" }, { type: "pr_comment", config: {} }],
  };
  const errorCodes = (answer: unknown) => (answer as { validation_errors: Array<{ code: string }> }).validation_errors.map((e) => e.code);
  return [
    {
      operationId: "PoliciesV2Service_GetDetectionPolicySummary",
      title: "every enabled product",
      method: "GET",
      url: `${BASE}/detection-policy`,
      expect: (answer) => expect(answer).toMatchObject({ deployment_slug: "acme", code: { bundle: { product: "code" } }, secrets: {} }),
    },
    {
      operationId: "PoliciesV2Service_GetDetectionPolicy",
      title: "product code",
      method: "GET",
      url: `${BASE}/detection-policy/code`,
      expect: (answer) => expect(answer).toMatchObject({ bundle: { rulesets: ["p/default", "p/owasp-top-ten"] } }),
    },
    {
      operationId: "PoliciesV2Service_GetDetectionPolicy",
      title: "product secrets",
      method: "GET",
      url: `${BASE}/detection-policy/secrets`,
      expect: (answer) => expect(answer).toMatchObject({ bundle: { product: "secrets", rulesets: [] } }),
    },
    {
      operationId: "PoliciesV2Service_DryRunDetectionPolicy",
      title: "the schema's examples: the example project is unknown here, which is a validation error",
      method: "POST",
      url: `${BASE}/detection-policy/code:dryRun`,
      body: { bundle: exampleBundle },
      expect: (answer) => expect(errorCodes(answer)).toEqual(["UNKNOWN_REFERENCE"]),
    },
    {
      operationId: "PoliciesV2Service_DryRunDetectionPolicy",
      title: "the examples with a project of the deployment: the diff",
      method: "POST",
      url: `${BASE}/detection-policy/code:dryRun`,
      body: { bundle: { ...exampleBundle, exceptions: [{ ...exampleBundle.exceptions[0], project: "acme/web-app" }] } },
      expect: (answer) =>
        expect(answer).toMatchObject({
          creates: [{ kind: "DetectionPolicyException", key: { scope_type: "project", scope_target: "acme/web-app" } }],
          updates: [{ kind: "DetectionPolicy", key: { product: "code" } }],
          validation_errors: [],
        }),
    },
    {
      operationId: "PoliciesV2Service_ApplyDetectionPolicy",
      title: "the examples with a project of the deployment, If-Match from the read, deployment_slug sent back",
      method: "PUT",
      url: `${BASE}/detection-policy/code`,
      ifMatchOf: "/detection-policy/code",
      body: {
        bundle: { ...exampleBundle, deployment_slug: "ignored", exceptions: [{ ...exampleBundle.exceptions[0], project: "acme/web-app" }] },
      },
      expect: (answer) =>
        expect(answer).toMatchObject({
          bundle: { deployment_slug: "acme", rulesets: ["p/cwe-top-25", "p/owasp-top-10"], exceptions: [{ project: "acme/web-app" }] },
        }),
    },
    {
      operationId: "PoliciesV2Service_ApplyDetectionPolicy",
      title: "an empty bundle for secrets (everything cleared)",
      method: "PUT",
      url: `${BASE}/detection-policy/secrets`,
      ifMatchOf: "/detection-policy/secrets",
      body: { bundle: {} },
      expect: (answer) => expect(answer).toMatchObject({ bundle: { rules: [], disabled: [], exceptions: [] } }),
    },
    {
      operationId: "PoliciesV2Service_GetRemediationPolicies",
      title: "the deployment's policies",
      method: "GET",
      url: `${BASE}/remediation-policies`,
    },
    {
      operationId: "PoliciesV2Service_DryRunRemediationPolicies",
      title: "the schema's example policy",
      method: "POST",
      url: `${BASE}/remediation-policies:dryRun`,
      body: { bundle: { policies: [examplePolicy] } },
      expect: (answer) =>
        expect(answer).toMatchObject({
          creates: [{ kind: "RemediationPolicy", key: { slug: "block-high-confidence-criticals" } }],
          deletes: expect.arrayContaining([
            { kind: "RemediationPolicy", key: { slug: "comment-high-severity" }, before: expect.anything() },
          ]),
        }),
    },
    {
      operationId: "PoliciesV2Service_ApplyRemediationPolicies",
      title: "the example policy without its slug (derived from the name)",
      method: "PUT",
      url: `${BASE}/remediation-policies`,
      ifMatchOf: "/remediation-policies",
      body: { bundle: { deployment_slug: "ignored", policies: [{ ...examplePolicy, slug: undefined }] } },
      expect: (answer) =>
        expect(answer).toMatchObject({ bundle: { deployment_slug: "acme", policies: [{ slug: "block-high-confidence-criticals" }] } }),
    },
    {
      operationId: "PoliciesV2Service_GetVocab",
      title: "without product: no value enums, no constraints",
      method: "GET",
      url: `${BASE}/vocab`,
      expect: (answer) => {
        expect(answer).toMatchObject({ value_enums: [] });
        expect(answer).not.toHaveProperty("detection_constraints");
      },
    },
    {
      operationId: "PoliciesV2Service_GetVocab",
      title: "the example product, remediation",
      method: "GET",
      url: `${BASE}/vocab?product=remediation`,
      expect: (answer) =>
        expect(answer).toMatchObject({
          value_enums: expect.arrayContaining([{ type: "severity", values: ["critical", "high", "medium", "low"] }]),
        }),
    },
    {
      operationId: "PoliciesV2Service_GetVocab",
      title: "product secrets: rulesets not accepted",
      method: "GET",
      url: `${BASE}/vocab?product=secrets`,
      expect: (answer) =>
        expect(answer).toMatchObject({
          detection_constraints: { rulesets_accepted: false, exception_types: ["include", "exclude"], rule_types: ["rule", "pack"] },
        }),
    },
  ];
}

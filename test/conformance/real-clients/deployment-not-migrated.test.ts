/**
 * Real clients, topic "a deployment has one of the two policy APIs" (docs/live-service.md,
 * "From real clients"): the Policies V2 reconciler of Semgrep's GitOps reference reports that
 * every Policies V2 operation of a deployment not migrated to unified policies answers `403` with
 * the code `DEPLOYMENT_NOT_MIGRATED`; the OpenAPI documents only the mirror, `410
 * DEPLOYMENT_MIGRATED` on every v1 policy operation of a migrated deployment. The requests below
 * are the forms those clients send (written here from that description), replayed straight to
 * the emulator over HTTP, then through this package's client for the typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeploymentMigratedError, DeploymentNotMigratedError, SemgrepClient } from "../../../provider/client";
import { DEMO_DEPLOYMENT, type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../../provider/emulator";

const V2 = `/api/policies/v2/deployments/${DEMO_DEPLOYMENT.id}`;
const V1 = `/api/v1/deployments/${DEMO_DEPLOYMENT.id}`;
const RULE = "python.lang.security.audit.eval-detected.eval-detected";

interface Request {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Every Policies V2 operation, as the reconciler sends it (a bundle under `bundle`, the version read in `If-Match`). */
const POLICIES_V2: Request[] = [
  { title: "read the detection policy summary", method: "GET", path: `${V2}/detection-policy` },
  { title: "read the code bundle", method: "GET", path: `${V2}/detection-policy/code` },
  { title: "read the secrets bundle", method: "GET", path: `${V2}/detection-policy/secrets` },
  {
    title: "dry-run a code bundle",
    method: "POST",
    path: `${V2}/detection-policy/code:dryRun`,
    body: { bundle: { product: "code", rulesets: ["p/default"], rules: [], disabled: [], exceptions: [] } },
  },
  {
    title: "apply a code bundle with the version read",
    method: "PUT",
    path: `${V2}/detection-policy/code`,
    body: { bundle: { product: "code", rulesets: ["p/default"], rules: [], disabled: [], exceptions: [] } },
    headers: { "if-match": '"0123456789abcdef"' },
  },
  { title: "read the remediation policies", method: "GET", path: `${V2}/remediation-policies` },
  {
    title: "dry-run the remediation policies",
    method: "POST",
    path: `${V2}/remediation-policies:dryRun`,
    body: {
      bundle: {
        policies: [
          {
            slug: "block-critical",
            name: "Block critical",
            filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
            actions: [{ type: "pr_comment" }, { type: "block" }],
          },
        ],
      },
    },
  },
  {
    title: "apply the remediation policies with the version read",
    method: "PUT",
    path: `${V2}/remediation-policies`,
    body: { bundle: { policies: [] } },
    headers: { "if-match": "0123456789abcdef" },
  },
  { title: "read the vocabulary", method: "GET", path: `${V2}/vocab` },
  { title: "read a product's vocabulary", method: "GET", path: `${V2}/vocab?product=remediation` },
];

/** Every v1 policy operation, as Semgrep's customer-success scripts send them. */
const POLICIES_V1: Request[] = [
  { title: "list the policies", method: "GET", path: `${V1}/policies` },
  { title: "list a policy's rules", method: "GET", path: `${V1}/policies/${SAST_POLICY_ID}?limit=100` },
  {
    title: "change a rule's mode",
    method: "PUT",
    path: `${V1}/policies/${SAST_POLICY_ID}`,
    body: { rulePath: RULE, policyMode: "MODE_BLOCK" },
  },
];

async function send(emulator: RunningEmulator, request: Request): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.token}`, ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(emulator.url + request.path, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  return { status: response.status, body: await response.json() };
}

describe("a deployment not migrated to unified policies (the emulator without policiesV2)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo" });
  });
  afterAll(() => emulator?.close());

  it.each(POLICIES_V2.map((r) => [r.title, r] as const))(
    "Policies V2, %s: exactly 403 {error, code: DEPLOYMENT_NOT_MIGRATED}",
    async (_title, request) => {
      const before = structuredClone(emulator.state());
      const answer = await send(emulator, request);
      expect(answer).toEqual({ status: 403, body: { error: expect.any(String) as unknown, code: "DEPLOYMENT_NOT_MIGRATED" } });
      expect(emulator.state()).toEqual(before);
    },
  );

  it.each(POLICIES_V1.filter((r) => r.method === "GET").map((r) => [r.title, r] as const))("v1, %s: answered", async (_title, request) => {
    expect((await send(emulator, request)).status).toBe(200);
  });

  it("through the client, every Policies V2 operation raises DeploymentNotMigratedError", async () => {
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    try {
      const v2 = client.policiesV2;
      for (const call of [
        () => v2.getDetectionPolicySummary(1),
        () => v2.getDetectionPolicy(1, "code"),
        () => v2.dryRunDetectionPolicy(1, "code", { rulesets: ["p/default"] }),
        () => v2.applyDetectionPolicy(1, "code", { rulesets: ["p/default"] }, { ifMatch: "0123456789abcdef" }),
        () => v2.getRemediationPolicies(1),
        () => v2.dryRunRemediationPolicies(1, { policies: [] }),
        () => v2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "0123456789abcdef" }),
        () => v2.getVocab(1, { product: "code" }),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DeploymentNotMigratedError);
        expect(error).toMatchObject({ status: 403, code: "DEPLOYMENT_NOT_MIGRATED", attempts: 1 });
      }
    } finally {
      await client.close();
    }
  });
});

describe("a deployment migrated to unified policies (the emulator with policiesV2)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: true });
  });
  afterAll(() => emulator?.close());

  it.each(POLICIES_V1.map((r) => [r.title, r] as const))(
    "v1, %s: exactly 410 {error, code: DEPLOYMENT_MIGRATED}",
    async (_title, request) => {
      const before = structuredClone(emulator.state());
      expect(await send(emulator, request)).toEqual({
        status: 410,
        body: { error: expect.any(String) as unknown, code: "DEPLOYMENT_MIGRATED" },
      });
      expect(emulator.state()).toEqual(before);
    },
  );

  it.each(POLICIES_V2.filter((r) => r.method === "GET").map((r) => [r.title, r] as const))(
    "Policies V2, %s: answered",
    async (_title, request) => {
      expect((await send(emulator, request)).status).toBe(200);
    },
  );

  it("through the client, every v1 policy operation raises DeploymentMigratedError", async () => {
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    try {
      for (const call of [
        () => client.policies.list(1),
        () => client.policies.listRulesPage(1, SAST_POLICY_ID, { limit: 100 }),
        () => client.policies.updateRuleMode(1, SAST_POLICY_ID, { rulePath: RULE, policyMode: "MODE_BLOCK" }),
      ])
        await expect(call()).rejects.toBeInstanceOf(DeploymentMigratedError);
    } finally {
      await client.close();
    }
  });
});

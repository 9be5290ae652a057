/**
 * The client's Policies V2 area: each operation against the emulator, the typed errors (428,
 * 409 with the current state_version, PRODUCT_NOT_ENABLED, RESERVED_SLUG), If-Match on the
 * applies and only there, per-call options, the retry of an apply and the confirmation of a
 * 409 after a lost answer, and the prose rules applied without a request.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  ConflictError,
  detectionBundleInput,
  detectionBundleProblems,
  InternalServerError,
  InvalidRequestError,
  MissingDependentActionError,
  NotFoundError,
  PreconditionRequiredError,
  ProductNotEnabledError,
  remediationBundleProblems,
  remediationPolicyInput,
  ReservedSlugError,
  SemgrepClient,
  slugFromName,
  StateVersionConflictError,
  UnknownReferenceError,
} from "../../provider/client";
import { startEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { json, type StubServer, startStub } from "../support/stub-server";

const env = useEmulator({ preset: "demo", policiesV2: true });
const PATH = "/api/policies/v2/deployments/1";

/** A stub that answers each request in turn with `answers[i]` (the last one repeats), recording the If-Match of each. */
async function scripted(answers: Array<(req: IncomingMessage, res: Parameters<typeof json>[0]) => void>) {
  const ifMatch: Array<string | undefined> = [];
  const stub: StubServer = await startStub((req, res, index) => {
    ifMatch.push(req.headers["if-match"] as string | undefined);
    req.resume();
    req.on("end", () => answers[Math.min(index, answers.length - 1)]!(req, res));
  });
  const client = new SemgrepClient({ baseUrl: stub.url, token: "t", env: {}, retryBaseDelayMs: 1, maxRetryDelayMs: 5 });
  return { stub, client, ifMatch, close: () => Promise.all([client.close(), stub.close()]) };
}

const state = (version: string, bundle: object = {}) => ({ bundle, state_version: version });

describe("operations against the emulator", () => {
  it("reads, dry-runs and applies a detection bundle with the version read; the answer is the bundle after the apply", async () => {
    const v2 = env.client().policiesV2;
    const code = await v2.getDetectionPolicy(1, "code");
    expect(code.bundle).toMatchObject({ deployment_slug: "acme", product: "code", rulesets: ["p/default", "p/owasp-top-ten"] });
    const changed = { ...detectionBundleInput(code.bundle), disabled: [...code.bundle.disabled, "acme.turned-off"] };
    const dry = await v2.dryRunDetectionPolicy(1, "code", changed);
    expect(dry).toMatchObject({ state_version: code.state_version, creates: [], deletes: [], validation_errors: [] });
    expect(dry.updates).toEqual([
      {
        kind: "DetectionPolicy",
        key: { product: "code", scope_type: undefined, scope_target: undefined, rule: undefined, rule_type: undefined },
        before: { rulesets: code.bundle.rulesets, rules: code.bundle.rules, disabled: code.bundle.disabled, exception_type: undefined },
        after: {
          rulesets: code.bundle.rulesets,
          rules: code.bundle.rules,
          disabled: [...code.bundle.disabled, "acme.turned-off"].sort(),
          exception_type: undefined,
        },
      },
    ]);
    const applied = await v2.applyDetectionPolicy(1, "code", changed, { ifMatch: dry.state_version! });
    expect(applied.bundle.disabled).toContain("acme.turned-off");
    expect(applied).toEqual(await v2.getDetectionPolicy(1, "code"));
    expect(await v2.getDetectionPolicySummary(1)).toMatchObject({ code: applied, secrets: { bundle: { product: "secrets" } } });
  });

  it("reads and applies the remediation policies; a bundle read and sent back is unchanged", async () => {
    const v2 = env.client().policiesV2;
    const read = await v2.getRemediationPolicies(1);
    const policies = read.bundle.policies.map(remediationPolicyInput);
    const same = await v2.applyRemediationPolicies(1, { policies }, { ifMatch: read.state_version });
    expect(same).toEqual(read);
    const preview = await v2.dryRunRemediationPolicies(1, { policies: policies.slice(1) });
    expect(preview.deletes.map((d) => d.key.slug)).toEqual([policies[0]!.slug]);
    const vocabulary = await v2.getVocab(1);
    expect(vocabulary.value_enums).toEqual([]);
    expect(vocabulary.detection_constraints).toBeUndefined();
    expect(await v2.getVocab(1, { product: "code" })).toMatchObject({ detection_constraints: { rulesets_accepted: true } });
  });

  it("reads absent fields as their defaults (an emulator with --omit-empty)", async () => {
    const sparse = await startEmulator({ omitEmpty: true, policiesV2: true });
    const client = new SemgrepClient({ baseUrl: sparse.url, token: sparse.token, env: {} });
    try {
      const { bundle } = await client.policiesV2.getRemediationPolicies(1);
      expect(bundle.policies.find((p) => p.slug === "pci-findings-to-jira")).toMatchObject({ active: false });
      expect(bundle.policies.find((p) => p.slug === "comment-high-severity")).toMatchObject({
        description: "",
        actions: [{ type: "pr_comment", config: {} }],
      });
      expect((await client.policiesV2.getDetectionPolicy(1, "secrets")).bundle.rulesets).toEqual([]);
      const dry = await client.policiesV2.dryRunDetectionPolicy(1, "code", { rulesets: ["p/default"] });
      expect(dry).toMatchObject({ creates: [], validation_errors: [] });
    } finally {
      await client.close();
      await sparse.close();
    }
  });
});

describe("typed errors", () => {
  it("409 of a stale If-Match: StateVersionConflictError (a ConflictError) carrying the current state_version", async () => {
    const v2 = env.client().policiesV2;
    const { state_version } = await v2.getDetectionPolicy(1, "code");
    const error = await v2.applyDetectionPolicy(1, "code", {}, { ifMatch: "0123456789abcdef" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateVersionConflictError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      stateVersion: state_version,
      mayHaveApplied: false,
      operation: "policiesV2.applyDetectionPolicy",
      method: "PUT",
      path: `${PATH}/detection-policy/code`,
      attempts: 1,
    });
    expect((error as Error).message).toBe(
      `Semgrep API policiesV2.applyDetectionPolicy failed (PUT ${PATH}/detection-policy/code → 409): ` +
        `the bundle changed since the state_version in If-Match was read (current state_version: ${state_version}). ` +
        "Read the bundle again, reapply the change to it, and apply with its new state_version",
    );
    expect(env.requests("policiesV2.applyDetectionPolicy")).toHaveLength(1);
  });

  it.each([
    [
      "a gRPC-style body (the version in an ErrorInfo's metadata)",
      { code: 10, message: "aborted", details: [{ metadata: { state_version: "v9" } }] },
      {},
    ],
    ["an ETag header", { error: "stale" }, { etag: 'W/"v9"' }],
  ])("reads the current state_version from %s", async (_name, body, headers) => {
    const { client, close } = await scripted([(_req, res) => json(res, 409, body, headers)]);
    try {
      const error = await client.policiesV2.applyRemediationPolicies(1, {}, { ifMatch: "v1" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateVersionConflictError);
      expect(error).toMatchObject({ stateVersion: "v9" });
    } finally {
      await close();
    }
  });

  it("a 409 of a request without If-Match stays a plain ConflictError", async () => {
    const { client, close } = await scripted([(_req, res) => json(res, 409, { error: "conflict", state_version: "v9" })]);
    try {
      const error = await client.projects.addTags("acme", "acme/web-app", ["x"]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).not.toBeInstanceOf(StateVersionConflictError);
      expect((error as Error).message).not.toMatch(/state_version/);
    } finally {
      await close();
    }
  });

  it("428 (the If-Match did not reach the service): PreconditionRequiredError, saying what the apply needs", async () => {
    const { client, ifMatch, close } = await scripted([
      (_req, res) => json(res, 428, { error: "precondition required", code: "PRECONDITION_REQUIRED" }),
    ]);
    try {
      const error = await client.policiesV2.applyDetectionPolicy(1, "secrets", {}, { ifMatch: "v1" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PreconditionRequiredError);
      expect(error).toMatchObject({ status: 428, method: "PUT", path: `${PATH}/detection-policy/secrets`, attempts: 1 });
      expect((error as Error).message).toMatch(/needs the bundle's current state_version in the If-Match header/);
      expect(ifMatch).toEqual(["v1"]);
    } finally {
      await close();
    }
  });

  it("404 PRODUCT_NOT_ENABLED: ProductNotEnabledError (a NotFoundError), without the token hint of other 404s", async () => {
    const codeOnly = await startEmulator({ policiesV2: true, detectionProducts: ["code"] });
    const client = new SemgrepClient({ baseUrl: codeOnly.url, token: codeOnly.token, env: {} });
    try {
      for (const call of [
        () => client.policiesV2.getDetectionPolicy(1, "secrets"),
        () => client.policiesV2.dryRunDetectionPolicy(1, "secrets", {}),
        () => client.policiesV2.applyDetectionPolicy(1, "secrets", {}, { ifMatch: "v1" }),
        () => client.policiesV2.getVocab(1, { product: "secrets" }),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ProductNotEnabledError);
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ status: 404, code: "PRODUCT_NOT_ENABLED" });
        expect((error as Error).message).toMatch(/The product (secrets )?is not enabled for this deployment/);
        expect((error as Error).message).not.toMatch(/Web API/);
      }
      expect((await client.policiesV2.getDetectionPolicySummary(1)).secrets).toBeUndefined();
    } finally {
      await client.close();
      await codeOnly.close();
    }
    const { client: stubbed, close } = await scripted([
      (_req, res) => json(res, 404, { code: 5, message: "not enabled", details: [{ reason: "PRODUCT_NOT_ENABLED" }] }),
    ]);
    try {
      await expect(stubbed.policiesV2.getDetectionPolicy(1, "code")).rejects.toBeInstanceOf(ProductNotEnabledError);
    } finally {
      await close();
    }
  });

  it("409 RESERVED_SLUG: ReservedSlugError (a ConflictError, not a stale version), nothing applied", async () => {
    const v2 = env.client().policiesV2;
    const read = await v2.getRemediationPolicies(1);
    const taken = {
      slug: SYSTEM_REMEDIATION_SLUG,
      name: "Mine",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["high"] }] },
      actions: [{ type: "pr_comment" }],
    };
    const error = await v2
      .applyRemediationPolicies(
        1,
        { policies: [...read.bundle.policies.map(remediationPolicyInput), taken] },
        { ifMatch: read.state_version },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReservedSlugError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(StateVersionConflictError);
    expect(error).toMatchObject({ status: 409, code: "RESERVED_SLUG" });
    expect((error as Error).message).toMatch(
      /system-managed remediation policy, which no apply can create or change: choose another slug$/,
    );
    expect(await v2.getRemediationPolicies(1)).toEqual(read);
  });
});

describe("If-Match", () => {
  it("is sent on the applies, exactly as given, and on nothing else", async () => {
    const { client, ifMatch, stub, close } = await scripted([(_req, res) => json(res, 200, state("v2"))]);
    try {
      const v2 = client.policiesV2;
      await v2.applyDetectionPolicy(1, "code", { rules: ["a.b"] }, { ifMatch: '"a1b2c3d4"' });
      await v2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "d4c3b2a1" });
      await v2.getDetectionPolicy(1, "code");
      await v2.getRemediationPolicies(1);
      expect(ifMatch).toEqual(['"a1b2c3d4"', "d4c3b2a1", undefined, undefined]);
      expect(stub.received).toEqual([
        `PUT ${PATH}/detection-policy/code`,
        `PUT ${PATH}/remediation-policies`,
        `GET ${PATH}/detection-policy/code`,
        `GET ${PATH}/remediation-policies`,
      ]);
    } finally {
      await close();
    }
  });

  it("an apply without one, or with an empty one, is refused before any request", async () => {
    const v2 = env.client().policiesV2;
    for (const options of [undefined, {}, { ifMatch: "" }, { ifMatch: "a\r\nX-Injected: 1" }]) {
      const error = await v2.applyDetectionPolicy(1, "code", {}, options as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as Error).message).toMatch(/ifMatch: must/);
    }
    expect(env.requests()).toEqual([]);
  });
});

describe("bad input is refused before any request, naming the field", () => {
  const cases: Array<[string, (c: SemgrepClient) => Promise<unknown>, RegExp]> = [
    ["a deployment slug for the id", (c) => c.policiesV2.getDetectionPolicySummary("acme"), /\(value\): must be a numeric id/],
    ["a product that has no detection policy", (c) => c.policiesV2.getDetectionPolicy(1, "sca" as never), /must be one of code, secrets/],
    [
      "an unknown vocabulary product",
      (c) => c.policiesV2.getVocab(1, { product: "sca" as never }),
      /product: must be one of code, secrets, remediation/,
    ],
    [
      "a camelCase field (the v2 JSON is snake_case)",
      (c) => c.policiesV2.dryRunDetectionPolicy(1, "code", { exceptions: [{ exceptionType: "exclude" }] } as never),
      /Unrecognized key: "exceptionType"/,
    ],
    [
      "an exception without its rule_type",
      (c) => c.policiesV2.dryRunDetectionPolicy(1, "code", { exceptions: [{ exception_type: "exclude", rule: "a.b" }] } as never),
      /bundle\.exceptions\.0\.rule_type/,
    ],
    [
      "a policy without filters",
      (c) => c.policiesV2.dryRunRemediationPolicies(1, { policies: [{ name: "x", actions: [] }] } as never),
      /bundle\.policies\.0\.filters/,
    ],
  ];
  it.each(cases)("%s", async (_name, call, message) => {
    const error = await call(env.client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(message);
    expect(env.requests()).toEqual([]);
  });

  it("the rules stated in prose are left to the service's dry run, which reports them all", async () => {
    const dry = await env.client().policiesV2.dryRunDetectionPolicy(1, "secrets", {
      rulesets: ["p/default"],
      exceptions: [{ exception_type: "skip", rule: "a.b", rule_type: "rule" }],
    });
    expect(dry.validation_errors.map((e) => e.code)).toEqual(["RULESETS_NOT_ACCEPTED", "INVALID_ENUM_VALUE", "INVALID_EXCEPTION_SCOPE"]);
  });
});

describe("per-call options", () => {
  it("maxRetries of an apply: no retry with 0, and the 503 is the error", async () => {
    const v2 = env.client().policiesV2;
    const { state_version } = await v2.getDetectionPolicy(1, "code");
    env.emulator.setFaults({ faultRate: 1, kinds: ["503"], operations: ["policiesV2.applyDetectionPolicy"] });
    const error = await v2.applyDetectionPolicy(1, "code", {}, { ifMatch: state_version, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(env.requests("policiesV2.applyDetectionPolicy")).toHaveLength(1);
    await v2.applyDetectionPolicy(1, "code", {}, { ifMatch: state_version, maxRetries: 2 }).catch(() => undefined);
    expect(env.requests("policiesV2.applyDetectionPolicy")).toHaveLength(4);
  });

  it("signal and timeoutMs of every kind of call", async () => {
    const v2 = env.client().policiesV2;
    const aborted = AbortSignal.abort();
    for (const call of [
      () => v2.getRemediationPolicies(1, { signal: aborted }),
      () => v2.dryRunRemediationPolicies(1, {}, { signal: aborted }),
      () => v2.applyRemediationPolicies(1, {}, { ifMatch: "x", signal: aborted }),
      () => v2.getVocab(1, {}, { signal: aborted }),
    ])
      await expect(call()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(env.requests()).toEqual([]);
    env.emulator.setFaults({ latencyMs: 500 });
    const error = await v2.getDetectionPolicySummary(1, { timeoutMs: 50, maxRetries: 0 }).catch((e: unknown) => e);
    expect((error as Error).name).toBe("APIConnectionTimeoutError");
    const refused = await v2.applyRemediationPolicies(1, {}, { ifMatch: "x", maxRetries: -1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as Error).message).toMatch(/options\.maxRetries/);
  });
});

describe("retries of an apply", () => {
  it("are sent with the same If-Match after a 503", async () => {
    const { client, ifMatch, close } = await scripted([
      (_req, res) => res.writeHead(503, { "content-type": "text/html" }).end("<html>busy</html>"),
      (_req, res) => json(res, 200, state("v2")),
    ]);
    try {
      expect(await client.policiesV2.applyDetectionPolicy(1, "code", {}, { ifMatch: "v1" })).toMatchObject({ state_version: "v2" });
      expect(ifMatch).toEqual(["v1", "v1"]);
    } finally {
      await close();
    }
  });

  it("a 409 after a lost answer, when a dry run finds the bundle is the one sent: the apply succeeded (the bundle read back)", async () => {
    const v2 = env.client().policiesV2;
    const read = await v2.getDetectionPolicy(1, "code");
    env.emulator.setFaults({ faultRate: 1, kinds: ["lost"], operations: ["policiesV2.applyDetectionPolicy"], maxFaults: 1 });
    const wanted = { ...detectionBundleInput(read.bundle), rules: ["acme.applied-once"] };
    const applied = await v2.applyDetectionPolicy(1, "code", wanted, { ifMatch: read.state_version });
    expect(applied.bundle.rules).toEqual(["acme.applied-once"]);
    expect(applied).toEqual(await v2.getDetectionPolicy(1, "code"));
    expect(env.requests().map((r) => `${r.operation} ${r.status}${r.fault ? ` ${r.fault}` : ""}`)).toEqual([
      "policiesV2.getDetectionPolicy 200",
      "policiesV2.applyDetectionPolicy 200 lost",
      "policiesV2.applyDetectionPolicy 409",
      "policiesV2.dryRunDetectionPolicy 200",
      "policiesV2.getDetectionPolicy 200",
      "policiesV2.getDetectionPolicy 200",
    ]);
  });

  it("a 409 after a lost answer, when the bundle in place is another: StateVersionConflictError, marked mayHaveApplied", async () => {
    const dryRunWithChanges = {
      creates: [],
      updates: [{ kind: "RemediationPolicy", key: { slug: "x" } }],
      deletes: [],
      state_version: "v3",
    };
    const { client, stub, close } = await scripted([
      (req) => req.socket.destroy(),
      (_req, res) => json(res, 409, { error: "stale", code: "STALE_STATE_VERSION", state_version: "v3" }),
      (_req, res) => json(res, 200, dryRunWithChanges),
    ]);
    try {
      const error = await client.policiesV2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "v1" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateVersionConflictError);
      expect(error).toMatchObject({ stateVersion: "v3", mayHaveApplied: true, attempts: 2 });
      expect((error as Error).message).toMatch(
        /The request may have reached the service before it failed: an earlier attempt may have applied the bundle \(never over a newer one: the apply is guarded by If-Match\)$/,
      );
      expect(stub.received).toEqual([
        `PUT ${PATH}/remediation-policies`,
        `PUT ${PATH}/remediation-policies`,
        `POST ${PATH}/remediation-policies:dryRun`,
      ]);
    } finally {
      await close();
    }
  });
});

describe("the live service's error codes (docs/live-service.md, 'From real clients'); the older names accepted", () => {
  /** The error a scripted answer to an apply gives. */
  async function applyMeeting(status: number, body: object) {
    const { client, close } = await scripted([(_req, res) => json(res, status, body)]);
    try {
      return (await client.policiesV2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "v1" }).catch((e: unknown) => e)) as Error;
    } finally {
      await close();
    }
  }

  it.each([
    ["STATE_VERSION_MISMATCH with current_state_version", { code: "STATE_VERSION_MISMATCH", current_state_version: "v7" }],
    [
      "STATE_VERSION_MISMATCH with the version in a gRPC details entry",
      { code: "STATE_VERSION_MISMATCH", details: [{ metadata: { current_state_version: "v7" } }] },
    ],
    ["the older STALE_STATE_VERSION with state_version", { code: "STALE_STATE_VERSION", state_version: "v7" }],
  ])("409 %s: StateVersionConflictError carrying the current version", async (_name, body) => {
    const error = await applyMeeting(409, { error: "state version mismatch", ...body });
    expect(error).toBeInstanceOf(StateVersionConflictError);
    expect(error).toMatchObject({ currentStateVersion: "v7", stateVersion: "v7", status: 409 });
    expect(error.message).toContain("(current state_version: v7)");
  });

  it.each([
    ["IF_MATCH_REQUIRED", "IF_MATCH_REQUIRED"],
    ["the older PRECONDITION_REQUIRED", "PRECONDITION_REQUIRED"],
  ])("428 %s: PreconditionRequiredError", async (_name, code) => {
    const error = await applyMeeting(428, { error: "If-Match header required", code });
    expect(error).toBeInstanceOf(PreconditionRequiredError);
    expect(error.message).toMatch(/needs the bundle's current state_version in the If-Match header/);
  });

  it.each([
    ["MISSING_DEPENDENT_ACTION", "MISSING_DEPENDENT_ACTION"],
    ["the older MISSING_COMPANION_ACTION", "MISSING_COMPANION_ACTION"],
  ])("400 %s: MissingDependentActionError naming the companion", async (_name, code) => {
    const error = await applyMeeting(400, {
      error: "",
      code,
      missing_companion: "pr_comment",
      action_type: "block",
      policy_slug: "block-criticals",
    });
    expect(error).toBeInstanceOf(MissingDependentActionError);
    expect(error).toMatchObject({ missingCompanion: "pr_comment", actionType: "block", policySlug: "block-criticals", status: 400, code });
    expect(error.message).toContain("(a block action needs a pr_comment action in the same policy; remediation policy block-criticals)");
    expect(error.message).toMatch(/Add the companion action to the same remediation policy/);
  });

  it.each([
    [
      "a list of {type, value, field}",
      [{ type: "project", value: "acme/web-ap", field: "exceptions[0].project" }],
      [{ type: "project", value: "acme/web-ap", field: "exceptions[0].project" }],
      'project "acme/web-ap" (exceptions[0].project)',
    ],
    ["a list of names", ["acme/web-ap", "p/nope"], [{ value: "acme/web-ap" }, { value: "p/nope" }], '"acme/web-ap", "p/nope"'],
    [
      "a map from type to names",
      { project: ["acme/web-ap"], ruleset: ["p/nope"] },
      [
        { type: "project", value: "acme/web-ap" },
        { type: "ruleset", value: "p/nope" },
      ],
      'project "acme/web-ap", ruleset "p/nope"',
    ],
    ["objects with kind and name", [{ kind: "project_tag", name: "pci" }], [{ type: "project_tag", value: "pci" }], 'project tag "pci"'],
  ])("400 UNKNOWN_REFERENCE with missing_references as %s: UnknownReferenceError naming each", async (_name, missing, expected, named) => {
    const error = await applyMeeting(400, { error: "unknown reference", code: "UNKNOWN_REFERENCE", missing_references: missing });
    expect(error).toBeInstanceOf(UnknownReferenceError);
    expect((error as UnknownReferenceError).missingReferences).toEqual(expected);
    expect(error.message).toContain(`: unknown reference (missing: ${named})`);
    expect(error.message).toMatch(/The bundle names something this deployment does not have/);
  });

  it("409 RESERVED_SLUG with a policy_slug; 404 PRODUCT_NOT_ENABLED without a message still says what is wrong", async () => {
    const reserved = await applyMeeting(409, { code: "RESERVED_SLUG", policy_slug: "semgrep-default" });
    expect(reserved).toBeInstanceOf(ReservedSlugError);
    expect(reserved).not.toBeInstanceOf(StateVersionConflictError);
    expect(reserved.message).toContain("→ 409): RESERVED_SLUG (remediation policy semgrep-default)");
    const { client, close } = await scripted([(_req, res) => json(res, 404, { code: "PRODUCT_NOT_ENABLED" })]);
    try {
      const error = (await client.policiesV2.getDetectionPolicy(1, "secrets").catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(ProductNotEnabledError);
      expect(error.message).toBe(
        `Semgrep API policiesV2.getDetectionPolicy failed (GET ${PATH}/detection-policy/secrets → 404): PRODUCT_NOT_ENABLED. ` +
          "The product secrets is not enabled for this deployment: the detection policy summary " +
          "(GET /api/policies/v2/deployments/{deploymentId}/detection-policy) lists the products it has",
      );
    } finally {
      await close();
    }
  });

  it("a refused dry run (400 + code, no validation_errors) is the typed error; a clean one without state_version parses", async () => {
    const { client, close } = await scripted([
      (_req, res) =>
        json(res, 400, { error: "unknown reference", code: "UNKNOWN_REFERENCE", missing_references: [{ type: "project", value: "x/y" }] }),
      (_req, res) => json(res, 200, { creates: [], updates: [], deletes: [] }),
    ]);
    try {
      const refused = await client.policiesV2.dryRunDetectionPolicy(1, "code", {}).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UnknownReferenceError);
      expect(refused).toMatchObject({ missingReferences: [{ type: "project", value: "x/y" }], validationErrors: [] });
      const clean = await client.policiesV2.dryRunDetectionPolicy(1, "code", {});
      expect(clean).toEqual({ creates: [], updates: [], deletes: [], state_version: undefined, validation_errors: [] });
    } finally {
      await close();
    }
  });

  it("a 409 after a lost answer, confirmed by a clean dry run without state_version: the read must be of the 409's current_state_version", async () => {
    const { client, stub, close } = await scripted([
      (req) => req.socket.destroy(),
      (_req, res) => json(res, 409, { code: "STATE_VERSION_MISMATCH", current_state_version: "v2" }),
      (_req, res) => json(res, 200, { creates: [], updates: [], deletes: [] }),
      (_req, res) => json(res, 200, state("v2", { deployment_slug: "acme", policies: [] })),
    ]);
    try {
      const applied = await client.policiesV2.applyRemediationPolicies(1, { policies: [] }, { ifMatch: "v1" });
      expect(applied.state_version).toBe("v2");
      expect(stub.received).toEqual([
        `PUT ${PATH}/remediation-policies`,
        `PUT ${PATH}/remediation-policies`,
        `POST ${PATH}/remediation-policies:dryRun`,
        `GET ${PATH}/remediation-policies`,
      ]);
    } finally {
      await close();
    }
  });
});

describe("the prose rules without a request (detectionBundleProblems, remediationBundleProblems)", () => {
  it("name the field of each problem, in bundle order", () => {
    expect(
      detectionBundleProblems("code", {
        product: "code",
        rules: ["a.b", " "],
        exceptions: [
          { exception_type: "exclude", project: "acme/web-app", rule: "a.b", rule_type: "rule" },
          { exception_type: "exclude", project: "acme/web-app", rule: "a.b", rule_type: "rule" },
        ],
      }).map((p) => p.message),
    ).toEqual(["rules[1]: must not be empty", "exceptions[1]: repeats the exception of acme/web-app for rule a.b"]);
    expect(detectionBundleProblems("secrets", { rulesets: [] })).toEqual([]);
    expect(
      remediationBundleProblems({
        policies: [
          {
            name: "Block it",
            filters: { mode: "all", conditions: [{ type: "severity", values: ["high"], mode: "none" }] },
            actions: [{ type: "block" }, { type: "pr_comment" }],
          },
          {
            name: "???",
            filters: { mode: "any", conditions: [{ type: "rule", values: ["a.b"] }] },
            actions: [{ type: "jira", config: { project_id: "S", credential_slug: "j" } }],
          },
        ],
      }).map((p) => `${p.policy_slug} ${p.code}`),
    ).toEqual([" INVALID_SLUG"]);
    // The live code of a missing companion (never the older MISSING_COMPANION_ACTION), naming it.
    expect(
      remediationBundleProblems({
        policies: [
          { name: "Block", filters: { mode: "all", conditions: [{ type: "severity", values: ["high"] }] }, actions: [{ type: "block" }] },
        ],
      }),
    ).toEqual([
      {
        code: "MISSING_DEPENDENT_ACTION",
        message: "policies[0].actions[0].type: a block action needs a pr_comment action in the same policy",
        policy_slug: "block",
        context: { field: "policies[0].actions[0].type", action_type: "block", missing_companion: "pr_comment" },
      },
    ]);
  });

  it("derive a slug from a name as the service does", () => {
    expect(slugFromName("Block high-confidence criticals")).toBe("block-high-confidence-criticals");
    expect(slugFromName("  PCI: Jira / Slack!! ")).toBe("pci-jira-slack");
  });
});

/**
 * The emulator's Policies V2 operations straight over HTTP, as Semgrep's v2 OpenAPI describes them:
 * strict atomic applies guarded by If-Match (428, 409 with the current state_version), the
 * state_version as a content fingerprint, dry runs with every validation error at once,
 * PRODUCT_NOT_ENABLED, system-managed remediation policies and their reserved slugs, the
 * vocabulary, the presets, persistence; and 403 DEPLOYMENT_NOT_MIGRATED on every operation of a
 * deployment not migrated to unified policies (an emulator started without `policiesV2`).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPreset, type RunningEmulator, startEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo", policiesV2: true });
const BASE = "/api/policies/v2/deployments/1";

interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: string; code?: string; state_version?: string };
}

async function call(
  method: string,
  path: string,
  options: { body?: unknown; ifMatch?: string; on?: RunningEmulator } = {},
): Promise<Answer> {
  const emulator = options.on ?? env.emulator;
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.token}` };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.ifMatch !== undefined) headers["if-match"] = options.ifMatch;
  const response = await fetch(emulator.url + BASE + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

interface Bundle {
  rulesets: string[];
  rules: string[];
  disabled: string[];
  exceptions: Array<Record<string, string>>;
  product: string;
  deployment_slug: string;
}
interface Policy {
  slug: string;
  name: string;
  description: string;
  active: boolean;
  filters: { mode: string; conditions: Array<{ type: string; values: string[]; mode: string }> };
  actions: Array<{ type: string; config: Record<string, string> }>;
}

async function read(product: "code" | "secrets" = "code"): Promise<{ bundle: Bundle; state_version: string }> {
  const answer = await call("GET", `/detection-policy/${product}`);
  expect(answer.status).toBe(200);
  return answer.body as unknown as { bundle: Bundle; state_version: string };
}

async function readRemediation(): Promise<{ bundle: { policies: Policy[] }; state_version: string }> {
  const answer = await call("GET", "/remediation-policies");
  expect(answer.status).toBe(200);
  return answer.body as unknown as { bundle: { policies: Policy[] }; state_version: string };
}

const policy = (slug: string, overrides: Record<string, unknown> = {}) => ({
  slug,
  name: `Policy ${slug}`,
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "pr_comment" }],
  ...overrides,
});

describe("strict apply", () => {
  it("replaces the whole detection bundle: fields left out are cleared, exceptions left out deleted", async () => {
    const { state_version } = await read();
    const answer = await call("PUT", "/detection-policy/code", { ifMatch: state_version, body: { bundle: { rulesets: ["p/default"] } } });
    expect(answer.status).toBe(200);
    expect(answer.body.bundle).toEqual({
      deployment_slug: "acme",
      product: "code",
      rulesets: ["p/default"],
      rules: [],
      disabled: [],
      exceptions: [],
    });
    expect((await read()).bundle).toEqual(answer.body.bundle);
    expect(answer.body.state_version).toBe((await read()).state_version);
  });

  it("replaces the whole remediation list: policies left out are deleted, fields left out cleared to their defaults", async () => {
    const before = await readRemediation();
    const kept = before.bundle.policies.find((p) => p.slug === "pci-findings-to-jira")!;
    expect(kept).toMatchObject({ active: false, description: expect.stringMatching(/./) });
    const { description: _d, active: _a, ...rest } = kept;
    const answer = await call("PUT", "/remediation-policies", { ifMatch: before.state_version, body: { bundle: { policies: [rest] } } });
    expect(answer.status).toBe(200);
    const after = await readRemediation();
    expect(after.bundle.policies).toEqual([{ ...kept, description: "", active: true }]);
    // The system-managed policy is untouched by the apply, and still never shown.
    const system = env.emulator.state().remediationPolicies.filter((p) => p.systemManaged);
    expect(system.map((p) => p.slug)).toEqual([SYSTEM_REMEDIATION_SLUG]);
  });

  it("derives a slug left out from the name; a policy renamed under its slug is one update", async () => {
    const { state_version, bundle } = await readRemediation();
    const renamed = bundle.policies.map((p) => (p.slug === "comment-high-severity" ? { ...p, name: "Comment on highs" } : p));
    const fresh = {
      name: "Triage Low Confidence!",
      filters: { mode: "all", conditions: [{ type: "confidence", values: ["low"] }] },
      actions: [{ type: "triage" }],
    };
    const dry = await call("POST", "/remediation-policies:dryRun", { body: { bundle: { policies: [...renamed, fresh] } } });
    expect(dry.body).toMatchObject({
      creates: [{ kind: "RemediationPolicy", key: { slug: "triage-low-confidence" } }],
      updates: [
        {
          key: { slug: "comment-high-severity" },
          before: { name: "Comment on high-severity findings" },
          after: { name: "Comment on highs" },
        },
      ],
      deletes: [],
      validation_errors: [],
    });
    const applied = await call("PUT", "/remediation-policies", {
      ifMatch: state_version,
      body: { bundle: { policies: [...renamed, fresh] } },
    });
    expect((applied.body.bundle as { policies: Policy[] }).policies.map((p) => p.slug)).toContain("triage-low-confidence");
  });
});

describe("If-Match", () => {
  it("an apply without it: 428, nothing changed", async () => {
    const before = await read();
    const answer = await call("PUT", "/detection-policy/code", { body: { bundle: {} } });
    expect(answer).toMatchObject({ status: 428, body: { code: "IF_MATCH_REQUIRED" } });
    const remediation = await readRemediation();
    expect(await call("PUT", "/remediation-policies", { body: { bundle: {} } })).toMatchObject({ status: 428 });
    expect(await read()).toEqual(before);
    expect(await readRemediation()).toEqual(remediation);
  });

  it("a stale one: 409 with the current state_version, nothing changed; the quoted entity-tag form is accepted", async () => {
    const before = await read();
    const stale = await call("PUT", "/detection-policy/code", { ifMatch: "0123456789abcdef", body: { bundle: {} } });
    expect(stale).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH", current_state_version: before.state_version } });
    expect(stale.body).not.toHaveProperty("state_version");
    expect(await read()).toEqual(before);
    const quoted = await call("PUT", "/detection-policy/code", {
      ifMatch: `"${before.state_version}"`,
      body: { bundle: { ...before.bundle, rules: [] } },
    });
    expect(quoted.status).toBe(200);
    const remediation = await readRemediation();
    const staleRemediation = await call("PUT", "/remediation-policies", { ifMatch: before.state_version, body: { bundle: {} } });
    expect(staleRemediation).toMatchObject({ status: 409, body: { current_state_version: remediation.state_version } });
  });

  it("concurrent applies with the same If-Match: exactly one wins, the others get 409 with the winner's state_version", async () => {
    const { state_version, bundle } = await read();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call("PUT", "/detection-policy/code", { ifMatch: state_version, body: { bundle: { ...bundle, rules: [`acme.rule-${i}`] } } }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    const after = await read();
    expect(after.bundle.rules).toEqual((winners[0]!.body.bundle as Bundle).rules);
    for (const loser of answers.filter((a) => a.status !== 200))
      expect(loser).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH", current_state_version: after.state_version } });
    const remediation = await readRemediation();
    const slugs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call("PUT", "/remediation-policies", {
          ifMatch: remediation.state_version,
          body: { bundle: { policies: [...remediation.bundle.policies, policy(`parallel-${i}`)] } },
        }),
      ),
    );
    expect(slugs.filter((a) => a.status === 200)).toHaveLength(1);
    expect((await readRemediation()).bundle.policies).toHaveLength(remediation.bundle.policies.length + 1);
  });
});

describe("state_version", () => {
  it("changes only when the content changes: not for a resend, a reordering or repeats; back to the same value when the content is", async () => {
    const original = await read();
    const secrets = await read("secrets");
    const { deployment_slug: _s, ...content } = original.bundle;
    const reordered = {
      ...content,
      rulesets: [...content.rulesets].reverse(),
      disabled: [...content.disabled, content.disabled[0]!].reverse(),
      exceptions: [...content.exceptions].reverse(),
    };
    const resent = await call("PUT", "/detection-policy/code", { ifMatch: original.state_version, body: { bundle: reordered } });
    expect(resent.body).toEqual(original);
    expect(await call("POST", "/detection-policy/code:dryRun", { body: { bundle: reordered } })).toMatchObject({
      body: { creates: [], updates: [], deletes: [], state_version: original.state_version },
    });
    const changed = await call("PUT", "/detection-policy/code", {
      ifMatch: original.state_version,
      body: { bundle: { ...content, disabled: [...content.disabled, "acme.one-more"] } },
    });
    expect(changed.body.state_version).not.toBe(original.state_version);
    const back = await call("PUT", "/detection-policy/code", { ifMatch: changed.body.state_version, body: { bundle: content } });
    expect(back.body.state_version).toBe(original.state_version);
    // The secrets bundle has a version of its own, untouched.
    expect(await read("secrets")).toEqual(secrets);
  });

  it("of the remediation bundle: unchanged by a resend in another order, changed by any field of a policy", async () => {
    const original = await readRemediation();
    const reversed = [...original.bundle.policies].reverse();
    const resent = await call("PUT", "/remediation-policies", {
      ifMatch: original.state_version,
      body: { bundle: { policies: reversed } },
    });
    expect(resent.body.state_version).toBe(original.state_version);
    const toggled = original.bundle.policies.map((p, i) => (i === 0 ? { ...p, active: !p.active } : p));
    const changed = await call("PUT", "/remediation-policies", {
      ifMatch: original.state_version,
      body: { bundle: { policies: toggled } },
    });
    expect(changed.body.state_version).not.toBe(original.state_version);
  });

  it("a dry run answers the state_version it was computed against and changes nothing", async () => {
    const before = await read();
    const dry = await call("POST", "/detection-policy/code:dryRun", { body: { bundle: { rulesets: ["p/xss"] } } });
    expect(dry.body).toMatchObject({
      state_version: before.state_version,
      updates: [{ kind: "DetectionPolicy", key: { product: "code" }, after: { rulesets: ["p/xss"], rules: [], disabled: [] } }],
    });
    expect((dry.body.deletes as unknown[]).length).toBe(before.bundle.exceptions.length);
    expect(await read()).toEqual(before);
  });
});

describe("dry runs report every validation error at once", () => {
  it("of a detection bundle, with an empty diff; the apply of the same bundle fails with the first error's code", async () => {
    const bundle = {
      product: "secrets",
      rulesets: ["p/default"],
      rules: [""],
      exceptions: [
        { exception_type: "skip", project: "acme/web-app", rule: "a.b", rule_type: "rule" },
        { exception_type: "exclude", project: "acme/web-app", project_tag_name: "pci", rule: "a.b", rule_type: "rules" },
        { exception_type: "exclude", rule: "a.b", rule_type: "rule" },
        { exception_type: "include", project: "acme/nope", rule: "p/x", rule_type: "pack" },
        { exception_type: "exclude", project_tag_name: "pci", rule: "p/x", rule_type: "pack" },
        { exception_type: "include", project_tag_name: "pci", rule: "p/x", rule_type: "pack" },
      ],
    };
    const before = await read("code");
    const dry = await call("POST", "/detection-policy/code:dryRun", { body: { bundle } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ creates: [], updates: [], deletes: [], state_version: before.state_version });
    const errors = dry.body.validation_errors as Array<{ code: string; context: Record<string, string> }>;
    expect(errors.map((e) => [e.code, e.context.field])).toEqual([
      ["PRODUCT_MISMATCH", "product"],
      ["EMPTY_VALUE", "rules[0]"],
      ["INVALID_ENUM_VALUE", "exceptions[0].exception_type"],
      ["INVALID_ENUM_VALUE", "exceptions[1].rule_type"],
      ["INVALID_EXCEPTION_SCOPE", "exceptions[1]"],
      ["INVALID_EXCEPTION_SCOPE", "exceptions[2]"],
      ["UNKNOWN_REFERENCE", "exceptions[3].project"],
      ["DUPLICATE_EXCEPTION", "exceptions[5]"],
    ]);
    const apply = await call("PUT", "/detection-policy/code", { ifMatch: before.state_version, body: { bundle } });
    expect(apply).toMatchObject({ status: 400, body: { code: "PRODUCT_MISMATCH", validation_errors: errors } });
    expect(await read("code")).toEqual(before);
  });

  it("a secrets bundle takes no rulesets", async () => {
    const dry = await call("POST", "/detection-policy/secrets:dryRun", { body: { bundle: { rulesets: ["p/secrets"] } } });
    expect(dry.body.validation_errors).toEqual([
      {
        code: "RULESETS_NOT_ACCEPTED",
        message: "rulesets: must be empty for secrets: secrets bundles take no rulesets",
        policy_slug: "",
        context: { field: "rulesets" },
      },
    ]);
  });

  it("of a remediation bundle, each error naming its policy", async () => {
    const { state_version } = await readRemediation();
    const bundle = {
      policies: [
        policy("blocks-alone", { actions: [{ type: "block" }] }),
        policy("Not A Slug"),
        policy("no-conditions", { filters: { mode: "every", conditions: [] } }),
        policy("bad-conditions", {
          filters: {
            mode: "any",
            conditions: [
              { type: "severity", values: ["urgent", "high"], mode: "all" },
              { type: "colour", values: ["red"], mode: "any" },
              { type: "repository_tag", values: [], mode: "any" },
            ],
          },
        }),
        policy("bad-actions", { actions: [{ type: "fax" }, { type: "jira", config: { project_id: "SEC" } }] }),
        policy("no-actions", { actions: [] }),
        policy(SYSTEM_REMEDIATION_SLUG),
        policy("blocks-alone"),
      ],
    };
    const dry = await call("POST", "/remediation-policies:dryRun", { body: { bundle } });
    expect(dry.body).toMatchObject({ creates: [], updates: [], deletes: [], state_version });
    const errors = dry.body.validation_errors as Array<{ code: string; policy_slug: string; context: Record<string, string> }>;
    expect(errors.map((e) => [e.policy_slug, e.code, e.context.field])).toEqual([
      ["blocks-alone", "MISSING_DEPENDENT_ACTION", "policies[0].actions[0].type"],
      ["Not A Slug", "INVALID_SLUG", "policies[1].slug"],
      ["no-conditions", "INVALID_ENUM_VALUE", "policies[2].filters.mode"],
      ["no-conditions", "NO_CONDITIONS", "policies[2].filters.conditions"],
      ["bad-conditions", "INVALID_ENUM_VALUE", "policies[3].filters.conditions[0].mode"],
      ["bad-conditions", "NO_CONDITION_VALUES", "policies[3].filters.conditions[2].values"],
      ["bad-conditions", "UNSUPPORTED_CONDITION_VALUE", "policies[3].filters.conditions[0].values[0]"],
      ["bad-conditions", "UNSUPPORTED_CONDITION_TYPE", "policies[3].filters.conditions[1].type"],
      ["bad-actions", "UNSUPPORTED_ACTION_TYPE", "policies[4].actions[0].type"],
      ["bad-actions", "MISSING_ACTION_CONFIG", "policies[4].actions[1].config.credential_slug"],
      ["no-actions", "NO_ACTIONS", "policies[5].actions"],
      [SYSTEM_REMEDIATION_SLUG, "RESERVED_SLUG", "policies[6].slug"],
      ["blocks-alone", "DUPLICATE_SLUG", "policies[7]"],
    ]);
    expect(errors[0]).toMatchObject({ context: { action_type: "block", missing_companion: "pr_comment" } });
    const apply = await call("PUT", "/remediation-policies", { ifMatch: state_version, body: { bundle } });
    expect(apply).toMatchObject({
      status: 400,
      body: { code: "MISSING_DEPENDENT_ACTION", policy_slug: "blocks-alone", action_type: "block", missing_companion: "pr_comment" },
    });
    expect((await readRemediation()).state_version).toBe(state_version);
  });

  it("a malformed body is refused with 400 (a wrong type, an undeclared field, a missing required field), not reported", async () => {
    for (const body of [
      { bundle: { rulesets: "p/default" } },
      { bundle: { exceptions: [{ exceptionType: "exclude", rule: "a", rule_type: "rule", exception_type: "exclude", project: "x" }] } },
      { bundle: { exceptions: [{ exception_type: "exclude", project: "acme/web-app", rule: "a" }] } },
      {},
    ]) {
      const answer = await call("POST", "/detection-policy/code:dryRun", { body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/invalid request/);
    }
  });
});

describe("the live service's codes and fields (docs/live-service.md, 'From real clients')", () => {
  it("UNKNOWN_REFERENCE: each missing project in validation_errors; the apply's 400 lists them all in missing_references", async () => {
    const before = await read();
    const bundle = {
      ...before.bundle,
      exceptions: [
        { exception_type: "exclude", project: "acme/web-ap", rule: "a.b", rule_type: "rule" },
        { exception_type: "exclude", project: "acme/web-app", rule: "a.b", rule_type: "rule" },
        { exception_type: "exclude", project: "acme/gone", rule: "a.b", rule_type: "rule" },
      ],
    };
    const dry = await call("POST", "/detection-policy/code:dryRun", { body: { bundle } });
    expect(dry).toMatchObject({ status: 200, body: { creates: [], state_version: before.state_version } });
    expect(dry.body.validation_errors).toEqual([
      {
        code: "UNKNOWN_REFERENCE",
        message: 'exceptions[0].project: no project "acme/web-ap" in this deployment',
        policy_slug: "",
        context: { field: "exceptions[0].project", reference_type: "project", missing_references: "acme/web-ap" },
      },
      {
        code: "UNKNOWN_REFERENCE",
        message: 'exceptions[2].project: no project "acme/gone" in this deployment',
        policy_slug: "",
        context: { field: "exceptions[2].project", reference_type: "project", missing_references: "acme/gone" },
      },
    ]);
    const apply = await call("PUT", "/detection-policy/code", { ifMatch: before.state_version, body: { bundle } });
    expect(apply).toMatchObject({ status: 400, body: { code: "UNKNOWN_REFERENCE", validation_errors: dry.body.validation_errors } });
    expect(apply.body.missing_references).toEqual([
      { type: "project", value: "acme/web-ap", field: "exceptions[0].project" },
      { type: "project", value: "acme/gone", field: "exceptions[2].project" },
    ]);
    expect(await read()).toEqual(before);
  });

  it("with dryRunRefusals: an invalid bundle's dry run is refused as its apply would be, without validation_errors; a clean one has no state_version", async () => {
    const refusing = await startEmulator({ policiesV2: true, dryRunRefusals: true });
    try {
      const code = (await call("GET", "/detection-policy/code", { on: refusing })).body as unknown as {
        bundle: Bundle;
        state_version: string;
      };
      const unknown = {
        ...code.bundle,
        exceptions: [{ exception_type: "exclude", project: "acme/web-ap", rule: "a.b", rule_type: "rule" }],
      };
      const refused = await call("POST", "/detection-policy/code:dryRun", { on: refusing, body: { bundle: unknown } });
      expect(refused).toEqual({
        status: 400,
        body: {
          error: 'invalid bundle: exceptions[0].project: no project "acme/web-ap" in this deployment',
          code: "UNKNOWN_REFERENCE",
          missing_references: [{ type: "project", value: "acme/web-ap", field: "exceptions[0].project" }],
        },
      });
      const clean = await call("POST", "/detection-policy/code:dryRun", {
        on: refusing,
        body: { bundle: { ...code.bundle, rules: ["a.b"] } },
      });
      expect(clean.status).toBe(200);
      expect(clean.body).toMatchObject({ updates: [{ kind: "DetectionPolicy" }], validation_errors: [] });
      expect(clean.body).not.toHaveProperty("state_version");
      const blocks = await call("POST", "/remediation-policies:dryRun", {
        on: refusing,
        body: { bundle: { policies: [policy("blocks-alone", { actions: [{ type: "block" }] })] } },
      });
      expect(blocks).toEqual({
        status: 400,
        body: {
          error: "invalid bundle: policies[0].actions[0].type: a block action needs a pr_comment action in the same policy",
          code: "MISSING_DEPENDENT_ACTION",
          policy_slug: "blocks-alone",
          action_type: "block",
          missing_companion: "pr_comment",
        },
      });
      const reserved = await call("POST", "/remediation-policies:dryRun", {
        on: refusing,
        body: { bundle: { policies: [policy(SYSTEM_REMEDIATION_SLUG)] } },
      });
      expect(reserved).toMatchObject({ status: 409, body: { code: "RESERVED_SLUG", policy_slug: SYSTEM_REMEDIATION_SLUG } });
      expect(reserved.body).not.toHaveProperty("validation_errors");
      expect(refusing.requests().filter((r) => r.method === "PUT")).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it("the concurrent-write fault: another client's apply lands just before an apply, which then meets 409 STATE_VERSION_MISMATCH", async () => {
    const before = await read();
    env.emulator.setFaults({ faultRate: 1, kinds: ["concurrent-write"], operations: ["policiesV2.applyDetectionPolicy"], maxFaults: 1 });
    const stale = await call("PUT", "/detection-policy/code", {
      ifMatch: before.state_version,
      body: { bundle: { ...before.bundle, rules: ["a.b"] } },
    });
    const after = await read();
    expect(stale).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH", current_state_version: after.state_version } });
    expect(after.bundle.rules).toEqual([...before.bundle.rules, "emulator.concurrent-write-0"].sort());
    const retried = await call("PUT", "/detection-policy/code", {
      ifMatch: after.state_version,
      body: { bundle: { ...after.bundle, rules: ["a.b"] } },
    });
    expect(retried.status).toBe(200);
    const remediation = await readRemediation();
    env.emulator.setFaults({ maxFaults: 1, operations: ["policiesV2.applyRemediationPolicies"] });
    const staleRemediation = await call("PUT", "/remediation-policies", {
      ifMatch: remediation.state_version,
      body: { bundle: remediation.bundle },
    });
    expect(staleRemediation).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH" } });
    expect((await readRemediation()).bundle.policies.map((p) => p.slug)).toContain("emulator-concurrent-write-0");
    expect(env.requests().map((r) => r.fault)).toContain("concurrent-write");
  });

  it("the concurrent-write fault without operations is drawn by the applies only: reads and dry runs neither use it up nor log it", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["concurrent-write"], operations: [], maxFaults: 1 });
    const before = await read();
    const dry = await call("POST", "/detection-policy/code:dryRun", { body: { bundle: before.bundle } });
    expect(dry.status).toBe(200);
    const stale = await call("PUT", "/detection-policy/code", { ifMatch: before.state_version, body: { bundle: before.bundle } });
    expect(stale).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH" } });
    expect(env.requests().map((r) => [r.operation, r.fault ?? null])).toEqual([
      ["policiesV2.getDetectionPolicy", null],
      ["policiesV2.dryRunDetectionPolicy", null],
      ["policiesV2.applyDetectionPolicy", "concurrent-write"],
    ]);
  });
});

describe("products", () => {
  it("a product the deployment lacks answers 404 PRODUCT_NOT_ENABLED on every operation, and is left out of the summary", async () => {
    const codeOnly = await startEmulator({ policiesV2: true, detectionProducts: ["code"] });
    try {
      const on = codeOnly;
      for (const [method, path, body] of [
        ["GET", "/detection-policy/secrets", undefined],
        ["PUT", "/detection-policy/secrets", { bundle: {} }],
        ["POST", "/detection-policy/secrets:dryRun", { bundle: {} }],
        ["GET", "/vocab?product=secrets", undefined],
      ] as const) {
        const answer = await call(method, path, { body, on, ifMatch: method === "PUT" ? "x" : undefined });
        expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: { code: "PRODUCT_NOT_ENABLED" } });
      }
      const summary = await call("GET", "/detection-policy", { on });
      expect(Object.keys(summary.body).sort()).toEqual(["code", "deployment_slug"]);
      expect((await call("GET", "/detection-policy/code", { on })).status).toBe(200);
    } finally {
      await codeOnly.close();
    }
  });

  it("a value that is no product answers 400; the summary has both products of the demo deployment", async () => {
    expect(await call("GET", "/detection-policy/sca")).toMatchObject({ status: 400 });
    expect(await call("GET", "/vocab?product=sca")).toMatchObject({ status: 400 });
    const summary = await call("GET", "/detection-policy");
    expect(summary.body).toMatchObject({
      deployment_slug: "acme",
      code: { bundle: { product: "code" } },
      secrets: { bundle: { product: "secrets" } },
    });
    expect((await call("GET", "/detection-policy/code")).body).toEqual(summary.body.code);
  });
});

describe("system-managed remediation policies", () => {
  it("never appear in the bundle or a diff, and reserve their slugs: an apply using one answers 409 RESERVED_SLUG", async () => {
    const { bundle, state_version } = await readRemediation();
    expect(bundle.policies.map((p) => p.slug)).not.toContain(SYSTEM_REMEDIATION_SLUG);
    const dry = await call("POST", "/remediation-policies:dryRun", { body: { bundle: { policies: [] } } });
    expect((dry.body.deletes as Array<{ key: { slug: string } }>).map((d) => d.key.slug).sort()).toEqual(
      bundle.policies.map((p) => p.slug).sort(),
    );
    for (const taken of [policy(SYSTEM_REMEDIATION_SLUG), { ...policy(""), slug: undefined, name: "Semgrep Assistant autotriage" }]) {
      const answer = await call("PUT", "/remediation-policies", { ifMatch: state_version, body: { bundle: { policies: [taken] } } });
      expect(answer).toMatchObject({ status: 409, body: { code: "RESERVED_SLUG" } });
    }
    const emptied = await call("PUT", "/remediation-policies", { ifMatch: state_version, body: { bundle: { policies: [] } } });
    expect(emptied.body.bundle).toEqual({ deployment_slug: "acme", policies: [] });
    expect(env.emulator.state().remediationPolicies.map((p) => p.slug)).toEqual([SYSTEM_REMEDIATION_SLUG]);
  });
});

describe("vocabulary", () => {
  it("without a product: condition and action types (block requires pr_comment), no value enums or constraints", async () => {
    const { body } = await call("GET", "/vocab");
    expect(body.action_types).toContainEqual(expect.objectContaining({ type: "block", requires: ["pr_comment"] }));
    expect((body.condition_types as Array<{ type: string }>).map((c) => c.type)).toEqual(
      expect.arrayContaining(["severity", "confidence", "repository_tag"]),
    );
    expect(body.value_enums).toEqual([]);
    expect(body).not.toHaveProperty("detection_constraints");
  });

  it("per product: remediation's value enums; code and secrets' constraints (rulesets only for code)", async () => {
    const remediation = await call("GET", "/vocab?product=remediation");
    expect(remediation.body.value_enums).toContainEqual({ type: "confidence", values: ["high", "medium", "low"] });
    expect(remediation.body).not.toHaveProperty("detection_constraints");
    const code = await call("GET", "/vocab?product=code");
    expect(code.body.detection_constraints).toEqual({
      rulesets_accepted: true,
      exception_types: ["include", "exclude"],
      rule_types: ["rule", "pack"],
    });
    expect((await call("GET", "/vocab?product=secrets")).body.detection_constraints).toMatchObject({ rulesets_accepted: false });
  });
});

describe("a deployment not migrated to unified policies (without --policies-v2)", () => {
  /** Every Policies V2 operation, as a client sends it. */
  const OPERATIONS = [
    ["GET", "/detection-policy", undefined],
    ["GET", "/detection-policy/code", undefined],
    ["PUT", "/detection-policy/code", { bundle: {} }],
    ["POST", "/detection-policy/code:dryRun", { bundle: {} }],
    ["GET", "/remediation-policies", undefined],
    ["PUT", "/remediation-policies", { bundle: { policies: [] } }],
    ["POST", "/remediation-policies:dryRun", { bundle: { policies: [] } }],
    ["GET", "/vocab", undefined],
    ["GET", "/vocab?product=remediation", undefined],
  ] as const;

  it("every Policies V2 operation answers exactly 403 DEPLOYMENT_NOT_MIGRATED, and changes nothing", async () => {
    const v1 = await startEmulator({ preset: "demo" });
    try {
      const before = structuredClone(v1.state());
      for (const [method, path, body] of OPERATIONS) {
        const answer = await call(method, path, { body, on: v1, ifMatch: method === "PUT" ? "x" : undefined });
        expect(answer, `${method} ${path}`).toEqual({
          status: 403,
          body: {
            error: expect.stringMatching(/not been migrated to Unified Policies.*started without --policies-v2/) as unknown,
            code: "DEPLOYMENT_NOT_MIGRATED",
          },
        });
      }
      expect(v1.state()).toEqual(before);
      expect(v1.requests().map((r) => `${r.operation} ${r.status}`)).toEqual(
        expect.arrayContaining([
          "policiesV2.getVocab 403",
          "policiesV2.applyDetectionPolicy 403",
          "policiesV2.dryRunRemediationPolicies 403",
        ]),
      );
      // Its v1 policy operations answer.
      const policies = await fetch(`${v1.url}/api/v1/deployments/1/policies`, { headers: { authorization: `Bearer ${v1.token}` } });
      expect(policies.status).toBe(200);
    } finally {
      await v1.close();
    }
  });

  it('a wrong token is still a 401, and with policiesV2: "both" both policy APIs answer', async () => {
    const v1 = await startEmulator({ preset: "demo", token: "right" });
    const both = await startEmulator({ preset: "demo", policiesV2: "both" });
    try {
      const unauthenticated = await fetch(`${v1.url}${BASE}/detection-policy`, { headers: { authorization: "Bearer wrong" } });
      expect(unauthenticated.status).toBe(401);
      for (const [method, path, body] of OPERATIONS.filter(([m]) => m !== "PUT"))
        expect((await call(method, path, { body, on: both })).status, `${method} ${path}`).toBe(200);
      const policies = await fetch(`${both.url}/api/v1/deployments/1/policies`, { headers: { authorization: `Bearer ${both.token}` } });
      expect(policies.status).toBe(200);
    } finally {
      await Promise.all([v1.close(), both.close()]);
    }
  });
});

describe("presets, flags and persistence", () => {
  it("demo: a realistic code bundle, a secrets bundle, remediation policies and one system-managed policy", () => {
    const demo = buildPreset("demo");
    const code = demo.detectionPolicies.find((p) => p.product === "code")!;
    expect(code.rulesets).toContain("p/default");
    expect(code.rulesets.length).toBeGreaterThanOrEqual(2);
    expect(code.disabled.length).toBeGreaterThanOrEqual(2);
    const sast = new Set(demo.policies.flatMap((p) => p.rules.map((r) => r.path)));
    for (const path of code.disabled) expect(sast).toContain(path);
    expect(code.exceptions.some((e) => e.project)).toBe(true);
    expect(code.exceptions.some((e) => e.projectTagName)).toBe(true);
    const secrets = demo.detectionPolicies.find((p) => p.product === "secrets")!;
    expect(secrets.rulesets).toEqual([]);
    expect(demo.remediationPolicies.filter((p) => !p.systemManaged).length).toBeGreaterThanOrEqual(3);
    expect(demo.remediationPolicies.filter((p) => p.systemManaged)).toHaveLength(1);
    expect(demo.remediationPolicies.some((p) => p.actions.some((a) => a.type === "block"))).toBe(true);
  });

  it("large: a code bundle with 5,000 disabled rules, read and applied back unchanged", async () => {
    expect(buildPreset("large").detectionPolicies.find((p) => p.product === "code")!.disabled).toHaveLength(5000);
    const large = await startEmulator({ preset: "large", policiesV2: true });
    try {
      const read = await call("GET", "/detection-policy/code", { on: large });
      const { bundle, state_version } = read.body as unknown as { bundle: Bundle; state_version: string };
      expect(bundle.disabled).toHaveLength(5000);
      const applied = await call("PUT", "/detection-policy/code", { on: large, ifMatch: state_version, body: { bundle } });
      expect(applied.body.state_version).toBe(state_version);
    } finally {
      await large.close();
    }
  });

  it("--omit-empty leaves out false, empty strings and empty maps", async () => {
    const migrated = await startEmulator({ policiesV2: true, omitEmpty: true });
    try {
      const { status, body } = await call("GET", "/remediation-policies", { on: migrated });
      expect(status).toBe(200);
      const policies = (body.bundle as { policies: Array<Record<string, unknown>> }).policies;
      const paused = policies.find((p) => p.slug === "pci-findings-to-jira")!;
      expect(paused).not.toHaveProperty("active");
      const commenting = policies.find((p) => p.slug === "comment-high-severity")!;
      expect(commenting).not.toHaveProperty("description");
      expect(commenting.actions).toEqual([{ type: "pr_comment" }]);
      const secrets = await call("GET", "/detection-policy/secrets", { on: migrated });
      expect(secrets.body.bundle).not.toHaveProperty("rulesets");
    } finally {
      await migrated.close();
    }
  });

  it("persists applies to --data, and gives a state file from before Policies V2 the preset's bundles", async () => {
    const dir = mkdtempSync(join(tmpdir(), "semgrep-v2-"));
    const file = join(dir, "state.json");
    const first = await startEmulator({ dataFile: file, policiesV2: true });
    const { state_version, bundle } = (await call("GET", "/detection-policy/code", { on: first })).body as unknown as {
      state_version: string;
      bundle: Bundle;
    };
    await call("PUT", "/detection-policy/code", {
      on: first,
      ifMatch: state_version,
      body: { bundle: { ...bundle, rules: ["acme.persisted"] } },
    });
    await first.close();
    const second = await startEmulator({ dataFile: file, policiesV2: true });
    try {
      expect(((await call("GET", "/detection-policy/code", { on: second })).body.bundle as Bundle).rules).toEqual(["acme.persisted"]);
    } finally {
      await second.close();
    }
    const old = join(dir, "old.json");
    const { detectionPolicies: _d, remediationPolicies: _r, ...before } = buildPreset("demo");
    writeFileSync(old, JSON.stringify(before));
    const third = await startEmulator({ dataFile: old, policiesV2: true });
    try {
      expect((await call("GET", "/detection-policy/code", { on: third })).status).toBe(200);
    } finally {
      await third.close();
    }
  });
});

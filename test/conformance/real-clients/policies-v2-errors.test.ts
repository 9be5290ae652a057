/**
 * The "real clients" tier, Policies V2 errors and dry runs: requests in the forms public clients
 * of the live service send (a GitOps reconciler of Policies V2: read a bundle, dry-run the
 * candidate, apply it with `If-Match: <state_version>`, map the error codes it meets), replayed
 * straight over HTTP against the emulator of a migrated deployment, asserting the live codes and
 * fields (docs/live-service.md, "From real clients"): 409 `STATE_VERSION_MISMATCH` with
 * `current_state_version`, 428 `IF_MATCH_REQUIRED`, 400 `MISSING_DEPENDENT_ACTION` with
 * `missing_companion`, 400 `UNKNOWN_REFERENCE` with `missing_references`, 409 `RESERVED_SLUG`,
 * 404 `PRODUCT_NOT_ENABLED`; and both forms of a dry run (`dryRunRefusals`: an invalid bundle
 * refused with 400 and a code, a clean dry run without `state_version`). The older names of these
 * codes are never answered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator, SYSTEM_REMEDIATION_SLUG } from "../../../provider/emulator";

const BASE = "/api/policies/v2/deployments/1";
const OLDER_NAMES = ["STALE_STATE_VERSION", "PRECONDITION_REQUIRED", "MISSING_COMPANION_ACTION"];

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Every answer of the file, to check no older code name is ever answered. */
const answered: Answer[] = [];

/** A request as a reconciler sends it: bearer token, JSON body, If-Match as the bare state_version. */
async function send(emulator: RunningEmulator, method: string, path: string, body?: unknown, ifMatch?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.token}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (ifMatch !== undefined) headers["if-match"] = ifMatch;
  const response = await fetch(emulator.url + BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = { status: response.status, body: (await response.json()) as Record<string, unknown> };
  answered.push(answer);
  return answer;
}

type Bundle = Record<string, unknown> & { policies?: Array<Record<string, unknown>>; exceptions?: Array<Record<string, unknown>> };
const read = async (emulator: RunningEmulator, path: string) =>
  (await send(emulator, "GET", path)).body as { bundle: Bundle; state_version: string };

const blockOnly = {
  slug: "block-criticals",
  name: "Block criticals",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "block" }],
};
const unknownProject = { exception_type: "exclude", project: "acme/does-not-exist", rule: "a.b", rule_type: "rule" };

describe("Policies V2 errors as real clients meet them (migrated deployment, 200 + validation_errors dry runs)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: true });
  });
  afterAll(() => emulator.close());

  it("an apply without If-Match: 428 IF_MATCH_REQUIRED", async () => {
    const { bundle } = await read(emulator, "/detection-policy/code");
    expect(await send(emulator, "PUT", "/detection-policy/code", { bundle })).toMatchObject({
      status: 428,
      body: { code: "IF_MATCH_REQUIRED" },
    });
  });

  it("a stale If-Match: 409 STATE_VERSION_MISMATCH with current_state_version, which a reconciler applies with next", async () => {
    const { bundle, state_version } = await read(emulator, "/detection-policy/code");
    const changed = { ...bundle, rules: ["acme.reconciled"] };
    const stale = await send(emulator, "PUT", "/detection-policy/code", { bundle: changed }, "0000000000000000");
    expect(stale).toMatchObject({ status: 409, body: { code: "STATE_VERSION_MISMATCH", current_state_version: state_version } });
    const retried = await send(emulator, "PUT", "/detection-policy/code", { bundle: changed }, stale.body.current_state_version as string);
    expect(retried).toMatchObject({ status: 200, body: { bundle: { rules: ["acme.reconciled"] } } });
  });

  it("block without pr_comment: the dry run's validation_errors name the companion; the apply is 400 MISSING_DEPENDENT_ACTION with missing_companion", async () => {
    const { bundle, state_version } = await read(emulator, "/remediation-policies");
    const candidate = { policies: [...(bundle.policies ?? []), blockOnly] };
    const dry = await send(emulator, "POST", "/remediation-policies:dryRun", { bundle: candidate });
    expect(dry).toMatchObject({ status: 200, body: { creates: [], state_version } });
    expect(dry.body.validation_errors).toEqual([
      expect.objectContaining({
        code: "MISSING_DEPENDENT_ACTION",
        policy_slug: "block-criticals",
        context: expect.objectContaining({ action_type: "block", missing_companion: "pr_comment" }),
      }),
    ]);
    const apply = await send(emulator, "PUT", "/remediation-policies", { bundle: candidate }, state_version);
    expect(apply).toMatchObject({
      status: 400,
      body: { code: "MISSING_DEPENDENT_ACTION", missing_companion: "pr_comment", action_type: "block", policy_slug: "block-criticals" },
    });
  });

  it("an exception naming a project the deployment lacks: validation_errors, then 400 UNKNOWN_REFERENCE with missing_references", async () => {
    const { bundle, state_version } = await read(emulator, "/detection-policy/code");
    const candidate = { ...bundle, exceptions: [...(bundle.exceptions ?? []), unknownProject] };
    const at = `exceptions[${candidate.exceptions.length - 1}].project`;
    const dry = await send(emulator, "POST", "/detection-policy/code:dryRun", { bundle: candidate });
    expect(dry.body.validation_errors).toEqual([
      expect.objectContaining({
        code: "UNKNOWN_REFERENCE",
        context: { field: at, reference_type: "project", missing_references: "acme/does-not-exist" },
      }),
    ]);
    const apply = await send(emulator, "PUT", "/detection-policy/code", { bundle: candidate }, state_version);
    expect(apply).toMatchObject({ status: 400, body: { code: "UNKNOWN_REFERENCE" } });
    expect(apply.body.missing_references).toEqual([{ type: "project", value: "acme/does-not-exist", field: at }]);
  });

  it("a policy with a system-managed policy's slug: 409 RESERVED_SLUG", async () => {
    const { bundle, state_version } = await read(emulator, "/remediation-policies");
    const taken = { ...blockOnly, slug: SYSTEM_REMEDIATION_SLUG, actions: [{ type: "pr_comment" }] };
    const apply = await send(
      emulator,
      "PUT",
      "/remediation-policies",
      { bundle: { policies: [...(bundle.policies ?? []), taken] } },
      state_version,
    );
    expect(apply).toMatchObject({ status: 409, body: { code: "RESERVED_SLUG", policy_slug: SYSTEM_REMEDIATION_SLUG } });
  });

  it("a product the deployment lacks: 404 PRODUCT_NOT_ENABLED", async () => {
    const codeOnly = await startEmulator({ preset: "demo", policiesV2: true, detectionProducts: ["code"] });
    try {
      expect(await send(codeOnly, "GET", "/detection-policy/secrets")).toMatchObject({
        status: 404,
        body: { code: "PRODUCT_NOT_ENABLED" },
      });
    } finally {
      await codeOnly.close();
    }
  });
});

describe("dry runs in the live service's other form (dryRunRefusals)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: true, dryRunRefusals: true });
  });
  afterAll(() => emulator.close());

  it("a clean dry run answers the diff without state_version; the apply takes the version of the read", async () => {
    const { bundle, state_version } = await read(emulator, "/detection-policy/code");
    const candidate = { ...bundle, rules: ["acme.previewed"] };
    const dry = await send(emulator, "POST", "/detection-policy/code:dryRun", { bundle: candidate });
    expect(dry).toMatchObject({ status: 200, body: { updates: [expect.objectContaining({ kind: "DetectionPolicy" })] } });
    expect(dry.body).not.toHaveProperty("state_version");
    expect(await send(emulator, "PUT", "/detection-policy/code", { bundle: candidate }, state_version)).toMatchObject({ status: 200 });
  });

  it("an invalid bundle is refused with 400 and the code and fields of its first problem, without validation_errors", async () => {
    const code = await read(emulator, "/detection-policy/code");
    const unknown = await send(emulator, "POST", "/detection-policy/code:dryRun", {
      bundle: { ...code.bundle, exceptions: [unknownProject] },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: {
        code: "UNKNOWN_REFERENCE",
        missing_references: [{ type: "project", value: "acme/does-not-exist", field: "exceptions[0].project" }],
      },
    });
    const remediation = await read(emulator, "/remediation-policies");
    const companion = await send(emulator, "POST", "/remediation-policies:dryRun", {
      bundle: { policies: [...(remediation.bundle.policies ?? []), blockOnly] },
    });
    expect(companion).toMatchObject({ status: 400, body: { code: "MISSING_DEPENDENT_ACTION", missing_companion: "pr_comment" } });
    const reserved = await send(emulator, "POST", "/remediation-policies:dryRun", {
      bundle: { policies: [{ ...blockOnly, slug: SYSTEM_REMEDIATION_SLUG, actions: [{ type: "pr_comment" }] }] },
    });
    expect(reserved).toMatchObject({ status: 409, body: { code: "RESERVED_SLUG" } });
    for (const refusal of [unknown, companion, reserved]) expect(refusal.body).not.toHaveProperty("validation_errors");
  });
});

describe("the older names", () => {
  it("are never answered, at the top or in validation_errors", () => {
    const codes = answered.flatMap((a) => [
      a.body.code,
      ...((a.body.validation_errors as Array<{ code: string }> | undefined) ?? []).map((e) => e.code),
    ]);
    expect(codes).toEqual(
      expect.arrayContaining(["STATE_VERSION_MISMATCH", "IF_MATCH_REQUIRED", "MISSING_DEPENDENT_ACTION", "UNKNOWN_REFERENCE"]),
    );
    for (const name of OLDER_NAMES) expect(codes).not.toContain(name);
  });
});

/**
 * dry-run.ts takes a dry run's verdict in either form the live service answers (200 with
 * `validation_errors`, or a refusal: 400 / 409 RESERVED_SLUG with the first problem's code and
 * fields), and the check failures name the resource's field either way: from the problem's path
 * when it has one, else from what the refusal names (the declared field holding the missing
 * reference, `actions` for a missing companion, `slug` for a reserved one).
 */
import { callContext } from "../../provider/core/runtime/call-context";
import { describe, expect, it } from "vitest";
import { APIError, type ErrorDetails } from "../../provider/client";
import { dryRunVerdict, failuresOf } from "../../provider/core/handlers/dry-run";

const info = {
  operation: "policiesV2.dryRunDetectionPolicy",
  method: "POST",
  path: "/api/policies/v2/deployments/1/detection-policy/code:dryRun",
};
const refusal = (status: number, code: string, message: string, details: ErrorDetails) => () =>
  Promise.reject(APIError.fromStatus(info, status, message, 1, code, details));
const EXCEPTION = {
  deploymentId: "1",
  product: "code",
  exceptionType: "exclude",
  projectName: "acme/web-ap",
  rule: "a.b",
  ruleType: "rule",
};

describe("a dry run's verdict in either form", () => {
  it("200 with validation_errors: the answer and its errors", async () => {
    const answer = { creates: [], updates: [], deletes: [], validation_errors: [{ code: "X", message: "m" }] };
    expect(await dryRunVerdict(() => Promise.resolve(answer))).toEqual({ answer, errors: answer.validation_errors });
  });

  it("400 UNKNOWN_REFERENCE with neither validation_errors nor a field: the declared field holding the reference is named", async () => {
    const { answer, errors } = await dryRunVerdict(
      refusal(400, "UNKNOWN_REFERENCE", "", { missingReferences: [{ type: "project", value: "acme/web-ap" }] }),
    );
    expect(answer).toBeUndefined();
    expect(errors).toEqual([
      {
        code: "UNKNOWN_REFERENCE",
        message: 'missing project "acme/web-ap"',
        context: { reference_type: "project", missing_references: "acme/web-ap" },
      },
    ]);
    expect(
      failuresOf(callContext("DetectionPolicyException", undefined), EXCEPTION, errors, {
        prefix: "exceptions",
        index: 0,
        rename: { project: "projectName" },
      }),
    ).toEqual([
      {
        property: "projectName",
        reason: expect.stringContaining('Semgrep refuses the bundle (dry run): missing project "acme/web-ap" [UNKNOWN_REFERENCE]'),
      },
    ]);
    // A DetectionPolicy declaring the exception among others: its `exceptions`; one not declaring it: no field.
    const policy = { deploymentId: "1", product: "code", exceptions: [{ ...EXCEPTION }], disabled: ["x"] };
    expect(failuresOf(callContext("DetectionPolicy", undefined), policy, errors)[0]!.property).toBe("exceptions");
    expect(
      failuresOf(callContext("DetectionPolicy", undefined), { deploymentId: "1", product: "code", disabled: ["x"] }, errors)[0]!.property,
    ).toBe("");
  });

  it("400 MISSING_DEPENDENT_ACTION names actions and the companion; 409 RESERVED_SLUG names slug; a refusal listing validation_errors uses them", async () => {
    const remediation = { deploymentId: "1", slug: "block-it", policyName: "Block", filters: {}, actions: [{ type: "block" }] };
    const companion = await dryRunVerdict(
      refusal(400, "MISSING_DEPENDENT_ACTION", "invalid bundle", {
        missingCompanion: "pr_comment",
        actionType: "block",
        policySlug: "block-it",
      }),
    );
    expect(companion.errors).toEqual([
      {
        code: "MISSING_DEPENDENT_ACTION",
        message: "invalid bundle: a block action needs a pr_comment action in the same policy",
        policy_slug: "block-it",
        context: { action_type: "block", missing_companion: "pr_comment" },
      },
    ]);
    expect(
      failuresOf(callContext("RemediationPolicy", undefined), remediation, companion.errors, { prefix: "policies" })[0]!.property,
    ).toBe("actions");
    const reserved = await dryRunVerdict(refusal(409, "RESERVED_SLUG", "reserved", { policySlug: "block-it" }));
    expect(failuresOf(callContext("RemediationPolicy", undefined), remediation, reserved.errors, { prefix: "policies" })[0]).toMatchObject({
      property: "slug",
      reason: expect.stringContaining("reserved [RESERVED_SLUG]"),
    });
    const listed = [
      {
        code: "UNSUPPORTED_CONDITION_TYPE",
        message: "m",
        policy_slug: "block-it",
        context: { field: "policies[0].filters.conditions[0].type" },
      },
    ];
    expect((await dryRunVerdict(refusal(400, "UNSUPPORTED_CONDITION_TYPE", "m", { validationErrors: listed }))).errors).toEqual(listed);
  });

  it("other errors are thrown: a 404 PRODUCT_NOT_ENABLED, a 409 of another kind, a 500", async () => {
    await expect(dryRunVerdict(refusal(404, "PRODUCT_NOT_ENABLED", "", {}))).rejects.toMatchObject({ status: 404 });
    await expect(dryRunVerdict(refusal(409, "STATE_VERSION_MISMATCH", "", {}))).rejects.toMatchObject({ status: 409 });
    await expect(dryRunVerdict(refusal(500, "", "boom", {}))).rejects.toMatchObject({ status: 500 });
  });
});

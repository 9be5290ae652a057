/**
 * The Policies V2 kinds' `check` on a deployment not migrated to unified policies (the emulator
 * without `policiesV2`: every Policies V2 operation answers 403 DEPLOYMENT_NOT_MIGRATED): a check
 * failure on `deploymentId`, naming the resource and the deployment, and no write; a create that
 * runs anyway (its check skipped the dry run on an unknown input) fails with the client's hint.
 */
import { describe, expect, it } from "vitest";
import { causeChain, DeploymentNotMigratedError } from "../../provider/client";
import { useEmulator } from "../support/emulator";
import { provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const CASES = [
  ["DetectionPolicy", { deploymentId: "1", product: "code", rulesets: ["p/default"] }],
  [
    "DetectionPolicyException",
    { deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/docs-site", rule: "p/default", ruleType: "pack" },
  ],
  [
    "RemediationPolicy",
    {
      deploymentId: "1",
      slug: "comment",
      policyName: "Comment",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
      actions: [{ type: "pr_comment" }],
    },
  ],
] as const;

describe("Policies V2 kinds on a deployment not migrated", () => {
  it.each(CASES)("%s: check fails on deploymentId, saying the deployment still uses v1 policies; nothing written", async (kind, inputs) => {
    const result = await provider(kind).check(inputs);
    expect(result.failures).toEqual([
      {
        property: "deploymentId",
        reason: expect.stringMatching(
          new RegExp(
            `^a? ?${kind}.*: deployment 1 still uses v1 policies \\(not migrated to Semgrep's unified policies\\), so ${kind} cannot manage it: ` +
              "Semgrep API policiesV2\\.\\w+ failed .*→ 403\\).*DEPLOYMENT_NOT_MIGRATED: this deployment still uses v1 policies",
          ),
        ) as unknown,
      },
    ]);
    expect(env.requests().filter((r) => r.method === "PUT")).toEqual([]);
    expect(env.requests().every((r) => r.status === 403)).toBe(true);
  });

  it("a create whose check could not dry-run fails with the client's DeploymentNotMigratedError, writing nothing", async () => {
    const [, inputs] = CASES[0];
    const error = await provider("DetectionPolicy")
      .create(inputs)
      .catch((e: unknown) => e);
    expect([...causeChain(error)].some((e) => e instanceof DeploymentNotMigratedError)).toBe(true);
    expect((error as Error).message).toMatch(
      /DetectionPolicy code of deployment 1.*DEPLOYMENT_NOT_MIGRATED: this deployment still uses v1 policies/,
    );
    expect(env.requests().filter((r) => r.method === "PUT")).toEqual([]);
  });
});

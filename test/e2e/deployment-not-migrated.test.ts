/**
 * A deployment not migrated to Semgrep's unified policies (the emulator without `--policies-v2`),
 * through the real CLI: every Policies V2 operation answers `403 DEPLOYMENT_NOT_MIGRATED`, and
 * DetectionPolicy, DetectionPolicyException, RemediationPolicy and the Policies V2 data sources
 * fail at preview (and at `up`, in its preview) with a message naming the resource, saying the
 * deployment still uses v1 policies and what to use instead (not the token's scopes), before any
 * write. The mirror of unified-policies.test.ts (v1 kinds on a migrated deployment).
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start: notMigrated } = useEmulators({ preset: "demo" });

/** The client's hint for the 403, as every failure here carries it. */
const HINT =
  /DEPLOYMENT_NOT_MIGRATED: this deployment still uses v1 policies \(it is not migrated to Semgrep's unified policies, Policies V2\), so the Policies V2 operations are refused, whatever the token's scopes: DetectionPolicy, DetectionPolicyException, RemediationPolicy, getDetectionPolicy, getDetectionPolicies, getRemediationPolicies and getPolicyVocabulary work only on migrated deployments\. Manage this deployment's rules with PolicyRuleMode and PolicyRuleModes, and read them with getPolicies, getPolicy and getPolicyRules/;

/** The check failure of a resource, naming it and the deployment. */
const failureOf = (resource: string, kind: string) =>
  new RegExp(
    `${resource}: deployment 1 still uses v1 policies \\(not migrated to Semgrep's unified policies\\), so ${kind} cannot manage it: Semgrep API policiesV2\\.\\w+ failed \\([A-Z]+ /api/policies/v2/deployments/1/[^ ]+ → 403\\)`,
  );

/** Requests that may change the service: everything but reads and dry runs. */
const writes = (emulator: RunningEmulator) =>
  emulator.requests().filter((r) => r.method !== "GET" && !r.operation?.startsWith("policiesV2.dryRun"));

const detectionPolicy = program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", rulesets: ["p/default"] });`);

describe("Policies V2 on a deployment not migrated to unified policies", () => {
  it("a DetectionPolicy fails at preview and at up, naming itself, the deployment and DEPLOYMENT_NOT_MIGRATED, writing nothing", async () => {
    const emulator = await notMigrated();
    const before = structuredClone(emulator.state());
    const workspace = await programWorkspace(emulator, detectionPolicy);
    for (const args of [["preview"], ["up", "--yes"]]) {
      const run = await workspace.run(args, { allowFailure: true });
      expect(run.status, args.join(" ")).not.toBe(0);
      expect(printed(run)).toMatch(failureOf('DetectionPolicy "code"', "DetectionPolicy"));
      expect(printed(run)).toMatch(HINT);
      expect(printed(run)).not.toMatch(/check its scopes/);
    }
    expect(writes(emulator)).toEqual([]);
    expect(emulator.requests().every((r) => r.status === 403 && r.operation?.startsWith("policiesV2."))).toBe(true);
    expect(emulator.state()).toEqual(before);
    expect(await workspace.resources()).toEqual({});
  }, 180_000);

  it.each([
    [
      'DetectionPolicyException "docs"',
      "DetectionPolicyException",
      `new semgrep.DetectionPolicyException("docs", { deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/docs-site", rule: "p/default", ruleType: "pack" });`,
    ],
    [
      'RemediationPolicy "comment"',
      "RemediationPolicy",
      `new semgrep.RemediationPolicy("comment", { deploymentId: "1", slug: "comment", policyName: "Comment", filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] }, actions: [{ type: "pr_comment" }] });`,
    ],
  ])(
    "a %s fails at preview the same way, writing nothing",
    async (resource, kind, body) => {
      const emulator = await notMigrated();
      const workspace = await programWorkspace(emulator, program(body));
      const preview = await workspace.run(["preview"], { allowFailure: true });
      expect(preview.status).not.toBe(0);
      expect(printed(preview)).toMatch(failureOf(resource, kind));
      expect(printed(preview)).toMatch(HINT);
      expect(writes(emulator)).toEqual([]);
    },
    120_000,
  );

  it.each([
    ["getDetectionPolicy", `exports.v = semgrep.getDetectionPolicyOutput({ deploymentId: "1", product: "code" });`],
    ["getPolicyVocabulary", `exports.v = semgrep.getPolicyVocabularyOutput({ deploymentId: "1" });`],
  ])(
    "%s fails at preview and at up with the reason, writing nothing",
    async (_name, body) => {
      const emulator = await notMigrated();
      const workspace = await programWorkspace(emulator, program(body));
      for (const args of [["preview"], ["up", "--yes"]]) {
        const run = await workspace.run(args, { allowFailure: true });
        expect(run.status, args.join(" ")).not.toBe(0);
        expect(printed(run)).toMatch(/Semgrep API policiesV2\.get\w+ failed \(GET \/api\/policies\/v2\/deployments\/1\/[^ ]+ → 403\)/);
        expect(printed(run)).toMatch(HINT);
      }
      expect(writes(emulator)).toEqual([]);
    },
    180_000,
  );
});

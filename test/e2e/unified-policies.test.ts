/**
 * A deployment migrated to Semgrep's unified policies (the emulator's `--policies-v2`), through the
 * real CLI: the v1 policy operations answer `410 DEPLOYMENT_MIGRATED`, and PolicyRuleMode and the
 * policy data sources fail with a message that says so and what to use instead, before writing
 * anything; a stack made before the migration keeps its state when a refresh fails, and
 * `destroy` lets the resource go with a warning (the v1 rule mode is gone: nothing to restore).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start: emulator } = useEmulators({ preset: "demo" });

const MIGRATED =
  /DEPLOYMENT_MIGRATED: this deployment uses Semgrep's unified policies \(Policies V2\), where the v1 policy operations are gone: PolicyRuleMode, PolicyRuleModes, getPolicies, getPolicy and getPolicyRules work only on deployments still on v1 policies/;
const ruleMode = program(
  `new semgrep.PolicyRuleMode("block-eval", { deploymentId: "1", policyId: "10", rulePath: "python.lang.security.audit.eval-detected.eval-detected", mode: "MODE_BLOCK" });`,
);

describe("a deployment on unified policies (--policies-v2)", () => {
  it("PolicyRuleMode fails at up with the reason, writing nothing", async () => {
    const migrated = await emulator({ policiesV2: true });
    const workspace = await programWorkspace(migrated, ruleMode);
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(MIGRATED);
    expect(printed(up)).toContain("→ 410");
    expect(migrated.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await workspace.resources()).toEqual({});
  }, 120_000);

  it("a PolicyRuleModes whose select meets another rule-mode resource fails at preview, not only at up: the listing's 410 fails the check on deploymentId", async () => {
    const migrated = await emulator({ policiesV2: true });
    const workspace = await programWorkspace(
      migrated,
      `${ruleMode}new semgrep.PolicyRuleModes("critical", { deploymentId: "1", policyId: "10", select: { severities: ["SEVERITY_CRITICAL"] }, mode: "MODE_BLOCK" });\n`,
    );
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toMatch(
      /property deploymentId value \{1\} has a problem: PolicyRuleMode[^:]*: Semgrep API policies\.listRules failed .*→ 410/,
    );
    expect(printed(preview)).toMatch(MIGRATED);
    expect(migrated.requests().filter((r) => r.method !== "GET")).toEqual([]);
  }, 120_000);

  it.each([
    ["getPolicies", `exports.v = semgrep.getPoliciesOutput({ deploymentId: "1" });`],
    ["getPolicy", `exports.v = semgrep.getPolicyOutput({ deploymentId: "1", isDefault: true, productType: "PRODUCT_TYPE_SAST" });`],
    ["getPolicyRules", `exports.v = semgrep.getPolicyRulesOutput({ deploymentId: "1", policyId: "10" });`],
  ])(
    "%s fails with the reason",
    async (_name, body) => {
      const migrated = await emulator({ policiesV2: true });
      const workspace = await programWorkspace(migrated, program(body));
      const preview = await workspace.run(["preview"], { allowFailure: true });
      expect(preview.status).not.toBe(0);
      expect(printed(preview)).toMatch(MIGRATED);
    },
    120_000,
  );

  it("a stack made before the migration: refresh fails with the reason and keeps the resource; destroy lets it go with a warning", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-migration-")), "state.json");
    const before = await emulator({ dataFile });
    const workspace = await programWorkspace(before, ruleMode);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await before.close();
    const after = await emulator({ dataFile, policiesV2: true });
    const env = { SEMGREP_APP_URL: after.url };
    const refresh = await workspace.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true, env });
    expect(refresh.status).not.toBe(0);
    expect(printed(refresh)).toMatch(MIGRATED);
    expect(Object.keys(await workspace.resources())).toEqual(["block-eval"]);
    const destroy = await workspace.run(["destroy", "--yes", "--skip-preview"], { env });
    expect(printed(destroy)).toMatch(
      /warning: PolicyRuleMode python\.lang\.security\.audit\.eval-detected\.eval-detected in policy 10: deployment 1 now uses Semgrep's unified policies \(Policies V2; the v1 policy operations answer 410 DEPLOYMENT_MIGRATED\), where v1 rule modes no longer exist: nothing to restore \(MODE_[A-Z]+\)/,
    );
    expect(await workspace.resources()).toEqual({});
    expect(
      after
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => r.status),
    ).toEqual([410]); // the restore, refused
  }, 180_000);
});

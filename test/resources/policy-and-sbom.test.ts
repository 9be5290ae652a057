/** PolicyRuleMode and SbomExport provider methods against the emulator. */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/dynamic/process-memory";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const ruleMode = provider("PolicyRuleMode");
const sbom = provider("SbomExport");
const rules = () => env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

describe("PolicyRuleMode", () => {
  it("records the mode found, sets the declared one, and restores it on delete", async () => {
    const found = rules().find((r) => r.path === EVAL)!.policyMode;
    const target = found === "MODE_DISABLED" ? "MODE_COMMENT" : "MODE_DISABLED";
    const inputs = await checked(ruleMode, { deploymentId: 1, policyId: SAST_POLICY_ID, rulePath: EVAL, mode: target });
    expect(inputs.deploymentId).toBe("1");
    const { id, outs } = await ruleMode.create(inputs);
    expect(id).toBe(`1/${SAST_POLICY_ID}/${EVAL}`);
    expect(outs).toMatchObject({ mode: target, originalMode: found, ruleId: "100000", severity: "SEVERITY_HIGH", category: "security", url: expect.stringContaining(EVAL) });
    expect(env.requests().map((r) => r.operation)).toEqual(["policies.listRules", "policies.updateRuleMode"]);
    await ruleMode.delete(id, outs);
    expect(rules().find((r) => r.path === EVAL)!.policyMode).toBe(found);
  });

  it("names the rule and the policy when the rule path is not in the policy", async () => {
    const inputs = await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: "python.lang.security.nope.nope", mode: "MODE_BLOCK" });
    await expect(ruleMode.create(inputs)).rejects.toThrow(
      'PolicyRuleMode python.lang.security.nope.nope in policy 10: rule "python.lang.security.nope.nope" is not in policy 10 of deployment 1 (the policy has 320 rules',
    );
    expect(env.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("applies 20 rules of one policy in parallel with one listing and one write per changed rule", async () => {
    const chosen = rules().slice(20, 40);
    const changed = chosen.filter((r) => r.policyMode !== "MODE_BLOCK").length;
    const results = await Promise.all(
      chosen.map(async (r) => ruleMode.create(await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: r.path, mode: "MODE_BLOCK" }))),
    );
    expect(results.every((r) => r.outs.mode === "MODE_BLOCK")).toBe(true);
    expect(chosen.every((r) => r.policyMode === "MODE_BLOCK")).toBe(true);
    expect(env.requests("policies.listRules")).toHaveLength(1);
    expect(env.requests("policies.updateRuleMode")).toHaveLength(changed);
  });

  it("reads live modes from one shared listing, kept right by this process's own writes", async () => {
    const created = await Promise.all(
      rules()
        .slice(0, 10)
        .map(async (r) => ruleMode.create(await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: r.path, mode: "MODE_COMMENT" }))),
    );
    const reads = await Promise.all(created.map((c) => ruleMode.read(c.id, c.outs)));
    expect(reads.every((r) => r.props?.mode === "MODE_COMMENT")).toBe(true);
    expect(env.requests("policies.listRules")).toHaveLength(1);
  });

  it("finds an out-of-band mode change on read and corrects it on update", async () => {
    const inputs = await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK" });
    const { id, outs } = await ruleMode.create(inputs);
    rules().find((r) => r.path === EVAL)!.policyMode = "MODE_MONITOR";
    forgetProcessMemory(); // a new provider process, as `pulumi refresh` starts
    const read = await ruleMode.read(id, outs);
    expect(read.props?.mode).toBe("MODE_MONITOR");
    expect(read.inputs).toMatchObject({ mode: "MODE_MONITOR" });
    expect(await ruleMode.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    const updated = await ruleMode.update(id, read.props!, inputs);
    expect(updated.outs.mode).toBe("MODE_BLOCK");
    expect(rules().find((r) => r.path === EVAL)!.policyMode).toBe("MODE_BLOCK");
  });

  it("reads a rule gone from the policy as gone", async () => {
    const { id, outs } = await ruleMode.create(await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK" }));
    rules().splice(rules().findIndex((r) => r.path === EVAL), 1);
    forgetProcessMemory();
    expect(await ruleMode.read(id, outs)).toEqual({ id: "" });
  });

  it("replaces on a change of rule, policy or deployment", async () => {
    const olds = { deploymentId: "1", policyId: "10", rulePath: EVAL, mode: "MODE_BLOCK" };
    expect(await ruleMode.diff(olds, { ...olds, rulePath: "a.b" })).toMatchObject({ replaces: ["rulePath"] });
    expect(await ruleMode.diff(olds, { ...olds, policyId: "11" })).toMatchObject({ replaces: ["policyId"] });
    expect(await ruleMode.diff(olds, { ...olds, mode: "MODE_COMMENT" })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("SbomExport", () => {
  const request = { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main", sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON", triggers: ["v1"] };

  it("starts an export on create and reports its status", async () => {
    const { id, outs } = await sbom.create(await checked(sbom, request));
    expect(outs).toMatchObject({ taskToken: id, status: "SBOM_EXPORT_STATUS_IN_PROGRESS" });
    expect(env.emulator.state().sbomExports).toHaveLength(1);
    const read = await sbom.read(id, outs);
    expect(read.props).toMatchObject({ status: "SBOM_EXPORT_STATUS_COMPLETED", downloadUrl: expect.stringContaining(id) });
    expect(env.emulator.state().sbomExports[0]?.request).not.toHaveProperty("triggers");
  });

  it("replaces (a new export) when any input changes, triggers included", async () => {
    const olds = { ...request, taskToken: "t" };
    expect(await sbom.diff(olds, { ...request, triggers: ["v2"] })).toMatchObject({ changes: true, replaces: ["triggers"] });
    expect(await sbom.diff(olds, { ...request, ref: "refs/heads/dev" })).toMatchObject({ replaces: ["ref"] });
    const { triggers: _dropped, ...withoutTriggers } = request;
    expect(await sbom.diff(olds, withoutTriggers)).toMatchObject({ changes: true, replaces: ["triggers"] });
    expect(await sbom.diff(olds, request)).toMatchObject({ changes: false });
  });
});

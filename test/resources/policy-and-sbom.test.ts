/** PolicyRuleMode and SbomExport provider methods against the emulator. */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

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
    expect(outs).toMatchObject({
      mode: target,
      originalMode: found,
      ruleId: "100000",
      severity: "SEVERITY_HIGH",
      category: "security",
      url: expect.stringContaining(EVAL),
    });
    expect(env.requests().map((r) => r.operation)).toEqual(["policies.listRules", "policies.updateRuleMode"]);
    await ruleMode.delete(id, outs);
    expect(rules().find((r) => r.path === EVAL)!.policyMode).toBe(found);
  });

  it("names the rule and the policy when the rule path is not in the policy", async () => {
    const inputs = await checked(ruleMode, {
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      rulePath: "python.lang.security.nope.nope",
      mode: "MODE_BLOCK",
    });
    await expect(ruleMode.create(inputs)).rejects.toThrow(
      'PolicyRuleMode python.lang.security.nope.nope in policy 10: rule "python.lang.security.nope.nope" is not in policy 10 of deployment 1 (the policy has 320 rules',
    );
    expect(env.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("applies 20 rules of one policy in parallel with one listing and one write per changed rule", async () => {
    const chosen = rules().slice(20, 40);
    const changed = chosen.filter((r) => r.policyMode !== "MODE_BLOCK").length;
    const results = await Promise.all(
      chosen.map(async (r) =>
        ruleMode.create(await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: r.path, mode: "MODE_BLOCK" })),
      ),
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
        .map(async (r) =>
          ruleMode.create(await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: r.path, mode: "MODE_COMMENT" })),
        ),
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
    const { id, outs } = await ruleMode.create(
      await checked(ruleMode, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK" }),
    );
    rules().splice(
      rules().findIndex((r) => r.path === EVAL),
      1,
    );
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
  const request = {
    deploymentId: "1",
    repositoryId: "101",
    ref: "refs/heads/main",
    sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON",
    triggers: ["v1"],
  };

  it("starts an export on create and reports its status", async () => {
    const { id, outs } = await sbom.create(await checked(sbom, request));
    expect(outs).toMatchObject({ taskToken: expect.any(String), status: "SBOM_EXPORT_STATUS_IN_PROGRESS" });
    expect(id).toBe(`1/${String(outs.taskToken)}`);
    expect(env.emulator.state().sbomExports).toHaveLength(1);
    const read = await sbom.read(id, outs);
    expect(read.props).toMatchObject({
      status: "SBOM_EXPORT_STATUS_COMPLETED",
      downloadUrl: expect.stringContaining(String(outs.taskToken)),
    });
    // State of a build before 0.2, whose id is the bare token, reads the same.
    expect((await sbom.read(String(outs.taskToken), outs)).props).toMatchObject({ status: "SBOM_EXPORT_STATUS_COMPLETED" });
    expect(env.emulator.state().sbomExports[0]?.request).not.toHaveProperty("triggers");
  });

  it("replaces (a new export) when any input changes, triggers included", async () => {
    const olds = { ...request, taskToken: "t" };
    expect(await sbom.diff(olds, { ...request, triggers: ["v2"] })).toMatchObject({ changes: true, replaces: ["triggers"] });
    expect(await sbom.diff(olds, { ...request, ref: "refs/heads/dev" })).toMatchObject({ replaces: ["ref"] });
    const { triggers: _dropped, ...withoutTriggers } = request;
    const dropped = await sbom.diff(olds, withoutTriggers);
    expect(dropped).toMatchObject({ changes: true, replaces: ["triggers"] });
    expect((dropped as { stables?: string[] }).stables).not.toContain("triggers"); // a field cannot both replace and stay
    expect(await sbom.diff(olds, request)).toMatchObject({ changes: false });
  });
});

describe("SbomExport formatVersion: the OpenAPI's cyclonedxVersion, and the deprecated version string", () => {
  const base = { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main", resourceName: "release" };
  const V1_5 = "SBOM_CYCLONE_DX_VERSION_V1_5";
  const legacy = { format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" };
  const current = { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: V1_5 };

  it('takes version: "1.5" as cyclonedxVersion V1_5, sends only {format, cyclonedxVersion}, and warns', async () => {
    const inputs = await checked(sbom, { ...base, formatVersion: legacy });
    expect(inputs.formatVersion).toStrictEqual(current);
    expect(notices).toEqual([
      {
        severity: "warning",
        message:
          'SbomExport "release": formatVersion.version is deprecated (Semgrep\'s API takes formatVersion.cyclonedxVersion); ' +
          'write cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5" in place of version: "1.5". Changing only the spelling starts no new export.',
      },
    ]);
    const { outs } = await sbom.create(inputs);
    expect(env.emulator.state().sbomExports[0]?.request.formatVersion).toStrictEqual(current);
    expect(env.emulator.state().sbomExports[0]?.specVersion).toBe("1.5");
    expect(outs.formatVersion).toStrictEqual(current);
  });

  it("names no value of a formatVersion given as a secret in the warning", async () => {
    await checked(sbom, { ...base, formatVersion: legacy, secretInputs: ["formatVersion"] });
    expect(notices.map((n) => n.message)).toEqual([
      expect.stringContaining("write cyclonedxVersion in place of version. Changing only the spelling"),
    ]);
  });

  it("warns about nothing for the OpenAPI's spelling, and takes both spellings when they agree", async () => {
    expect((await checked(sbom, { ...base, formatVersion: current })).formatVersion).toStrictEqual(current);
    expect(notices).toEqual([]);
    expect((await checked(sbom, { ...base, formatVersion: { ...legacy, cyclonedxVersion: V1_5 } })).formatVersion).toStrictEqual(current);
  });

  it.each([
    [
      "an unsupported version",
      { ...legacy, version: "1.3" },
      /formatVersion\.version: "1\.3": must be a CycloneDX version the service supports: one of 1\.4, 1\.5, 1\.6, 1\.7/,
    ],
    ["a version of no CycloneDX", { ...legacy, version: "2.0" }, /"2\.0": must be .* one of 1\.4, 1\.5, 1\.6, 1\.7/],
    [
      "a version that is not a string",
      { ...legacy, version: 1.5 },
      /formatVersion\.version: 1\.5: must be a string, one of 1\.4, 1\.5, 1\.6, 1\.7/,
    ],
    [
      "two spellings that disagree",
      { ...legacy, cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" },
      /formatVersion\.version: "1\.5": names another version than formatVersion\.cyclonedxVersion: give only cyclonedxVersion/,
    ],
  ])("refuses %s at check, naming formatVersion.version, before any request", async (_case, formatVersion, reason) => {
    const { failures } = await sbom.check({ ...base, formatVersion });
    expect(failures).toEqual([{ property: "formatVersion.version", reason: expect.stringMatching(reason) }]);
    expect(notices).toEqual([]); // the failure says what to write; no deprecation warning beside it
    expect(env.requests()).toEqual([]);
  });

  it("refuses a cyclonedxVersion that is not one of the OpenAPI's values, listing them", async () => {
    const { failures } = await sbom.check({ ...base, formatVersion: { cyclonedxVersion: "1.6" } });
    expect(failures).toEqual([
      { property: "formatVersion.cyclonedxVersion", reason: expect.stringMatching(/must be one of SBOM_CYCLONE_DX_VERSION_V1_4, .*_V1_7/) },
    ]);
  });

  it("diffs the two spellings of one version, and a default left out or written out, as no change", async () => {
    const olds = { ...base, taskToken: "t" };
    const declared = async (formatVersion?: object) => checked(sbom, { ...base, ...(formatVersion ? { formatVersion } : {}) });
    // State written before cyclonedxVersion existed, or with the deprecated spelling.
    expect(await sbom.diff({ ...olds, formatVersion: legacy }, await declared(current))).toMatchObject({ changes: false });
    expect(await sbom.diff({ ...olds, formatVersion: current }, await declared(legacy))).toMatchObject({ changes: false });
    expect(await sbom.diff({ ...olds, formatVersion: legacy }, { ...base, formatVersion: legacy })).toMatchObject({ changes: false });
    // The service exports CycloneDX 1.4 when no version is given.
    const v14 = { cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_4" };
    expect(await sbom.diff(olds, await declared(v14))).toMatchObject({ changes: false });
    expect(await sbom.diff({ ...olds, formatVersion: v14 }, await declared())).toMatchObject({ changes: false });
    expect(
      await sbom.diff({ ...olds, formatVersion: { format: "SBOM_FORMAT_CYCLONEDX" } }, await declared({ version: "1.4" })),
    ).toMatchObject({ changes: false });
  });

  it("replaces (a new export) when the version asked for changes, whichever the spelling", async () => {
    const olds = { ...base, taskToken: "t" };
    const v16 = await checked(sbom, { ...base, formatVersion: { version: "1.6" } });
    expect(await sbom.diff({ ...olds, formatVersion: legacy }, v16)).toMatchObject({ changes: true, replaces: ["formatVersion"] });
    expect(await sbom.diff(olds, v16)).toMatchObject({ changes: true, replaces: ["formatVersion"] });
    expect(await sbom.diff({ ...olds, formatVersion: current }, base)).toMatchObject({ changes: true, replaces: ["formatVersion"] });
    // A version older builds took but the service does not: nothing it equals.
    expect(
      await sbom.diff({ ...olds, formatVersion: { ...legacy, version: "2.0" } }, await checked(sbom, { ...base, formatVersion: current })),
    ).toMatchObject({ replaces: ["formatVersion"] });
  });

  it("shows formatVersion in the cyclonedxVersion spelling once state of an older build is read or updated", async () => {
    const { id, outs } = await sbom.create(await checked(sbom, { ...base, formatVersion: current }));
    const old = { ...outs, formatVersion: legacy };
    expect((await sbom.read(id, old)).props?.formatVersion).toStrictEqual(current);
    expect((await sbom.update(id, old, { ...base, resourceName: "renamed" })).outs.formatVersion).toStrictEqual(current);
  });
});

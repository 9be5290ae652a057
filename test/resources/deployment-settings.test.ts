/**
 * What is particular to DeploymentSettings, through both front ends against the emulator: one per
 * deployment (a second is refused at preview, naming both), originals put back on delete while
 * every field not declared (nested settings included) stays as it was, and a product switched
 * off out of band found by refresh and switched on again by the next update.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, provider, useProviderAgainst } from "../support/provider";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const stored = () => structuredClone(env.emulator.state().productConfigs.find((c) => c.deploymentId === 1)!);

describe.each(FRONT_ENDS)("DeploymentSettings (%s)", (frontEnd) => {
  const calls = provider("DeploymentSettings", frontEnd);

  it("refuses a second DeploymentSettings of the same deployment at check, naming both, before any request", async () => {
    await checked(calls, { deploymentId: "1", sca: { blockPrEnabled: true }, resourceName: "first" });
    const { failures } = await calls.check({ deploymentId: "1", ai: { enabled: true }, resourceName: "second" });
    expect(failures).toHaveLength(1);
    expect(failures![0]!.reason).toContain('DeploymentSettings "second"');
    expect(failures![0]!.reason).toContain('DeploymentSettings "first"');
    expect(failures![0]!.reason).toContain("one DeploymentSettings per deployment");
    expect(env.requests()).toHaveLength(0);
  });

  it("puts back on delete only the fields it changed, and leaves every other setting as it was", async () => {
    const before = stored();
    const inputs = await checked(calls, {
      deploymentId: "1",
      sca: { malwareFirewallEnabled: false, blockPrEnabled: true },
      ai: { legacyAllowOpenaiCodeSharing: true, allowedProviders: ["anthropic", "openai"] },
      resourceName: "products",
    });
    const { id, outs } = await calls.create(inputs);
    // blockPrEnabled was already on: no original of its own; the other three were changed.
    expect(outs.original).toEqual({
      sca: { malwareFirewallEnabled: true },
      ai: { legacyAllowOpenaiCodeSharing: false, allowedProviders: ["anthropic"] },
    });
    const during = stored();
    expect(during.sast).toEqual(before.sast); // nested settings the kind does not model (ai_autofix) kept
    expect(during.sca.malwareFirewallEnabled).toBe(false);
    // Changed meanwhile in the UI: a field this resource does not declare.
    await env.client().products.update(1, { secrets: { triagePermission: "TRIAGE_PERMISSION_IGNORE" } });
    forgetProcessMemory();
    await calls.delete(id, outs);
    const after = stored();
    expect(after).toEqual({ ...before, secrets: { ...before.secrets, triagePermission: "TRIAGE_PERMISSION_IGNORE" } });
  });

  it("finds a product switched off out of band at refresh, and the next update switches it on again (a GET and a PUT)", async () => {
    const inputs = await checked(calls, { deploymentId: "1", secrets: { enabled: true }, resourceName: "products" });
    const { id, outs } = await calls.create(inputs);
    await env.client().products.update(1, { secrets: { enabled: false } });
    forgetProcessMemory();
    const read = await calls.read(id, outs);
    expect(read.props?.secrets).toMatchObject({ enabled: false });
    expect(read.inputs?.secrets).toEqual({ enabled: false });
    expect(await calls.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    const before = env.requests().length;
    await calls.update(id, read.props!, inputs);
    expect(
      env
        .requests()
        .slice(before)
        .map((r) => r.operation),
    ).toEqual(["products.get", "products.update"]);
    expect(stored().secrets.enabled).toBe(true);
  });
});

describe("against a service without the experimental endpoints", () => {
  const bare = useEmulator({ preset: "demo", experimentalEndpoints: false });

  it.each(FRONT_ENDS)("a create fails saying the endpoint is experimental on the service side (%s)", async (frontEnd) => {
    process.env.SEMGREP_APP_URL = bare.emulator.url;
    try {
      const calls = provider("DeploymentSettings", frontEnd);
      const inputs = await checked(calls, { deploymentId: "1", sca: { blockPrEnabled: true }, resourceName: "products" });
      await expect(calls.create(inputs)).rejects.toThrow(/products\.get failed .*404.*experimental on the service side/s);
    } finally {
      process.env.SEMGREP_APP_URL = env.emulator.url;
    }
  });
});

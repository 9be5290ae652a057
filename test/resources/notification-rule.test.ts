/**
 * What is particular to NotificationRule, through both front ends against the emulator: a rule of
 * the same name adopted (recorded whole, put back on delete), a policy slug that names no
 * remediation policy refused before any write (and one a RemediationPolicy of the run declares
 * accepted), and config values that hold a URL or a token held as secrets unless declared plain.
 */
import { describe, expect, it } from "vitest";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, FRONT_ENDS, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo", policiesV2: "both" });
useProviderAgainst(env);

const PRESET_RULE = "Critical findings to the SOC";
const rules = () => structuredClone(env.emulator.state().notificationRules);
const writes = () => env.requests().filter((r) => r.method !== "GET" && !/list|dryRun/.test(r.operation ?? ""));

describe.each(FRONT_ENDS)("NotificationRule (%s)", (frontEnd) => {
  const calls = provider("NotificationRule", frontEnd);
  const soc = {
    deploymentId: "1",
    name: PRESET_RULE,
    channel: "CHANNEL_WEBHOOK",
    config: { url: PRESET_WEBHOOK_URL },
    policySlugs: ["block-critical-high-confidence", "comment-high-severity"],
    resourceName: "soc",
  };

  it("adopts the rule of its name, recording it whole, and puts it back on delete (same id)", async () => {
    const before = rules();
    const { id, outs } = await calls.create(await checked(calls, soc));
    expect(id).toBe("1/5001");
    expect(outs).toMatchObject({ created: false, ruleId: 5001, policySlugs: soc.policySlugs });
    expect(outs.original).toEqual({
      name: PRESET_RULE,
      channel: "CHANNEL_WEBHOOK",
      config: { url: PRESET_WEBHOOK_URL },
      policySlugs: ["block-critical-high-confidence"],
      enabled: true,
      sendScanCompletion: false,
      useNetworkBroker: false,
    });
    expect(env.requests().map((r) => r.operation)).toEqual([
      "policiesV2.getRemediationPolicies",
      "notificationRules.list",
      "notificationRules.replace",
    ]);
    forgetProcessMemory();
    await calls.delete(id, outs);
    expect(rules()).toEqual(before);
  });

  it("refuses a policy slug that names no remediation policy at check and at create, before any write", async () => {
    const declared = { ...soc, name: "Typo", policySlugs: ["block-critcal"] };
    const { failures } = await calls.check(declared);
    expect(failures).toEqual([{ property: "policySlugs", reason: expect.stringContaining('"block-critcal"') }]);
    // An `up --skip-preview`, or a slug unknown at preview: the create refuses it too.
    await expect(calls.create({ ...declared, resourceName: undefined })).rejects.toThrow(/no remediation policy/);
    expect(writes()).toEqual([]);
    expect(rules().map((r) => r.name)).toEqual([PRESET_RULE]);
  });

  it("takes a slug a RemediationPolicy of the run declares, though the policy does not exist yet", async () => {
    const policies = provider("RemediationPolicy", frontEnd);
    const policy = await checked(policies, {
      deploymentId: "1",
      slug: "new-critical",
      policyName: "New critical",
      filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
      actions: [{ type: "pr_comment" }],
      resourceName: "policy",
    });
    const inputs = await checked(calls, { ...soc, name: "New", policySlugs: ["new-critical"] });
    await policies.create(policy);
    const { outs } = await calls.create(inputs);
    expect(outs).toMatchObject({ created: true, policySlugs: ["new-critical"] });
  });

  // The plugin marks it at check; the dynamic classes mark it in the program, before the engine
  // sees it (resource-class.ts), which test/e2e/access-settings.test.ts proves through the CLI.
  it.runIf(frontEnd === "native")("marks at check a config that carries a URL as a secret; plainConfigKeys keeps it plain", async () => {
    const secret = await calls.check({ ...soc, name: "Secret", policySlugs: [] });
    expect(secret.inputs.secretInputs).toContain("config");
    const plain = await calls.check({ ...soc, name: "Plain", policySlugs: [], plainConfigKeys: ["url"], resourceName: "plain" });
    expect(plain.inputs.secretInputs ?? []).not.toContain("config");
  });

  it("hides a secret config value that the service quotes in its refusal, in the error and every notice", async () => {
    const token = "ftp://relay.example/T0KEN-8c1d";
    const inputs = await checked(calls, { ...soc, name: "Broken", config: { url: token }, policySlugs: [] });
    const error = await calls.create(inputs).catch((e: Error) => e);
    expect(String((error as Error).message)).toContain("must be an http(s) URL");
    expect(String((error as Error).message)).not.toContain("T0KEN");
    expect(JSON.stringify(notices)).not.toContain("T0KEN");
  });
});

describe("a rule deleted elsewhere", () => {
  it.each(FRONT_ENDS)("reads as gone, and its delete succeeds: the rule's own 404 is not an absent endpoint (%s)", async (frontEnd) => {
    const calls = provider("NotificationRule", frontEnd);
    const inputs = await checked(calls, {
      deploymentId: "1",
      name: "Short-lived",
      channel: "CHANNEL_EMAIL",
      config: { to: "a@acme.example" },
      resourceName: "short",
    });
    const { id, outs } = await calls.create(inputs);
    await env.client().notificationRules.delete(1, outs.ruleId as number);
    forgetProcessMemory();
    expect((await calls.read(id, outs)).id).toBe("");
    await calls.delete(id, outs);
    expect(env.requests("notificationRules.delete").map((r) => r.status)).toEqual([200, 404]);
  });
});

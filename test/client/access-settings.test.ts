/**
 * The client's product-configuration and notification-rule areas against the emulator: the
 * configuration's read-modify-write keeps every field the caller does not name, the public
 * camelCase names map to the wire's mixed ones, and the rules' create, list, replace, delete and
 * test, with their request counts.
 */
import { describe, expect, it } from "vitest";
import { ConflictError, InvalidRequestError, NotFoundError } from "../../provider/client";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });

describe("products", () => {
  it("reads the demo configuration in the client's names", async () => {
    const config = await env.client().products.get(1);
    expect(config.sast).toEqual({ enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST", humanAutofixEnabled: true });
    expect(config.sca.malwareFirewallEnabled).toBe(true);
    expect(config.sca.blockPrEnabled).toBe(true);
    expect(config.secrets.triagePermission).toBe("TRIAGE_PERMISSION_NONE");
    expect(config.ai).toEqual({ enabled: true, legacyAllowOpenaiCodeSharing: false, allowedProviders: ["anthropic"], mdrEnabled: false });
    expect(config.approversTag).toBe("appsec-approvers");
  });

  it("changes one field and sends every other back as it was (a GET, then a PUT of the whole)", async () => {
    const before = structuredClone(env.emulator.state().productConfigs[0]!);
    const after = await env.client().products.update(1, { sca: { blockPrEnabled: false }, ai: { legacyAllowOpenaiCodeSharing: true } });
    expect(after.sca.blockPrEnabled).toBe(false);
    expect(after.ai.legacyAllowOpenaiCodeSharing).toBe(true);
    // The PUT replaces the whole configuration: without the read, the nested settings the client
    // does not model (sast.ai_autofix, secrets.historical_scan) would be reset.
    const stored = env.emulator.state().productConfigs[0]!;
    expect(stored).toEqual({
      ...before,
      sca: { ...before.sca, blockPrEnabled: false },
      ai: { ...before.ai, legacy_allow_openai_code_sharing: true },
    });
    expect(env.requests().map((r) => `${r.method} ${r.operation}`)).toEqual(["GET products.get", "PUT products.update"]);
  });

  it("refuses a write of the read-only mdr_enabled and an unknown triage permission before sending", async () => {
    const client = env.client();
    await expect(client.products.update(1, { sast: { triagePermission: "TRIAGE_PERMISSION_ALL" as never } })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(env.requests("products.update")).toHaveLength(0);
  });
});

describe("notification rules", () => {
  const webhook = {
    name: "Secrets to the SOC",
    channel: "CHANNEL_WEBHOOK" as const,
    config: { url: "https://soc.example/hook?token=abc" },
    policySlugs: ["secrets-to-slack"],
    enabled: true,
    sendScanCompletion: false,
  };

  it("lists the demo rule in one request, with no pagination options", async () => {
    const rules = await env.client().notificationRules.list(1);
    expect(rules).toEqual([
      {
        id: 5001,
        name: "Critical findings to the SOC",
        channel: "CHANNEL_WEBHOOK",
        config: { url: PRESET_WEBHOOK_URL },
        enabled: true,
        policySlugs: ["block-critical-high-confidence"],
        useNetworkBroker: false,
        sendScanCompletion: false,
        configError: "",
      },
    ]);
    expect(env.requests()).toHaveLength(1);
  });

  it("creates, replaces, tests and deletes a rule", async () => {
    const client = env.client();
    const created = await client.notificationRules.create(1, webhook);
    expect(created).toMatchObject({ ...webhook, useNetworkBroker: false });
    const replaced = await client.notificationRules.replace(1, created.id, { ...webhook, enabled: false });
    expect(replaced.enabled).toBe(false);
    expect(await client.notificationRules.test(1, created.id)).toEqual({ success: true, errorDetail: "" });
    await client.notificationRules.delete(1, created.id);
    expect((await client.notificationRules.list(1)).map((r) => r.id)).toEqual([5001]);
    await expect(client.notificationRules.delete(1, created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("is refused a duplicate name (409), as the service finds a rule by its name", async () => {
    const client = env.client();
    await expect(client.notificationRules.create(1, { ...webhook, name: "Critical findings to the SOC" })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

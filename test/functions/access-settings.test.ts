/** The product-configuration and notification-rule data sources and their Output twins against the emulator (demo preset). */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  getDeploymentSettings,
  getDeploymentSettingsOutput,
  getNotificationRules,
  getNotificationRulesOutput,
  InvalidRequestError,
} from "../../provider";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

/** The value of an Output, and whether it is a secret (test-only: reads Pulumi's internals). */
const internals = <T>(output: pulumi.Output<T>) => output as unknown as { promise(): Promise<T>; isSecret: Promise<boolean> };
const operations = () => env.requests().map((r) => r.operation);

describe("getDeploymentSettings", () => {
  it("reads the configuration in DeploymentSettings' names, in one request", async () => {
    const settings = await getDeploymentSettings({ deploymentId: "1" });
    expect(settings.sca).toMatchObject({ enabled: true, blockPrEnabled: true, malwareFirewallEnabled: true });
    expect(settings.secrets).toEqual({ enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" });
    expect(settings.ai).toEqual({ enabled: true, legacyAllowOpenaiCodeSharing: false, allowedProviders: ["anthropic"], mdrEnabled: false });
    expect(operations()).toEqual(["products.get"]);
  });

  it("getDeploymentSettingsOutput takes Output arguments and gives the same result", async () => {
    const output = getDeploymentSettingsOutput({ deploymentId: pulumi.output("1") });
    expect(await internals(output).promise()).toEqual(await getDeploymentSettings({ deploymentId: 1 }));
  });

  it("refuses a bad deployment id, naming the field, before any request", async () => {
    await expect(getDeploymentSettings({ deploymentId: "acme" })).rejects.toThrow(/deploymentId/);
    await expect(getDeploymentSettings({ deploymentId: "acme" })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(operations()).toEqual([]);
  });
});

describe("getNotificationRules", () => {
  it("reads every rule in one request, named as NotificationRule names them", async () => {
    const { rules } = await getNotificationRules({ deploymentId: "1" });
    expect(rules).toEqual([
      {
        ruleId: 5001,
        name: "Critical findings to the SOC",
        channel: "CHANNEL_WEBHOOK",
        config: { url: PRESET_WEBHOOK_URL },
        policySlugs: ["block-critical-high-confidence"],
        enabled: true,
        sendScanCompletion: false,
        useNetworkBroker: false,
        configError: "",
      },
    ]);
    expect(operations()).toEqual(["notificationRules.list"]);
  });

  it("getNotificationRulesOutput holds a config with a URL as a secret, and one without in clear", async () => {
    await env.client().notificationRules.create(1, { name: "Email", channel: "CHANNEL_EMAIL", config: { to: "soc@acme.example" } });
    const { rules } = await internals(getNotificationRulesOutput({ deploymentId: "1" })).promise();
    const [webhook, email] = rules;
    expect(await internals(webhook!.config).isSecret).toBe(true);
    expect(await internals(webhook!.config).promise()).toEqual({ url: PRESET_WEBHOOK_URL });
    expect(await internals(email!.config).isSecret).toBe(false);
  });
});

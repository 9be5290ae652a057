/**
 * DeploymentSettings and NotificationRule through the real CLI, in a TypeScript program against the
 * emulator (demo preset, on unified policies): `up`, a no-change preview that writes nothing, a
 * product switched off out of band found by `refresh` and switched on again by `up`, a webhook URL
 * given plain in the program printed nowhere (not in `preview --diff`, the run's output, or
 * `pulumi stack export` without `--show-secrets`), and `destroy` leaving the product configuration
 * and the notification rules as they were before the first `up`. And a URL given plain through the
 * plugin, in a YAML program.
 */
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";
import { printedWithoutPathWarnings, yamlWorkspace } from "../support/yaml-program";

const { start } = useEmulators({ preset: "demo", policiesV2: true });

/** Both URLs carry a token in their path, as real webhook URLs do. */
const SOC_URL = "https://hooks.acme.example/semgrep/T0KEN-rotated-77aa";
const ONCALL_URL = "https://oncall.acme.example/in/T0KEN-oncall-31f0";

const PROGRAM = program(`
const deploymentId = "1";
new semgrep.DeploymentSettings("products", {
  deploymentId,
  sast: { triagePermission: "TRIAGE_PERMISSION_NONE" },
  sca: { blockPrEnabled: true, malwareFirewallEnabled: true },
  secrets: { enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" },
  ai: { legacyAllowOpenaiCodeSharing: false },
});
new semgrep.NotificationRule("soc", {
  deploymentId, name: "Critical findings to the SOC", channel: "CHANNEL_WEBHOOK",
  config: { url: ${JSON.stringify(SOC_URL)} },
  policySlugs: ["block-critical-high-confidence"], sendScanCompletion: false,
});
new semgrep.NotificationRule("oncall", {
  deploymentId, name: "Secrets to the on-call", channel: "CHANNEL_WEBHOOK",
  config: { url: ${JSON.stringify(ONCALL_URL)} },
  policySlugs: ["secrets-to-slack"],
});
`);

const accessState = (emulator: RunningEmulator) =>
  structuredClone({ products: emulator.state().productConfigs, rules: emulator.state().notificationRules });
const writesSince = (emulator: RunningEmulator, from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter((r) => r.method !== "GET" && !/list|dryRun/.test(r.operation ?? ""))
    .map((r) => r.operation);

describe("DeploymentSettings and NotificationRule through the real CLI", () => {
  it("up, no-change preview, drift found and corrected, the webhook URLs printed nowhere, destroy puts everything back", async () => {
    const emulator = await start();
    // A deployment whose Secrets product is off: the program turns it on (its original, off, recorded).
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    await client.products.update(1, { secrets: { enabled: false } });
    const before = accessState(emulator);
    const workspace = await programWorkspace(emulator, PROGRAM);
    const outputs: string[] = [];
    const run = async (args: string[]) => {
      const result = await workspace.run(args);
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const preview = await run(["preview", "--diff"]);
    expect(printed(preview)).toMatch(/config *: \[secret\]/);
    expect(printed(preview)).toMatch(/\+ 4 to create/); // the stack and the three resources
    await run(["up", "--yes"]);
    const products = emulator.state().productConfigs[0]!;
    expect(products.sast.triagePermission).toBe("TRIAGE_PERMISSION_NONE");
    expect(products.sca.malwareFirewallEnabled).toBe(true);
    const rules = emulator.state().notificationRules;
    expect(rules.map((r) => [r.id, r.name, r.config.url])).toEqual([
      [5001, "Critical findings to the SOC", SOC_URL], // adopted, its URL rotated
      [5002, "Secrets to the on-call", ONCALL_URL],
    ]);

    // A no-change preview writes nothing.
    let mark = emulator.requests().length;
    const unchanged = await run(["preview", "--diff"]);
    expect(printed(unchanged)).not.toMatch(/to update|to create|to delete/);
    expect(writesSince(emulator, mark)).toEqual([]);

    // Secrets is switched off again in the UI: refresh finds it, up switches it on again (one read-modify-write).
    await client.products.update(1, { secrets: { enabled: false } });
    await client.close();
    await run(["refresh", "--yes"]);
    const drifted = await run(["preview", "--diff"]);
    expect(printed(drifted)).toMatch(/~ 1 to update/);
    mark = emulator.requests().length;
    await run(["up", "--yes"]);
    expect(writesSince(emulator, mark)).toEqual(["products.update"]);
    expect(emulator.state().productConfigs[0]!.secrets.enabled).toBe(true);

    // The URLs are secrets in the state, though the program gave them plain.
    const exported = await workspace.exported();
    expect(exported).not.toContain("T0KEN");
    const decrypted = await workspace.resources({ showSecrets: true });
    expect(JSON.stringify(decrypted.soc?.outputs)).toContain(SOC_URL);
    expect(JSON.stringify(decrypted.soc?.outputs)).toContain(before.rules[0]!.config.url); // the original, put back on destroy

    await run(["destroy", "--yes"]);
    expect(accessState(emulator)).toEqual(before);
    // Printed nowhere: not in preview --diff, up, refresh or destroy, nor the preset's URL recorded as the original.
    for (const output of outputs) expect(output).not.toContain("T0KEN");
  }, 300_000);
});

describe("through the plugin, in a YAML program", () => {
  it("a webhook URL given plain is a secret: shown as [secret] by preview --diff, encrypted in the state, printed nowhere; destroy puts the rule back", async () => {
    const emulator = await start();
    const before = accessState(emulator);
    const workspace = await yamlWorkspace(
      `resources:
  soc:
    type: semgrep:index:NotificationRule
    properties:
      deploymentId: "1"
      name: Critical findings to the SOC
      channel: CHANNEL_WEBHOOK
      config: { url: ${JSON.stringify(SOC_URL)} }
      policySlugs: [block-critical-high-confidence]
      sendScanCompletion: false
  products:
    type: semgrep:index:DeploymentSettings
    properties:
      deploymentId: "1"
      sca: { malwareFirewallEnabled: true, blockPrEnabled: true }
`,
      { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } },
    );
    const preview = await workspace.run(["preview", "--diff"]);
    expect(printedWithoutPathWarnings(preview)).toMatch(/config *: \[secret\]/);
    await workspace.run(["up", "--yes"]);
    expect(emulator.state().notificationRules.find((r) => r.id === 5001)!.config.url).toBe(SOC_URL);
    expect(await workspace.exported()).not.toContain("T0KEN");
    const mark = emulator.requests().length;
    await workspace.run(["preview", "--diff"]);
    expect(writesSince(emulator, mark)).toEqual([]);
    await workspace.run(["destroy", "--yes"]);
    expect(accessState(emulator)).toEqual(before);
    expect(workspace.printed()).not.toContain("T0KEN");
  }, 300_000);
});

/**
 * DeploymentSettings and NotificationRule through the real CLI in a YAML program (the native
 * plugin of the installed package) against the emulator's demo deployment, on unified policies:
 * `up`, a no-change preview that writes nothing, the Secrets product switched off out of band
 * found by `refresh` and switched on again by `up`, webhook URLs printed nowhere and encrypted in
 * the state (one given plain in the program, one of a rule adopted without `config`, which the
 * resource does not manage), and `destroy` leaving the emulator's whole state as the snapshot taken
 * before the first `up`. (The TypeScript side: access-settings.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { snapshotOf } from "../support/emulator";
import { printedWithoutPathWarnings, yamlWorkspace } from "../support/yaml-program";

/** Both URLs carry a token in their path, as real webhook URLs do. */
const SOC_URL = "https://hooks.acme.example/semgrep/T0KEN-rotated-77aa";
const ONCALL_URL = "https://oncall.acme.example/in/T0KEN-oncall-31f0";

let emulator: RunningEmulator;
let client: SemgrepClient;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", policiesV2: true, retryAfterSeconds: 0 });
  client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

/** The requests since `mark` that change something (the listings are POSTs that only read), in order. */
const writesSince = (mark: number) =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET" && !/\.list$|dryRun/.test(r.operation ?? ""))
    .map((r) => `${r.operation} ${r.status}`);

const PROGRAM = `resources:
  products:
    type: semgrep:index:DeploymentSettings
    properties:
      deploymentId: "1"
      sast: { triagePermission: TRIAGE_PERMISSION_NONE }
      sca: { blockPrEnabled: true, malwareFirewallEnabled: true }
      secrets: { enabled: true, triagePermission: TRIAGE_PERMISSION_NONE }
      ai: { legacyAllowOpenaiCodeSharing: false }
  soc:
    type: semgrep:index:NotificationRule
    properties:
      deploymentId: "1"
      name: Critical findings to the SOC
      channel: CHANNEL_WEBHOOK
      config: { url: ${JSON.stringify(SOC_URL)} }
      policySlugs: [block-critical-high-confidence]
      sendScanCompletion: false
  oncall:
    type: semgrep:index:NotificationRule
    properties:
      deploymentId: "1"
      name: Secrets to the on-call
      channel: CHANNEL_WEBHOOK
      policySlugs: [secrets-to-slack]
      sendScanCompletion: false
`;

describe("DeploymentSettings and NotificationRule through the CLI, in a YAML program", () => {
  it("up, a no-change preview, a product switched off out of band found and corrected, the URLs printed nowhere, destroy leaving the whole state as before", async () => {
    // Secrets is off, and an on-call rule exists whose URL the program does not declare: the program adopts it.
    await client.products.update(1, { secrets: { enabled: false } });
    await client.notificationRules.create(1, {
      name: "Secrets to the on-call",
      channel: "CHANNEL_WEBHOOK",
      config: { url: ONCALL_URL },
      policySlugs: ["secrets-to-slack"],
    });
    const before = snapshotOf(emulator);
    const workspace = await yamlWorkspace(PROGRAM, {
      config: { "semgrep:url": emulator.url },
      secrets: { "semgrep:token": emulator.token },
    });

    const preview = await workspace.run(["preview", "--diff"]);
    expect(printedWithoutPathWarnings(preview)).toMatch(/config *: \[secret\]/);
    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(mark).sort()).toEqual(["notificationRules.replace 200", "notificationRules.replace 200", "products.update 200"]);
    const products = emulator.state().productConfigs[0]!;
    expect([products.sast.triagePermission, products.secrets.enabled, products.sca.malwareFirewallEnabled]).toEqual([
      "TRIAGE_PERMISSION_NONE",
      true,
      true,
    ]);
    const rules = emulator.state().notificationRules;
    expect(rules.map((r) => [r.name, r.config.url, r.sendScanCompletion])).toEqual([
      ["Critical findings to the SOC", SOC_URL, false],
      ["Secrets to the on-call", ONCALL_URL, false], // its URL as it was: not managed
    ]);
    // Both URLs are secrets in the state from the first up: the declared one, and the adopted rule's, which no input gave.
    expect(await workspace.exported()).not.toContain("T0KEN");

    // A no-change preview writes nothing (the on-call rule's live URL, not declared, is no change either).
    mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(mark)).toEqual([]);

    // Secrets switched off again in the UI: refresh finds it, up switches it on again (one read-modify-write).
    await client.products.update(1, { secrets: { enabled: false } });
    const refresh = await workspace.run(["refresh", "--yes", "--diff"]);
    expect(printedWithoutPathWarnings(refresh)).toMatch(/enabled *: true => false/);
    expect(printedWithoutPathWarnings(await workspace.run(["preview"]))).toMatch(/~ 1 to update/);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(mark)).toEqual(["products.update 200"]);
    expect(emulator.state().productConfigs[0]!.secrets.enabled).toBe(true);
    mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(mark)).toEqual([]);

    // Both URLs are secrets in the state: encrypted in the export, readable with --show-secrets.
    expect(await workspace.exported()).not.toContain("T0KEN");
    const decrypted = await workspace.resources({ showSecrets: true });
    expect(JSON.stringify(decrypted.oncall?.outputs)).toContain(ONCALL_URL);

    await workspace.run(["destroy", "--yes"]);
    expect(snapshotOf(emulator)).toEqual(before);
    // Printed nowhere: not in preview --diff, up, refresh or destroy, nor the preset's URL recorded as the original.
    expect(workspace.printed()).not.toContain("T0KEN");
  }, 600_000);
});

/**
 * A NotificationRule that does not declare `config`, adopting a rule whose webhook URL carries a
 * token, and a `NotificationRule.get` of the demo's rule, through the real CLI in a TypeScript
 * program (the dynamic classes): the live URLs, which no input gave, are secrets in the state from
 * the first `up` and printed nowhere, and the next preview, whose olds hold those URLs, is no
 * change and writes nothing. (The same through the plugin: access-settings-yaml.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { snapshotOf, useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start } = useEmulators({ preset: "demo", policiesV2: true });

const ONCALL_URL = "https://oncall.acme.example/in/T0KEN-oncall-31f0";

describe("a NotificationRule's config it does not declare, in a TypeScript program", () => {
  it("is a secret in the state from the first up, printed nowhere, and no change at the next preview", async () => {
    const emulator = await start();
    const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    await client.notificationRules.create(1, {
      name: "Secrets to the on-call",
      channel: "CHANNEL_WEBHOOK",
      config: { url: ONCALL_URL },
      policySlugs: ["secrets-to-slack"],
    });
    await client.close();
    const before = snapshotOf(emulator);
    const workspace = await programWorkspace(
      emulator,
      program(`
new semgrep.NotificationRule("oncall", { deploymentId: "1", name: "Secrets to the on-call", channel: "CHANNEL_WEBHOOK", sendScanCompletion: false });
exports.socChannel = semgrep.NotificationRule.get("soc", "1/5001").channel;
`),
    );
    const outputs: string[] = [];
    const run = async (args: string[]) => {
      const result = await workspace.run(args);
      outputs.push(printed(result));
      return result;
    };

    await run(["up", "--yes"]);
    expect(emulator.state().notificationRules.find((r) => r.name === "Secrets to the on-call")!.sendScanCompletion).toBe(false);
    expect(await workspace.exported()).not.toContain("T0KEN");
    const decrypted = await workspace.resources({ showSecrets: true });
    expect(JSON.stringify(decrypted.oncall?.outputs)).toContain(ONCALL_URL);

    const mark = emulator.requests().length;
    await run(["preview", "--expect-no-changes", "--diff"]);
    expect(
      emulator
        .requests()
        .slice(mark)
        .filter((r) => r.method !== "GET" && !r.operation?.endsWith(".list")),
    ).toEqual([]);

    await run(["destroy", "--yes"]);
    expect(snapshotOf(emulator)).toEqual(before);
    for (const output of outputs) expect(output).not.toContain("T0KEN");
  }, 300_000);
});

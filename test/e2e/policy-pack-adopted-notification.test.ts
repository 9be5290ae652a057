/**
 * protected-notifications-kept on the first `up` of a NotificationRule that adopts an existing rule
 * of a protected policy: the demo's rule 5001 ("Critical findings to the SOC", for
 * block-critical-high-confidence, protected by examples/pull-request's config) declared with
 * another policy, or disabled. Either way the protected policy's notification is gone once the
 * adoption lands, as if the rule were deleted. Through the real CLI and the package's policy pack,
 * against the emulator (demo preset, unified policies). The stack's last state holds no rule yet:
 * the pack reads the deployment's rule of that name with the run's credentials and judges against it.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start } = useEmulators({ preset: "demo", policiesV2: true });

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
const CONFIG = join(__dirname, "../../examples/pull-request/policy-config.json");

const adopting = (fields: string) =>
  program(`
new semgrep.NotificationRule("soc", {
  deploymentId: "1", name: "Critical findings to the SOC", channel: "CHANNEL_WEBHOOK",
  config: { url: pulumi.secret("https://hooks.acme.example/semgrep/T0KEN-critical-9f2c") }, sendScanCompletion: false, ${fields}
});
`);

describe.each([
  ["declared for another policy", `policySlugs: ["secrets-to-slack"], enabled: true`],
  ["declared for another policy and disabled", `policySlugs: ["secrets-to-slack"], enabled: false`],
])("protected-notifications-kept, the demo's protected rule adopted and %s", (_name, fields) => {
  it("fails the preview", async () => {
    const emulator = await start();
    const workspace = await programWorkspace(emulator, adopting(fields));
    copyFileSync(CONFIG, join(workspace.dir, "policy-config.json"));
    const preview = await workspace.run(["preview", "--policy-pack", PACK(), "--policy-pack-config", "policy-config.json"], {
      allowFailure: true,
    });
    expect(printed(preview)).toMatch(/\[mandatory\] +protected-notifications-kept/);
    expect(printed(preview)).toMatch(
      /no longer notifies about block-critical-high-confidence .*it adopts the deployment's rule "Critical findings to the SOC"/,
    );
    expect(preview.status).not.toBe(0);
  }, 300_000);
});

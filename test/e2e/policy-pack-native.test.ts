/**
 * The policy pack over the native plugin's resources, through the real CLI: a YAML program's
 * `semgrep:index:PolicyRuleMode` that weakens a critical rule fails the preview, and when its mode
 * is a secret (`fn::secret`, which the engine marks and `@pulumi/policy` unwraps) no message
 * prints the mode's text but the pack's own list of weak modes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { printedWithoutPathWarnings, yamlWorkspace } from "../support/yaml-program";

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw"; // SEVERITY_CRITICAL
const TOKEN = "pack-native-e2e-token";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", token: TOKEN });
});
afterAll(() => emulator?.close());

const program = (mode: string) => `resources:
  block-sql:
    type: semgrep:index:PolicyRuleMode
    properties:
      deploymentId: "1"
      policyId: "10"
      rulePath: ${CRITICAL_SQL}
      mode: ${mode}
`;

/** `pulumi preview` of `body` with the pack (its credentials in its config), before anything is created. */
async function previewWithPack(body: string) {
  const workspace = await yamlWorkspace(body, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": TOKEN } });
  const config = join(workspace.dir, "policy-config.json");
  writeFileSync(config, JSON.stringify({ "critical-rules-not-weakened": { token: TOKEN, url: emulator.url } }));
  const mark = emulator.requests().length;
  const result = await workspace.run(["preview", "--policy-pack", PACK(), "--policy-pack-config", config], { allowFailure: true });
  return {
    status: result.status,
    out: printedWithoutPathWarnings(result),
    writes: emulator
      .requests()
      .slice(mark)
      .filter((r) => r.method !== "GET"),
  };
}

describe("the policy pack over a YAML program (native plugin)", () => {
  it("a PolicyRuleMode putting a critical rule into MODE_DISABLED fails the preview, with no write", async () => {
    const { status, out, writes } = await previewWithPack(program("MODE_DISABLED"));
    expect(status).not.toBe(0);
    expect(out).toMatch(/\[mandatory\] critical-rules-not-weakened/);
    expect(out).toContain(
      `PolicyRuleMode "block-sql" sets mode MODE_DISABLED on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule`,
    );
    expect(writes).toEqual([]);
  });

  it("the same with the mode a secret: it still fails, and no message prints the mode", async () => {
    const { status, out, writes } = await previewWithPack(program("\n        fn::secret: MODE_MONITOR"));
    expect(status).not.toBe(0);
    expect(out).toContain(
      `PolicyRuleMode "block-sql" sets mode [secret] on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule`,
    );
    // The pack's own list of weak modes names them all (redacted there, the missing one would be
    // the secret); nowhere else does the mode's text appear.
    const ownList = "rules of severity SEVERITY_CRITICAL may not be put into MODE_MONITOR or MODE_DISABLED.";
    expect(out).toContain(ownList);
    expect(out.replaceAll(ownList, "")).not.toContain("MODE_MONITOR");
    expect(writes).toEqual([]);
  });
});

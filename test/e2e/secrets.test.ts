/**
 * The token, whether from `semgrep:token` or SEMGREP_APP_TOKEN, never appears in plaintext in the
 * state, nor (even decrypted) in our resources' inputs and outputs, nor in anything printed at
 * `-v=9 --logtostderr` by our code (provider log lines, error messages), nor in the emulator's
 * request log. (The CLI's own -v=9 trace of the Configure call does show stack secrets.)
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";

const TOKEN = "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e7ab12";

const program = (badRule: boolean) => `
const semgrep = require("pulumi-semgrep");
new semgrep.ProjectSettings("web-app", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "develop" });
new semgrep.PolicyRuleMode("rule", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${badRule ? "no.such.rule" : "python.lang.security.audit.eval-detected.eval-detected"}", mode: "MODE_DISABLED" });
exports.policy = semgrep.getPolicyOutput({ deploymentId: "1", isDefault: true, productType: "PRODUCT_TYPE_SAST" }).name;
`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", token: TOKEN });
});
afterAll(async () => emulator?.close());

describe.each(["stack config semgrep:token", "SEMGREP_APP_TOKEN"])("with the token in %s", (source) => {
  it("never shows it", async () => {
    const fromConfig = source.startsWith("stack");
    const credentials = fromConfig ? { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" } : { SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url };
    const files = { "Pulumi.yaml": "name: secrets\nruntime: nodejs\n", "index.js": program(false), "package.json": '{"name":"secrets","main":"index.js"}' };
    const workspace = await pulumiWorkspace(files, credentials, join(inject("installedPackageDir"), "node_modules"));
    if (fromConfig) {
      await workspace.run(["config", "set", "semgrep:url", emulator.url]);
      await workspace.run(["config", "set", "--secret", "semgrep:token", TOKEN]);
    }
    const verbose = ["-v=9", "--logtostderr", "--logflow"];
    const printed: string[] = [];
    const run = async (args: string[], allowFailure = false) => {
      const result = await workspace.run([...args, ...verbose], { allowFailure });
      printed.push(result.stdout, result.stderr);
      return result;
    };
    await run(["up", "--yes", "--skip-preview"]);
    await run(["refresh", "--yes", "--skip-preview"]);

    const exported = (await workspace.run(["stack", "export"])).stdout;
    expect(exported).not.toContain(TOKEN);
    const decrypted = JSON.parse((await workspace.run(["stack", "export", "--show-secrets"])).stdout) as {
      deployment: { resources: Array<{ type: string; inputs?: unknown; outputs?: unknown }> };
    };
    const ours = decrypted.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/semgrep:"));
    expect(ours).toHaveLength(2);
    for (const resource of ours) expect(JSON.stringify([resource.inputs, resource.outputs])).not.toContain(TOKEN);

    // An error raised by our code, printed by the CLI: the same stack with a rule not in the policy.
    writeFileSync(join(workspace.dir, "index.js"), program(true));
    const failed = await run(["up", "--yes", "--skip-preview"], true);
    expect(failed.status).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(/rule "no\.such\.rule" is not in policy 10/);
    writeFileSync(join(workspace.dir, "index.js"), program(false));
    await run(["destroy", "--yes", "--skip-preview"]);

    const all = printed.join("\n");
    expect(all.length).toBeGreaterThan(10_000); // the verbose logs really were captured
    // The one place the token shows is the CLI's own trace of the secret config it hands the
    // dynamic-provider host at -v=9 (the host declines secrets, so the engine unwraps them first).
    const leaks = all.split("\n").filter((line) => line.includes(TOKEN));
    const engineTrace = /"msg":"Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.Configure\(\)\.inputs\]: value=/;
    expect(leaks.filter((line) => !engineTrace.test(line))).toEqual([]);
    if (!fromConfig) expect(leaks).toEqual([]);
    expect(JSON.stringify(emulator.requests())).not.toContain(TOKEN);
  }, 180_000);
});

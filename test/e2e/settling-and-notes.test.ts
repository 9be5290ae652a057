/**
 * Smaller promises of issue 21, case 7, through the real CLI against the emulator: a resource
 * that states a default explicitly settles (a second `up` writes nothing), a selector that
 * matches no rule says so, a refused connection fails fast with one clear line, the data
 * sources take a secret token, the "already as declared" note prints only where it matters, and
 * a DetectionPolicy list change says what it adds and removes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { printed, program, programWorkspace } from "../support/program";

let emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.map((e) => e.close()));
  emulators = [];
});
async function emulator(options: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const started = await startEmulator(options);
  emulators.push(started);
  return started;
}

/** The write requests (anything but a read or a dry run) made since `from`, an index into the request log. */
const writesSince = (emulator: RunningEmulator, from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter((r) => r.method !== "GET" && !r.operation?.startsWith("policiesV2.dryRun"));

describe("a RemediationPolicy stating a condition's default mode", () => {
  it("settles: a second up writes nothing and a preview shows no change", async () => {
    const v2 = await emulator({ preset: "demo", policiesV2: true });
    const workspace = await programWorkspace(
      v2,
      program(`
new semgrep.RemediationPolicy("explicit-any", {
  deploymentId: "1", slug: "explicit-any", policyName: "Explicit any",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"], mode: "any" }] },
  actions: [{ type: "pr_comment" }],
});`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const from = v2.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(v2, from)).toEqual([]);
  });
});

describe("a PolicyRuleModes selector that matches no rule", () => {
  it("warns at preview and up, naming the criteria and the values the policy's rules have", async () => {
    const v1 = await emulator({ preset: "demo" });
    const workspace = await programWorkspace(
      v1,
      program(
        `new semgrep.PolicyRuleModes("typo", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { languages: ["pythn"] }, mode: "MODE_BLOCK" });`,
      ),
    );
    const warning =
      /warning: PolicyRuleModes "typo": select \{"languages":\["pythn"\]\} matches no rule of policy \d+ \(deployment 1, \d+ rules\), so it sets no rule to MODE_BLOCK: no rule has language "pythn" \(the policy's rules have: [^)]*python/;
    expect(printed(await workspace.run(["preview"]))).toMatch(warning);
    expect(printed(await workspace.run(["up", "--yes", "--skip-preview"]))).toMatch(warning);
    // Once created, an unchanged selector says nothing more (and reads nothing at preview).
    const from = v1.requests().length;
    expect(printed(await workspace.run(["preview"]))).not.toMatch(/matches no rule/);
    expect(v1.requests().slice(from)).toEqual([]);
  });
});

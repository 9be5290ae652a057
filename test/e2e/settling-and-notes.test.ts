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

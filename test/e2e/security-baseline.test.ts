/**
 * The security-baseline example through the real Pulumi CLI, with the packed package installed
 * as a user's project has it: preview, up, a no-change preview, refresh after an out-of-band
 * change, up again, destroy, and the service left exactly as it was found.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";

const EXAMPLE = join(__dirname, "../../examples/security-baseline");
const TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

let emulator: RunningEmulator;
let workspace: PulumiWorkspace;
let before: string;

const snapshot = () => {
  const state = emulator.state();
  return JSON.stringify({
    projects: state.projects,
    modes: state.policies.flatMap((p) => p.rules.map((r) => `${p.id}/${r.path}=${r.policyMode}`)),
  });
};
const project = (name: string) => emulator.state().projects.find((p) => p.name === name)!;
const rule = (path: string) =>
  emulator
    .state()
    .policies.find((p) => p.id === SAST_POLICY_ID)!
    .rules.find((r) => r.path === path)!;
const apiRequests = () => emulator.requests().length;

beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", token: TOKEN });
  before = snapshot();
  workspace = await pulumiWorkspace(
    {
      "Pulumi.yaml": readFileSync(join(EXAMPLE, "Pulumi.yaml"), "utf8"),
      "package.json": readFileSync(join(EXAMPLE, "package.json"), "utf8"),
      "index.ts": readFileSync(join(EXAMPLE, "index.ts"), "utf8"),
    },
    { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" },
    join(inject("installedPackageDir"), "node_modules"),
  );
  await workspace.run(["config", "set", "semgrep:url", emulator.url]);
  await workspace.run(["config", "set", "--secret", "semgrep:token", TOKEN]);
}, 120_000);

afterAll(async () => {
  await emulator?.close();
});

describe("the security-baseline example through the Pulumi CLI", () => {
  it("previews without a single API request", async () => {
    const preview = await workspace.run(["preview"]);
    expect(preview.stdout).toMatch(/\+ 13 to create/);
    expect(apiRequests()).toBe(0);
  });

  it("applies the baseline", async () => {
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(project("acme/payments-api")).toMatchObject({
      primaryBranch: "refs/heads/main",
      managedScanConfig: { diff_scan: { enabled: true }, full_scan: { enabled: true } },
    });
    // The ProjectTags' tags go after the project's own, the system tag managed-scan among them.
    expect(project("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan", "owner:appsec", "baseline:2026"]);
    expect(project("acme/mobile-app").managedScanConfig.diff_scan.enabled).toBe(true);
    expect(rule(EVAL).policyMode).toBe("MODE_BLOCK");
    expect(emulator.state().sbomExports).toHaveLength(1);
    expect(emulator.requests().filter((r) => r.operation === "policies.listRules")).toHaveLength(1);
  });

  it("keeps the token out of the state, with a small __provider per resource", async () => {
    const exported = (await workspace.run(["stack", "export"])).stdout;
    expect(exported).not.toContain(TOKEN);
    const state = JSON.parse(exported) as {
      deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
    };
    const ours = state.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/semgrep:"));
    expect(ours).toHaveLength(12);
    for (const resource of ours) {
      const shim = resource.outputs?.__provider as string;
      expect(shim.length).toBeLessThanOrEqual(1024);
      expect(shim).toContain(`require("pulumi-semgrep/shims/${resource.type.split(":").pop()}")`);
    }
    const revealed = (await workspace.run(["stack", "export", "--show-secrets"])).stdout;
    const decrypted = JSON.parse(revealed) as typeof state;
    for (const resource of decrypted.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/semgrep:"))) {
      expect(JSON.stringify([resource.inputs, resource.outputs])).not.toContain(TOKEN);
    }
  });

  it("previews no change, still without an API request", async () => {
    const count = apiRequests();
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(apiRequests()).toBe(count);
  });

  it("refreshes without drift as no change", async () => {
    const refresh = await workspace.run(["refresh", "--yes", "--skip-preview"]);
    expect(refresh.stdout).not.toMatch(/updated/);
    expect(refresh.stdout).toMatch(/13 unchanged/);
  });

  it("finds out-of-band changes on refresh and corrects them on the next up", async () => {
    rule(EVAL).policyMode = "MODE_MONITOR";
    project("acme/web-app").tags = ["team:web", "managed-scan"]; // tier:1 removed by hand; the service keeps its system tag
    const refresh = await workspace.run(["refresh", "--yes"]);
    expect(refresh.stdout).toMatch(/~ 2 updated|2 updated/);
    const preview = await workspace.run(["preview", "--diff"]);
    expect(preview.stdout).toMatch(/~ 2 to update/);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(rule(EVAL).policyMode).toBe("MODE_BLOCK");
    expect(project("acme/web-app").tags).toEqual(["team:web", "managed-scan", "owner:appsec", "baseline:2026"]);
    await workspace.run(["preview", "--expect-no-changes"]);
  });

  it("destroys, restoring every value as it was found (but the tag removed by hand)", async () => {
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    const after = JSON.parse(snapshot());
    const expected = JSON.parse(before);
    // tier:1 was removed by hand above, not by the stack: it stays removed.
    expected.projects.find((p: { name: string }) => p.name === "acme/web-app").tags = ["team:web", "managed-scan"];
    expect(after).toEqual(expected);
  });
});

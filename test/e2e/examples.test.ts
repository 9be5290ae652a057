/** Every example but the security baseline and drift-check (each tested in a file of its own) runs as shipped: `pulumi up`, then `pulumi destroy` puts the service back. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";

const EXAMPLES = [
  "project-settings",
  "project-tags",
  "managed-scan",
  "policy-rule-mode",
  "sbom-export",
  "block-high-severity",
  "unified-policies",
  "pull-request",
];

describe("examples", () => {
  it.each(EXAMPLES)(
    "%s: up, no-change preview, destroy",
    async (example) => {
      // unified-policies needs a deployment migrated to Policies V2
      const emulator = await startEmulator({ preset: "demo", policiesV2: example === "unified-policies" });
      try {
        const snapshot = () =>
          JSON.stringify({
            projects: emulator.state().projects,
            policies: emulator.state().policies.map((p) => p.rules.map((r) => r.policyMode)),
            detection: emulator.state().detectionPolicies,
            remediation: emulator.state().remediationPolicies,
          });
        const before = snapshot();
        const dir = join(__dirname, "../../examples", example);
        const shipped = ["Pulumi.yaml", "package.json", "index.ts", "policy-config.json"].filter((f) => existsSync(join(dir, f)));
        const files = Object.fromEntries(shipped.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
        // One example reads its credentials from the stack config (the data sources in the program,
        // the resources in the provider process); the others from the environment.
        const fromConfig = example === "block-high-severity";
        const credentials = fromConfig
          ? { SEMGREP_APP_URL: "", SEMGREP_APP_TOKEN: "" }
          : { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
        const workspace = await pulumiWorkspace(files, credentials, join(inject("installedPackageDir"), "node_modules"));
        if (fromConfig) {
          await workspace.run(["config", "set", "semgrep:url", emulator.url]);
          await workspace.run(["config", "set", "--secret", "semgrep:token", emulator.token]);
        }
        if (example === "pull-request") {
          // The program passes its own policy pack (the analyzer executable, as this CLI needs), with its config.
          const pack = join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
          const preview = await workspace.run(["preview", "--policy-pack", pack, "--policy-pack-config", "policy-config.json"]);
          expect(preview.stdout).toContain("✅ semgrep@v0.1.0");
          expect(preview.stdout + preview.stderr).not.toMatch(/\[(mandatory|advisory)\]/);
        }
        const up = await workspace.run(["up", "--yes", "--skip-preview"]);
        expect(up.stdout).toMatch(/created/);
        const writes = emulator.requests().filter((r) => r.method !== "GET");
        expect(writes.length).toBeGreaterThan(0);
        if (example === "block-high-severity") {
          const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout);
          const targeted = emulator
            .state()
            .policies[0]!.rules.filter((r) => r.category === "security" && ["SEVERITY_HIGH", "SEVERITY_CRITICAL"].includes(r.severity));
          expect(outputs.blockedRules).toBe(targeted.length);
          expect(targeted.every((r) => r.policyMode === "MODE_BLOCK")).toBe(true);
          expect(outputs.latestScans.count).toBe(100);
          expect(emulator.requests().filter((r) => r.operation === "policies.listRules")).toHaveLength(1); // one PolicyRuleModes: one listing
        }
        if (example === "unified-policies") {
          const code = emulator.state().detectionPolicies.find((p) => p.product === "code")!;
          expect(code.disabled).toHaveLength(2);
          expect(code.exceptions.filter((e) => e.project === "acme/payments-api")).toHaveLength(2);
          expect(emulator.state().detectionPolicies.find((p) => p.product === "secrets")!.disabled).toEqual([]);
          const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout);
          expect(outputs.blockingPolicy).toBe("Block critical, high-confidence findings in PRs");
          expect(outputs.remediationConditionTypes).toEqual(expect.arrayContaining(["severity", "confidence"]));
        }
        await workspace.run(["preview", "--expect-no-changes"]);
        await workspace.run(["destroy", "--yes", "--skip-preview"]);
        expect(snapshot()).toBe(before);
      } finally {
        await emulator.close();
      }
    },
    120_000,
  );
});

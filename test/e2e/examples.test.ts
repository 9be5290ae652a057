/**
 * Every TypeScript example but the security baseline and drift-check (each tested in a file of its
 * own), and the YAML one, runs as shipped: `pulumi up`, a no-change preview, then `pulumi destroy`
 * puts the service back. (The SDK examples run in go-sdk and node-sdk; Python's and C#'s are checked
 * in test/sdk/examples.test.ts.)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";
import { yamlWorkspace } from "../support/yaml-program";

const EXAMPLES = [
  "typescript",
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

describe("examples/yaml (the README's YAML program, over the plugin)", () => {
  it("up blocks the rule and adds the tag, a preview then shows no change, destroy puts both back", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const evalRule = () =>
        emulator.state().policies[0]!.rules.find((r) => r.path === "python.lang.security.audit.eval-detected.eval-detected")!.policyMode;
      const webTags = () => emulator.state().projects.find((p) => p.name === "acme/web-app")!.tags;
      const before = { mode: evalRule(), tags: webTags() };
      expect(before.mode).not.toBe("MODE_BLOCK");
      // The shipped file, less the two lines the workspace writes itself (its project's name and runtime).
      const shipped = readFileSync(join(__dirname, "../../examples/yaml/Pulumi.yaml"), "utf8");
      const body = shipped.replace(/^(name|runtime): .*\n/gm, "");
      const workspace = await yamlWorkspace(body, {
        config: { "semgrep:url": emulator.url },
        secrets: { "semgrep:token": emulator.token },
      });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      expect({ mode: evalRule(), tags: [...webTags()].sort() }).toEqual({
        mode: "MODE_BLOCK",
        tags: [...before.tags, "owner:appsec"].sort(),
      });
      const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as { policies: { name: string }[] };
      expect(outputs.policies.map((p) => p.name)).toEqual(emulator.state().policies.map((p) => p.name));
      await workspace.run(["preview", "--expect-no-changes"]);
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect({ mode: evalRule(), tags: webTags() }).toEqual(before);
    } finally {
      await emulator.close();
    }
  }, 120_000);
});

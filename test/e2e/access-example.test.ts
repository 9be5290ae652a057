/**
 * examples/access through the real CLI, as shipped: the TypeScript program (the dynamic front end)
 * and the YAML one (the native plugin). Each goes up, shows no change at a second preview, and
 * destroy leaves the emulator's users, teams, product configuration, notification rules and
 * remediation policies exactly as before the first up. The TypeScript one runs under the package's
 * policy pack with the example's config (plus the example's own rule protected): it passes as
 * shipped, and each access policy fails the preview of a change that weakens what it guards.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";
import { yamlWorkspace } from "../support/yaml-program";

const EXAMPLE = join(__dirname, "../../examples/access");

/** What the access kinds touch in the emulator, for "destroy puts everything back". */
const accessState = (emulator: RunningEmulator) =>
  JSON.stringify(
    (({ users, teams, productConfigs, notificationRules, remediationPolicies, projects }) => ({
      users,
      teams,
      productConfigs,
      notificationRules,
      remediationPolicies,
      projects,
    }))(emulator.state()),
  );

/** The writes the emulator was sent since the `from`th request (listings and dry runs are POSTs too: not writes). */
const writesSince = (emulator: RunningEmulator, from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter((r) => r.method !== "GET" && !/\.list$|\.dryRun/.test(r.operation ?? ""))
    .map((r) => r.operation);

describe("examples/access, TypeScript, under the policy pack", () => {
  it("goes up clean, each weakening change fails its policy's preview, destroy leaves the deployment as before", async () => {
    const emulator = await startEmulator({ preset: "demo", policiesV2: true });
    try {
      const before = accessState(emulator);
      const files = Object.fromEntries(
        ["Pulumi.yaml", "package.json", "index.ts"].map((f) => [f, readFileSync(join(EXAMPLE, "typescript", f), "utf8")]),
      );
      const packageDir = join(inject("installedPackageDir"), "node_modules");
      const workspace = await pulumiWorkspace(files, { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token }, packageDir);
      const config = JSON.parse(readFileSync(join(__dirname, "../../examples/pull-request/policy-config.json"), "utf8")) as Record<
        string,
        Record<string, unknown>
      >;
      // The example's own policy protected too, so that disabling its rule is a weakening the preview must refuse.
      config["protected-notifications-kept"]!.protectedPolicySlugs = ["block-critical-high-confidence", "critical-findings"];
      writeFileSync(join(workspace.dir, "policy-config.json"), JSON.stringify(config));
      const pack = [
        "--policy-pack",
        join(packageDir, "pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep"),
        "--policy-pack-config",
        "policy-config.json",
      ];

      const up = await workspace.run(["up", "--yes", ...pack]);
      expect(up.stdout + up.stderr).not.toMatch(/\[mandatory\]/);
      const team = (name: string) => emulator.state().teams.find((t) => t.name === name)!;
      expect(team("payments").repositoryIds.length).toBeGreaterThan(0);
      expect(emulator.state().notificationRules.map((r) => r.name)).toContain("Critical findings to the SOC pager");
      const afterUp = emulator.requests().length;
      await workspace.run(["preview", "--expect-no-changes", ...pack]);
      expect(writesSince(emulator, afterUp)).toEqual([]);

      const index = readFileSync(join(workspace.dir, "index.ts"), "utf8");
      const weakenings: Array<[policy: string, edit: (program: string) => string]> = [
        [
          "protected-projects-team-access",
          (p) => `${p}\nnew Team("web", { deploymentId, name: "web", projects: ["acme/payments-api"] });\n`,
        ],
        ["protected-products-not-weakened", (p) => p.replace("malwareFirewallEnabled: true", "malwareFirewallEnabled: false")],
        ["ai-code-sharing-off", (p) => p.replace("legacyAllowOpenaiCodeSharing: false", "legacyAllowOpenaiCodeSharing: true")],
        [
          "protected-notifications-kept",
          (p) => p.replace("  enabled: true,\n  sendScanCompletion", "  enabled: false,\n  sendScanCompletion"),
        ],
        [
          "org-admins-allowed",
          (p) =>
            `${p.replace("import { DeploymentSettings,", "import { UserRole, DeploymentSettings,")}\nnew UserRole("carol-admin", { deploymentId, userId: "103", role: "ORG_ROLE_ADMIN" });\n`,
        ],
      ];
      for (const [policy, edit] of weakenings) {
        const edited = edit(index);
        expect(edited, policy).not.toBe(index);
        writeFileSync(join(workspace.dir, "index.ts"), edited);
        const preview = await workspace.run(["preview", ...pack], { allowFailure: true });
        expect(preview.status, policy).not.toBe(0);
        expect(preview.stdout + preview.stderr, policy).toMatch(new RegExp(`\\[mandatory\\]\\s+${policy}`));
      }
      // A webhook that is not https://, set as the secret the example reads: refused, and printed nowhere.
      writeFileSync(join(workspace.dir, "index.ts"), index);
      await workspace.run(["config", "set", "--secret", "socWebhookUrl", "http://soc.acme.example/hooks/s3cr3t-path"]);
      const clear = await workspace.run(["preview", ...pack], { allowFailure: true });
      expect(clear.stdout + clear.stderr).toMatch(/\[mandatory\]\s+protected-notifications-kept/);
      expect(clear.stdout + clear.stderr).not.toContain("s3cr3t-path");
      await workspace.run(["config", "rm", "socWebhookUrl"]);

      expect(writesSince(emulator, afterUp)).toEqual([]);
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(accessState(emulator)).toBe(before);
    } finally {
      await emulator.close();
    }
  }, 600_000);
});

describe("examples/access, YAML, over the plugin", () => {
  it("goes up, shows no change, and destroy leaves the deployment as before", async () => {
    const emulator = await startEmulator({ preset: "demo", policiesV2: true });
    try {
      const before = accessState(emulator);
      const body = readFileSync(join(EXAMPLE, "yaml/Pulumi.yaml"), "utf8").replace(/^(name|runtime): .*\n/gm, "");
      const workspace = await yamlWorkspace(body, {
        config: { "semgrep:url": emulator.url },
        secrets: { "semgrep:token": emulator.token, socWebhookUrl: "https://soc.acme.example/hooks/s3cr3t-path" },
      });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      const appsec = emulator.state().teams.find((t) => t.name === "appsec")!;
      expect(appsec.members.map((m) => m.userId).sort()).toEqual(["101", "102", "105"]);
      const afterUp = emulator.requests().length;
      await workspace.run(["preview", "--expect-no-changes"]);
      expect(writesSince(emulator, afterUp)).toEqual([]);
      expect(workspace.printed()).not.toContain("s3cr3t-path");
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(accessState(emulator)).toBe(before);
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

/**
 * The policy pack shipped in the package (`policy-pack/`), through the real CLI against the
 * emulator, run as CLIs whose language host cannot run a directory pack run it: the executable
 * `policy-pack/pulumi-analyzer-semgrep` given to `--policy-pack`. A mandatory violation fails
 * `preview` and `up` before any write; an advisory one warns; config changes what is checked and
 * how strictly; credentials decide whether the severities can be looked up at all.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { useEmulators } from "../support/emulator";
import { printed, program, type ProgramWorkspace, programWorkspace } from "../support/program";

const { start: emulator } = useEmulators({ preset: "demo" });

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw"; // SEVERITY_CRITICAL
const HIGH_EVAL = "python.lang.security.audit.eval-detected.eval-detected"; // SEVERITY_HIGH

/** `pulumi <command> --policy-pack <the executable>`, with the pack's config when given. */
async function withPack(workspace: ProgramWorkspace, command: string[], config?: object, env?: Record<string, string>) {
  const args = [...command, "--policy-pack", PACK()];
  if (config) {
    const file = join(workspace.dir, "policy-config.json");
    writeFileSync(file, JSON.stringify(config));
    args.push("--policy-pack-config", file);
  }
  return workspace.run(args, { allowFailure: true, env });
}

const ruleMode = (name: string, rulePath: string, mode: string, extra = "") =>
  `new semgrep.PolicyRuleMode(${JSON.stringify(name)}, { deploymentId: "1", policyId: "10", rulePath: ${JSON.stringify(rulePath)}, mode: ${JSON.stringify(mode)}${extra} });`;

describe("the policy pack (v1 resources)", () => {
  it("compliant program previews clean; weakening a critical rule fails preview and up with no write; advisories warn", async () => {
    const api = await emulator();
    const workspace = await programWorkspace(
      api,
      program(`${ruleMode("block-sql", CRITICAL_SQL, "MODE_BLOCK")}
new semgrep.ManagedScan("web-diff", { deploymentSlug: "acme", projectName: "acme/web-app", diffScan: { enabled: true } });`),
    );
    const clean = await withPack(workspace, ["preview"]);
    expect(clean.status).toBe(0);
    expect(printed(clean)).not.toMatch(/critical-rules-not-weakened|diff-scans-enabled|restore-on-delete/);
    expect(api.requests()).toEqual([]); // no weak mode: no severity lookup

    workspace.write(
      program(`${ruleMode("block-sql", CRITICAL_SQL, "MODE_MONITOR", ", restoreOnDelete: false")}
new semgrep.ManagedScan("web-diff", { deploymentSlug: "acme", projectName: "acme/web-app", diffScan: { enabled: false } });`),
    );
    const blocked = await withPack(workspace, ["preview"]);
    expect(blocked.status).not.toBe(0);
    const out = printed(blocked);
    expect(out).toMatch(/\[mandatory\] critical-rules-not-weakened/);
    expect(out).toContain(
      `PolicyRuleMode "block-sql" sets mode MODE_MONITOR on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule`,
    );
    expect(out).toMatch(/\[advisory\] diff-scans-enabled.*ManagedScan "web-diff" sets diffScan.enabled false for project "acme\/web-app"/);
    expect(out).toMatch(/\[advisory\] restore-on-delete.*PolicyRuleMode "block-sql" sets restoreOnDelete false/);
    // One listing of the policy for the severity lookup (a read), nothing else.
    expect(api.requests().map((r) => r.operation)).toEqual(["policies.listRules"]);

    const up = await withPack(workspace, ["up", "--yes"]);
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(/critical-rules-not-weakened/);
    expect(api.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await workspace.resources()).toEqual({});

    // Config: the policy made advisory passes the preview with a warning; a high rule is protected
    // when severities say so; a misspelt key is a violation, not a silent default.
    const advisory = await withPack(workspace, ["preview"], { "critical-rules-not-weakened": { enforcementLevel: "advisory" } });
    expect(advisory.status).toBe(0);
    expect(printed(advisory)).toMatch(/\[advisory\] critical-rules-not-weakened/);
    workspace.write(program(ruleMode("monitor-eval", HIGH_EVAL, "MODE_MONITOR")));
    expect((await withPack(workspace, ["preview"])).status).toBe(0); // a high rule: not protected by default
    const high = await withPack(workspace, ["preview"], {
      "critical-rules-not-weakened": { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] },
    });
    expect(high.status).not.toBe(0);
    expect(printed(high)).toContain("a SEVERITY_HIGH rule");
    const misspelt = await withPack(workspace, ["preview"], { "critical-rules-not-weakened": { severites: ["SEVERITY_HIGH"] } });
    expect(misspelt.status).not.toBe(0);
    expect(printed(misspelt)).toContain('the config of policy critical-rules-not-weakened has "severites", which it does not know');
  }, 300_000);

  it("credentials: none fails closed (advisory with skipWithoutCredentials), the pack config's token works, a wrong token fails; unknowns at preview are not checkable, never a crash", async () => {
    const api = await emulator();
    const workspace = await programWorkspace(api, program(ruleMode("monitor-sql", CRITICAL_SQL, "MODE_MONITOR")), { credentials: "none" });
    const none = await withPack(workspace, ["preview"]);
    expect(none.status).not.toBe(0);
    expect(printed(none)).toMatch(
      /\[mandatory\] critical-rules-not-weakened.*without Semgrep credentials this policy cannot look up its severity/,
    );
    const skipped = await withPack(workspace, ["preview"], { "critical-rules-not-weakened": { skipWithoutCredentials: true } });
    expect(skipped.status).toBe(0);
    expect(printed(skipped)).toMatch(/\[advisory\] critical-rules-not-weakened.*without Semgrep credentials/);
    const configured = await withPack(workspace, ["preview"], { "critical-rules-not-weakened": { token: api.token, url: api.url } });
    expect(configured.status).not.toBe(0);
    expect(printed(configured)).toContain("a SEVERITY_CRITICAL rule");
    const wrong = await withPack(workspace, ["preview"], { "critical-rules-not-weakened": { token: "not-the-token", url: api.url } });
    expect(wrong.status).not.toBe(0);
    expect(printed(wrong)).toMatch(/could not look up the severity of rule .*401/);

    // A rule path computed from another resource's output is unknown at preview: reported as not
    // checkable (advisory), never a crash; the update checks it once known.
    workspace.write(
      program(`const first = new semgrep.PolicyRuleMode("first", { deploymentId: "1", policyId: "10", rulePath: "${HIGH_EVAL}", mode: "MODE_BLOCK" });
new semgrep.PolicyRuleMode("computed", { deploymentId: "1", policyId: "10", rulePath: first.ruleId.apply(() => "${CRITICAL_SQL}"), mode: "MODE_DISABLED" });`),
    );
    const unknown = await withPack(workspace, ["preview"], undefined, { SEMGREP_APP_URL: api.url, SEMGREP_APP_TOKEN: api.token });
    expect(printed(unknown)).not.toMatch(/Error validating resource|TypeError/);
    expect(printed(unknown)).toMatch(
      /\[advisory\] critical-rules-not-weakened.*can't run policy 'critical-rules-not-weakened' .* during preview/,
    );
    expect(unknown.status).toBe(0);
  }, 300_000);
});

describe("the policy pack (unified policies)", () => {
  it("protected rules and packs may not be disabled or excluded; remediation policies must block critical findings", async () => {
    const api = await emulator({ policiesV2: true });
    const config = {
      "protected-rules-not-disabled": { protectedRules: ["python.django.security.injection."], protectedPacks: ["p/default"] },
    };
    const workspace = await programWorkspace(
      api,
      program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", disabled: ["python.lang.best-practice.open-never-closed.open-never-closed", ${JSON.stringify(CRITICAL_SQL)}] });
new semgrep.DetectionPolicyException("docs-default", { deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/docs-site", rule: "p/default", ruleType: "pack" });
new semgrep.RemediationPolicy("comment-only", {
  deploymentId: "1", slug: "comment-only", policyName: "Comment only",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] }, actions: [{ type: "pr_comment" }],
});`),
    );
    const blocked = await withPack(workspace, ["preview"], config);
    expect(blocked.status).not.toBe(0);
    const out = printed(blocked);
    expect(out).toContain(
      `DetectionPolicy "code" disables rule ${CRITICAL_SQL} (disabled[1]): it matches the protected prefix "python.django.security.injection." (protectedRules)`,
    );
    expect(out).toContain(
      'DetectionPolicyException "docs-default" excludes pack p/default for project "acme/docs-site" (exceptionType exclude): it is a protected pack (protectedPacks)',
    );
    expect(out).toMatch(/\[advisory\] critical-findings-block.*none blocks critical findings/);
    expect(api.requests().filter((r) => r.method === "PUT")).toEqual([]);

    workspace.write(
      program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", disabled: ["python.lang.best-practice.open-never-closed.open-never-closed"] });
new semgrep.RemediationPolicy("block-critical", {
  deploymentId: "1", slug: "block-critical", policyName: "Block critical",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] }, actions: [{ type: "pr_comment" }, { type: "block" }],
});`),
    );
    const clean = await withPack(workspace, ["preview"], config);
    expect(clean.status).toBe(0);
    expect(printed(clean)).not.toMatch(/protected-rules-not-disabled|critical-findings-block/);
  }, 300_000);
});

describe("the policy pack as a directory (current CLIs)", () => {
  it("is served as a current Node.js language host serves a directory pack, and blocks the same preview", async () => {
    const api = await emulator();
    const workspace = await programWorkspace(api, program(ruleMode("block-sql", CRITICAL_SQL, "MODE_MONITOR")));
    // A current host runs a directory pack (RunPlugin, kind policy) as `node <@pulumi/pulumi/cmd/run-policy-pack,
    // resolved from the pack's directory> <engine address> <pack directory>`. This CLI's 3.68 host cannot, so the
    // same command is given to it as an analyzer executable.
    const directory = join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack");
    const analyzer = join(workspace.dir, "pulumi-analyzer-current-host");
    writeFileSync(
      analyzer,
      `#!/bin/sh
cd ${JSON.stringify(directory)} || exit 1
exec node "$(node -p 'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")')" "$1" ${JSON.stringify(directory)}
`,
    );
    chmodSync(analyzer, 0o755);
    const blocked = await workspace.run(["preview", "--policy-pack", analyzer], { allowFailure: true });
    expect(blocked.status).not.toBe(0);
    expect(printed(blocked)).toMatch(/semgrep@v0\.1\.0 .*\[mandatory\] critical-rules-not-weakened/);
    expect(printed(blocked)).toContain(`PolicyRuleMode "block-sql" sets mode MODE_MONITOR on rule ${CRITICAL_SQL}`);
    expect(api.requests().filter((r) => r.method !== "GET")).toEqual([]);
  }, 300_000);
});

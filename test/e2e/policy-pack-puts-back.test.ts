/**
 * The shipped policy pack against what a run puts back, through the real CLI and the example's
 * config (examples/pull-request/policy-config.json): a rule-mode resource removed from the
 * program, an entry dropped from `modes`, a rule added to `exclude` each put back the mode the
 * stack found, and the pack fails the preview when that mode is weak on a protected rule (it reads
 * the stack's last state with `pulumi stack export`); a protected pack dropped from a
 * DetectionPolicy's rulesets fails it too; config values are checked; the pack's `url` takes the
 * form its description once suggested.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import type { RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, type ProgramWorkspace, programWorkspace } from "../support/program";
import { pulumiCliDir } from "../support/pulumi";

const { start: emulator } = useEmulators({ preset: "demo" });

const PACK = () => join(inject("installedPackageDir"), "node_modules/pulumi-semgrep/policy-pack/pulumi-analyzer-semgrep");
const EXAMPLE_CONFIG = JSON.parse(readFileSync(join(__dirname, "../../examples/pull-request/policy-config.json"), "utf8")) as object;
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw"; // SEVERITY_CRITICAL
const HIGH_EVAL = "python.lang.security.audit.eval-detected.eval-detected"; // SEVERITY_HIGH

/** `pulumi preview --policy-pack <the executable> --policy-pack-config <config>` (the example's by default). */
async function previewWithPack(workspace: ProgramWorkspace, config: object = EXAMPLE_CONFIG, env?: Record<string, string>) {
  const file = join(workspace.dir, "policy-config.json");
  writeFileSync(file, JSON.stringify(config));
  return workspace.run(["preview", "--policy-pack", PACK(), "--policy-pack-config", file], { allowFailure: true, env });
}

/** Sets a rule's live mode out of band (the mode the stack will find and record). */
async function setMode(api: RunningEmulator, rulePath: string, mode: "MODE_MONITOR" | "MODE_BLOCK" | "MODE_COMMENT" | "MODE_DISABLED") {
  await new SemgrepClient({ baseUrl: api.url, token: api.token, env: {} }).policies.updateRuleMode("1", "10", {
    rulePath,
    policyMode: mode,
  });
}

const ruleMode = (name: string, rulePath: string, mode: string, extra = "") =>
  `new semgrep.PolicyRuleMode(${JSON.stringify(name)}, { deploymentId: "1", policyId: "10", rulePath: ${JSON.stringify(rulePath)}, mode: ${JSON.stringify(mode)}${extra} });`;
const ruleModes = (name: string, args: string) =>
  `new semgrep.PolicyRuleModes(${JSON.stringify(name)}, { deploymentId: "1", policyId: "10", ${args} });`;

describe("the policy pack against what a run puts back (v1 rule modes)", () => {
  it("a removed PolicyRuleMode, an entry dropped from modes, a rule added to exclude fail the preview when they put a critical rule back into a weak mode; moves and strong originals pass", async () => {
    const api = await emulator();
    await setMode(api, CRITICAL_SQL, "MODE_MONITOR");
    await setMode(api, HIGH_EVAL, "MODE_MONITOR");
    const workspace = await programWorkspace(
      api,
      program(`${ruleMode("block-sql", CRITICAL_SQL, "MODE_BLOCK")}
${ruleMode("block-eval", HIGH_EVAL, "MODE_BLOCK")}`),
    );
    await workspace.run(["up", "--yes"]);
    expect((await previewWithPack(workspace)).status).toBe(0); // unchanged: nothing put back

    // (1) The PolicyRuleMode that keeps the critical rule blocking is deleted: its delete puts back MODE_MONITOR.
    workspace.write(program(ruleMode("block-eval", HIGH_EVAL, "MODE_BLOCK")));
    const removed = await previewWithPack(workspace);
    expect(removed.status).not.toBe(0);
    expect(printed(removed)).toMatch(/\[mandatory\] critical-rules-not-weakened/);
    expect(printed(removed)).toContain(
      `PolicyRuleMode "block-sql" is removed from the program: its delete puts back MODE_MONITOR on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule`,
    );
    // A high rule going back to MODE_MONITOR is not protected by the example's config; a move keeps the rule set.
    workspace.write(program(ruleMode("block-sql", CRITICAL_SQL, "MODE_BLOCK")));
    expect((await previewWithPack(workspace)).status).toBe(0);
    workspace.write(program(ruleModes("blocked", `modes: { ${JSON.stringify(CRITICAL_SQL)}: "MODE_BLOCK" }`)));
    const moved = await previewWithPack(workspace);
    expect(printed(moved)).not.toMatch(/critical-rules-not-weakened/);
    expect(moved.status).toBe(0);
    // restoreOnDelete false: the delete puts nothing back (the advisory restore-on-delete names it).
    workspace.write(
      program(
        `${ruleMode("block-sql", CRITICAL_SQL, "MODE_BLOCK", ", restoreOnDelete: false")}\n${ruleMode("block-eval", HIGH_EVAL, "MODE_BLOCK")}`,
      ),
    );
    await workspace.run(["up", "--yes"]);
    workspace.write(program(ruleMode("block-eval", HIGH_EVAL, "MODE_BLOCK")));
    expect((await previewWithPack(workspace)).status).toBe(0);

    // (2) PolicyRuleModes: an entry dropped from modes, then a rule added to a selector's exclude.
    await setMode(api, CRITICAL_SQL, "MODE_MONITOR");
    workspace.write(
      program(ruleModes("blocked", `modes: { ${JSON.stringify(CRITICAL_SQL)}: "MODE_BLOCK", ${JSON.stringify(HIGH_EVAL)}: "MODE_BLOCK" }`)),
    );
    await workspace.run(["up", "--yes"]);
    workspace.write(program(ruleModes("blocked", `modes: { ${JSON.stringify(HIGH_EVAL)}: "MODE_BLOCK" }`)));
    const dropped = await previewWithPack(workspace);
    expect(dropped.status).not.toBe(0);
    expect(printed(dropped)).toContain(
      `PolicyRuleModes "blocked" no longer manages rule ${CRITICAL_SQL} (policy 10, deployment 1) (dropped from modes, excluded, or no longer selected): the update puts back MODE_MONITOR, a SEVERITY_CRITICAL rule`,
    );
    workspace.write(
      program(ruleModes("blocked", `select: { rulePathPrefixes: ["python.django.security.injection.sql."] }, mode: "MODE_BLOCK"`)),
    );
    await workspace.run(["up", "--yes"]);
    workspace.write(
      program(
        ruleModes(
          "blocked",
          `select: { rulePathPrefixes: ["python.django.security.injection.sql."], exclude: [${JSON.stringify(CRITICAL_SQL)}] }, mode: "MODE_BLOCK"`,
        ),
      ),
    );
    const excluded = await previewWithPack(workspace);
    expect(excluded.status).not.toBe(0);
    expect(printed(excluded)).toContain(`PolicyRuleModes "blocked" no longer manages rule ${CRITICAL_SQL}`);
    // The whole PolicyRuleModes removed: its delete puts back the same.
    workspace.write(program(""));
    const gone = await previewWithPack(workspace);
    expect(gone.status).not.toBe(0);
    expect(printed(gone)).toContain(
      `PolicyRuleModes "blocked" is removed from the program: its delete puts back MODE_MONITOR on rule ${CRITICAL_SQL}`,
    );
    // Previews write nothing.
    expect(api.requests().filter((r) => r.method !== "GET" && r.operation !== "policies.updateRuleMode")).toEqual([]);

    // Without a readable state the pack cannot tell what the run puts back: it fails closed, saying why.
    // (A \`pulumi\` first on PATH that refuses \`stack export\`, as a CI image without the backend's credentials would.)
    const bin = join(workspace.dir, "..", "refusing-bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "pulumi"),
      `#!/bin/sh\nif [ "$1" = stack ] && [ "$2" = export ]; then echo "error: no access to the backend" >&2; exit 1; fi\nexec ${JSON.stringify(join(pulumiCliDir(), "pulumi"))} "$@"\n`,
    );
    chmodSync(join(bin, "pulumi"), 0o755);
    const blind = await previewWithPack(workspace, EXAMPLE_CONFIG, { PATH: `${bin}${delimiter}${workspace.env.PATH}` });
    expect(blind.status).not.toBe(0);
    expect(printed(blind)).toMatch(
      /\[mandatory\] critical-rules-not-weakened.*this policy cannot read the stack's last state, .*`pulumi stack export --stack organization\/e2e\/test` failed: error: no access to the backend/,
    );
  }, 600_000);
});

describe("the policy pack's config and address", () => {
  it("misspelt severities or weak modes fail before the run, naming the key and the allowed values; a url ending in /api/v1 works, a wrong one is one line", async () => {
    const api = await emulator();
    const workspace = await programWorkspace(api, program(ruleMode("monitor-sql", CRITICAL_SQL, "MODE_MONITOR")));
    const misspelt = await previewWithPack(workspace, {
      "critical-rules-not-weakened": { severities: ["CRITICAL"], weakModes: ["MONITOR"] },
    });
    expect(misspelt.status).not.toBe(0);
    const out = printed(misspelt);
    expect(out).toMatch(/critical-rules-not-weakened.*severities\.0.*SEVERITY_CRITICAL/);
    expect(out).toMatch(/weakModes\.0.*MODE_MONITOR/);

    const apiPath = await previewWithPack(
      workspace,
      { "critical-rules-not-weakened": { token: api.token, url: `${api.url}/api/v1` } },
      {
        SEMGREP_APP_TOKEN: "",
        SEMGREP_APP_URL: "",
      },
    );
    expect(apiPath.status).not.toBe(0);
    expect(printed(apiPath)).toContain(`PolicyRuleMode "monitor-sql" sets mode MODE_MONITOR on rule ${CRITICAL_SQL}`);
    const wrong = await previewWithPack(workspace, { "critical-rules-not-weakened": { token: api.token, url: `${api.url}/app` } });
    expect(wrong.status).not.toBe(0);
    expect(printed(wrong)).toMatch(
      /\[mandatory\] critical-rules-not-weakened.*could not look up the severity of rule .*the url of the policy's config/,
    );
    expect(printed(wrong)).not.toMatch(/ at .*\.js:\d+|Error validating resource/);
  }, 300_000);
});

describe("the policy pack against a protected pack dropped (unified policies)", () => {
  it("a DetectionPolicy whose rulesets drop p/default fails the preview with the example's config", async () => {
    const api = await emulator({ policiesV2: true });
    const detection = (rulesets: string[]) =>
      program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", rulesets: ${JSON.stringify(rulesets)} });`);
    const workspace = await programWorkspace(api, detection(["p/default", "p/owasp-top-ten"]));
    await workspace.run(["up", "--yes"]);
    expect((await previewWithPack(workspace)).status).toBe(0);
    workspace.write(detection(["p/owasp-top-ten"]));
    const dropped = await previewWithPack(workspace);
    expect(dropped.status).not.toBe(0);
    expect(printed(dropped)).toMatch(
      /\[mandatory\] protected-rules-not-disabled.*DetectionPolicy "code" declares rulesets without p\/default .*it is a protected pack \(protectedPacks\)/,
    );
  }, 300_000);
});

describe("the policy pack against the fold of PolicyRuleMode into PolicyRuleModes (docs/concepts/ownership.md)", () => {
  it("a PolicyRuleMode kept for one up as a PolicyRuleModes of the same name (alias of its type, modes: {}, restoreOnDelete: false) is the update the engine shows, not a replace: the pack passes; without restoreOnDelete: false it names the update's put-back", async () => {
    const api = await emulator();
    await setMode(api, CRITICAL_SQL, "MODE_MONITOR");
    const workspace = await programWorkspace(api, program(ruleMode("block-sql", CRITICAL_SQL, "MODE_BLOCK")));
    await workspace.run(["up", "--yes"]);
    const folded = (extra: string) =>
      program(
        `new semgrep.PolicyRuleModes("block-sql", { deploymentId: "1", policyId: "10", modes: {}${extra} }, { aliases: [{ type: "pulumi-nodejs:dynamic/semgrep:PolicyRuleMode" }] });`,
      );
    workspace.write(folded(", restoreOnDelete: false"));
    const kept = await previewWithPack(workspace);
    expect(printed(kept)).toContain("~ pulumi-nodejs:dynamic/semgrep:PolicyRuleModes block-sql update");
    expect(printed(kept)).not.toMatch(/to replace|to delete/);
    expect(printed(kept)).not.toMatch(/critical-rules-not-weakened/);
    expect(kept.status).toBe(0);
    // restoreOnDelete left at true: the update puts the rule back, and the pack says so as an update.
    workspace.write(folded(""));
    const released = await previewWithPack(workspace);
    expect(released.status).not.toBe(0);
    expect(printed(released)).toContain(
      `PolicyRuleModes "block-sql" no longer manages rule ${CRITICAL_SQL} (policy 10, deployment 1) (dropped from modes, excluded, or no longer selected): the update puts back MODE_MONITOR, a SEVERITY_CRITICAL rule`,
    );
    expect(printed(released)).not.toContain("is replaced");
  }, 300_000);
});

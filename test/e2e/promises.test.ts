/**
 * The holes a demanding user found in the five promises (issue 21), each through the real CLI
 * against the emulator (demo preset): a selector-only PolicyRuleModes is a declaration like any
 * other (promise 3); a rule moved between resources keeps its true original (promise 2); a
 * PolicyRuleModes leaves a migrated deployment; a whole-list field dropped says what it leaves.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type EmulatorOptions, SAST_POLICY_ID } from "../../provider/emulator";
import { sastPolicyOf, useEmulators } from "../support/emulator";
import { printed, program, programWorkspace, urnOf } from "../support/program";

const emulators = useEmulators({ preset: "demo" });

async function demo(options: EmulatorOptions = {}) {
  const emulator = await emulators.start(options);
  return { emulator, ...sastPolicyOf(emulator) };
}

describe("promise 3: a selector is a declaration", () => {
  it("a selector-only PolicyRuleModes beside a PolicyRuleMode, or a second selector, on one rule fails preview naming both; nothing is written and no rule flips", async () => {
    const { emulator, rules, modes, writesSince } = await demo();
    const critical = rules().find((r) => r.path.startsWith("python.django.") && r.severity === "SEVERITY_CRITICAL")!;
    const blocking = `new semgrep.PolicyRuleModes("block-high-severity", {
  deploymentId: "1", policyId: "${SAST_POLICY_ID}",
  select: { categories: ["security"], severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] },
  mode: "MODE_BLOCK",
});`;
    const workspace = await programWorkspace(emulator, program(blocking));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(modes()[critical.path]).toBe("MODE_BLOCK");
    const before = modes();

    // A PolicyRuleMode relaxing a rule the selector takes.
    workspace.write(
      program(`${blocking}
new semgrep.PolicyRuleMode("relax", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${critical.path}", mode: "MODE_MONITOR" });`),
    );
    let mark = emulator.requests().length;
    const single = await workspace.run(["preview"], { allowFailure: true });
    expect(single.status).not.toBe(0);
    // Whichever of the two the engine checks second names the other.
    const both = [`PolicyRuleMode "relax"`, `PolicyRuleModes "block-high-severity"`].map((n) => n.replace(/"/g, '\\"'));
    expect(printed(single)).toMatch(
      new RegExp(
        `(${both[0]}|${both[1]}) declares the mode of rule ${critical.path.replace(/\./g, "\\.")} in policy 10 \\(deployment 1\\), which (${both[1]}|${both[0]}) declares too`,
      ),
    );
    const up = await workspace.run(["up", "--yes"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(writesSince(mark)).toEqual([]);

    // A second selector-only PolicyRuleModes whose selector meets the first's.
    workspace.write(
      program(`${blocking}
new semgrep.PolicyRuleModes("monitor-critical", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: ["SEVERITY_CRITICAL"] }, mode: "MODE_MONITOR" });`),
    );
    mark = emulator.requests().length;
    const second = await workspace.run(["up", "--yes"], { allowFailure: true });
    expect(second.status).not.toBe(0);
    expect(printed(second)).toMatch(
      /PolicyRuleModes "(monitor-critical|block-high-severity)" declares the mode of \d+ rules of policy 10 \(deployment 1\) .*which PolicyRuleModes "(block-high-severity|monitor-critical)" declares too/,
    );
    expect(writesSince(mark)).toEqual([]);

    // refresh + up: nothing flips.
    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    await workspace.run(["up", "--yes"], { allowFailure: true });
    expect(modes()).toEqual(before);
  }, 240_000);
});

describe("promise 2: a rule moved between resources keeps its true original", () => {
  it("a modes entry moved to a new PolicyRuleMode, and to another PolicyRuleModes: the taker (dependsOn the giver) records the mode found before the stack and ends in its declared mode, destroy restores exactly", async () => {
    const { emulator, rules, modes } = await demo();
    const [x, y, z] = rules()
      .filter((r) => r.path.startsWith("python.lang."))
      .slice(0, 3);
    x!.policyMode = "MODE_COMMENT";
    y!.policyMode = "MODE_MONITOR";
    z!.policyMode = "MODE_MONITOR";
    const before = modes();
    const giver = (entries: Record<string, string>) =>
      `const giver = new semgrep.PolicyRuleModes("giver", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: ${JSON.stringify(entries)} });`;
    const workspace = await programWorkspace(
      emulator,
      program(giver({ [x!.path]: "MODE_BLOCK", [y!.path]: "MODE_BLOCK", [z!.path]: "MODE_BLOCK" })),
    );
    await workspace.run(["up", "--yes"]);

    // x goes to a new PolicyRuleMode, y to a new PolicyRuleModes, in one up (the preview says so).
    workspace.write(
      program(`${giver({ [z!.path]: "MODE_BLOCK" })}
new semgrep.PolicyRuleMode("taker", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${x!.path}", mode: "MODE_DISABLED" }, { dependsOn: [giver] });
new semgrep.PolicyRuleModes("takers", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: { "${y!.path}": "MODE_BLOCK" } }, { dependsOn: [giver] });`),
    );
    const preview = await workspace.run(["preview"]);
    expect(printed(preview)).toContain(
      `PolicyRuleModes "giver" no longer manages rule ${x!.path} in policy ${SAST_POLICY_ID} (deployment 1): it goes to PolicyRuleMode "taker", which declares it, with the mode this stack found it in, MODE_COMMENT`,
    );
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(printed(up)).not.toContain("warning:");
    const state = await workspace.resources();
    expect(state["taker"]!.outputs.originalMode).toBe("MODE_COMMENT");
    expect(state["takers"]!.outputs.originals).toEqual({ MODE_MONITOR: [y!.path] });
    expect(state["giver"]!.outputs.originals).toEqual({ MODE_MONITOR: [z!.path] });
    expect(modes()[x!.path]).toBe("MODE_DISABLED");
    expect(modes()[y!.path]).toBe("MODE_BLOCK");

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(modes()).toEqual(before);
  }, 240_000);

  it("a taker that exists already (made by `up --target`) takes the giver's original when the giver lets the rule go, and sets its mode again", async () => {
    const { emulator, rules, modes } = await demo();
    const [x, y] = rules()
      .filter((r) => r.path.startsWith("python.lang."))
      .slice(0, 2);
    x!.policyMode = "MODE_DISABLED";
    y!.policyMode = "MODE_MONITOR";
    const before = modes();
    const giver = (entries: Record<string, string>) =>
      `const grp = new semgrep.PolicyRuleModes("grp", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: ${JSON.stringify(entries)} });`;
    const workspace = await programWorkspace(emulator, program(giver({ [x!.path]: "MODE_BLOCK", [y!.path]: "MODE_BLOCK" })));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    // The taker comes first, alone: it finds the giver's MODE_BLOCK (the stack's own value).
    workspace.write(
      program(`${giver({ [y!.path]: "MODE_BLOCK" })}
new semgrep.PolicyRuleMode("single", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${x!.path}", mode: "MODE_COMMENT" }, { dependsOn: [grp] });`),
    );
    await workspace.run(["up", "--yes", "--skip-preview", "--target", urnOf("PolicyRuleMode", "single")]);
    expect((await workspace.resources())["single"]!.outputs.originalMode).toBe("MODE_BLOCK");

    // The whole program: the giver lets x go with its original, the taker takes it (an update) and x stays as declared.
    const up = await workspace.run(["up", "--yes"]);
    expect(printed(up)).not.toContain("warning:");
    expect((await workspace.resources())["single"]!.outputs.originalMode).toBe("MODE_DISABLED");
    expect(modes()[x!.path]).toBe("MODE_COMMENT");
    await workspace.run(["preview", "--expect-no-changes"]);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(modes()).toEqual(before);
  }, 240_000);
});

describe("a deployment migrated to unified policies", () => {
  it("a PolicyRuleModes made before the migration: refresh fails naming DEPLOYMENT_MIGRATED and PolicyRuleModes; destroy lets it go with a warning naming what it had changed", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-migration-")), "state.json");
    const { emulator, rules } = await demo({ dataFile });
    const eval_ = rules().find((r) => r.path === "python.lang.security.audit.eval-detected.eval-detected")!;
    eval_.policyMode = "MODE_MONITOR";
    const workspace = await programWorkspace(
      emulator,
      program(
        `new semgrep.PolicyRuleModes("bulk", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: { "${eval_.path}": "MODE_BLOCK" } });`,
      ),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await emulator.close();
    const { emulator: after } = await demo({ dataFile, policiesV2: true });
    const env = { SEMGREP_APP_URL: after.url };
    const refresh = await workspace.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true, env });
    expect(refresh.status).not.toBe(0);
    expect(printed(refresh)).toContain("DEPLOYMENT_MIGRATED: this deployment uses Semgrep's unified policies");
    expect(printed(refresh)).toContain("PolicyRuleMode, PolicyRuleModes, getPolicies");
    expect(printed(refresh)).toContain("`pulumi state delete <urn>`");
    const destroy = await workspace.run(["destroy", "--yes", "--skip-preview"], { env });
    expect(printed(destroy)).toContain(
      `warning: PolicyRuleModes "bulk": deployment 1 now uses Semgrep's unified policies (Policies V2; the v1 policy operations answer 410 DEPLOYMENT_MIGRATED), where v1 rule modes no longer exist: nothing to restore (MODE_MONITOR for ${eval_.path}), so the resource only leaves the stack`,
    );
    expect(await workspace.resources()).toEqual({});
  }, 180_000);
});

describe("a field dropped from the program", () => {
  it("DetectionPolicy exceptions dropped after the stack replaced other teams' entries: the preview warns what no destroy will put back, and how to keep it", async () => {
    const { emulator } = await demo({ policiesV2: true });
    const codePolicy = () => emulator.state().detectionPolicies.find((p) => p.product === "code")!;
    const theirs = structuredClone(codePolicy().exceptions);
    expect(theirs.length).toBeGreaterThan(0);
    const ours = {
      exceptionType: "exclude",
      project: "acme/web-app",
      rule: "python.lang.security.audit.eval-detected.eval-detected",
      ruleType: "rule",
    };
    const declared = { exceptionType: "exclude", projectName: "acme/web-app", rule: ours.rule, ruleType: "rule" };
    const policy = (extra: string) => program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code"${extra} });`);
    const workspace = await programWorkspace(emulator, policy(`, exceptions: [${JSON.stringify(declared)}], disabled: []`));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(codePolicy().exceptions).toEqual([ours]);

    workspace.write(policy(`, disabled: []`));
    const preview = await workspace.run(["preview"]);
    const said = printed(preview);
    expect(said).toContain(
      `warning: DetectionPolicy "code": exceptions of the code detection policy of deployment 1 is no longer declared, so no longer managed: this update drops what the stack recorded as its original, and no \`pulumi destroy\` will put it back.`,
    );
    expect(said).toContain(
      `Before this stack managed it, exceptions had ${theirs.length} entries, ${theirs.length} of them gone now: {"exceptionType"`,
    );
    expect(said).toContain(`"rule":"${theirs[0]!.rule}"`);
    expect(said).toContain("To have it back, declare exceptions as it was for one `pulumi up` before dropping it");
    await workspace.run(["up", "--yes"]);
    await workspace.run(["destroy", "--yes"]);
    expect(codePolicy().exceptions).toEqual([ours]); // as the README says: no longer managed
  }, 180_000);

  it("a RemediationPolicy's description dropped after the stack changed it: the preview warns what it was (found by the workflow generator)", async () => {
    const { emulator } = await demo({ policiesV2: true });
    const policy = (extra: string) =>
      program(`new semgrep.RemediationPolicy("comments", {
  deploymentId: "1", slug: "comment-high-severity", policyName: "Comment on high-severity findings",
  filters: { mode: "any", conditions: [{ type: "severity", values: ["high", "critical"] }] },
  actions: [{ type: "pr_comment" }]${extra},
});`);
    const before = emulator.state().remediationPolicies.find((p) => p.slug === "comment-high-severity")!.description;
    const workspace = await programWorkspace(emulator, policy(`, description: "Owned by the platform team"`));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    workspace.write(policy(""));
    const preview = await workspace.run(["preview"]);
    expect(printed(preview)).toContain(
      `warning: RemediationPolicy "comments": description of remediation policy comment-high-severity of deployment 1 is no longer declared, so no longer managed: this update drops what the stack recorded as its original, and no \`pulumi destroy\` will put it back. Before this stack managed it, description was ${JSON.stringify(before)}.`,
    );
  }, 180_000);
});

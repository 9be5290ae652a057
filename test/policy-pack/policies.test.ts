/** The policy pack's policies, called as @pulumi/policy calls them, against the emulator for severities. */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { typeToken } from "../../provider/policy-pack/resources";
import { POLICIES } from "../../provider/policy-pack/pack";
import { criticalFindingsBlock } from "../../provider/policy-pack/policies/critical-findings-block";
import { criticalRulesNotWeakened } from "../../provider/policy-pack/policies/critical-rules-not-weakened";
import { diffScansEnabled } from "../../provider/policy-pack/policies/diff-scans-enabled";
import { protectedRulesNotDisabled } from "../../provider/policy-pack/policies/protected-rules-not-disabled";
import { restoreOnDelete } from "../../provider/policy-pack/policies/restore-on-delete";
import type { ResourceKind } from "../../provider/core/kinds";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw";
const HIGH_EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const CRITICAL_CIPHER = "php.laravel.security.auth.hardcoded-cipher.hardcoded-cipher";

/** The violations one resource validation reports. */
async function violations(
  policy: { validateResource?: unknown },
  kind: ResourceKind,
  props: Record<string, unknown>,
  config: object = {},
): Promise<unknown[]> {
  const reported: unknown[] = [];
  const args = { type: typeToken(kind), name: "r", urn: "urn", props, getConfig: () => config } as unknown as ResourceValidationArgs;
  await (policy.validateResource as (a: ResourceValidationArgs, r: ReportViolation) => Promise<void> | void)(args, (v: unknown) => {
    reported.push(v);
  });
  return reported;
}

const credentials = () => ({ token: env.emulator.token, url: env.emulator.url });
const ruleMode = (rulePath: string, mode: string) => ({ deploymentId: "1", policyId: "10", rulePath, mode });

describe("critical-rules-not-weakened", () => {
  it("flags a critical rule put into a weak mode, with one listing of the policy for every check", async () => {
    const check = (rulePath: string, mode: string, config: object = {}) =>
      violations(criticalRulesNotWeakened, "PolicyRuleMode", ruleMode(rulePath, mode), { ...credentials(), ...config });
    expect(await check(CRITICAL_SQL, "MODE_MONITOR")).toEqual([expect.stringContaining("a SEVERITY_CRITICAL rule")]);
    expect(await check(CRITICAL_CIPHER, "MODE_DISABLED")).toHaveLength(1);
    expect(await check(HIGH_EVAL, "MODE_DISABLED")).toEqual([]);
    expect(await check(HIGH_EVAL, "MODE_DISABLED", { severities: ["SEVERITY_HIGH"] })).toHaveLength(1);
    expect(await check(CRITICAL_SQL, "MODE_COMMENT")).toEqual([]);
    expect(await check(CRITICAL_SQL, "MODE_COMMENT", { weakModes: ["MODE_COMMENT"] })).toHaveLength(1);
    expect(env.requests().map((r) => r.operation)).toEqual(["policies.listRules"]);
  });

  it("PolicyRuleModes: an explicit rule names its modes entry; a selector counts by severity the protected rules it would weaken, naming none", async () => {
    const check = (props: Record<string, unknown>) =>
      violations(criticalRulesNotWeakened, "PolicyRuleModes", { deploymentId: "1", policyId: "10", ...props }, credentials());
    expect(await check({ modes: { [CRITICAL_SQL]: "MODE_DISABLED", [HIGH_EVAL]: "MODE_DISABLED" } })).toEqual([
      expect.stringContaining(`sets modes[${JSON.stringify(CRITICAL_SQL)}] MODE_DISABLED on rule ${CRITICAL_SQL}`),
    ]);
    const django = { rulePathPrefixes: ["python.django."] };
    const [selected] = await check({ select: django, mode: "MODE_MONITOR" });
    expect(selected).toMatch(
      /sets mode MODE_MONITOR on every rule its select matches \(policy 10, deployment 1\), \d+ of a protected severity: /,
    );
    // Counted, not named: another resource of the program may keep one of these rule paths secret.
    expect(selected).toMatch(/\d+ SEVERITY_CRITICAL rules? \(paths not shown: another resource may declare one of them as a secret\)/);
    expect(selected).not.toContain(CRITICAL_SQL);
    // Left alone: critical rules excluded, or set by an explicit entry that is not weak.
    expect(await check({ select: { ...django, severities: ["SEVERITY_LOW"] }, mode: "MODE_MONITOR" })).toEqual([]);
    expect(await check({ select: django, mode: "MODE_BLOCK" })).toEqual([]);
    // Given as secrets (the class passes their names in secretInputs), the mode and a modes entry's path print [secret].
    const [secretEntry] = await check({ modes: { [CRITICAL_SQL]: "MODE_DISABLED" }, secretInputs: ["modes"] });
    expect(secretEntry).toContain("sets modes [secret] on rule [secret] (policy 10, deployment 1), a SEVERITY_CRITICAL rule");
    expect(secretEntry).not.toContain(CRITICAL_SQL);
    const [secretMode] = await check({ select: django, mode: "MODE_MONITOR", secretInputs: ["mode"] });
    expect(secretMode).toMatch(/^PolicyRuleModes "r" sets mode \[secret\] on every rule its select matches/);
    const [single] = await violations(
      criticalRulesNotWeakened,
      "PolicyRuleMode",
      { ...ruleMode(CRITICAL_SQL, "MODE_MONITOR"), secretInputs: ["mode"] },
      credentials(),
    );
    expect(single).toContain(`sets mode [secret] on rule ${CRITICAL_SQL}`);
    // The pack's own list of weak modes is its words, not the program's: a secret mode hidden there
    // would name every weak mode but the secret one. Only the program's value prints [secret].
    expect(single).toContain("rules of severity SEVERITY_CRITICAL may not be put into MODE_MONITOR or MODE_DISABLED.");
    expect(single).not.toMatch(/[\uE000\uE001]/);
    expect(secretEntry).toContain("may not be put into MODE_MONITOR or MODE_DISABLED.");
    // One listing per policy for every check of the run (the analyzer process): this file's first test made it.
    expect(env.requests()).toEqual([]);
  });

  it("a strong mode needs no lookup; without credentials it fails closed, advisory when told to skip", async () => {
    expect(await violations(criticalRulesNotWeakened, "PolicyRuleMode", ruleMode(CRITICAL_SQL, "MODE_BLOCK"))).toEqual([]);
    const saved = { ...process.env };
    delete process.env.SEMGREP_APP_TOKEN;
    try {
      const closed = await violations(criticalRulesNotWeakened, "PolicyRuleMode", ruleMode(CRITICAL_SQL, "MODE_MONITOR"));
      expect(closed).toEqual([expect.stringContaining("without Semgrep credentials this policy cannot look up its severity")]);
      const skipped = await violations(criticalRulesNotWeakened, "PolicyRuleMode", ruleMode(CRITICAL_SQL, "MODE_MONITOR"), {
        skipWithoutCredentials: true,
      });
      expect(skipped).toEqual([{ message: expect.stringContaining("without Semgrep credentials"), enforcementLevel: "advisory" }]);
    } finally {
      process.env = saved;
    }
    expect(env.requests()).toEqual([]);
  });

  it("reports a config key it does not know", async () => {
    const reported = await violations(criticalRulesNotWeakened, "PolicyRuleMode", ruleMode(HIGH_EVAL, "MODE_BLOCK"), { severites: [] });
    expect(reported).toEqual([expect.stringContaining('has "severites", which it does not know')]);
  });
});

describe("protected-rules-not-disabled", () => {
  const config = { protectedRules: ["python.django.security.injection.", HIGH_EVAL], protectedPacks: ["p/default"] };
  it("matches exact paths, prefixes ending in a dot, and packs, in disabled and in exclude exceptions only", async () => {
    const disabled = await violations(
      protectedRulesNotDisabled,
      "DetectionPolicy",
      {
        disabled: [CRITICAL_SQL, HIGH_EVAL, "python.django.security.injectionless.rule", "p/default"],
        exceptions: [
          { exceptionType: "exclude", projectName: "a/b", rule: "p/default", ruleType: "pack" },
          { exceptionType: "include", projectTagName: "pci", rule: "p/default", ruleType: "pack" },
          { exceptionType: "exclude", projectTagName: "legacy", rule: CRITICAL_SQL, ruleType: "rule" },
        ],
      },
      config,
    );
    expect(disabled).toEqual([
      expect.stringContaining('(disabled[0]): it matches the protected prefix "python.django.security.injection."'),
      expect.stringContaining("(disabled[1]): it is a protected rule"),
      expect.stringContaining('excludes pack p/default for project "a/b" (exceptions[0]): it is a protected pack'),
      expect.stringContaining('for projects tagged "legacy" (exceptions[2])'),
    ]);
    const exception = { exceptionType: "exclude", projectName: "a/b", rule: "p/default", ruleType: "pack" };
    expect(await violations(protectedRulesNotDisabled, "DetectionPolicyException", exception, config)).toHaveLength(1);
    expect(
      await violations(protectedRulesNotDisabled, "DetectionPolicyException", { ...exception, exceptionType: "include" }, config),
    ).toEqual([]);
    expect(await violations(protectedRulesNotDisabled, "DetectionPolicy", { disabled: [CRITICAL_SQL] })).toEqual([]); // nothing protected by default
    // Lists given as secrets print [secret] in place of the rule and the scope.
    const secret = await violations(
      protectedRulesNotDisabled,
      "DetectionPolicy",
      {
        disabled: [HIGH_EVAL],
        exceptions: [{ exceptionType: "exclude", projectName: "a/b", rule: "p/default", ruleType: "pack" }],
        secretInputs: ["disabled", "exceptions"],
      },
      config,
    );
    expect(secret).toEqual([
      expect.stringContaining("disables rule [secret] (disabled[0]): it is a protected rule"),
      expect.stringContaining("excludes pack [secret] for [secret] (exceptions[0]): it is a protected pack"),
    ]);
    expect(JSON.stringify(secret)).not.toMatch(/eval-detected|a\/b/);
  });
});

describe("diff-scans-enabled and restore-on-delete", () => {
  it("flag a diff scan turned off and restoreOnDelete false, on every kind that declares them", async () => {
    expect(await violations(diffScansEnabled, "ManagedScan", { projectName: "a/b", diffScan: { enabled: false } })).toHaveLength(1);
    expect(await violations(diffScansEnabled, "ManagedScan", { projectName: "a/b", fullScan: { enabled: false } })).toEqual([]);
    expect(
      await violations(diffScansEnabled, "ProjectSettings", { projectName: "a/b", managedScanConfig: { diffScan: { enabled: false } } }),
    ).toEqual([expect.stringContaining("managedScanConfig.diffScan.enabled false")]);
    expect(await violations(restoreOnDelete, "DetectionPolicy", { restoreOnDelete: false })).toHaveLength(1);
    expect(await violations(restoreOnDelete, "DetectionPolicy", {})).toEqual([]);
  });
});

describe("critical-findings-block", () => {
  const remediation = (props: Record<string, unknown>): PolicyResource =>
    ({ type: typeToken("RemediationPolicy"), name: String(props.slug), props }) as unknown as PolicyResource;
  const blocking = { slug: "b", actions: [{ type: "pr_comment" }, { type: "block" }] };
  async function stackViolations(resources: PolicyResource[]) {
    const reported: unknown[] = [];
    await criticalFindingsBlock.validateStack({ resources } as unknown as StackValidationArgs, (v: unknown) => reported.push(v));
    return reported;
  }
  it("needs an active blocking policy whose severity condition matches critical (none negates)", async () => {
    const severity = (values: string[], mode?: string) => ({
      mode: "all",
      conditions: [{ type: "severity", values, ...(mode ? { mode } : {}) }],
    });
    expect(await stackViolations([])).toEqual([]);
    expect(await stackViolations([remediation({ ...blocking, filters: severity(["critical"]) })])).toEqual([]);
    expect(await stackViolations([remediation({ ...blocking, filters: severity(["low"], "none") })])).toEqual([]);
    expect(await stackViolations([remediation({ ...blocking, filters: severity(["critical"], "none") })])).toHaveLength(1);
    expect(await stackViolations([remediation({ ...blocking, active: false, filters: severity(["critical"]) })])).toHaveLength(1);
    expect(
      await stackViolations([remediation({ ...blocking, actions: [{ type: "pr_comment" }], filters: severity(["critical"]) })]),
    ).toHaveLength(1);
  });
});

describe("the shipped pack", () => {
  it("names its ten policies, carries the package's version, and its analyzer is executable", () => {
    expect(POLICIES.map((p) => p.name)).toEqual([
      "critical-rules-not-weakened",
      "protected-rules-not-disabled",
      "diff-scans-enabled",
      "critical-findings-block",
      "restore-on-delete",
      "protected-projects-team-access",
      "protected-products-not-weakened",
      "ai-code-sharing-off",
      "protected-notifications-kept",
      "org-admins-allowed",
    ]);
    const root = join(__dirname, "../..");
    const version = (file: string) => (JSON.parse(readFileSync(join(root, file), "utf8")) as { version: string }).version;
    expect(version("policy-pack/package.json")).toBe(version("package.json"));
    expect(statSync(join(root, "policy-pack/pulumi-analyzer-semgrep")).mode & 0o111).toBe(0o111);
  });
});

/**
 * `pulumi import` checked against the stack's exported state (provider/native/import-refusals.ts):
 * the import's claims beside those each resource of the state makes, as its kind's own `check`
 * makes them (core/runtime/stack-claims.ts). The state here is written as `pulumi stack export`
 * prints it (native type tokens, secrets as ciphertext); the real CLI's path is
 * test/e2e/import-conflicts and test/e2e/yaml-import.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { policyRules } from "../../provider/core/handlers/rule-index";
import { declarersOf } from "../../provider/core/runtime/ownership";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { refusalAgainst } from "../../provider/native/import-refusals";
import type { ResourceKind } from "../../provider/core/kinds";
import type { StateResource } from "../../provider/policy-pack/stack-state";
import { useEmulator } from "../support/emulator";
import { useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);
beforeEach(() => forgetProcessMemory());

type Props = Record<string, unknown>;
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const STACK = "urn:pulumi:dev::trial";
const urnOf = (kind: string, name: string) => `${STACK}::semgrep:index:${kind}::${name}`;
/** A value as `pulumi stack export` prints a secret: ciphertext, unreadable. */
const ciphertext = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc:def" };
const inState = (kind: ResourceKind, name: string, inputs: Props): StateResource => ({
  urn: urnOf(kind, name),
  type: `semgrep:index:${kind}`,
  inputs,
  outputs: inputs,
});
const refusal = (kind: ResourceKind, name: string, inputs: Props, state: StateResource[]) =>
  refusalAgainst(kind, urnOf(kind, name), inputs, state);

const project = { deploymentSlug: "acme", projectName: "acme/web-app" };
const evalRule = { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL };
const selector = inState("PolicyRuleModes", "high", {
  deploymentId: "1",
  policyId: SAST_POLICY_ID,
  select: { severities: ["SEVERITY_HIGH"] },
  mode: "MODE_BLOCK",
});
const tagsOf = (tags: unknown) => inState("ProjectTags", "web-tags", { ...project, tags });
const importedSettings = {
  ...project,
  tags: ["trial", "pci"],
  managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: false } },
};

describe("an import checked against the claims of the stack's resources", () => {
  it("refuses a PolicyRuleMode whose rule a selector of the stack matches, reading only the listing its own read shared", async () => {
    await policyRules("1", SAST_POLICY_ID); // the import's read of the rule lists the policy (rule-index.ts)
    const mark = env.requests().length;
    const why = await refusal("PolicyRuleMode", "imported-eval", { ...evalRule, mode: "MODE_COMMENT" }, [selector]);
    expect(why).toContain(
      `PolicyRuleMode "imported-eval" is not imported: an import declares every value the object holds, so it would declare the mode of rule ${EVAL} in policy ${SAST_POLICY_ID} (deployment 1), which PolicyRuleModes "high" of this stack declares too (the select of PolicyRuleModes "high" matches it).`,
    );
    expect(why).toContain('leave it out of the select of PolicyRuleModes "high" with `select.exclude`');
    expect(why).toContain("Or leave it to the resource of this stack that declares it.");
    expect(env.requests().slice(mark)).toEqual([]);
    // A selector that does not match the rule: nothing in common.
    const low = inState("PolicyRuleModes", "low", { ...selector.inputs, select: { severities: ["SEVERITY_LOW"] } });
    expect(await refusal("PolicyRuleMode", "imported-eval", { ...evalRule, mode: "MODE_COMMENT" }, [low])).toBeUndefined();
  });

  it("refuses a PolicyRuleModes (whose import names every rule of the policy) beside a PolicyRuleMode or a selector of that policy", async () => {
    const rules = await policyRules("1", SAST_POLICY_ID);
    const modes = Object.fromEntries([...rules.values()].map((rule) => [rule.path, rule.policyMode]));
    const imported = { deploymentId: "1", policyId: SAST_POLICY_ID, modes };
    const single = inState("PolicyRuleMode", "block-eval", { ...evalRule, mode: "MODE_BLOCK" });
    const why = await refusal("PolicyRuleModes", "all", imported, [single]);
    expect(why).toContain(`which PolicyRuleMode "block-eval" of this stack declares too.`);
    // Its mode is required: the way out is to let it go without putting its rule back.
    expect(why).toContain('give PolicyRuleMode "block-eval" `restoreOnDelete: false` for one `pulumi up`, then remove it from the program');
    const besideSelector = await refusal("PolicyRuleModes", "all", imported, [selector]);
    expect(besideSelector).toContain('(the select of PolicyRuleModes "high" matches them)');
    // The rules are entries of its `modes`: it may be declared without them (not "without `mode`", no input of its own).
    expect(besideSelector).toContain("leaving them out of `modes`");
    const explicit = inState("PolicyRuleModes", "explicit", {
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      modes: { [EVAL]: "MODE_BLOCK" },
    });
    expect(await refusal("PolicyRuleModes", "all", imported, [explicit])).toContain(
      'first leave it out of the `modes` of PolicyRuleModes "explicit"',
    );
    expect(why).toContain('Or declare PolicyRuleModes "all" in the program instead of importing it, leaving it out of `modes`');
    // Any kind that declares its claims is checked: a RemediationPolicy of a slug the stack manages.
    const policy = { deploymentId: "1", slug: "block-critical" };
    expect(
      await refusal("RemediationPolicy", "imported", { ...policy, policyName: "x" }, [inState("RemediationPolicy", "p", policy)]),
    ).toContain(
      'the policy block-critical of the remediation policies of deployment 1, which RemediationPolicy "p" of this stack declares too',
    );
  });

  it("refuses a ProjectSettings beside a ProjectTags or a ManagedScan of that project, and each reverse import", async () => {
    const scans = inState("ManagedScan", "scans", { ...project, diffScan: { enabled: true } });
    const settings = inState("ProjectSettings", "web", { ...project, tags: ["trial"] });
    const settingsScans = inState("ProjectSettings", "web", { ...project, managedScanConfig: { fullScan: { enabled: true } } });

    const besideTags = await refusal("ProjectSettings", "imported-web", importedSettings, [tagsOf(["trial"])]);
    expect(besideTags).toContain(
      'it would declare the tags of project acme/web-app (deployment acme), which ProjectTags "web-tags" of this stack declares too.',
    );
    expect(besideTags).toContain("without `tags`");
    expect(await refusal("ProjectSettings", "imported-web", importedSettings, [scans])).toContain(
      'the diffScan of project acme/web-app (deployment acme), which ManagedScan "scans" of this stack declares too',
    );
    expect(await refusal("ProjectTags", "imported-tags", { ...project, tags: ["trial"] }, [settings])).toContain(
      'which ProjectSettings "web" of this stack declares too',
    );
    expect(await refusal("ManagedScan", "imported-scans", { ...project, fullScan: { enabled: true } }, [settingsScans])).toContain(
      'the fullScan of project acme/web-app (deployment acme), which ProjectSettings "web" of this stack declares too',
    );
  });

  it("refuses a TeamMembers declaring a member a Team of the stack declares (its team by the id the Team's state records)", async () => {
    const payments: StateResource = {
      urn: urnOf("Team", "payments"),
      type: "semgrep:index:Team",
      inputs: { deploymentId: "1", name: "payments", members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" } },
      outputs: { deploymentId: "1", name: "payments", teamId: "202", members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" } },
    };
    const imported = { deploymentId: "1", teamId: "202", members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" } };
    expect(await refusal("TeamMembers", "tm2", imported, [payments])).toContain(
      'the member 104 of team 202 of deployment 1, which Team "payments" of this stack declares too',
    );
    // Another team's members, or a Team of another name, share nothing with it.
    expect(await refusal("TeamMembers", "tm2", { ...imported, teamId: "201" }, [payments])).toBeUndefined();
  });

  it("refuses a ProjectSettings whose fields a ProjectSettingsSet of the stack declares in its projects map", async () => {
    const set = inState("ProjectSettingsSet", "all", {
      deploymentSlug: "acme",
      projects: { "acme/web-app": { managedScanConfig: { diffScan: { enabled: true } } }, "acme/mobile-app": { primaryBranch: "main" } },
    });
    expect(await refusal("ProjectSettings", "imported-web", importedSettings, [set])).toContain(
      'the diffScan of project acme/web-app (deployment acme), which ProjectSettingsSet "all" of this stack declares too',
    );
    const other = { deploymentSlug: "acme", projectName: "acme/api", tags: ["x"] };
    expect(await refusal("ProjectSettings", "imported-api", other, [set])).toBeUndefined();
  });

  it("gives as the way out leaving a toggle out of the ProjectSettings' `managedScanConfig`, not removing the whole resource", async () => {
    const settingsScans = inState("ProjectSettings", "web", {
      ...project,
      tags: ["trial"],
      managedScanConfig: { fullScan: { enabled: true } },
    });
    const scans = inState("ManagedScan", "scans", { ...project, diffScan: { enabled: true } });
    const importScans = await refusal("ManagedScan", "imported-scans", { ...project, fullScan: { enabled: true } }, [settingsScans]);
    // The toggle is an entry of its `managedScanConfig`: its tags stay managed.
    expect(importScans).toContain('first leave it out of the `managedScanConfig` of ProjectSettings "web", and run `pulumi up`');
    expect(importScans).not.toContain("remove it from the program");
    // The reverse: the import itself may be declared without the toggles another resource holds.
    expect(await refusal("ProjectSettings", "imported-web", importedSettings, [scans])).toContain(
      'Or declare ProjectSettings "imported-web" in the program instead of importing it, leaving it out of `managedScanConfig`',
    );
  });

  it("reads the resources of the dynamic classes in the same state (a TypeScript stack), their metadata beside their inputs", async () => {
    const dynamic: StateResource = {
      urn: `${STACK}::pulumi-nodejs:dynamic/semgrep:ProjectTags::ts-tags`,
      type: "pulumi-nodejs:dynamic/semgrep:ProjectTags",
      inputs: { __provider: "exports.handler = …", resourceName: "ts-tags", secretInputs: ["tags"], ...project, tags: ciphertext },
    };
    const why = await refusal("ProjectSettings", "imported-web", importedSettings, [dynamic]);
    expect(why).toContain('which ProjectTags "ts-tags" of this stack declares too');
    expect(why).not.toContain("acme/web-app"); // its tags are a secret
  });

  it("says nothing of a secret of the stack, however it conflicts", async () => {
    const why = await refusal("ProjectSettings", "imported-web", importedSettings, [tagsOf(ciphertext)]);
    expect(why).toContain('ProjectSettings "imported-web" is not imported');
    expect(why).toContain('which ProjectTags "web-tags" of this stack declares too');
    expect(why).toContain("[secret]");
    expect(why).not.toContain("project acme/web-app");
  });

  it("lets an import land, with a warning naming it, beside a resource all of whose claims hang on secrets of the state", async () => {
    await policyRules("1", SAST_POLICY_ID);
    const secretModes = inState("PolicyRuleModes", "secret-modes", { deploymentId: "1", policyId: SAST_POLICY_ID, modes: ciphertext });
    const warnings: string[] = [];
    const imported = { ...evalRule, mode: "MODE_COMMENT" };
    const why = await refusalAgainst("PolicyRuleMode", urnOf("PolicyRuleMode", "imported-eval"), imported, [secretModes, selector], (w) =>
      warnings.push(w),
    );
    expect(why).toContain('which PolicyRuleModes "high" of this stack declares too'); // a conflict it can see still refuses
    expect(
      await refusalAgainst("PolicyRuleMode", urnOf("PolicyRuleMode", "x"), imported, [secretModes], (w) => warnings.push(w)),
    ).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('could not check this import against PolicyRuleModes "secret-modes" of this stack')]);
    expect(warnings.join("\n")).not.toContain(EVAL);
    // An import of another family of objects (a project's switches) cannot meet its rules: no warning.
    const scans = { deploymentSlug: "acme", projectName: "acme/web-app", diffScan: { enabled: true } };
    expect(
      await refusalAgainst("ManagedScan", urnOf("ManagedScan", "scans"), scans, [secretModes], (w) => warnings.push(w)),
    ).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it("warns, naming it, of a stack resource whose selector is a secret beside rules it names in clear (the rules it selects are not known)", async () => {
    await policyRules("1", SAST_POLICY_ID);
    const other = "python.lang.security.audit.exec-detected.exec-detected";
    const secretSelect = inState("PolicyRuleModes", "secret-select", {
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      select: ciphertext,
      mode: "MODE_BLOCK",
      modes: { [other]: "MODE_COMMENT" },
    });
    const warnings: string[] = [];
    const imported = { ...evalRule, mode: "MODE_COMMENT" };
    expect(
      await refusalAgainst("PolicyRuleMode", urnOf("PolicyRuleMode", "x"), imported, [secretSelect], (w) => warnings.push(w)),
    ).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringContaining('could not check this import against PolicyRuleModes "secret-select" of this stack'),
    ]);
    // An import no selector of that policy could take says nothing of it.
    warnings.length = 0;
    const policy = { deploymentId: "1", slug: "block-critical", policyName: "x" };
    expect(
      await refusalAgainst("RemediationPolicy", urnOf("RemediationPolicy", "p"), policy, [secretSelect], (w) => warnings.push(w)),
    ).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("lets an import land beside resources that share nothing with it, or share what may be shared, and leaves the process's claims alone", async () => {
    const otherProject = inState("ProjectSettings", "docs", { deploymentSlug: "acme", projectName: "acme/docs-site", tags: ["x"] });
    expect(await refusal("ProjectSettings", "imported-web", importedSettings, [otherProject])).toBeUndefined();
    // Two ProjectTags share a project's tags.
    expect(await refusal("ProjectTags", "more-tags", { ...project, tags: ["trial", "pci"] }, [tagsOf(["trial"])])).toBeUndefined();
    expect(declarersOf({ object: "project acme/web-app (deployment acme)", field: "tags" })).toEqual([]);
  });
});

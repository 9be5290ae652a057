/**
 * `pulumi import` through the native plugin of the installed package, with `--out` writing YAML:
 * one object of each kind whose id names it, on a deployment that answers both policy APIs (the v1
 * kinds and the Policies V2 ones in one stack). The generated code, as the program, previews with
 * no change; the imported resources record no original, so `destroy` leaves each object as it found
 * it, and a value changed by a later `up` is put back. The steps share one emulator and one stack.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type EmulatorState, type RunningEmulator, SAST_POLICY_ID, STRICT_POLICY_ID, startEmulator } from "../../provider/emulator";
import { snapshotOf, writesSince } from "../support/emulator";
import { printedWithoutPathWarnings, TYPE_PREFIX, type YamlWorkspace, yamlWorkspace } from "../support/yaml-program";

const TOKEN = "yaml-import-token-2b8e40";
const EVAL_RULE = "python.lang.security.audit.eval-detected.eval-detected";
const LEGACY_EXEC = "python.lang.security.audit.exec-detected.exec-detected";

/** One object of each importable kind, by the name it gets in the program: its type and id (each kind's id format, docs/resources). */
const IMPORTS = {
  "web-app": ["ProjectSettings", "acme/acme/web-app"],
  "payments-tags": ["ProjectTags", "acme/acme/payments-api"],
  "mobile-scans": ["ManagedScan", "acme/acme/mobile-app"],
  strict: ["PolicyRuleModes", `1/${STRICT_POLICY_ID}/strict`],
  secrets: ["DetectionPolicy", "1/secrets"],
  "legacy-exec": ["DetectionPolicyException", `1/code/project_tag/legacy%20systems/rule/${LEGACY_EXEC}`],
  "pci-to-jira": ["RemediationPolicy", "1/pci-findings-to-jira"],
} as const;

interface Generated {
  resources: Record<string, { type: string; properties: Record<string, unknown>; options: Record<string, unknown> }>;
}

describe("pulumi import of each kind, with --out YAML", { timeout: 180_000 }, () => {
  let emulator: RunningEmulator;
  let before: EmulatorState;
  let workspace: YamlWorkspace;
  let generated: Generated;
  const rules = (policyId: string) => emulator.state().policies.find((p) => p.id === policyId)!.rules;

  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: "both", token: TOKEN, retryAfterSeconds: 0 });
    before = snapshotOf(emulator);
    workspace = await yamlWorkspace("", { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": TOKEN } });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("1. import reads each object, writes nothing, and generates YAML declaring what the object holds", async () => {
    const mark = emulator.requests().length;
    const file = join(workspace.dir, "import.json");
    const resources = Object.entries(IMPORTS).map(([name, [kind, id]]) => ({ type: `${TYPE_PREFIX}${kind}`, name, id }));
    writeFileSync(file, JSON.stringify({ resources }));
    await workspace.run(["import", "--file", file, "--yes", "--out", "imported.yaml"]);
    // The form a user types, one resource.
    const single = await workspace.run([
      "import",
      `${TYPE_PREFIX}PolicyRuleMode`,
      "eval-rule",
      `1/${SAST_POLICY_ID}/${EVAL_RULE}`,
      "--yes",
      "--out",
      "eval.yaml",
    ]);
    expect(printedWithoutPathWarnings(single)).not.toMatch(/warning:|error:/i);
    expect(writesSince(emulator, mark)).toEqual([]);

    const bulk = parse(readFileSync(join(workspace.dir, "imported.yaml"), "utf8")) as Generated;
    const one = parse(readFileSync(join(workspace.dir, "eval.yaml"), "utf8")) as Generated;
    generated = { resources: { ...bulk.resources, ...one.resources } };
    const declared = (name: string) => generated.resources[name]!;
    for (const [name, r] of Object.entries(generated.resources)) expect(r.options, name).toEqual({ protect: true });
    expect(Object.fromEntries(Object.entries(generated.resources).map(([name, r]) => [name, r.type]))).toEqual({
      ...Object.fromEntries(Object.entries(IMPORTS).map(([name, [kind]]) => [name, `semgrep:${kind}`])),
      "eval-rule": "semgrep:PolicyRuleMode",
    });
    // The project's tags (no system tag) and both scan toggles; its branch left out, being the default one.
    expect(declared("web-app").properties).toEqual({
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      tags: ["team:web", "tier:1"],
      managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
    });
    expect(declared("payments-tags").properties).toEqual({
      deploymentSlug: "acme",
      projectName: "acme/payments-api",
      tags: ["team:payments", "pci", "tier:0"],
    });
    expect(declared("mobile-scans").properties).toEqual({
      deploymentSlug: "acme",
      projectName: "acme/mobile-app",
      diffScan: { enabled: false },
      fullScan: { enabled: false },
    });
    expect(declared("eval-rule").properties).toEqual({
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      rulePath: EVAL_RULE,
      mode: "MODE_COMMENT",
    });
    // Every rule of the policy, with its live mode.
    expect(declared("strict").properties).toEqual({
      deploymentId: "1",
      policyId: STRICT_POLICY_ID,
      modes: Object.fromEntries(rules(STRICT_POLICY_ID).map((r) => [r.path, r.policyMode])),
    });
    expect(Object.keys(declared("strict").properties.modes as object)).toHaveLength(40);
    expect(declared("secrets").properties).toEqual({
      deploymentId: "1",
      product: "secrets",
      rulesets: [],
      rules: [],
      disabled: [
        "generic.secrets.security.detected-pypi-access-key.detected-pypi-access-key",
        "generic.secrets.security.detected-pypi-pat.detected-pypi-pat",
      ],
      exceptions: [
        {
          exceptionType: "exclude",
          projectName: "acme/docs-site",
          rule: "generic.secrets.security.detected-twilio-pat.detected-twilio-pat",
          ruleType: "rule",
        },
      ],
    });
    expect(declared("legacy-exec").properties).toEqual({
      deploymentId: "1",
      product: "code",
      exceptionType: "exclude",
      projectTagName: "legacy systems",
      rule: LEGACY_EXEC,
      ruleType: "rule",
    });
    expect(declared("pci-to-jira").properties).toEqual({
      deploymentId: "1",
      slug: "pci-findings-to-jira",
      policyName: "PCI findings to Jira",
      description: "Tickets for code findings in PCI-scoped projects (paused during the Jira migration).",
      active: false,
      filters: {
        mode: "all",
        conditions: [
          { type: "repository_tag", values: ["pci"] },
          { type: "product", values: ["secrets"], mode: "none" },
        ],
      },
      actions: [{ type: "jira", config: { project_id: "SEC", credential_slug: "acme-jira" } }],
    });
  });

  it("2. the generated YAML, as the program, previews with no change and no write", async () => {
    workspace.write(stringify(generated));
    const mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(emulator, mark)).toEqual([]);
  });

  it("3. destroy leaves every imported object as it was, and puts back a value a later up changed", async () => {
    const edited = structuredClone(generated);
    edited.resources["eval-rule"]!.properties.mode = "MODE_BLOCK";
    workspace.write(stringify(edited));
    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual(["policies.updateRuleMode 200"]);
    expect(rules(SAST_POLICY_ID).find((r) => r.path === EVAL_RULE)!.policyMode).toBe("MODE_BLOCK");

    await workspace.run(["state", "unprotect", "--all", "--yes"]);
    mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark)).toEqual(["policies.updateRuleMode 200"]);
    const after = snapshotOf(emulator);
    const rule = (state: EmulatorState) => state.policies.find((p) => p.id === SAST_POLICY_ID)!.rules.find((r) => r.path === EVAL_RULE)!;
    expect(rule(after).policyMode).toBe("MODE_COMMENT");
    for (const state of [before, after]) Object.assign(rule(state), { lastChangeAt: "compared apart", lastChangeBy: "compared apart" });
    for (const area of Object.keys(before) as (keyof EmulatorState)[]) expect(after[area], area).toEqual(before[area]);
  });
});

describe(
  "pulumi import of a DetectionPolicyException whose product's exceptions a DetectionPolicy of the stack declares",
  { timeout: 240_000 },
  () => {
    const TWILIO = "generic.secrets.security.detected-twilio-pat.detected-twilio-pat";
    const policy = (exceptions: string) => `resources:
  secrets:
    type: semgrep:index:DetectionPolicy
    properties:
      deploymentId: "1"
      product: secrets
${exceptions}`;
    const declaring = policy(`      exceptions:
        - { exceptionType: exclude, projectName: acme/docs-site, rule: ${TWILIO}, ruleType: rule }
`);
    const importTwilio = (workspace: YamlWorkspace) =>
      workspace.run(
        [
          "import",
          `${TYPE_PREFIX}DetectionPolicyException`,
          "docs-twilio",
          `1/secrets/project/acme%2Fdocs-site/rule/${TWILIO}`,
          "--yes",
          "--out",
          "imported.yaml",
        ],
        { allowFailure: true },
      );

    it("is refused before anything is recorded, naming the DetectionPolicy and what to do; without exceptions declared there it imports and the next preview is clean", async () => {
      const emulator = await startEmulator({ preset: "demo", policiesV2: true, token: TOKEN, retryAfterSeconds: 0 });
      try {
        const workspace = await yamlWorkspace(declaring, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": TOKEN } });
        await workspace.run(["up", "--yes", "--skip-preview"]);
        const mark = emulator.requests().length;
        const refused = await importTwilio(workspace);
        expect(refused.status).not.toBe(0);
        const said = printedWithoutPathWarnings(refused);
        expect(said).toContain(
          `DetectionPolicyException "docs-twilio" is not imported: DetectionPolicy "secrets" of this stack declares the exceptions of the secrets detection policy of deployment 1 (the whole list), and its list already holds this exception`,
        );
        expect(said).toContain('first remove `exceptions` from DetectionPolicy "secrets" and run `pulumi up`');
        expect(said).not.toContain("<nil>");
        expect(Object.keys(await workspace.resources())).toEqual(["secrets"]); // nothing recorded, nothing protected
        expect(writesSince(emulator, mark)).toEqual([]);
        // A \`get\` of the same exception only reads it: not refused.
        workspace.write(
          `${declaring}  got:\n    type: semgrep:index:DetectionPolicyException\n    get:\n      id: 1/secrets/project/acme%2Fdocs-site/rule/${TWILIO}\n`,
        );
        await workspace.run(["preview"]);

        // The remedy it names: the DetectionPolicy stops declaring exceptions (they stay), then the import lands and previews clean.
        workspace.write(policy(""));
        await workspace.run(["up", "--yes", "--skip-preview"]);
        const imported = await importTwilio(workspace);
        expect(imported.status).toBe(0);
        const generated = readFileSync(join(workspace.dir, "imported.yaml"), "utf8").replace(/^resources:\n/, "");
        workspace.write(policy("") + generated);
        await workspace.run(["preview", "--expect-no-changes"]);

        // The other way: a DetectionPolicy's import declares the whole live list, one entry of which docs-twilio declares.
        workspace.write(`resources:\n${generated}`);
        await workspace.run(["up", "--yes", "--skip-preview"]);
        const policyRefused = await workspace.run(
          ["import", `${TYPE_PREFIX}DetectionPolicy`, "secrets", "1/secrets", "--yes", "--out", "policy.yaml"],
          {
            allowFailure: true,
          },
        );
        expect(policyRefused.status).not.toBe(0);
        expect(printedWithoutPathWarnings(policyRefused)).toContain(
          'DetectionPolicy "secrets" is not imported: an import declares every exception of the secrets detection policy of deployment 1 (the whole list), and DetectionPolicyException "docs-twilio" of this stack declares one of them.',
        );
        expect(Object.keys(await workspace.resources())).toEqual(["docs-twilio"]);
      } finally {
        await emulator.close();
      }
    });
  },
);

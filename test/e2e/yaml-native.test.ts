/**
 * Issue 24's proof for YAML programs: one Pulumi YAML program declaring all nine kinds, run through
 * the real CLI and the native plugin of the installed package, against two emulators: a deployment
 * still on v1 policies (the six v1 kinds, through the default provider configured by the stack's
 * `semgrep:url` / `semgrep:token`) and one migrated to unified policies (the three Policies V2
 * kinds, through an explicit `pulumi:providers:semgrep` whose `url` and `token` are inputs). One
 * program with two providers rather than two stacks: a live organisation has one deployment of each
 * kind at most, and one stack then covers both ways of configuring the plugin in one set of runs.
 * The steps share the emulators and the stack, in order.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { remediationPolicyInput } from "../../provider/client/schemas/policies-v2";
import { type EmulatorState, type RunningEmulator, SAST_POLICY_ID, SECRETS_POLICY_ID, startEmulator } from "../../provider/emulator";
import { snapshotOf, withoutAuditFields, writesSince } from "../support/emulator";
import { printedWithoutPathWarnings, type YamlWorkspace, yamlWorkspace } from "../support/yaml-program";

const V1_TOKEN = "yaml-e2e-v1-token-51c7e2";
/** The v1 deployment's token after rotation (step 6). */
const ROTATED_TOKEN = "yaml-e2e-v1-rotated-0f62d9";
const V2_TOKEN = "yaml-e2e-v2-token-8d04aa";
/** A tag given as a secret config value: its text must appear in no output, state or message. */
const SECRET_TAG = "owner:yaml-secret-3e9b71";
const EVAL_RULE = "python.lang.security.audit.eval-detected.eval-detected";
const PYPI_RULE = "generic.secrets.security.detected-pypi-pat.detected-pypi-pat";
const TWILIO_RULE = "generic.secrets.security.detected-twilio-pat.detected-twilio-pat";
const NEW_REMEDIATION = "yaml-block-critical";

/** The nine kinds: the v1 ones through the default provider, the Policies V2 ones through the provider `v2`. */
const RESOURCES = `
  v2:
    type: pulumi:providers:semgrep
    properties:
      url: \${v2Url}
      token: \${v2Token}
  mobile:
    type: semgrep:index:ProjectSettings
    properties:
      deploymentSlug: acme
      projectName: acme/mobile-app
      primaryBranch: refs/heads/release
      tags: ["team:mobile", "tier:2"]
  payments-tags:
    type: semgrep:index:ProjectTags
    properties:
      deploymentSlug: acme
      projectName: acme/payments-api
      tags: ["owner:appsec", "\${ownerTag}"]
  infra-scans:
    type: semgrep:index:ManagedScan
    properties:
      deploymentSlug: acme
      projectName: acme/infra
      diffScan: { enabled: true }
  eval-rule:
    type: semgrep:index:PolicyRuleMode
    properties:
      deploymentId: "1"
      policyId: "${SAST_POLICY_ID}"
      rulePath: ${EVAL_RULE}
      mode: MODE_BLOCK
  secrets-rules:
    type: semgrep:index:PolicyRuleModes
    properties:
      deploymentId: "1"
      policyId: "${SECRETS_POLICY_ID}"
      modes:
        ${PYPI_RULE}: MODE_MONITOR
        ${TWILIO_RULE}: MODE_BLOCK
  release-sbom:
    type: semgrep:index:SbomExport
    properties:
      deploymentId: "1"
      repositoryId: "102"
      ref: refs/heads/main
      formatVersion: { format: SBOM_FORMAT_CYCLONEDX, cyclonedxVersion: SBOM_CYCLONE_DX_VERSION_V1_5 }
      sbomOutputFormat: SBOM_OUTPUT_FORMAT_JSON
      triggers: ["2026.11.0"]
  code:
    type: semgrep:index:DetectionPolicy
    properties:
      deploymentId: "1"
      product: code
      disabled: ["python.lang.best-practice.open-never-closed.open-never-closed", "${EVAL_RULE}"]
    options:
      provider: \${v2}
  payments-exec:
    type: semgrep:index:DetectionPolicyException
    properties:
      deploymentId: "1"
      product: code
      exceptionType: exclude
      projectName: acme/payments-api
      rule: python.lang.security.audit.exec-detected.exec-detected
      ruleType: rule
    options:
      provider: \${v2}
  block-critical:
    type: semgrep:index:RemediationPolicy
    properties:
      deploymentId: "1"
      slug: ${NEW_REMEDIATION}
      policyName: Block critical findings in PRs
      filters:
        mode: all
        conditions:
          - { type: severity, values: [critical] }
      actions: [{ type: pr_comment }, { type: block }]
    options:
      provider: \${v2}
`;

/** The program: its config, the nine kinds (plus `extra` resources), a function call and outputs. */
const program = (extra = "") => `config:
  v2Url:
    type: string
  v2Token:
    type: string
  ownerTag:
    type: string
variables:
  policies:
    fn::invoke:
      function: semgrep:index:getPolicies
      arguments:
        deploymentId: "1"
resources:${RESOURCES}${extra}
outputs:
  firstPolicy: \${policies.policies[0].name}
  projectTags: \${payments-tags.projectTags}
  evalMode: \${eval-rule.mode}
`;

describe("a YAML program with the nine kinds, through the native plugin", { timeout: 240_000 }, () => {
  let v1: RunningEmulator;
  let v2: RunningEmulator;
  let client1: SemgrepClient;
  let client2: SemgrepClient;
  const before: Record<"v1" | "v2", EmulatorState> = {} as never;
  let workspace: YamlWorkspace;
  let dataFile: string;
  const marks = () => ({ v1: v1.requests().length, v2: v2.requests().length });
  const writes = (mark: { v1: number; v2: number }) => ({ v1: writesSince(v1, mark.v1), v2: writesSince(v2, mark.v2) });
  const rule = (policyId: string, path: string) =>
    v1
      .state()
      .policies.find((p) => p.id === policyId)!
      .rules.find((r) => r.path === path)!;
  const project = (name: string) => v1.state().projects.find((p) => p.name === name)!;
  const remediation = (slug: string) => v2.state().remediationPolicies.find((p) => p.slug === slug);

  beforeAll(async () => {
    // Its state in a file, so that step 6 can restart it on the same address with the old token revoked.
    dataFile = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-yaml-")), "v1.json");
    v1 = await startEmulator({ preset: "demo", token: V1_TOKEN, retryAfterSeconds: 0, dataFile });
    v2 = await startEmulator({ preset: "demo", policiesV2: true, token: V2_TOKEN, retryAfterSeconds: 0 });
    client1 = new SemgrepClient({ baseUrl: v1.url, token: V1_TOKEN, env: {} });
    client2 = new SemgrepClient({ baseUrl: v2.url, token: V2_TOKEN, env: {} });
    before.v1 = snapshotOf(v1);
    before.v2 = snapshotOf(v2);
    workspace = await yamlWorkspace(program(), {
      config: { "semgrep:url": v1.url, v2Url: v2.url },
      secrets: { "semgrep:token": V1_TOKEN, v2Token: V2_TOKEN, ownerTag: SECRET_TAG },
    });
  });
  afterAll(async () => {
    await Promise.all([client1?.close(), client2?.close()]);
    await Promise.all([v1?.close(), v2?.close()]);
  });

  it("1. up applies every kind on its deployment; a preview then expects no change and writes nothing", async () => {
    const result = await workspace.run(["up", "--yes"]);
    expect(printedWithoutPathWarnings(result)).toContain('firstPolicy: "Default SAST Policy"');
    const state = await workspace.resources();
    expect(
      Object.values(state)
        .map((r) => r.type.split(":").at(-1))
        .sort(),
    ).toEqual([
      "DetectionPolicy",
      "DetectionPolicyException",
      "ManagedScan",
      "PolicyRuleMode",
      "PolicyRuleModes",
      "ProjectSettings",
      "ProjectTags",
      "RemediationPolicy",
      "SbomExport",
    ]);
    // Each value live, on the deployment its provider names.
    expect(project("acme/mobile-app")).toMatchObject({ primaryBranch: "refs/heads/release", tags: ["team:mobile", "tier:2"] });
    expect(project("acme/payments-api").tags).toEqual(expect.arrayContaining(["owner:appsec", SECRET_TAG]));
    expect(project("acme/infra").managedScanConfig.diff_scan.enabled).toBe(true);
    expect(rule(SAST_POLICY_ID, EVAL_RULE).policyMode).toBe("MODE_BLOCK");
    expect([rule(SECRETS_POLICY_ID, PYPI_RULE).policyMode, rule(SECRETS_POLICY_ID, TWILIO_RULE).policyMode]).toEqual([
      "MODE_MONITOR",
      "MODE_BLOCK",
    ]);
    expect(v1.state().sbomExports).toHaveLength(before.v1.sbomExports.length + 1);
    const code = v2.state().detectionPolicies.find((p) => p.product === "code")!;
    expect(code.disabled).toEqual(expect.arrayContaining([EVAL_RULE]));
    expect(code.exceptions).toContainEqual(expect.objectContaining({ project: "acme/payments-api", exceptionType: "exclude" }));
    expect(remediation(NEW_REMEDIATION)).toMatchObject({ name: "Block critical findings in PRs" });
    // Nothing of the Policies V2 kinds went to the v1 deployment, nor the reverse.
    expect(v1.requests().filter((r) => r.operation?.startsWith("policiesV2."))).toEqual([]);
    expect(v2.requests().filter((r) => r.operation?.startsWith("projects.") || r.operation?.startsWith("policies."))).toEqual([]);

    const mark = marks();
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writes(mark)).toEqual({ v1: [], v2: [] });
  });

  it("2. an out-of-band change: refresh shows it field by field, and the next up puts the declared value back", async () => {
    await client1.policies.updateRuleMode("1", SAST_POLICY_ID, { rulePath: EVAL_RULE, policyMode: "MODE_DISABLED" });
    const live = await client2.policiesV2.getRemediationPolicies("1");
    const renamed = live.bundle.policies
      .map(remediationPolicyInput)
      .map((p) => (p.slug === NEW_REMEDIATION ? { ...p, name: "Renamed in the UI" } : p));
    await client2.policiesV2.applyRemediationPolicies("1", { policies: renamed }, { ifMatch: live.state_version });

    let mark = marks();
    const refresh = printedWithoutPathWarnings(await workspace.run(["refresh", "--yes"]));
    expect(refresh).toContain("semgrep:index:PolicyRuleMode eval-rule updated");
    expect(refresh).toMatch(/eval-rule updated \([\d.]+s\) \[diff: ~mode\]/);
    expect(refresh).toMatch(/block-critical updated \([\d.]+s\) \[diff: ~policyName\]/);
    expect(writes(mark)).toEqual({ v1: [], v2: [] });
    const state = await workspace.resources();
    expect(state["eval-rule"]!.outputs.mode).toBe("MODE_DISABLED");

    mark = marks();
    const up = printedWithoutPathWarnings(await workspace.run(["up", "--yes", "--diff"]));
    expect(up).toContain('~ mode: "MODE_DISABLED" => "MODE_BLOCK"');
    expect(up).toContain('~ policyName: "Renamed in the UI" => "Block critical findings in PRs"');
    expect(writes(mark)).toEqual({ v1: ["policies.updateRuleMode 200"], v2: ["policiesV2.applyRemediationPolicies 200"] });
    expect(rule(SAST_POLICY_ID, EVAL_RULE).policyMode).toBe("MODE_BLOCK");
    expect(remediation(NEW_REMEDIATION)!.name).toBe("Block critical findings in PRs");
    await workspace.run(["preview", "--expect-no-changes"]);
  });

  it("3. two resources declaring one rule's mode are refused at preview, before any write", async () => {
    workspace.write(
      program(`  eval-rule-again:
    type: semgrep:index:PolicyRuleMode
    properties:
      deploymentId: "1"
      policyId: "${SAST_POLICY_ID}"
      rulePath: ${EVAL_RULE}
      mode: MODE_COMMENT
`),
    );
    const mark = marks();
    const result = await workspace.run(["up", "--yes"], { allowFailure: true });
    expect(result.status).not.toBe(0);
    // Whichever of the two the engine checks second is refused, naming the other (the order is the engine's).
    const [a, b] = ['"eval-rule-again"', '"eval-rule"'];
    const said = (x: string, y: string) =>
      `PolicyRuleMode ${x} declares mode of rule ${EVAL_RULE} in policy ${SAST_POLICY_ID} (deployment 1), which PolicyRuleMode ${y} declares too.`;
    expect([said(a, b), said(b, a)].some((text) => printedWithoutPathWarnings(result).includes(text))).toBe(true);
    expect(writes(mark)).toEqual({ v1: [], v2: [] });
    expect(rule(SAST_POLICY_ID, EVAL_RULE).policyMode).toBe("MODE_BLOCK");
  });

  it("4. a bad input fails the preview with a message naming the property, and no stack trace", async () => {
    workspace.write(
      program(`  bad-mode:
    type: semgrep:index:PolicyRuleMode
    properties:
      deploymentId: "1"
      policyId: "${SAST_POLICY_ID}"
      rulePath: python.lang.security.audit.exec-detected.exec-detected
      mode: MODE_LOUD
`),
    );
    const result = await workspace.run(["preview"], { allowFailure: true });
    expect(result.status).not.toBe(0);
    const printed = printedWithoutPathWarnings(result);
    expect(printed).toContain(
      `semgrep:index:PolicyRuleMode resource 'bad-mode': property mode value {MODE_LOUD} has a problem: mode: "MODE_LOUD": must be one of MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED`,
    );
    expect(printed).not.toMatch(/\bat .*\.js:\d+|Error: |node:internal/);
    workspace.write(program());
  });

  it("5. the secret tag is in no output, no unencrypted state and no request the service saw", async () => {
    const exported = await workspace.exported();
    expect(exported).not.toContain(SECRET_TAG);
    // The check can fail: decrypted, the state holds it.
    expect((await workspace.run(["stack", "export", "--show-secrets"])).stdout).toContain(SECRET_TAG);
    const tags = (await workspace.resources())["payments-tags"]!;
    // The input and every output derived from it are stored encrypted.
    for (const key of ["tags", "addedTags", "projectTags"]) expect(tags.outputs[key], key).toHaveProperty("ciphertext");
    expect(tags.inputs.tags).toHaveProperty("ciphertext");
    expect(printedWithoutPathWarnings(await workspace.run(["stack", "output", "--json"]))).not.toContain(SECRET_TAG);
    expect(workspace.printed()).not.toContain(SECRET_TAG);
    expect(JSON.stringify(v1.requests())).not.toContain(SECRET_TAG.split(":")[1]);
  });

  it("6. token rotation: a new semgrep:token replaces nothing and writes nothing; refresh and destroy then use it", async () => {
    await workspace.run(["config", "set", "--secret", "semgrep:token", ROTATED_TOKEN]);
    // The old token is revoked: the deployment, restarted from its state on the same address, takes only the new one.
    const { port } = v1;
    await v1.close();
    v1 = await startEmulator({ port, token: ROTATED_TOKEN, retryAfterSeconds: 0, dataFile });
    const preview = printedWithoutPathWarnings(await workspace.run(["preview", "--expect-no-changes", "--diff"]));
    expect(preview).not.toMatch(/replace|\+-|-\+/);
    await workspace.run(["up", "--yes"]);
    expect(writes({ v1: 0, v2: v2.requests().length })).toEqual({ v1: [], v2: [] });
    // The engine keeps the default provider's config in the state: refresh and destroy configure it from there.
    const decrypted = JSON.parse((await workspace.run(["stack", "export", "--show-secrets"])).stdout) as {
      deployment: { resources: Array<{ urn: string; inputs: Record<string, unknown> }> };
    };
    const provider = decrypted.deployment.resources.find((r) => r.urn.endsWith("pulumi:providers:semgrep::default"))!;
    expect(provider.inputs.token).toEqual(expect.objectContaining({ plaintext: JSON.stringify(ROTATED_TOKEN) }));
    const mark = marks();
    await workspace.run(["refresh", "--yes", "--expect-no-changes"]);
    expect(writes(mark)).toEqual({ v1: [], v2: [] });
    expect(v1.requests().filter((r) => r.status === 401)).toEqual([]);
  });

  it("7. destroy leaves both deployments exactly as they were before the stack (an SBOM export job cannot be deleted)", async () => {
    const mark = marks();
    await workspace.run(["destroy", "--yes"]);
    expect(writes(mark).v1.sort()).toEqual([
      "policies.updateRuleMode 200",
      "policies.updateRuleMode 200",
      "policies.updateRuleMode 200",
      "projects.removeTags 200",
      "projects.update 200",
      "projects.updateManagedScans 200",
    ]);
    for (const [name, emulator] of [
      ["v1", v1],
      ["v2", v2],
    ] as const) {
      const after = snapshotOf(emulator);
      // The one export job started stays (the service cannot delete one); everything else is as it was.
      expect(after.sbomExports.length - before[name].sbomExports.length, name).toBe(name === "v1" ? 1 : 0);
      after.sbomExports = before[name].sbomExports;
      withoutAuditFields(after, before[name]);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before[name]).sort());
      for (const area of Object.keys(before[name]) as (keyof EmulatorState)[])
        expect(after[area], `${name} ${area}`).toEqual(before[name][area]);
    }
    expect(workspace.printed()).not.toContain(SECRET_TAG);
  });
});

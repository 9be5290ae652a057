/**
 * The token, whether from `semgrep:token` or SEMGREP_APP_TOKEN, never appears in plaintext in the
 * state, nor (even decrypted) in our resources' inputs and outputs, nor in anything printed at
 * `-v=9 --logtostderr` by our code (provider log lines, error messages), nor in the emulator's
 * request log. (The CLI's own -v=9 trace of the Configure call does show stack secrets.)
 * Outputs derived from a secret input are secrets too; a rotated token's 401 says what to run.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { program, programWorkspace } from "../support/program";
import { pulumiWorkspace } from "../support/pulumi";

const TOKEN = "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e7ab12";

const tokenProgram = (badRule: boolean) => `
const semgrep = require("pulumi-semgrep");
new semgrep.ProjectSettings("web-app", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "develop" });
new semgrep.PolicyRuleMode("rule", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${badRule ? "no.such.rule" : "python.lang.security.audit.eval-detected.eval-detected"}", mode: "MODE_DISABLED" });
exports.policy = semgrep.getPolicyOutput({ deploymentId: "1", isDefault: true, productType: "PRODUCT_TYPE_SAST" }).name;
`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", token: TOKEN });
});
afterAll(async () => emulator?.close());

describe.each(["stack config semgrep:token", "SEMGREP_APP_TOKEN"])("with the token in %s", (source) => {
  it("never shows it", async () => {
    const fromConfig = source.startsWith("stack");
    const credentials = fromConfig
      ? { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" }
      : { SEMGREP_APP_TOKEN: TOKEN, SEMGREP_APP_URL: emulator.url };
    const files = {
      "Pulumi.yaml": "name: secrets\nruntime: nodejs\n",
      "index.js": tokenProgram(false),
      "package.json": '{"name":"secrets","main":"index.js"}',
    };
    const workspace = await pulumiWorkspace(files, credentials, join(inject("installedPackageDir"), "node_modules"));
    if (fromConfig) {
      await workspace.run(["config", "set", "semgrep:url", emulator.url]);
      await workspace.run(["config", "set", "--secret", "semgrep:token", TOKEN]);
    }
    const verbose = ["-v=9", "--logtostderr", "--logflow"];
    const printed: string[] = [];
    const run = async (args: string[], allowFailure = false) => {
      const result = await workspace.run([...args, ...verbose], { allowFailure });
      printed.push(result.stdout, result.stderr);
      return result;
    };
    await run(["up", "--yes", "--skip-preview"]);
    await run(["refresh", "--yes", "--skip-preview"]);

    const exported = (await workspace.run(["stack", "export"])).stdout;
    expect(exported).not.toContain(TOKEN);
    const decrypted = JSON.parse((await workspace.run(["stack", "export", "--show-secrets"])).stdout) as {
      deployment: { resources: Array<{ type: string; inputs?: unknown; outputs?: unknown }> };
    };
    const ours = decrypted.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/semgrep:"));
    expect(ours).toHaveLength(2);
    for (const resource of ours) expect(JSON.stringify([resource.inputs, resource.outputs])).not.toContain(TOKEN);

    // An error raised by our code, printed by the CLI: the same stack with a rule not in the policy.
    writeFileSync(join(workspace.dir, "index.js"), tokenProgram(true));
    const failed = await run(["up", "--yes", "--skip-preview"], true);
    expect(failed.status).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(/rule "no\.such\.rule" is not in policy 10/);
    writeFileSync(join(workspace.dir, "index.js"), tokenProgram(false));
    await run(["destroy", "--yes", "--skip-preview"]);

    const all = printed.join("\n");
    expect(all.length).toBeGreaterThan(10_000); // the verbose logs really were captured
    // The one place the token shows is the CLI's own trace of the secret config it hands the
    // dynamic-provider host at -v=9 (the host declines secrets, so the engine unwraps them first).
    const leaks = all.split("\n").filter((line) => line.includes(TOKEN));
    const engineTrace = /"msg":"Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.Configure\(\)\.inputs\]: value=/;
    expect(leaks.filter((line) => !engineTrace.test(line))).toEqual([]);
    if (!fromConfig) expect(leaks).toEqual([]);
    expect(JSON.stringify(emulator.requests())).not.toContain(TOKEN);
  }, 180_000);
});

describe("outputs derived from a secret input", () => {
  it("are secrets in the state, and messages print [secret] in place of their values", async () => {
    const own = await startEmulator({ preset: "demo", policiesV2: "both" }); // v1 and Policies V2 kinds in one stack
    try {
      const workspace = await programWorkspace(
        own,
        program(`
new semgrep.ProjectTags("codename", { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: pulumi.secret(["codename:falcon"]) });
new semgrep.ProjectTags("web-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: [pulumi.secret("tier:1"), "public"] });
new semgrep.ProjectSettings("payments", { deploymentSlug: "acme", projectName: "acme/payments-api", tags: pulumi.secret(["codename:osprey", "pci"]) });
new semgrep.PolicyRuleMode("quiet-eval", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "python.lang.security.audit.eval-detected.eval-detected", mode: pulumi.secret("MODE_DISABLED") });
new semgrep.DetectionPolicy("quiet-code", { deploymentId: "1", product: "code", disabled: pulumi.secret(["python.lang.security.audit.eval-detected.eval-detected"]) });
new semgrep.RemediationPolicy("private-slack", {
  deploymentId: "1", slug: "secrets-to-slack", policyName: "Secrets to Slack",
  filters: { mode: "all", conditions: [{ type: "product", values: ["secrets"] }] },
  actions: pulumi.secret([{ type: "slack_app", config: { channel: "#incident-private" } }]),
});
new semgrep.PolicyRuleModes("quiet-go", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { rulePathPrefixes: ["go."], severities: ["SEVERITY_MEDIUM"] }, mode: pulumi.secret("MODE_DISABLED") });
new semgrep.PolicyRuleModes("quiet-exec", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: pulumi.secret({ "python.lang.security.audit.exec-detected.exec-detected": "MODE_DISABLED" }) });
`),
      );
      const up = await workspace.run(["up", "--yes", "--skip-preview"]);
      expect(own.state().projects.find((p) => p.name === "acme/mobile-app")!.tags).toEqual(["codename:falcon"]);
      // "tier:1" was already on acme/web-app: in the stack's first up, an ordinary adoption, no note about it.
      expect(up.stdout).not.toMatch(/already as declared, so there is nothing to put back/);

      const exported = await workspace.exported();
      // (The v2 bundles' originals: the rules disabled before, the Slack channel of the policy adopted.)
      for (const secret of [
        "codename:falcon",
        "codename:osprey",
        "tier:1",
        "MODE_DISABLED",
        "MODE_COMMENT",
        "team:payments",
        "open-never-closed",
        "#appsec-alerts",
        "#incident-private",
      ])
        expect(exported).not.toContain(secret);
      for (const text of [up.stdout, up.stderr])
        for (const secret of ["codename:falcon", "codename:osprey", "tier:1"]) expect(text).not.toContain(secret);
      const state = await workspace.resources();
      const encrypted = expect.objectContaining({ ciphertext: expect.any(String) });
      expect(state.codename!.outputs).toMatchObject({ tags: encrypted, addedTags: encrypted, projectTags: encrypted });
      expect(state["web-tags"]!.outputs).toMatchObject({ tags: encrypted, addedTags: encrypted, projectTags: encrypted });
      expect(state.payments!.outputs).toMatchObject({ tags: encrypted, originalTags: encrypted });
      expect(state["quiet-eval"]!.outputs).toMatchObject({ mode: encrypted, originalMode: encrypted });
      // The modes of many rules: the counts per mode, the deviations and the originals hold modes too.
      expect(state["quiet-exec"]!.outputs).toMatchObject({
        modes: encrypted,
        modeCounts: encrypted,
        deviations: encrypted,
        originals: encrypted,
      });
      expect(state["quiet-exec"]!.outputs.managedRules).toBe(1);
      expect(state["quiet-go"]!.outputs).toMatchObject({ mode: encrypted, modeCounts: encrypted, originals: encrypted });
      expect(state["quiet-code"]!.outputs).toMatchObject({ disabled: encrypted, originals: encrypted });
      expect(state["private-slack"]!.outputs).toMatchObject({ actions: encrypted, original: encrypted });
      // Outputs of inputs that are not secret stay readable.
      expect(state["quiet-eval"]!.outputs.severity).toBe("SEVERITY_HIGH");

      const revealed = await workspace.resources({ showSecrets: true });
      const plaintext = (value: unknown) => expect.objectContaining({ plaintext: JSON.stringify(value) });
      expect(revealed["quiet-eval"]!.outputs).toMatchObject({ mode: plaintext("MODE_DISABLED"), originalMode: plaintext("MODE_COMMENT") });
      expect(revealed.codename!.outputs).toMatchObject({ addedTags: plaintext(["codename:falcon"]) });

      await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
    } finally {
      await own.close();
    }
  }, 180_000);
});

describe("a token rotated after the last up", () => {
  it("fails refresh with a 401 that says what to run, and `refresh --run-program` picks the new token up", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-rotation-")), "state.json");
    const before = await startEmulator({ preset: "demo", token: "old-token", dataFile });
    const workspace = await programWorkspace(
      before,
      program(`new semgrep.ProjectTags("web-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["rotated"] });`),
      { credentials: "none" },
    );
    await workspace.run(["config", "set", "semgrep:url", before.url]);
    await workspace.run(["config", "set", "--secret", "semgrep:token", "old-token"]);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await before.close();

    // The service now takes only the new token, which goes into the stack's config.
    const after = await startEmulator({ token: "new-token", dataFile, port: before.port });
    try {
      await workspace.run(["config", "set", "--secret", "semgrep:token", "new-token"]);
      const refresh = await workspace.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
      expect(refresh.status).not.toBe(0);
      const printedText = (refresh.stdout + refresh.stderr).replace(/\s+/g, " ");
      expect(printedText).toMatch(/→ 401\)/);
      expect(printedText).toContain(
        "If semgrep:token was set or rotated after this stack's last `pulumi up`, `pulumi refresh` and `pulumi destroy` still use the token saved in the stack's state: run `pulumi up` (or `pulumi refresh --run-program`) once",
      );
      await workspace.run(["refresh", "--yes", "--skip-preview", "--run-program"]);
      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(after.state().projects.find((p) => p.name === "acme/web-app")!.tags).toEqual(["team:web", "tier:1", "managed-scan"]);
    } finally {
      await after.close();
    }
  }, 180_000);
});

describe("secrets in what other resources hold, and in errors", () => {
  it("keeps a secret tag out of every output of the project's other resources, and out of check errors", async () => {
    const own = await startEmulator({ preset: "demo" });
    try {
      const payments = `deploymentSlug: "acme", projectName: "acme/payments-api"`;
      const workspace = await programWorkspace(
        own,
        program(`
new semgrep.ProjectTags("codename", { ${payments}, tags: pulumi.secret(["codename:falcon"]) });
new semgrep.ProjectTags("public", { ${payments}, tags: ["public"] });
new semgrep.ProjectSettings("branch", { ${payments}, primaryBranch: "main" });
`),
      );
      await workspace.run(["up", "--yes", "--skip-preview"]);
      await workspace.run(["refresh", "--yes", "--skip-preview"]);
      expect(await workspace.exported()).not.toContain("codename:falcon");

      // Conflicting or invalid secret inputs fail without printing their values (one preview each:
      // the engine stops a preview at its first failed check).
      const failures: string[] = [];
      for (const body of [
        `new semgrep.ProjectTags("codename", { ${payments}, tags: pulumi.secret(["codename:falcon"]) });\nnew semgrep.ProjectSettings("all-tags", { ${payments}, tags: pulumi.secret(["codename:osprey"]) });`,
        `new semgrep.PolicyRuleMode("loud", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "python.lang.security.audit.eval-detected.eval-detected", mode: pulumi.secret("LOUD") });`,
      ]) {
        workspace.write(program(body));
        const preview = await workspace.run(["preview"], { allowFailure: true });
        expect(preview.status).not.toBe(0);
        failures.push(preview.stdout + preview.stderr);
      }
      expect(failures[0]).toMatch(
        /ProjectSettings "all-tags" declares tags of project acme\/payments-api|ProjectTags "codename" declares tags of project acme\/payments-api/,
      );
      expect(failures[1]).toMatch(/mode: \[secret\]: must be one of/);
      for (const secret of ["codename:falcon", "codename:osprey", "LOUD"]) expect(failures.join("\n")).not.toContain(secret);
    } finally {
      await own.close();
    }
  }, 180_000);
});

describe("secret inputs in check failures and in the service's validation messages", () => {
  it("never print the secret's text: not as the value of a named property, not quoted by the dry run", async () => {
    const v1 = await startEmulator({ preset: "demo" });
    const v2 = await startEmulator({ preset: "demo", policiesV2: true });
    const SECRET = "TOPSECRET";
    try {
      const previewOf = async (emulator: RunningEmulator, body: string) => {
        const workspace = await programWorkspace(emulator, program(body));
        const preview = await workspace.run(["preview"], { allowFailure: true });
        expect(preview.status).not.toBe(0);
        return (preview.stdout + preview.stderr).replace(/\s+/g, " ");
      };
      const rules = `deploymentId: "1", policyId: "${SAST_POLICY_ID}"`;
      // A selector refused at check (it restricts nothing), given as a secret.
      const select = await previewOf(
        v1,
        `new semgrep.PolicyRuleModes("hidden-select", { ${rules}, select: pulumi.secret({ exclude: ["acme.internal.${SECRET}"] }), mode: "MODE_BLOCK" });`,
      );
      expect(select).toContain("select: [secret]: must give at least one criterion");
      // A secret map of modes with a bad mode: the key (a rule path) is part of the secret.
      const modes = await previewOf(
        v1,
        `new semgrep.PolicyRuleModes("hidden-modes", { ${rules}, modes: pulumi.secret({ "acme.internal.${SECRET}": "MODE_LOUD" }) });`,
      );
      expect(modes).toContain("modes.[secret]: [secret]: must be one of");
      // The service's dry run quotes the values it refuses: a condition value, a project name.
      const condition = await previewOf(
        v2,
        `new semgrep.RemediationPolicy("hidden-condition", {
  deploymentId: "1", slug: "hidden-condition", policyName: "Hidden condition",
  filters: pulumi.secret({ mode: "all", conditions: [{ type: "severity", values: ["${SECRET.toLowerCase()}-level"] }] }),
  actions: [{ type: "pr_comment" }],
});`,
      );
      expect(condition).toMatch(/RemediationPolicy "hidden-condition": Semgrep refuses the bundle \(dry run\): .*\[secret\]/);
      const project = await previewOf(
        v2,
        `new semgrep.DetectionPolicyException("hidden-project", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: pulumi.secret("acme/${SECRET}-project"),
  rule: "python.lang.security.audit.eval-detected.eval-detected", ruleType: "rule",
});`,
      );
      expect(project).toMatch(/DetectionPolicyException "hidden-project": Semgrep refuses the bundle \(dry run\): .*\[secret\]/);
      for (const text of [select, modes, condition, project]) expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  }, 240_000);
});

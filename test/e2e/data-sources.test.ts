/**
 * Data sources through the real CLI: `dependsOn` of a `getXOutput` makes the read wait for the
 * resources it names, and a preview where one is still to be created reads nothing; the Policies
 * V2 data sources on a migrated deployment.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });
let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await emulators.start();
});

const tagsThenRead = program(`
const added = new semgrep.ProjectTags("pci", { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"] });
exports.tags = semgrep.getProjectOutput({ deploymentSlug: "acme", projectName: "acme/mobile-app" }, { dependsOn: [added] }).tags;
`);

describe("getXOutput with dependsOn", () => {
  it("reads nothing in a preview while the resource is to be created, and after it once it exists", async () => {
    const workspace = await programWorkspace(emulator, tagsThenRead);
    await workspace.run(["preview"]);
    expect(emulator.requests().filter((r) => r.operation === "projects.get")).toEqual([]);
    // Answers arrive slowly: without dependsOn the read would be answered before the tag is added.
    emulator.setFaults({ latencyMs: 300 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    // A project's whole tag set is a secret (it may hold another resource's secret tags).
    expect(JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout)).toEqual({ tags: "[secret]" });
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as { tags: string[] };
    expect(outputs.tags).toContain("pci");
    const order = emulator.requests().map((r) => r.operation);
    expect(order.lastIndexOf("projects.get")).toBeGreaterThan(order.indexOf("projects.addTags"));
  }, 120_000);
});

const policiesV2Reads = program(`
const code = semgrep.getDetectionPolicyOutput({ deploymentId: "1", product: pulumi.output("code") });
exports.rulesets = code.rulesets;
exports.tagExceptions = code.exceptions.apply((es) => es.filter((e) => e.projectTagName !== undefined).map((e) => e.projectTagName));
exports.products = semgrep.getDetectionPoliciesOutput({ deploymentId: 1 }).apply((p) => ["code", "secrets"].filter((k) => p[k]));
const remediation = semgrep.getRemediationPoliciesOutput({ deploymentId: code.deploymentSlug.apply(() => "1") });
exports.remediation = remediation.policies.apply((ps) => ps.map((p) => p.slug + ": " + p.policyName).sort());
const vocabulary = semgrep.getPolicyVocabularyOutput({ deploymentId: "1", product: Promise.resolve("remediation") });
exports.blockRequires = vocabulary.actionTypes.apply((ts) => ts.find((t) => t.type === "block").requires);
exports.severities = vocabulary.valueEnums.apply((es) => es.find((e) => e.type === "severity").values);
`);

describe("Policies V2 data sources", () => {
  it("read the detection policies, remediation policies and vocabulary of a migrated deployment, one request each", async () => {
    await emulator.close();
    emulator = await emulators.start({ policiesV2: true });
    const workspace = await programWorkspace(emulator, policiesV2Reads);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toEqual({
      rulesets: ["p/default", "p/owasp-top-ten"],
      tagExceptions: expect.arrayContaining(["pci", "legacy systems"]),
      products: ["code", "secrets"],
      remediation: [
        "block-critical-high-confidence: Block critical, high-confidence findings in PRs",
        "comment-high-severity: Comment on high-severity findings",
        "pci-findings-to-jira: PCI findings to Jira",
        "secrets-to-slack: Secrets to #appsec-alerts",
      ],
      blockRequires: ["pr_comment"],
      severities: ["critical", "high", "medium", "low"],
    });
    expect(
      emulator
        .requests()
        .map((r) => `${r.operation} ${r.status}`)
        .sort(),
    ).toEqual([
      "policiesV2.getDetectionPolicy 200",
      "policiesV2.getDetectionPolicySummary 200",
      "policiesV2.getRemediationPolicies 200",
      "policiesV2.getVocab 200",
    ]);
  }, 120_000);
});

describe("a secret token from config", () => {
  it("is taken by getX and getXOutput (opts.token: pulumi.Input<string>) and stays out of the state", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`
const config = new pulumi.Config();
const token = config.requireSecret("apiToken");
exports.viaOutput = semgrep.getProjectOutput({ deploymentSlug: "acme", projectName: "acme/web-app" }, { token }).tags;
exports.viaPromise = semgrep.getProject({ deploymentSlug: "acme", projectName: "acme/web-app" }, { token }).then((p) => p.tags);
`),
      { credentials: "none" },
    );
    await workspace.run(["config", "set", "semgrep:url", emulator.url]);
    await workspace.run(["config", "set", "--secret", "apiToken", emulator.token]);
    await workspace.run(["preview"]);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    // getProjectOutput's tags are a secret; getProject, a plain Promise, cannot mark them.
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    // The project's tags as the service has them: the system tag managed-scan of a project with managed scans included.
    const tags = ["team:web", "tier:1", "managed-scan"];
    expect(outputs).toEqual({ viaOutput: "[secret]", viaPromise: tags });
    const shown = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    expect(shown).toEqual({ viaOutput: tags, viaPromise: tags });
    expect((await workspace.run(["stack", "export"])).stdout).not.toContain(emulator.token);
  }, 120_000);
});

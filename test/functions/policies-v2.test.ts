/** The Policies V2 data sources and their Output twins against the emulator (demo preset). */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DetectionExceptionArgs,
  DeploymentMigratedError,
  getDetectionPolicies,
  getDetectionPoliciesOutput,
  getDetectionPolicy,
  getDetectionPolicyOutput,
  getPolicies,
  getPolicyVocabulary,
  getPolicyVocabularyOutput,
  getRemediationPolicies,
  getRemediationPoliciesOutput,
  InvalidRequestError,
  ProductNotEnabledError,
} from "../../provider";
import { type RunningEmulator, startEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo", policiesV2: true });
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

/** The value of an Output (test-only: reads Pulumi's internals). */
const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();
/** The value of an Output expected to fail: the other internal promises that carry the failure are handled (test-only). */
function failure(output: pulumi.Output<unknown>): Promise<unknown> {
  const internal = output as unknown as { promise(): Promise<unknown>; isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  internal.isKnown.catch(() => undefined);
  internal.isSecret.catch(() => undefined);
  return internal.promise();
}

const operations = () => env.requests().map((r) => r.operation);
const stored = (product: "code" | "secrets") => env.emulator.state().detectionPolicies.find((p) => p.product === product)!;
/** The emulator's stored exceptions in the data sources' spelling. */
const storedExceptions = (product: "code" | "secrets"): DetectionExceptionArgs[] =>
  stored(product).exceptions.map((e) => ({
    exceptionType: e.exceptionType as DetectionExceptionArgs["exceptionType"],
    ...(e.project !== undefined ? { projectName: e.project } : { projectTagName: e.projectTagName! }),
    rule: e.rule,
    ruleType: e.ruleType as DetectionExceptionArgs["ruleType"],
  }));

describe("getDetectionPolicy", () => {
  it("reads the code bundle in one request, exceptions camelCased (a tag with a space included)", async () => {
    const code = await getDetectionPolicy({ deploymentId: "1", product: "code" });
    expect(operations()).toEqual(["policiesV2.getDetectionPolicy"]);
    expect(code).toEqual({
      rulesets: ["p/default", "p/owasp-top-ten"],
      rules: stored("code").rules,
      disabled: stored("code").disabled,
      exceptions: storedExceptions("code"),
      deploymentSlug: "acme",
      stateVersion: expect.any(String),
    });
    expect(code.rules).toContain("acme.no-hardcoded-internal-urls");
    expect(code.exceptions).toHaveLength(4);
    expect(code.exceptions).toContainEqual({
      exceptionType: "exclude",
      projectTagName: "legacy systems",
      rule: "python.lang.security.audit.exec-detected.exec-detected",
      ruleType: "rule",
    });
    expect(code.exceptions).toContainEqual({
      exceptionType: "exclude",
      projectName: "acme/docs-site",
      rule: "p/owasp-top-ten",
      ruleType: "pack",
    });
    for (const e of code.exceptions) expect(Object.keys(e).some((k) => k.includes("_"))).toBe(false);
  });

  it("getDetectionPolicyOutput takes Output arguments and gives the same result", async () => {
    const code = await getDetectionPolicy({ deploymentId: 1, product: "code" });
    const viaOutput = await resolve(
      getDetectionPolicyOutput({ deploymentId: pulumi.output("1"), product: pulumi.output("code" as const) }),
    );
    expect(viaOutput).toEqual(code);
    const secrets = await resolve(getDetectionPolicyOutput({ deploymentId: Promise.resolve(1), product: "secrets" }));
    expect(secrets).toMatchObject({ rulesets: [], disabled: stored("secrets").disabled, exceptions: storedExceptions("secrets") });
    expect(secrets.exceptions).toHaveLength(1);
    expect(env.requests("policiesV2.getDetectionPolicy")).toHaveLength(3);
  });

  it("refuses a missing or unknown product, naming the field, before any request", async () => {
    await expect(getDetectionPolicy({ deploymentId: "1", product: "supply_chain" as never })).rejects.toThrow(
      /getDetectionPolicy: invalid request: product: must be one of code, secrets/,
    );
    await expect(getDetectionPolicy({ deploymentId: "1" } as never)).rejects.toThrow(/getDetectionPolicy: invalid request: product: /);
    await expect(getDetectionPolicy({ deploymentId: "acme", product: "code" })).rejects.toThrow(
      /getDetectionPolicy: invalid request: deploymentId: must be the deployment id/,
    );
    await expect(getDetectionPolicy({ deploymentId: "1", product: "code", rulesets: [] } as never)).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    await expect(failure(getDetectionPolicyOutput({ deploymentId: "1", product: pulumi.output("sast" as never) }))).rejects.toThrow(
      /product: must be one of code, secrets/,
    );
    expect(env.requests()).toEqual([]);
  });
});

describe("getDetectionPolicies", () => {
  it("reads every product's bundle in one request", async () => {
    const summary = await getDetectionPolicies({ deploymentId: "1" });
    expect(operations()).toEqual(["policiesV2.getDetectionPolicySummary"]);
    expect(Object.keys(summary)).toEqual(["deploymentSlug", "code", "secrets"]);
    expect(summary.deploymentSlug).toBe("acme");
    expect(summary.code).toEqual(await getDetectionPolicy({ deploymentId: "1", product: "code" }));
    expect(summary.secrets).toEqual(await getDetectionPolicy({ deploymentId: "1", product: "secrets" }));
    expect(await resolve(getDetectionPoliciesOutput({ deploymentId: pulumi.output(1) }))).toEqual(summary);
  });

  it("refuses a bad deployment id, naming the field, before any request", async () => {
    await expect(getDetectionPolicies({ deploymentId: "one" })).rejects.toThrow(/getDetectionPolicies: invalid request: deploymentId: /);
    await expect(getDetectionPolicies({ deploymentId: "1", product: "code" } as never)).rejects.toThrow(/Unrecognized key: "product"/);
    expect(env.requests()).toEqual([]);
  });
});

describe("getRemediationPolicies", () => {
  it("reads the four policies in one request, named as RemediationPolicy names them, without the system-managed one", async () => {
    const { policies, deploymentSlug, stateVersion } = await getRemediationPolicies({ deploymentId: "1" });
    expect(operations()).toEqual(["policiesV2.getRemediationPolicies"]);
    expect(deploymentSlug).toBe("acme");
    expect(stateVersion).toEqual(expect.any(String));
    expect(policies.map((p) => p.slug).sort()).toEqual([
      "block-critical-high-confidence",
      "comment-high-severity",
      "pci-findings-to-jira",
      "secrets-to-slack",
    ]);
    expect(policies.map((p) => p.slug)).not.toContain(SYSTEM_REMEDIATION_SLUG);
    expect(env.emulator.state().remediationPolicies.some((p) => p.slug === SYSTEM_REMEDIATION_SLUG && p.systemManaged)).toBe(true);
    expect(policies.find((p) => p.slug === "block-critical-high-confidence")).toEqual({
      slug: "block-critical-high-confidence",
      policyName: "Block critical, high-confidence findings in PRs",
      description: "Critical findings of high-confidence rules fail the pull request, with a comment saying why.",
      active: true,
      filters: {
        mode: "all",
        conditions: [
          { type: "severity", values: ["critical"] },
          { type: "confidence", values: ["high"] },
        ],
      },
      actions: [{ type: "pr_comment" }, { type: "block" }],
    });
    expect(policies.find((p) => p.slug === "pci-findings-to-jira")).toMatchObject({
      policyName: "PCI findings to Jira",
      active: false,
      filters: {
        conditions: [
          { type: "repository_tag", values: ["pci"] },
          { type: "product", values: ["secrets"], mode: "none" },
        ],
      },
      actions: [{ type: "jira", config: { project_id: "SEC", credential_slug: "acme-jira" } }],
    });
    expect(policies.find((p) => p.slug === "comment-high-severity")!.description).toBe("");
  });

  it("getRemediationPoliciesOutput takes Output arguments and gives the same result", async () => {
    const plain = await getRemediationPolicies({ deploymentId: 1 });
    const deploymentId = getDetectionPolicyOutput({ deploymentId: "1", product: "code" }).apply(() => "1");
    expect(await resolve(getRemediationPoliciesOutput({ deploymentId }))).toEqual(plain);
    expect(operations().sort()).toEqual([
      "policiesV2.getDetectionPolicy",
      "policiesV2.getRemediationPolicies",
      "policiesV2.getRemediationPolicies",
    ]);
  });

  it("refuses a bad deployment id, naming the field, before any request", async () => {
    await expect(getRemediationPolicies({ deploymentId: "-1" })).rejects.toThrow(/getRemediationPolicies: invalid request: deploymentId: /);
    await expect(getRemediationPolicies({} as never)).rejects.toThrow(/getRemediationPolicies: invalid request: deploymentId: /);
    expect(env.requests()).toEqual([]);
  });
});

describe("getPolicyVocabulary", () => {
  it("without a product: condition and action types (with requires), no value enums or constraints, in one request", async () => {
    const vocabulary = await getPolicyVocabulary({ deploymentId: "1" });
    expect(operations()).toEqual(["policiesV2.getVocab"]);
    expect(vocabulary.conditionTypes.map((c) => c.type)).toEqual(expect.arrayContaining(["severity", "confidence", "repository_tag"]));
    expect(vocabulary.actionTypes.find((a) => a.type === "block")).toEqual({
      type: "block",
      description: expect.any(String),
      requires: ["pr_comment"],
    });
    expect(vocabulary.valueEnums).toEqual([]);
    expect(vocabulary).not.toHaveProperty("detectionConstraints");
  });

  it("with a product: its value enums and, for code and secrets, the detection constraints, camelCased", async () => {
    const code = await getPolicyVocabulary({ deploymentId: "1", product: "code" });
    expect(code.detectionConstraints).toEqual({
      rulesetsAccepted: true,
      exceptionTypes: ["include", "exclude"],
      ruleTypes: ["rule", "pack"],
    });
    expect(code.valueEnums).toContainEqual({ type: "exception_type", values: ["include", "exclude"] });
    const secrets = await resolve(getPolicyVocabularyOutput({ deploymentId: "1", product: pulumi.output("secrets" as const) }));
    expect(secrets.detectionConstraints?.rulesetsAccepted).toBe(false);
    const remediation = await resolve(
      getPolicyVocabularyOutput({ deploymentId: pulumi.output("1"), product: Promise.resolve("remediation" as const) }),
    );
    expect(remediation.valueEnums).toContainEqual({ type: "severity", values: ["critical", "high", "medium", "low"] });
    expect(remediation).not.toHaveProperty("detectionConstraints");
    expect(env.requests("policiesV2.getVocab").map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("refuses an unknown product, naming the field, before any request", async () => {
    await expect(getPolicyVocabulary({ deploymentId: "1", product: "supply_chain" as never })).rejects.toThrow(
      /getPolicyVocabulary: invalid request: product: must be one of code, secrets, remediation/,
    );
    await expect(failure(getPolicyVocabularyOutput({ deploymentId: pulumi.output("x1") }))).rejects.toThrow(
      /getPolicyVocabulary: invalid request: deploymentId: /,
    );
    expect(env.requests()).toEqual([]);
  });
});

describe("on a migrated deployment without Secrets", () => {
  let migrated: RunningEmulator;
  beforeAll(async () => {
    migrated = await startEmulator({ preset: "demo", policiesV2: true, detectionProducts: ["code"], retryAfterSeconds: 0 });
  });
  afterAll(async () => migrated?.close());
  const opts = () => ({ url: migrated.url, token: migrated.token });

  it("the v1 policy data sources answer 410 while these work", async () => {
    await expect(getPolicies({ deploymentId: "1" }, opts())).rejects.toBeInstanceOf(DeploymentMigratedError);
    expect((await getDetectionPolicy({ deploymentId: "1", product: "code" }, opts())).rulesets).toEqual(["p/default", "p/owasp-top-ten"]);
    expect((await getRemediationPolicies({ deploymentId: "1" }, opts())).policies).toHaveLength(4);
    expect((await getPolicyVocabulary({ deploymentId: "1", product: "code" }, opts())).detectionConstraints).toBeDefined();
  });

  it("getDetectionPolicies leaves out the product the deployment lacks", async () => {
    const summary = await resolve(getDetectionPoliciesOutput({ deploymentId: "1" }, opts()));
    expect(Object.keys(summary)).toEqual(["deploymentSlug", "code"]);
  });

  it("getDetectionPolicy of that product fails with a message naming it", async () => {
    const error = await getDetectionPolicy({ deploymentId: "1", product: "secrets" }, opts()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^getDetectionPolicy: the secrets product is not enabled for deployment 1, so it has no secrets detection policy \(PRODUCT_NOT_ENABLED\)/,
    );
    expect((error as Error).cause).toBeInstanceOf(ProductNotEnabledError);
    await expect(
      failure(getDetectionPolicyOutput({ deploymentId: "1", product: pulumi.output("secrets" as const) }, opts())),
    ).rejects.toThrow(/the secrets product is not enabled for deployment 1/);
  });
});

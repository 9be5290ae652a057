/**
 * A corpus of invalid inputs across every resource and data source. Each stops at `check`
 * (preview) or at the first API call, with a message naming the field and what is wrong with
 * the value, and no write reaches the API.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as semgrep from "../../provider";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

type Kind = Parameters<typeof provider>[0];
const project = { deploymentSlug: "acme", projectName: "acme/web-app" };
const rule = {
  deploymentId: "1",
  policyId: SAST_POLICY_ID,
  rulePath: "python.lang.security.audit.eval-detected.eval-detected",
  mode: "MODE_BLOCK",
};
const sbom = { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main" };
const long = "x".repeat(300);

/** [resource kind, inputs, property named, what the message says] — refused by `check`. */
const atPreview: Array<[Kind, Record<string, unknown>, string, RegExp]> = [
  ["ProjectSettings", { ...project, primaryBranch: "main branch" }, "primaryBranch", /"main branch": is not a valid branch name/],
  ["ProjectSettings", { ...project, primaryBranch: "feature..x" }, "primaryBranch", /is not a valid branch name/],
  ["ProjectSettings", { ...project, primaryBranch: "release/" }, "primaryBranch", /is not a valid branch name/],
  [
    "ProjectSettings",
    { ...project, primaryBranch: "refs/tags/v1.0" },
    "primaryBranch",
    /must be a branch \(refs\/heads\/<branch>\), not another kind of ref/,
  ],
  ["ProjectSettings", { ...project, primaryBranch: "" }, "primaryBranch", /is not a valid branch name/],
  ["ProjectSettings", { ...project, primaryBranch: 42 }, "primaryBranch", /must be a string/],
  ["ProjectSettings", { ...project, tags: ["a", "a"] }, "tags", /tags must not repeat/],
  ["ProjectSettings", { ...project, tags: [""] }, "tags[0]", /a tag must not be empty/],
  ["ProjectSettings", { ...project, tags: [" padded"] }, "tags[0]", /must not start or end with white space/],
  ["ProjectSettings", { ...project, tags: [long] }, "tags[0]", /at most 256 characters/],
  ["ProjectSettings", { ...project, tags: "pci" }, "tags", /expected array, received string/],
  ["ProjectSettings", { ...project, tags: ["pci", "managed-scan"] }, "tags[1]", /"managed-scan": is a system tag: the service sets it/],
  [
    "ProjectSettings",
    { ...project, managedScanConfig: { diffScan: true } },
    "managedScanConfig.diffScan",
    /must be an object \{ enabled: boolean \}/,
  ],
  [
    "ProjectSettings",
    { ...project, managedScanConfig: { diffScan: { enabled: "yes" } } },
    "managedScanConfig.diffScan.enabled",
    /"yes": must be true or false/,
  ],
  [
    "ProjectSettings",
    { ...project, managedScanConfig: { nightly: { enabled: true } } },
    "managedScanConfig.nightly",
    /unknown input "nightly"/,
  ],
  ["ProjectSettings", { ...project, projectName: "" }, "projectName", /must not be empty/],
  ["ProjectSettings", { ...project, projectName: "acme/web app" }, "projectName", /must not contain white space/],
  ["ProjectSettings", { ...project, projectName: long }, "projectName", /at most 256 characters/],
  ["ProjectSettings", { ...project, deploymentSlug: "" }, "deploymentSlug", /must not be empty/],
  ["ProjectSettings", { ...project, deploymentSlug: "acme/corp" }, "deploymentSlug", /must be a deployment slug/],
  ["ProjectSettings", { ...project, primaryBranch: "main", tagz: ["a"] }, "tagz", /unknown input "tagz"/],
  ["ProjectSettings", { ...project, restoreOnDelete: "no" }, "restoreOnDelete", /must be true or false/],
  ["ProjectTags", { ...project, tags: [] }, "tags", /must name at least one tag/],
  ["ProjectTags", { ...project, tags: ["pci", "pci"] }, "tags", /tags must not repeat/],
  ["ProjectTags", { ...project, tags: ["managed-scan"] }, "tags[0]", /"managed-scan": is a system tag: .* leave it out/],
  ["ProjectTags", { ...project }, "tags", /expected array, received undefined/],
  ["ProjectTags", { ...project, tags: [7] }, "tags[0]", /expected string, received number/],
  ["ManagedScan", { ...project, diffScan: { enabled: 1 } }, "diffScan.enabled", /must be true or false/],
  ["ManagedScan", { ...project, fullScan: { on: true } }, "fullScan.on", /unknown input "on"/],
  ["ManagedScan", { deploymentSlug: "acme" }, "projectName", /must be a string/],
  ["PolicyRuleMode", { ...rule, mode: "BLOCK" }, "mode", /"BLOCK": must be one of MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED/],
  ["PolicyRuleMode", { ...rule, mode: "mode_block" }, "mode", /must be one of/],
  ["PolicyRuleMode", { ...rule, rulePath: "" }, "rulePath", /must not be empty/],
  ["PolicyRuleMode", { ...rule, rulePath: "eval-detected" }, "rulePath", /must be a dotted rule path/],
  ["PolicyRuleMode", { ...rule, rulePath: "python..eval" }, "rulePath", /must be a dotted rule path/],
  ["PolicyRuleMode", { ...rule, rulePath: `a.${"b".repeat(600)}` }, "rulePath", /at most 512 characters/],
  ["PolicyRuleMode", { ...rule, policyId: "default" }, "policyId", /"default": must be the policy id: digits only/],
  ["PolicyRuleMode", { ...rule, deploymentId: "acme" }, "deploymentId", /must be the deployment id: digits only/],
  ["PolicyRuleMode", { ...rule, deploymentId: -1 }, "deploymentId", /must be the deployment id/],
  ["PolicyRuleMode", { ...rule, deploymentId: 1.5 }, "deploymentId", /must be the deployment id/],
  ["SbomExport", { ...sbom, ref: "main" }, "ref", /must be refs\/heads\/<branch> or refs\/pull\/<number>\/merge/],
  ["SbomExport", { ...sbom, ref: "refs/pull/abc/merge" }, "ref", /must be refs\/heads/],
  ["SbomExport", { ...sbom, repositoryId: "web-app" }, "repositoryId", /must be the repository id: digits only/],
  [
    "SbomExport",
    { ...sbom, formatVersion: { format: "SPDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5" } },
    "formatVersion.format",
    /"SPDX": must be one of SBOM_FORMAT_CYCLONEDX/,
  ],
  [
    "SbomExport",
    { ...sbom, formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", version: "v1" } },
    "formatVersion.version",
    /"v1": must be a CycloneDX version the service supports: one of 1\.4, 1\.5, 1\.6, 1\.7/,
  ],
  [
    "SbomExport",
    { ...sbom, formatVersion: { cyclonedxVersion: "V1_5" } },
    "formatVersion.cyclonedxVersion",
    /"V1_5": must be one of SBOM_CYCLONE_DX_VERSION_V1_4, SBOM_CYCLONE_DX_VERSION_V1_5/,
  ],
  ["SbomExport", { ...sbom, sbomOutputFormat: "XML" }, "sbomOutputFormat", /Invalid option/],
  ["SbomExport", { ...sbom, triggers: [1, 2] }, "triggers", /must be a list of strings or a map of strings/],
];

/** [function, arguments, what the message says (naming the field)] — refused before any request. */
const functions: Array<[string, () => Promise<unknown>, RegExp]> = [
  ["getPolicies", () => semgrep.getPolicies({ deploymentId: "acme" }), /deploymentId: .*digits only/],
  [
    "getPolicy",
    () => semgrep.getPolicy({ deploymentId: "1", productType: "SAST" }),
    /productType: must be one of PRODUCT_TYPE_SAST, PRODUCT_TYPE_SECRETS/,
  ],
  [
    "getPolicyRules",
    () => semgrep.getPolicyRules({ deploymentId: "1", policyId: "10", filter: { modes: ["BLOCK"] } }),
    /filter\.modes\.0: must be one of MODE_MONITOR/,
  ],
  ["getPolicyRules", () => semgrep.getPolicyRules({ deploymentId: "1", policyId: "x" }), /policyId: .*digits only/],
  ["getScans", () => semgrep.getScans({ deploymentId: "1", products: ["SAST"] }), /products\.0: must be one of PRODUCT_UNSPECIFIED/],
  ["getScans", () => semgrep.getScans({ deploymentId: "1", maxResults: 0 }), /maxResults: Too small/],
  ["getScan", () => semgrep.getScan({ deploymentId: "1", scanId: "latest" }), /scanId: .*digits only/],
  ["getProject", () => semgrep.getProject({ deploymentSlug: "acme", projectName: "" }), /projectName: must not be empty/],
  [
    "getDependencyRepositories",
    () => semgrep.getDependencyRepositories({ deploymentId: "1", dependencyFilter: { repositoryId: ["101"] as never } }),
    /dependencyFilter\.repositoryId\.0: Invalid input: expected number/,
  ],
  [
    "getLockfiles",
    () => semgrep.getLockfiles({ deploymentId: "1", repositoryId: 101, pageSize: 5 } as never),
    /Unrecognized key: "pageSize"/,
  ],
];

const writes = () => env.requests().filter((r) => r.method !== "GET");

describe("refused at preview (check)", () => {
  it.each(atPreview)("%s %j → %s", async (kind, inputs, property, reason) => {
    const { failures } = await provider(kind).check(inputs);
    const failure = failures?.find((f) => f.property === property);
    expect(failure, JSON.stringify(failures)).toBeDefined();
    expect(failure!.reason).toMatch(reason);
    expect(env.requests()).toEqual([]);
  });
});

describe("refused at the first API call", () => {
  it("a project that does not exist", async () => {
    const calls = provider("ProjectSettings");
    await expect(
      calls.create(await checked(calls, { deploymentSlug: "acme", projectName: "acme/does-not-exist", primaryBranch: "main" })),
    ).rejects.toThrow(/project "acme\/does-not-exist" does not exist in deployment "acme"/);
    expect(writes()).toEqual([]);
  });

  it("a rule that is not in the policy", async () => {
    const calls = provider("PolicyRuleMode");
    await expect(
      calls.create(await checked(calls, { ...rule, rulePath: "python.lang.security.audit.not-a-rule.not-a-rule" })),
    ).rejects.toThrow(/rule "python\.lang\.security\.audit\.not-a-rule\.not-a-rule" is not in policy 10 of deployment 1/);
    expect(writes()).toEqual([]);
  });

  it("a policy that does not exist", async () => {
    const calls = provider("PolicyRuleMode");
    await expect(calls.create(await checked(calls, { ...rule, policyId: "999" }))).rejects.toThrow(
      /policy 999 does not exist in deployment 1/,
    );
    expect(writes()).toEqual([]);
  });
});

describe("data sources refuse bad arguments before any request", () => {
  it.each(functions)("%s", async (_name, call, message) => {
    await expect(call()).rejects.toThrow(message);
    expect(env.requests()).toEqual([]);
  });
});

/** `check` names the property and the problem, leaves unknowns alone, and sends nothing to the API. */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/dynamic/check";
import { configure } from "../../provider/dynamic/credentials";
import { useEmulator } from "../support/emulator";
import { provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

type Case = [kind: Parameters<typeof provider>[0], inputs: Record<string, unknown>, property: string, reason: RegExp];
const project = { deploymentSlug: "acme", projectName: "acme/web-app" };
const rule = { deploymentId: "1", policyId: "10", rulePath: "a.b", mode: "MODE_BLOCK" };
const sbom = { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main" };

const cases: Case[] = [
  ["ProjectSettings", { ...project, primaryBranch: "feature..x" }, "primaryBranch", /"feature\.\.x": is not a valid branch name/],
  ["ProjectSettings", { ...project, primaryBranch: "refs/tags/v1" }, "primaryBranch", /not another kind of ref/],
  ["ProjectSettings", { ...project, tags: ["a", " b"] }, "tags[1]", /must not start or end with white space/],
  ["ProjectSettings", { ...project, managedScanConfig: { diffScan: { enabled: "yes" } } }, "managedScanConfig.diffScan.enabled", /must be true or false/],
  ["ProjectSettings", { ...project, projectName: "" }, "projectName", /must not be empty/],
  ["ProjectSettings", { ...project, deploymentSlug: "acme corp" }, "deploymentSlug", /must be a deployment slug/],
  ["ProjectSettings", { ...project, tagz: ["a"] }, "tagz", /unknown input "tagz"/],
  ["ProjectTags", { ...project, tags: "pci" }, "tags", /expected array/],
  ["ManagedScan", { ...project, fullScan: true }, "fullScan", /must be an object \{ enabled: boolean \}/],
  ["PolicyRuleMode", { ...rule, mode: "BLOCK" }, "mode", /"BLOCK": must be one of MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED/],
  ["PolicyRuleMode", { ...rule, rulePath: "eval-detected" }, "rulePath", /must be a dotted rule path/],
  ["PolicyRuleMode", { ...rule, policyId: "default" }, "policyId", /must be the policy id: digits only/],
  ["PolicyRuleMode", { ...rule, deploymentId: -1 }, "deploymentId", /must be the deployment id/],
  ["SbomExport", { ...sbom, ref: "main" }, "ref", /must be refs\/heads\/<branch> or refs\/pull\/<number>\/merge/],
  ["SbomExport", { ...sbom, formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", version: "latest" } }, "formatVersion.version", /must be <major>\.<minor>/],
  ["SbomExport", { ...sbom, metadataComponentType: "APP" }, "metadataComponentType", /Invalid option/],
];

describe("check failures", () => {
  it.each(cases)("%s %j → %s", async (kind, inputs, property, reason) => {
    const { failures } = await provider(kind).check(inputs);
    expect(failures).toEqual(expect.arrayContaining([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]));
    expect(env.requests()).toEqual([]);
  });
});

describe("preview unknowns", () => {
  it("accepts values not known yet, judging only the rest", async () => {
    const settings = provider("ProjectSettings");
    expect((await settings.check({ ...project, projectName: UNKNOWN, tags: ["a", UNKNOWN] })).failures).toBeUndefined();
    const { failures } = await settings.check({ ...project, projectName: UNKNOWN, primaryBranch: "bad branch" });
    expect(failures?.map((f) => f.property)).toEqual(["primaryBranch"]);
    expect((await provider("PolicyRuleMode").check({ ...rule, mode: UNKNOWN, policyId: UNKNOWN })).failures).toBeUndefined();
  });

  it("diffs an unknown value as a change, and an unknown identity field as a replacement", async () => {
    const settings = provider("ProjectSettings");
    const olds = { ...project, tags: ["a"], primaryBranch: "refs/heads/main" };
    expect(await settings.diff(olds, { ...project, tags: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    expect(await settings.diff(olds, { ...project, projectName: UNKNOWN })).toMatchObject({ changes: true, replaces: ["projectName"] });
    expect(env.requests()).toEqual([]);
  });
});

describe("configure", () => {
  it("uses semgrep:token and semgrep:url from the stack config over the environment", async () => {
    const saved = { url: process.env.SEMGREP_APP_URL, token: process.env.SEMGREP_APP_TOKEN };
    process.env.SEMGREP_APP_URL = "http://127.0.0.1:9";
    process.env.SEMGREP_APP_TOKEN = "wrong";
    const config = { "semgrep:token": env.emulator.token, "semgrep:url": env.emulator.url } as Record<string, string>;
    try {
      configure({ config: { get: (k: string) => config[k], require: (k: string) => config[k]! } });
      const { outs } = await provider("ProjectTags").create({ ...project, tags: ["configured"] });
      expect(outs.tags).toEqual(["configured"]);
    } finally {
      configure({ config: { get: () => undefined, require: () => "" } });
      Object.assign(process.env, { SEMGREP_APP_URL: saved.url, SEMGREP_APP_TOKEN: saved.token });
    }
  });
});

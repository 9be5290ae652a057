/** `check` leaves preview unknowns alone and sends nothing to the API; `configure` takes the stack config. (Bad input: bad-input.test.ts.) */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/runtime/check";
import { configure } from "../../provider/core/runtime/credentials";
import { useEmulator } from "../support/emulator";
import { provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const project = { deploymentSlug: "acme", projectName: "acme/web-app" };
const rule = { deploymentId: "1", policyId: "10", rulePath: "a.b", mode: "MODE_BLOCK" };

it("writes out the engine's unknown sentinel as the installed @pulumi/pulumi has it", () => {
  expect(UNKNOWN).toBe(pulumi.runtime.unknownValue);
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
      configure({ config: { get: (k: string) => config[k] } });
      const { outs } = await provider("ProjectTags").create({ ...project, tags: ["configured"] });
      expect(outs.tags).toEqual(["configured"]);
    } finally {
      configure({ config: { get: () => undefined } });
      Object.assign(process.env, { SEMGREP_APP_URL: saved.url, SEMGREP_APP_TOKEN: saved.token });
    }
  });
});

/**
 * Issue 25's proof for Go: examples/go (which the README links and docs/_index.md shows), through the real CLI, the Go
 * language host and the native plugin installed from its release tarball, against the emulator,
 * by the steps CI's example job runs (test/tools/example.mjs: a copy, its go.mod pointed at this
 * repository's generated SDK sdk/go/semgrep; credentials and the secret `ownerTag` in the stack's
 * config): `up` changes the service and exports what the data sources and resources report, a
 * preview then shows no change, and `destroy` puts every value back. The steps share the emulator
 * and the stack, in order.
 *
 * The language host compiles the program at every run; the first compile on a machine with an
 * empty Go build cache takes minutes (measured here: about 155 s on 2 loaded cores), later ones
 * seconds, hence the timeouts.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorState, SAST_POLICY_ID } from "../../provider/emulator";
import { snapshotOf, useEmulator } from "../support/emulator";
import { goVersion } from "../tools/example-sdks.mjs";
import { packedPlugin } from "../support/native-plugin";
import { stateOf } from "../support/program";
import { TYPE_PREFIX } from "../support/yaml-program";
import { type Example, EXAMPLE_CONFIG, prepareExample } from "../tools/example.mjs";
import { REPO } from "../tools/plugin-pack.mjs";

const env = useEmulator({ preset: "demo", resetEachTest: false });

/** The example's secret config value (the runner sets it): its text must appear in no output, state or message. */
const OWNER_TAG = EXAMPLE_CONFIG["semgrep-go"].ownerTag.value;
const EVAL_RULE = "python.lang.security.audit.eval-detected.eval-detected";
const EXEC_RULE = "python.lang.security.audit.exec-detected.exec-detected";

/** The writes since `mark`, as `operation status`, sorted (the engine runs independent steps at once). */
const writesSince = (mark: number) =>
  env
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.operation} ${r.status}`)
    .sort();

const project = (name: string) => env.emulator.state().projects.find((p) => p.name === name)!;
const ruleModes = () =>
  Object.fromEntries(
    env.emulator
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.filter((r) => r.path === EVAL_RULE || r.path === EXEC_RULE)
      .map((r) => [r.path, r.policyMode]),
  );

describe("examples/go through the Go language host and the native plugin", { timeout: 900_000 }, () => {
  let example: Example;
  let state: ReturnType<typeof stateOf>;
  let found: EmulatorState;

  beforeAll(async () => {
    found = snapshotOf(env.emulator);
    example = await prepareExample(join(REPO, "examples/go"), { emulator: env.emulator, pluginTarball: await packedPlugin() });
    state = stateOf(example, TYPE_PREFIX);
  }, 900_000);
  afterAll(() => example?.remove());

  it("up declares the tags, the settings and the rule modes, and exports the data sources' and resources' values", async () => {
    expect(project("acme/payments-api").tags).toEqual(["team:payments", "pci", "tier:0", "managed-scan"]);
    expect(ruleModes()).toEqual({ [EVAL_RULE]: "MODE_COMMENT", [EXEC_RULE]: "MODE_DISABLED" });
    const mark = env.requests().length;
    const up = await example.step("up");
    expect(up.stdout).toMatch(/4 created/); // the stack, ProjectTags, ProjectSettings, PolicyRuleModes

    expect(project("acme/payments-api").tags).toEqual(["team:payments", "pci", "tier:0", "managed-scan", "managed-by:pulumi", OWNER_TAG]);
    expect(project("acme/mobile-app")).toMatchObject({
      primaryBranch: "refs/heads/release",
      managedScanConfig: { diff_scan: { enabled: true } },
    });
    expect(ruleModes()).toEqual({ [EVAL_RULE]: "MODE_BLOCK", [EXEC_RULE]: "MODE_COMMENT" });
    // One write per rule, one for the tags, one for the branch and the scans together.
    expect(writesSince(mark)).toEqual([
      "policies.updateRuleMode 200",
      "policies.updateRuleMode 200",
      "projects.addTags 200",
      "projects.update 200",
    ]);

    const outputs = JSON.parse((await example.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toEqual({
      policyNames: found.policies.filter((p) => p.deploymentId === 1).map((p) => p.name),
      paymentsTags: "[secret]",
      mobileBranch: "refs/heads/release",
      ruleModeCounts: { MODE_BLOCK: 1, MODE_COMMENT: 1 },
    });
    const shown = JSON.parse((await example.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    // The project's whole tag set, the system tag managed-scan included.
    expect(shown.paymentsTags).toEqual(["team:payments", "pci", "tier:0", "managed-scan", "managed-by:pulumi", OWNER_TAG]);
    const exported = await state.exported();
    expect(exported).not.toContain(OWNER_TAG);
    expect(exported).not.toContain(env.emulator.token);
    expect(up.stdout + up.stderr).not.toContain(OWNER_TAG);
  });

  it("a preview then shows no change and writes nothing", async () => {
    const mark = env.requests().length;
    await example.step("preview");
    expect(writesSince(mark)).toEqual([]);
  });

  it("destroy puts back every value the program changed", async () => {
    const resources = await state.resources();
    expect(Object.keys(resources).sort()).toEqual(["mobile", "payments-tags", "sast-rules"]);
    const mark = env.requests().length;
    const destroyed = await example.step("destroy");
    expect(destroyed.stdout).toMatch(/4 deleted/);
    expect(writesSince(mark)).toEqual([
      "policies.updateRuleMode 200",
      "policies.updateRuleMode 200",
      "projects.removeTags 200",
      "projects.update 200",
    ]);
    // The runner's own check (CI's example job fails on any line of it): the state before `up`, audit fields aside.
    expect(example.changed()).toEqual([]);
  });

  it("names Go as what is missing when `go` is not on the PATH", () => {
    expect(goVersion()).toMatch(/^go version go1\.\d+/);
    expect(() => goVersion({ ...process.env, PATH: "/nonexistent" })).toThrow(/Go programs need Go: `go version` failed .*Install Go/);
  });
});

/**
 * Issue 25's proof for Go: the README's Go program, examples/go (a copy, its go.mod pointed at
 * this repository's generated SDK sdk/go/semgrep), through the real CLI, the Go language host and
 * the native plugin installed from its release tarball, against the emulator: `up` changes the
 * service and exports what the data sources and resources report, a preview then shows no
 * change, and `destroy` puts every value back. The steps share the emulator and the stack, in order.
 *
 * The language host compiles the program at every run; the first compile on a machine with an
 * empty Go build cache takes minutes (measured here: about 155 s on 2 loaded cores), later ones
 * seconds, hence the timeouts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type EmulatorState, SAST_POLICY_ID } from "../../provider/emulator";
import { snapshotOf, useEmulator, withoutAuditFields } from "../support/emulator";
import { type GoWorkspace, goBuilds, goExampleWorkspace, goVersion } from "../support/go-program";

const env = useEmulator({ preset: "demo", resetEachTest: false });

/** The example's secret config value: its text must appear in no output, state or message. */
const OWNER_TAG = "owner:go-secret-5d21c8";
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
  let workspace: GoWorkspace;
  let before: EmulatorState;

  beforeAll(async () => {
    before = snapshotOf(env.emulator);
    // Credentials from the stack's config only, the token as a secret.
    workspace = await goExampleWorkspace("go", { SEMGREP_APP_URL: "", SEMGREP_APP_TOKEN: "" });
    await workspace.run([
      "config",
      "set-all",
      "--plaintext",
      `semgrep:url=${env.emulator.url}`,
      "--secret",
      `semgrep:token=${env.emulator.token}`,
      "--secret",
      `ownerTag=${OWNER_TAG}`,
    ]);
  }, 900_000);

  it("up declares the tags, the settings and the rule modes, and exports the data sources' and resources' values", async () => {
    expect(project("acme/payments-api").tags).toEqual(["team:payments", "pci", "tier:0", "managed-scan"]);
    expect(ruleModes()).toEqual({ [EVAL_RULE]: "MODE_COMMENT", [EXEC_RULE]: "MODE_DISABLED" });
    const mark = env.requests().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
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

    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toEqual({
      policyNames: before.policies.filter((p) => p.deploymentId === 1).map((p) => p.name),
      paymentsTags: "[secret]",
      mobileBranch: "refs/heads/release",
      ruleModeCounts: { MODE_BLOCK: 1, MODE_COMMENT: 1 },
    });
    const shown = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    // The project's whole tag set, the system tag managed-scan included.
    expect(shown.paymentsTags).toEqual(["team:payments", "pci", "tier:0", "managed-scan", "managed-by:pulumi", OWNER_TAG]);
    const state = await workspace.exported();
    expect(state).not.toContain(OWNER_TAG);
    expect(state).not.toContain(env.emulator.token);
    expect(up.stdout + up.stderr).not.toContain(OWNER_TAG);
  });

  it("a preview then shows no change and writes nothing", async () => {
    const mark = env.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(mark)).toEqual([]);
  });

  it("destroy puts back every value the program changed", async () => {
    const resources = await workspace.resources();
    expect(Object.keys(resources).sort()).toEqual(["mobile", "payments-tags", "sast-rules"]);
    const mark = env.requests().length;
    const destroyed = await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(destroyed.stdout).toMatch(/4 deleted/);
    expect(writesSince(mark)).toEqual([
      "policies.updateRuleMode 200",
      "policies.updateRuleMode 200",
      "projects.removeTags 200",
      "projects.update 200",
    ]);
    const after = snapshotOf(env.emulator);
    withoutAuditFields(after, before);
    expect(after).toEqual(before);
  });

  it("names Go as what is missing when `go` is not on the PATH", () => {
    expect(goVersion()).toMatch(/^go version go1\.\d+/);
    expect(() => goVersion({ ...process.env, PATH: "/nonexistent" })).toThrow(/Go programs need Go: `go version` failed .*Install Go/);
  });
});

describe("the README's Go program", { timeout: 900_000 }, () => {
  it("compiles against the generated Go SDK (examples/go's go.mod), and a misspelled field would not", () => {
    const readme = readFileSync(join(__dirname, "../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Other languages and import"), readme.indexOf("## The five promises"));
    const program = /```go\n([\s\S]*?)```/.exec(section)?.[1];
    expect(program, "README.md's Other languages and import shows a Go program").toBeDefined();
    expect(goBuilds(program!)).toBe("");
    expect(goBuilds(program!.replace("DeploymentSlug:", "DeploymentSlugs:"))).toMatch(/unknown field DeploymentSlugs in struct literal/);
  });
});

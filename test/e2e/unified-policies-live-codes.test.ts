/**
 * The live service's Policies V2 answers, through the real CLI against a migrated deployment (the
 * emulator's `policiesV2`, demo preset): an apply meeting `409 STATE_VERSION_MISMATCH` (another
 * client's apply landing between the provider's read and its apply: the emulator's
 * `concurrent-write` fault) converges, keeping the other client's change; and the dry run's other
 * form (`dryRunRefusals`: an invalid bundle refused with 400 and a code, a clean dry run without
 * `state_version`) fails the preview naming the resource's field, with no write.
 */
import { describe, expect, it } from "vitest";
import { type RunningEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start: migrated } = useEmulators({ preset: "demo", policiesV2: true });

const OPEN = "python.lang.best-practice.open-never-closed.open-never-closed";
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const code = (emulator: RunningEmulator) => emulator.state().detectionPolicies.find((p) => p.product === "code")!;
const slugs = (emulator: RunningEmulator) => emulator.state().remediationPolicies.map((p) => p.slug);
/** The writes (PUT) since `from` (an index into the request log), as `operation status`. */
const writesSince = (emulator: RunningEmulator, from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter((r) => r.method === "PUT")
    .map((r) => `${r.operation} ${r.status}`);

const TEAM = program(`
new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", disabled: [${JSON.stringify(OPEN)}] });
new semgrep.RemediationPolicy("comment-criticals", {
  deploymentId: "1", slug: "comment-criticals", policyName: "Comment on criticals",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "pr_comment" }],
});
`);

describe("the live Policies V2 answers through the real CLI", () => {
  it("an apply meeting 409 STATE_VERSION_MISMATCH (another client's apply in between) re-reads and converges, keeping the other change", async () => {
    const emulator = await migrated();
    const workspace = await programWorkspace(emulator, TEAM);
    // The detection bundle's first two applies each meet another client's apply that landed just before it.
    emulator.setFaults({ faultRate: 1, kinds: ["concurrent-write"], operations: ["policiesV2.applyDetectionPolicy"], maxFaults: 2 });
    let mark = emulator.requests().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(printed(up)).toMatch(/\+ 3 created/); // the stack and both resources
    // Per bundle, in order (the two bundles' writes interleave as the engine runs them).
    const writes = writesSince(emulator, mark);
    expect(writes.filter((w) => w.includes("Detection"))).toEqual([
      "policiesV2.applyDetectionPolicy 409",
      "policiesV2.applyDetectionPolicy 409",
      "policiesV2.applyDetectionPolicy 200",
    ]);
    expect(writes.filter((w) => w.includes("Remediation"))).toEqual(["policiesV2.applyRemediationPolicies 200"]);
    // Declared values are live, and the other client's changes are kept.
    expect(code(emulator).disabled).toEqual([OPEN]);
    expect(code(emulator).rules).toEqual(expect.arrayContaining(["emulator.concurrent-write-0", "emulator.concurrent-write-1"]));

    // An update of the remediation policies meeting the same.
    workspace.write(TEAM.replace("Comment on criticals", "Comment on critical findings"));
    emulator.setFaults({ operations: ["policiesV2.applyRemediationPolicies"], maxFaults: 1 });
    mark = emulator.requests().length;
    const update = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(printed(update)).toMatch(/~ 1 updated/);
    expect(writesSince(emulator, mark)).toEqual(["policiesV2.applyRemediationPolicies 409", "policiesV2.applyRemediationPolicies 200"]);
    expect(emulator.state().remediationPolicies.find((p) => p.slug === "comment-criticals")!.name).toBe("Comment on critical findings");
    expect(slugs(emulator)).toContain("emulator-concurrent-write-0");
    expect(emulator.requests().filter((r) => r.fault === "concurrent-write")).toHaveLength(3);

    // The state holds the live versions: a second up writes nothing.
    const state = await workspace.resources();
    const versions = await (async () => {
      const read = (path: string) =>
        fetch(`${emulator.url}/api/policies/v2/deployments/1/${path}`, { headers: { authorization: `Bearer ${emulator.token}` } }).then(
          (r) => r.json() as Promise<{ state_version: string }>,
        );
      return { code: (await read("detection-policy/code")).state_version, remediation: (await read("remediation-policies")).state_version };
    })();
    expect(state["code"]!.outputs.stateVersion).toBe(versions.code);
    expect(state["comment-criticals"]!.outputs.stateVersion).toBe(versions.remediation);
    const again = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(emulator, again)).toEqual([]);
  }, 240_000);

  it("dry runs answering 400 + code (and clean ones without state_version): the preview fails naming each resource's field, with no write; a valid program applies", async () => {
    const emulator = await migrated({ dryRunRefusals: true });
    const workspace = await programWorkspace(
      emulator,
      program(`
new semgrep.DetectionPolicyException("typo", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/web-ap", rule: ${JSON.stringify(EVAL)}, ruleType: "rule",
});`),
    );
    const unknown = await workspace.run(["preview"], { allowFailure: true });
    expect(unknown.status).not.toBe(0);
    expect(printed(unknown)).toMatch(
      /DetectionPolicyException "typo": Semgrep refuses the bundle \(dry run\): invalid bundle: exceptions\[\d+\]\.project: no project "acme\/web-ap" in this deployment \[UNKNOWN_REFERENCE\]/,
    );
    expect(printed(unknown)).toContain("property projectName value {acme/web-ap} has a problem");

    workspace.write(
      program(`
new semgrep.DetectionPolicy("code", {
  deploymentId: "1", product: "code",
  exceptions: [{ exceptionType: "exclude", projectName: "acme/gone", rule: ${JSON.stringify(EVAL)}, ruleType: "rule" }],
});`),
    );
    const policy = await workspace.run(["preview"], { allowFailure: true });
    expect(policy.status).not.toBe(0);
    expect(printed(policy)).toMatch(
      /DetectionPolicy "code": Semgrep refuses the bundle \(dry run\): invalid bundle: exceptions\[\d+\]\.project: no project "acme\/gone" in this deployment \[UNKNOWN_REFERENCE\]/,
    );
    expect(printed(policy)).toMatch(/property exceptions value .* has a problem/);

    workspace.write(
      program(`
new semgrep.RemediationPolicy("taken", {
  deploymentId: "1", slug: ${JSON.stringify(SYSTEM_REMEDIATION_SLUG)}, policyName: "Mine",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "pr_comment" }],
});`),
    );
    const reserved = await workspace.run(["preview"], { allowFailure: true });
    expect(reserved.status).not.toBe(0);
    expect(printed(reserved)).toMatch(/RemediationPolicy "taken".*\[RESERVED_SLUG\]/);
    expect(printed(reserved)).toMatch(/property slug value .* has a problem/);
    expect(emulator.requests().filter((r) => r.method === "PUT")).toEqual([]);
    expect(await workspace.resources()).toEqual({});

    // A valid program: its clean dry runs carry no state_version; up applies, a second up writes nothing.
    workspace.write(TEAM);
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(emulator, mark).sort()).toEqual(["policiesV2.applyDetectionPolicy 200", "policiesV2.applyRemediationPolicies 200"]);
    const again = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(writesSince(emulator, again)).toEqual([]);
  }, 240_000);
});

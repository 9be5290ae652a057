/**
 * PolicyRuleModes through the real CLI against the emulator (demo preset): a selector and
 * explicit modes in one resource; what a no-change `up` costs (nothing); the preview diff of an
 * explicit mode (that rule only); a rule that starts matching found by refresh and converged by
 * up; an overlap with a PolicyRuleMode refused before any write; destroy restoring every mode
 * exactly; an input unknown at preview; writes failing part-way, the landed ones kept in the stack;
 * a rename with and without an alias.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const DJANGO = "python.django.security.";
const rulesOf = (emulator: RunningEmulator) => emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
const modesOf = (emulator: RunningEmulator) => Object.fromEntries(rulesOf(emulator).map((r) => [r.path, r.policyMode]));

const bulk = (evalMode: string, extra = "", severities = ["SEVERITY_HIGH", "SEVERITY_CRITICAL"]) =>
  program(`new semgrep.PolicyRuleModes("django", {
  deploymentId: "1", policyId: "${SAST_POLICY_ID}",
  select: { rulePathPrefixes: ["${DJANGO}"], severities: ${JSON.stringify(severities)}, exclude: ["python.django.security.xss.unsafe-url.unsafe-url"] },
  mode: "MODE_BLOCK",
  modes: { "${EVAL}": "${evalMode}" },
});
${extra}`);

describe("PolicyRuleModes through the real CLI", () => {
  it("preview --diff of a two-rule change among every rule of a policy (320) prints those two rules' lines only, as the plugin does", async () => {
    const emulator = await emulators.start();
    const paths = rulesOf(emulator).map((r) => r.path);
    expect(paths.length).toBeGreaterThan(300);
    const [first, second] = paths as [string, string];
    const all = (changed: Record<string, string>) =>
      program(
        `new semgrep.PolicyRuleModes("all", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: ${JSON.stringify({ ...Object.fromEntries(paths.map((p) => [p, "MODE_BLOCK"])), ...changed })} });`,
      );
    const workspace = await programWorkspace(emulator, all({}));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    workspace.write(all({ [first]: "MODE_COMMENT", [second]: "MODE_MONITOR" }));
    const diff = await workspace.run(["preview", "--diff"]);
    const ruleLines = (diff.stdout + diff.stderr).split("\n").filter((line) => paths.some((path) => line.includes(path)));
    expect(ruleLines).toEqual([
      expect.stringMatching(new RegExp(`~ "?${first.replace(/\./g, "\\.")}"?\\s*: "MODE_BLOCK" => "MODE_COMMENT"`)),
      expect.stringMatching(new RegExp(`~ "?${second.replace(/\./g, "\\.")}"?\\s*: "MODE_BLOCK" => "MODE_MONITOR"`)),
    ]);
    expect(printed(diff)).toContain("~ 1 to update");
  });

  it("selector and explicit modes: up, a no-change up with no request, a one-rule diff, refresh finding a newly matching rule, an overlap refused, destroy restoring exactly", async () => {
    const emulator = await emulators.start();
    const before = modesOf(emulator);
    const writesSince = (mark: number) =>
      emulator
        .requests()
        .slice(mark)
        .filter((r) => r.method !== "GET");
    const workspace = await programWorkspace(emulator, bulk("MODE_BLOCK"));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const selected = rulesOf(emulator).filter(
      (r) =>
        r.path.startsWith(DJANGO) &&
        ["SEVERITY_HIGH", "SEVERITY_CRITICAL"].includes(r.severity!) &&
        !r.path.includes("unsafe-url.unsafe-url"),
    );
    expect(selected.every((r) => r.policyMode === "MODE_BLOCK")).toBe(true);
    expect(modesOf(emulator)[EVAL]).toBe("MODE_BLOCK");
    expect(modesOf(emulator)["python.django.security.xss.unsafe-url.unsafe-url"]).toBe(
      before["python.django.security.xss.unsafe-url.unsafe-url"],
    );
    const state = (await workspace.resources())["django"]!;
    expect(state.id).toBe(`1/${SAST_POLICY_ID}/django`);
    expect(state.outputs).toMatchObject({
      managedRules: selected.length + 1,
      deviations: {},
      modeCounts: { MODE_BLOCK: selected.length + 1 },
    });

    // A no-change up compares inputs only: no request at all, in preview or update.
    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(emulator.requests().slice(mark)).toEqual([]);

    // The diff a reviewer sees: the one rule whose mode changes, not the whole map.
    workspace.write(bulk("MODE_COMMENT"));
    const diff = await workspace.run(["preview", "--diff"]);
    expect(printed(diff)).toMatch(new RegExp(`${EVAL.replace(/\./g, "\\.")}.*"MODE_BLOCK" => "MODE_COMMENT"`));
    expect(printed(diff)).not.toContain(selected[0]!.path);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(mark)).toHaveLength(1);

    // A rule starts matching the selector (its severity raised upstream): refresh finds it, up sets it.
    const newcomer = rulesOf(emulator).find(
      (r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_LOW" && r.policyMode !== "MODE_BLOCK",
    )!;
    newcomer.severity = "SEVERITY_HIGH";
    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    expect((await workspace.resources())["django"]!.outputs.deviations).toEqual({ [newcomer.path]: before[newcomer.path] });
    mark = emulator.requests().length;
    const converged = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(printed(converged)).toContain(
      `PolicyRuleModes "django": 1 rule is not as it left it (found by refresh, or left by a failed or interrupted run): ${newcomer.path}`,
    );
    expect(writesSince(mark)).toHaveLength(1);
    expect(newcomer.policyMode).toBe("MODE_BLOCK");

    // A narrowed selector: the preview's input diff is one line; the note names the rules it puts back.
    workspace.write(bulk("MODE_COMMENT", "", ["SEVERITY_CRITICAL"]));
    mark = emulator.requests().length;
    const narrowed = await workspace.run(["preview", "--diff"]);
    expect(printed(narrowed)).toMatch(
      /PolicyRuleModes "django": the change of select\/mode sets 0 rules to their declared mode, puts back [1-9]\d* it no longer manages \(/,
    );
    expect(printed(narrowed)).toContain(newcomer.path); // a high rule it had set: going back
    expect(writesSince(mark)).toEqual([]);

    // A PolicyRuleMode on a rule the selector manages: refused before any write.
    workspace.write(
      bulk(
        "MODE_COMMENT",
        `new semgrep.PolicyRuleMode("one", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${selected[0]!.path}", mode: "MODE_COMMENT" });`,
      ),
    );
    mark = emulator.requests().length;
    const overlap = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(overlap.status).not.toBe(0);
    expect(printed(overlap)).toMatch(/declare/);
    expect(writesSince(mark)).toEqual([]);
    workspace.write(bulk("MODE_COMMENT"));

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    newcomer.severity = "SEVERITY_LOW";
    expect(modesOf(emulator)).toEqual(before);
  }, 300_000);

  it("modes unknown at preview (computed during the run) preview without a claim and apply at up", async () => {
    const emulator = await emulators.start();
    const workspace = await programWorkspace(
      emulator,
      program(`const first = new semgrep.PolicyRuleMode("first", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${EVAL}", mode: "MODE_BLOCK" });
new semgrep.PolicyRuleModes("later", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: first.ruleId.apply(() => ({ "python.lang.security.audit.exec-detected.exec-detected": "MODE_BLOCK" })) });`),
    );
    const preview = await workspace.run(["preview"]);
    expect(printed(preview)).toMatch(/\+ 3 to create/);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(modesOf(emulator)["python.lang.security.audit.exec-detected.exec-detected"]).toBe("MODE_BLOCK");
  }, 300_000);

  it("writes failing part-way: the stack records the landed ones with the modes they replaced, the next up finishes, destroy restores exactly", async () => {
    // Slow answers, so that the test can act while the writes are under way.
    const emulator = await emulators.start({ latencyMs: 100 });
    const before = modesOf(emulator);
    const severe = ["SEVERITY_HIGH", "SEVERITY_CRITICAL"];
    const changing = rulesOf(emulator).filter((r) => severe.includes(r.severity!) && r.policyMode !== "MODE_BLOCK");
    const writesSince = (mark: number) => emulator.requests().filter((r, i) => i >= mark && r.method !== "GET");
    const workspace = await programWorkspace(
      emulator,
      program(
        `new semgrep.PolicyRuleModes("severe", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: ${JSON.stringify(severe)} }, mode: "MODE_BLOCK" });`,
      ),
    );
    // Once the writes have begun, a rule half-way in their order leaves the policy (retired upstream): its write answers 404.
    const sast = emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    const retired = changing[Math.floor(changing.length / 2)]!;
    const up = workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const deadline = Date.now() + 120_000;
    while (!emulator.requests().some((r) => r.operation === "policies.updateRuleMode") && Date.now() < deadline) await sleep(5);
    const at = sast.rules.indexOf(retired);
    sast.rules.splice(at, 1);
    const failed = await up;
    expect(failed.status).not.toBe(0);
    const landed = changing.filter((r) => r !== retired && r.policyMode === "MODE_BLOCK").map((r) => r.path);
    expect(landed.length).toBeGreaterThan(0);
    expect(printed(failed)).toMatch(
      new RegExp(
        `setting rule ${retired.path} to MODE_BLOCK: .*404.* ${landed.length} of ${changing.length} setting a declared mode landed`,
      ),
    );

    // The stack holds the resource, its originals exactly those of the writes that landed.
    const state = (await workspace.resources())["severe"]!;
    expect(state.id).toBe(`1/${SAST_POLICY_ID}/severe`);
    const originals = state.outputs.originals as Record<string, string[]>;
    expect(Object.values(originals).flat().sort()).toEqual([...landed].sort());
    for (const [mode, paths] of Object.entries(originals)) for (const path of paths) expect(before[path]).toBe(mode);

    // The rule comes back; the next up makes only the writes left, and destroy puts every mode back.
    sast.rules.splice(at, 0, retired);
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(mark)).toHaveLength(changing.length - landed.length);
    expect(changing.every((r) => r.policyMode === "MODE_BLOCK")).toBe(true);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(modesOf(emulator)).toEqual(before);
  }, 300_000);

  it("a rename without an alias: one warning naming every rule left to the new resource, its original and the alias; with the alias, no request", async () => {
    const emulator = await emulators.start();
    const before = modesOf(emulator);
    const severe = (name: string, alias = "") =>
      program(
        `new semgrep.PolicyRuleModes(${JSON.stringify(name)}, { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] }, mode: "MODE_BLOCK" }${alias});`,
      );
    const workspace = await programWorkspace(emulator, severe("severe"));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const originals = (await workspace.resources())["severe"]!.outputs.originals as Record<string, string[]>;
    const changed = Object.values(originals).flat();

    // With an alias the resource is the same one: nothing to do, nothing requested, the originals kept.
    workspace.write(severe("severe-aliased", `, { aliases: [{ name: "severe" }] }`));
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(emulator.requests().slice(mark)).toEqual([]);
    expect((await workspace.resources())["severe-aliased"]!.outputs.originals).toEqual(originals);

    // Without one, the renamed resource is created and the old one deleted: one warning for all its rules.
    workspace.write(severe("severe-renamed"));
    const up = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(up).not.toMatch(/was deleted and left the \S+ of rule/); // no warning per rule
    expect(up).toContain(
      `PolicyRuleModes "severe-aliased" was deleted and left the modes of ${changed.length} rules of policy ${SAST_POLICY_ID} (deployment 1) to PolicyRuleModes "severe-renamed"`,
    );
    for (const [mode, paths] of Object.entries(originals)) expect(up).toContain(`${mode} for ${paths.join(", ")}`);
    expect(up).toContain('give it `aliases: [{ name: "severe-aliased" }]` (in a YAML program');
    expect(Object.keys(await workspace.resources())).toEqual(["severe-renamed"]);
    // The new resource's note names every rule destroy will leave, however many (not "… and N more").
    const at = up.indexOf(`PolicyRuleModes "severe-renamed": the modes of`);
    const note = up.slice(at); // the rules follow the note's sentence, one a line
    expect(changed.length).toBeGreaterThan(10);
    for (const path of changed) expect(note).toContain(path);
    // As the warning and the new resource's note say: it found them as declared, so destroy leaves them.
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    for (const path of changed) expect(modesOf(emulator)[path]).toBe("MODE_BLOCK");
    expect(changed.every((path) => before[path] !== "MODE_BLOCK")).toBe(true);
  }, 300_000);
});

/** PolicyRuleModes provider methods against the emulator: selectors, explicit modes, drift, conflicts, request counts. */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/dynamic/process-memory";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const modes = provider("PolicyRuleModes");
const single = provider("PolicyRuleMode");
const DJANGO = "python.django.security.";
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const rules = () => env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
const modesOf = () => Object.fromEntries(rules().map((r) => [r.path, r.policyMode]));
const writes = () => env.requests().filter((r) => r.method !== "GET");
const declared = (extra: Record<string, unknown> = {}) => ({
  deploymentId: "1",
  policyId: SAST_POLICY_ID,
  select: { rulePathPrefixes: [DJANGO], severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] },
  mode: "MODE_BLOCK",
  resourceName: "django",
  ...extra,
});

describe("PolicyRuleModes", () => {
  it("sets every selected rule (less exclude, explicit modes winning), writes only what differs, keeps compact outputs, and delete restores exactly", async () => {
    const before = modesOf();
    const selected = rules().filter((r) => r.path.startsWith(DJANGO) && ["SEVERITY_HIGH", "SEVERITY_CRITICAL"].includes(r.severity!));
    const [excluded, explicit, ...rest] = selected.map((r) => r.path);
    const inputs = await checked(
      modes,
      declared({ select: { ...declared().select, exclude: [excluded] }, modes: { [explicit!]: "MODE_COMMENT" } }),
    );
    const { id, outs } = await modes.create(inputs);
    expect(id).toBe(`1/${SAST_POLICY_ID}/django`);
    const after = modesOf();
    expect(after[excluded!]).toBe(before[excluded!]);
    expect(after[explicit!]).toBe("MODE_COMMENT");
    for (const path of rest) expect(after[path]).toBe("MODE_BLOCK");
    const changed = [explicit!, ...rest].filter((p) => before[p] !== after[p]);
    expect(writes()).toHaveLength(changed.length);
    expect(outs).toMatchObject({ managedRules: rest.length + 1, deviations: {} });
    expect(Object.values(outs.modeCounts as Record<string, number>).reduce((a, b) => a + b)).toBe(rest.length + 1);
    // Originals: the rules it changed, grouped by the mode it found them in.
    const grouped = outs.originals as Record<string, string[]>;
    expect(Object.values(grouped).flat().sort()).toEqual(changed.sort());
    for (const [mode, paths] of Object.entries(grouped)) for (const p of paths) expect(before[p]).toBe(mode);
    expect(outs).not.toHaveProperty("rules"); // no per-rule map of everything
    forgetProcessMemory();
    await modes.delete(id, outs);
    expect(modesOf()).toEqual(before);
  });

  it("a no-change diff reads nothing; a rule changed elsewhere or newly matching shows at refresh and is converged by the next update", async () => {
    const inputs = await checked(modes, declared());
    const { id, outs } = await modes.create(inputs);
    env.emulator.requests().length = 0;
    expect(await modes.diff(outs, inputs)).toMatchObject({ changes: false });
    expect(env.requests()).toEqual([]);
    // A person lowers one managed rule; a rule's severity is raised so that it now matches.
    const managed = rules().find((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_CRITICAL")!;
    managed.policyMode = "MODE_MONITOR";
    const newcomer = rules().find((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_LOW" && r.policyMode !== "MODE_BLOCK")!;
    newcomer.severity = "SEVERITY_HIGH";
    forgetProcessMemory(); // refresh: a new process
    const read = await modes.read(id, outs);
    expect(read.props?.deviations).toEqual({ [managed.path]: "MODE_MONITOR", [newcomer.path]: newcomer.policyMode });
    expect(read.inputs).toMatchObject({ select: inputs.select, mode: "MODE_BLOCK" });
    expect(await modes.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    const updated = await modes.update(id, read.props!, inputs);
    expect(writes().map((r) => r.operation)).toEqual(["policies.updateRuleMode", "policies.updateRuleMode"]);
    expect(env.requests().filter((r) => r.method === "GET")).toHaveLength(1); // one listing of the 320-rule policy
    expect(updated.outs.deviations).toEqual({});
    expect(Object.values(updated.outs.originals as Record<string, string[]>).flat()).toContain(newcomer.path);
  });

  it("a selector narrowed: the diff notes the rules it puts back (the preview's only per-rule view), and the update puts them back", async () => {
    const before = modesOf();
    const { id, outs } = await modes.create(await checked(modes, declared()));
    const narrowed = await checked(modes, declared({ select: { ...declared().select, severities: ["SEVERITY_CRITICAL"] } }));
    forgetProcessMemory(); // the preview's process
    notices.length = 0;
    const written = writes().length;
    expect(await modes.diff(outs, narrowed)).toMatchObject({ changes: true, replaces: [] });
    const high = rules().filter((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_HIGH" && before[r.path] !== "MODE_BLOCK");
    expect(notices.map((n) => n.message).join("\n")).toMatch(
      new RegExp(
        `PolicyRuleModes "django": the change of select/mode sets 0 rules to their declared mode, puts back ${high.length} it no longer manages \\(`,
      ),
    );
    expect(writes()).toHaveLength(written); // a diff never writes
    const { outs: after } = await modes.update(id, outs, narrowed);
    for (const r of rules().filter((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_HIGH"))
      expect(r.policyMode).toBe(before[r.path]);
    expect(
      Object.values(after.originals as Record<string, string[]>)
        .flat()
        .every((p) => p.startsWith(DJANGO)),
    ).toBe(true);
  });

  it("conflicts: explicit modes with a PolicyRuleMode at check; a selector's overlap before any write", async () => {
    await checked(single, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK", resourceName: "eval" });
    const explicit = await modes.check(declared({ select: undefined, mode: undefined, modes: { [EVAL]: "MODE_COMMENT" } }));
    expect(explicit.failures?.[0]?.reason).toMatch(
      /PolicyRuleModes "django" declares mode of rule python.lang.security.audit.eval-detected.eval-detected .* which PolicyRuleMode "eval" declares too/,
    );
    const overlapping = await checked(
      modes,
      declared({ resourceName: "python", select: { rulePathPrefixes: ["python.lang.security.audit."] } }),
    );
    await expect(modes.create(overlapping)).rejects.toThrow(
      /would set the mode of 1 rule another resource declares: rule python.lang.security.audit.eval-detected/,
    );
    expect(writes()).toEqual([]);
  });

  it("refuses mode without select, and select without mode, naming the field, before any request", async () => {
    const noSelect = await modes.check(declared({ select: undefined }));
    expect(noSelect.failures?.[0]).toMatchObject({ property: "mode", reason: expect.stringContaining("needs select") });
    const noMode = await modes.check(declared({ mode: undefined }));
    expect(noMode.failures?.[0]).toMatchObject({ property: "mode", reason: expect.stringContaining("is required with select") });
    const badPath = await modes.check(declared({ modes: { "not a path": "MODE_BLOCK" } }));
    expect(badPath.failures?.[0]?.property).toBe("modes.not a path"); // the key, named
    expect(env.requests()).toEqual([]);
  });
});

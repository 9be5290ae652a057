/** PolicyRuleModes provider methods against the emulator: selectors, explicit modes, drift, conflicts, request counts. */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { policyRules } from "../../provider/core/handlers/rule-index";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, inStackWithHistory, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const modes = provider("PolicyRuleModes");
const single = provider("PolicyRuleMode");
const DJANGO = "python.django.security.";
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const rules = () => env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
const modesOf = () => Object.fromEntries(rules().map((r) => [r.path, r.policyMode]));
const writes = () => env.requests().filter((r) => r.method !== "GET");
/** The paths in a PolicyRuleModes' `originals` (grouped by the mode found). */
const originalPaths = (outs: Record<string, unknown>) => Object.values(outs.originals as Record<string, string[]>).flat();
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
    inStackWithHistory();
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
    // The rules found already as declared have nothing to put back, and the run says which.
    const asDeclared = [explicit!, ...rest].filter((p) => before[p] === after[p]);
    expect(asDeclared.length).toBeGreaterThan(0);
    const note = notices.map((n) => n.message).find((m) => m.includes("it now manages (listed below by mode)"))!;
    expect(note).toContain(
      `PolicyRuleModes "django": the mode${asDeclared.length === 1 ? "" : "s"} of ${asDeclared.length} rule${asDeclared.length === 1 ? "" : "s"} it now manages (`,
    );
    // Every rule, one a line under its mode, however many (never "… and N more": destroy leaves each one).
    for (const path of asDeclared) expect(note).toContain(`\n    ${path}`);
    expect(note).not.toMatch(/and \d+ more/);
    expect(note).toMatch(/\n {2}MODE_(BLOCK|COMMENT), \d+ rules?:\n/);
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
    // The input diff shows nothing for them: a note names them.
    expect(notices.map((n) => n.message).join("\n")).toContain(
      `PolicyRuleModes "django": 2 rules are not as it left them (found by refresh, or left by a failed or interrupted run): ` +
        `${managed.path} (now MODE_MONITOR), ${newcomer.path} (now ${newcomer.policyMode})`,
    );
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    const updated = await modes.update(id, read.props!, inputs);
    expect(writes().map((r) => r.operation)).toEqual(["policies.updateRuleMode", "policies.updateRuleMode"]);
    expect(env.requests().filter((r) => r.method === "GET")).toHaveLength(1); // one listing of the 320-rule policy
    expect(updated.outs.deviations).toEqual({});
    expect(originalPaths(updated.outs)).toContain(newcomer.path);
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
    expect(originalPaths(after).every((p) => p.startsWith(DJANGO))).toBe(true);
  });

  it("writes that fail part-way: the landed ones reach the engine as partial state with their originals, the next update finishes, delete restores exactly", async () => {
    const before = modesOf();
    const inputs = await checked(modes, declared({ select: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] } }));
    // The policy is listed, then a rule leaves it before its write (retired upstream mid-run): that write answers 404.
    await policyRules("1", SAST_POLICY_ID);
    const sast = env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    const changing = sast.rules.filter(
      (r) => ["SEVERITY_HIGH", "SEVERITY_CRITICAL"].includes(r.severity!) && r.policyMode !== "MODE_BLOCK",
    );
    expect(changing.length).toBeGreaterThan(20);
    const retired = changing[10]!;
    const at = sast.rules.indexOf(retired);
    sast.rules.splice(at, 1);
    const failure = (await modes.create(inputs).then(
      () => expect.fail("the create should fail"),
      (error: unknown) => error,
    )) as Error & { id?: string; properties?: Record<string, unknown>; reasons?: string[] };
    const landed = changing.filter((r) => r !== retired && modesOf()[r.path] === "MODE_BLOCK").map((r) => r.path);
    expect(landed.length).toBeGreaterThanOrEqual(10); // the writes before it, and those in flight with it
    expect(landed.length).toBeLessThan(changing.length - 1); // none started after the failure
    expect(failure.message).toMatch(
      new RegExp(
        `^PolicyRuleModes django in policy ${SAST_POLICY_ID}: setting rule ${retired.path} to MODE_BLOCK: .*404.*\\. ` +
          `Of ${changing.length} rule writes, ${landed.length} of ${changing.length} setting a declared mode landed`,
      ),
    );
    // What the host sends the engine as an initialization failure: the id and the outputs so far.
    expect(failure.id).toBe(`1/${SAST_POLICY_ID}/django`);
    expect(failure.reasons).toEqual([failure.message]);
    const partial = failure.properties!;
    // The state keeps the class's metadata, so that a destroy from it still knows the resource (its claims, its journal, its name in messages).
    expect(partial).toMatchObject({ resourceName: "django" });
    expect(originalPaths(partial).sort()).toEqual([...landed].sort());
    for (const [mode, paths] of Object.entries(partial.originals as Record<string, string[]>))
      for (const path of paths) expect(before[path]).toBe(mode);
    expect(Object.keys(partial.deviations as Record<string, string>)).toHaveLength(changing.length - landed.length);
    expect(partial.stoppedBeforeWrites).toBe("failed"); // why it stopped, for the next up's note

    // The rule comes back; the next up (an update from the partial state) sets the others, and delete restores all.
    sast.rules.splice(at, 0, retired);
    forgetProcessMemory();
    notices.length = 0;
    expect(await modes.diff(partial, inputs)).toMatchObject({ changes: true });
    // The rules that run did not reach are said to be so, not drift a refresh found.
    const noted = notices.map((n) => n.message).join("\n");
    expect(noted).toContain(
      `PolicyRuleModes "django": ${changing.length - landed.length} rules are not yet written: the last run of it stopped at a failed write before it reached them: `,
    );
    expect(noted).not.toContain("found by refresh");
    // A refresh reads them again (with any drift since): its note is the general one.
    forgetProcessMemory();
    notices.length = 0;
    const refreshed = await modes.read(failure.id!, partial);
    expect(refreshed.props).not.toHaveProperty("stoppedBeforeWrites");
    await modes.diff(refreshed.props!, inputs);
    expect(notices.map((n) => n.message).join("\n")).toContain(
      "not as it left them (found by refresh, or left by a failed or interrupted run)",
    );
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    const { outs } = await modes.update(failure.id!, partial, inputs);
    expect(writes()).toHaveLength(changing.length - landed.length);
    expect(outs.deviations).toEqual({});
    expect(outs).not.toHaveProperty("stoppedBeforeWrites"); // a finished update keeps no trace of it
    forgetProcessMemory();
    await modes.delete(failure.id!, outs);
    expect(modesOf()).toEqual(before);
  });

  it("put-backs that fail part-way in an update stay in originals and deviations, so the next update makes them", async () => {
    const before = modesOf();
    const severe = (severities: string[]) => declared({ resourceName: "severe", select: { severities } });
    const wide = await checked(modes, severe(["SEVERITY_HIGH", "SEVERITY_CRITICAL"]));
    const { id, outs } = await modes.create(wide);
    // Narrowed to critical rules: the high ones it changed go back, one request each; one of them is retired mid-run.
    forgetProcessMemory();
    const narrow = await checked(modes, severe(["SEVERITY_CRITICAL"]));
    await policyRules("1", SAST_POLICY_ID);
    const sast = env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    const putBacks = originalPaths(outs).filter((path) => sast.rules.find((r) => r.path === path)!.severity === "SEVERITY_HIGH");
    expect(putBacks.length).toBeGreaterThan(20);
    const retired = sast.rules.find((r) => r.path === putBacks[10])!;
    const at = sast.rules.indexOf(retired);
    sast.rules.splice(at, 1);
    env.emulator.requests().length = 0;
    const failure = (await modes.update(id, outs, narrow).then(
      () => expect.fail("the update should fail"),
      (error: unknown) => error,
    )) as Error & { properties?: Record<string, unknown> };
    const back = putBacks.filter((path) => path !== retired.path && modesOf()[path] === before[path]);
    expect(back.length).toBeGreaterThanOrEqual(10);
    expect(back.length).toBeLessThan(putBacks.length - 1);
    expect(failure.message).toContain(`and ${back.length} putting back a rule it no longer manages`);
    const partial = failure.properties!;
    const pending = putBacks.filter((path) => !back.includes(path));
    expect(originalPaths(partial)).toEqual(expect.arrayContaining(pending));
    expect(Object.keys(partial.deviations as Record<string, string>).sort()).toEqual([...pending].sort());

    // The next up: the inputs are the same, the deviations are not; it puts back the rest.
    sast.rules.splice(at, 0, retired);
    forgetProcessMemory();
    expect(await modes.diff(partial, narrow)).toMatchObject({ changes: true });
    env.emulator.requests().length = 0;
    const { outs: after } = await modes.update(id, partial, narrow);
    expect(writes()).toHaveLength(pending.length);
    expect(after.deviations).toEqual({});
    for (const path of putBacks) expect(modesOf()[path]).toBe(before[path]);
    expect(originalPaths(after).some((path) => putBacks.includes(path))).toBe(false);
  });

  it("a rename without an alias: one warning for every rule it leaves to the new resource, with their originals and the alias to add", async () => {
    const before = modesOf();
    const renamed = (resourceName: string) => declared({ resourceName, select: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] } });
    const { id, outs } = await modes.create(await checked(modes, renamed("severe")));
    const changed = originalPaths(outs);
    expect(changed.length).toBeGreaterThan(20);
    // The next run (a new process): the renamed resource is created, then the old one deleted.
    forgetProcessMemory();
    notices.length = 0;
    await modes.create(await checked(modes, renamed("severe-renamed")));
    await modes.delete(id, outs);
    const warnings = notices.filter((n) => n.severity === "warning").map((n) => n.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^PolicyRuleModes "severe" was deleted and left the modes of ${changed.length} rules of policy ${SAST_POLICY_ID} \\(deployment 1\\) ` +
          `to PolicyRuleModes "severe-renamed", which was created in this run and declares them\\. Before this stack managed them: MODE_`,
      ),
    );
    for (const [mode, paths] of Object.entries(outs.originals as Record<string, string[]>))
      expect(warnings[0]).toContain(`${mode} for ${paths.join(", ")}`);
    expect(warnings[0]).toContain('give it `aliases: [{ name: "severe" }]` (in a YAML program');
    // The rules stay as the new resource declares them.
    for (const path of changed) expect(modesOf()[path]).toBe("MODE_BLOCK");
    expect(changed.every((path) => before[path] !== "MODE_BLOCK")).toBe(true);
  });

  it("an entry dropped from modes beside a selector: the note says the selector will set the rule", async () => {
    const critical = rules().find((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_CRITICAL")!.path;
    const withEntry = await checked(modes, declared({ modes: { [critical]: "MODE_COMMENT" } }));
    const { outs } = await modes.create(withEntry);
    forgetProcessMemory();
    notices.length = 0;
    expect(await modes.diff(outs, await checked(modes, declared()))).toMatchObject({ changes: true });
    expect(notices.map((n) => n.message).join("\n")).toContain(
      `PolicyRuleModes "django": the change of modes sets 1 rule to their declared mode (${critical})`,
    );
    // Any other change of explicit modes reads nothing: the input diff shows it rule by rule.
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    await modes.diff(outs, await checked(modes, declared({ modes: { [critical]: "MODE_MONITOR" } })));
    expect(env.requests()).toEqual([]);
  });

  it("conflicts: explicit modes with a PolicyRuleMode at check; a selector's overlap before any write", async () => {
    await checked(single, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_BLOCK", resourceName: "eval" });
    const explicit = await modes.check(declared({ select: undefined, mode: undefined, modes: { [EVAL]: "MODE_COMMENT" } }));
    expect(explicit.failures?.[0]?.reason).toMatch(
      /PolicyRuleModes "django" declares mode of rule python.lang.security.audit.eval-detected.eval-detected .* which PolicyRuleMode "eval" declares too/,
    );
    // A selector beside them: its check lists the policy (one listing) and refuses the rules both take.
    const python = declared({ resourceName: "python", select: { rulePathPrefixes: ["python.lang.security.audit."] } });
    const refused = await modes.check(python);
    expect(refused.failures).toHaveLength(2);
    expect(refused.failures?.[0]).toMatchObject({ property: "select" });
    expect(refused.failures?.[0]?.reason).toContain(
      `PolicyRuleModes "python" declares the mode of rule ${EVAL} in policy ${SAST_POLICY_ID} (deployment 1), which PolicyRuleMode "eval" declares too (the select of PolicyRuleModes "python" matches it)`,
    );
    expect(refused.failures?.[1]?.reason).toContain('which PolicyRuleModes "django" declares too');
    expect(env.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/deployments/1/policies/${SAST_POLICY_ID}`]);
    // Before its write too (a selector unknown at preview is checked only in the update's process).
    await expect(modes.create(python)).rejects.toThrow(
      /would set the mode of 1 rule another resource declares: rule python.lang.security.audit.eval-detected/,
    );
    expect(writes()).toEqual([]);
  });

  it("a selector-only PolicyRuleModes (no modes) is a declaration too: a PolicyRuleMode or another selector on its rules is refused at check", async () => {
    const critical = rules().find((r) => r.path.startsWith(DJANGO) && r.severity === "SEVERITY_CRITICAL")!.path;
    await checked(modes, declared());
    const single = await provider("PolicyRuleMode").check({
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      rulePath: critical,
      mode: "MODE_MONITOR",
      resourceName: "relax",
    });
    expect(single.failures?.[0]).toMatchObject({ property: "rulePath" });
    expect(single.failures?.[0]?.reason).toContain(`PolicyRuleMode "relax" declares the mode of rule ${critical}`);
    expect(single.failures?.[0]?.reason).toContain(
      'which PolicyRuleModes "django" declares too (the select of PolicyRuleModes "django" matches it)',
    );
    const second = await modes.check(
      declared({ resourceName: "critical", select: { severities: ["SEVERITY_CRITICAL"] }, mode: "MODE_MONITOR" }),
    );
    expect(second.failures?.map((f) => f.reason).join("\n")).toContain('PolicyRuleModes "critical" declares the mode of ');
    expect(second.failures?.map((f) => f.reason).join("\n")).toContain(
      'which PolicyRuleModes "django" declares too (the select of PolicyRuleModes "critical" matches',
    );
    // Selectors that cannot meet are no conflict, and a selector alone on its policy lists nothing at check.
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    expect((await modes.check(declared())).failures).toBeUndefined();
    expect(env.requests()).toEqual([]);
    expect((await modes.check(declared({ resourceName: "java", select: { languages: ["java"] } }))).failures).toBeUndefined();
    expect(writes()).toEqual([]);
  });

  it("the note on rules found already as declared names every one, however many (an up after an interrupted one)", async () => {
    const python = declared({ select: { rulePathPrefixes: ["python."] }, resourceName: "bulk" });
    inStackWithHistory();
    await modes.create(await checked(modes, python)); // the interrupted up: it set them, its state was lost
    forgetProcessMemory();
    inStackWithHistory();
    notices.length = 0;
    await modes.create(await checked(modes, python));
    const paths = rules()
      .filter((r) => r.path.startsWith("python."))
      .map((r) => r.path);
    expect(paths.length).toBeGreaterThan(10); // more than a shortened list names
    const note = notices.map((n) => n.message).find((m) => m.includes("it now manages (listed below by mode)"))!;
    expect(note).toContain(`PolicyRuleModes "bulk": the modes of ${paths.length} rules it now manages (listed below by mode)`);
    expect(note).toContain(`\n  MODE_BLOCK, ${paths.length} rules:\n`);
    for (const path of paths) expect(note).toContain(`\n    ${path}`);
    // Below the sentence, one rule a line: no line names them all.
    expect(
      Math.max(
        ...note
          .split("\n")
          .slice(1)
          .map((line) => line.length),
      ),
    ).toBeLessThan(200);
    expect(note).not.toMatch(/and \d+ more/);
  });

  it("an update whose new modes are already live (an earlier update was killed after writing them) records the modes the state held, and delete puts them back", async () => {
    const before = modesOf()[EVAL];
    const stated = { deploymentId: "1", policyId: SAST_POLICY_ID, modes: { [EVAL]: before }, resourceName: "killed" };
    inStackWithHistory();
    const { id, outs } = await modes.create(await checked(modes, stated)); // found as declared: no original
    expect(originalPaths(outs)).toEqual([]);
    const next = before === "MODE_COMMENT" ? "MODE_BLOCK" : "MODE_COMMENT";
    await env.client().policies.updateRuleMode("1", SAST_POLICY_ID, { rulePath: EVAL, policyMode: next }); // the killed update's write
    forgetProcessMemory();
    const news = await checked(modes, { ...stated, modes: { [EVAL]: next } });
    const { outs: updated } = await modes.update(id, outs, news);
    expect(updated.originals).toEqual({ [before!]: [EVAL] });
    forgetProcessMemory(); // destroy: a new process
    await modes.delete(id, updated);
    expect(modesOf()[EVAL]).toBe(before);
  });

  it("with modes given as a secret, messages print [secret] for its rules", async () => {
    const secretModes = (modes: Record<string, string>) =>
      declared({ select: undefined, mode: undefined, modes, secretInputs: ["modes"], resourceName: "hidden" });
    const asDeclared = rules().find((r) => r.path.startsWith("python.") && r.policyMode === "MODE_BLOCK")!.path;
    inStackWithHistory();
    const inputs = await checked(modes, secretModes({ [asDeclared]: "MODE_BLOCK", [EVAL]: "MODE_DISABLED" }));
    const { id, outs } = await modes.create(inputs);
    const said = notices.map((n) => n.message).join("\n");
    expect(said).toContain('PolicyRuleModes "hidden": the mode of 1 rule it now manages (listed below by mode) was already as declared');
    expect(said).toContain("\n  [secret], 1 rule:\n    [secret]");
    expect(said).not.toContain(asDeclared);
    // Drift on a secret entry: the note names neither the rule nor its modes.
    rules().find((r) => r.path === EVAL)!.policyMode = "MODE_COMMENT";
    forgetProcessMemory();
    const read = await modes.read(id, outs);
    notices.length = 0;
    await modes.diff(read.props!, inputs);
    const drift = notices.map((n) => n.message).join("\n");
    expect(drift).toContain(
      'PolicyRuleModes "hidden": 1 rule is not as it left it (found by refresh, or left by a failed or interrupted run): [secret];',
    );
    expect(drift).not.toMatch(/eval-detected|MODE_COMMENT/);
    forgetProcessMemory();
    const missing = "python.lang.security.audit.not-a-rule.not-a-rule";
    const refused = await modes.create(await checked(modes, secretModes({ [missing]: "MODE_BLOCK" }))).catch((e: Error) => e);
    expect(String(refused)).toContain("modes names rules that are not in policy 10 of deployment 1: [secret]");
    expect(String(refused)).not.toContain(missing);
  });

  it("refuses mode without select, and select without mode, naming the field, before any request", async () => {
    const noSelect = await modes.check(declared({ select: undefined }));
    expect(noSelect.failures?.[0]).toMatchObject({ property: "mode", reason: expect.stringContaining("needs select") });
    const noMode = await modes.check(declared({ mode: undefined }));
    expect(noMode.failures?.[0]).toMatchObject({ property: "mode", reason: expect.stringContaining("is required with select") });
    const badPath = await modes.check(declared({ modes: { "not a path": "MODE_BLOCK" } }));
    expect(badPath.failures?.[0]?.property).toBe("modes.not a path"); // the key, named
    // A selector that restricts nothing would set every rule of the policy.
    const everything = await modes.check(declared({ select: {} }));
    expect(everything.failures?.[0]).toMatchObject({ property: "select", reason: expect.stringContaining("at least one criterion") });
    const emptyList = await modes.check(declared({ select: { severities: [], languages: ["python"] } }));
    expect(emptyList.failures?.[0]).toMatchObject({ property: "select.severities", reason: expect.stringContaining("must not be empty") });
    const onlyExclude = await modes.check(declared({ select: { exclude: [EVAL] } }));
    expect(onlyExclude.failures?.[0]?.property).toBe("select");
    expect(env.requests()).toEqual([]);
  });
  it("a PolicyRuleMode declared now as a PolicyRuleModes (an alias changing the type): an update, not a replace, that keeps its rule's original and writes nothing; modes: {} manages no rule", async () => {
    const rule = rules().find((r) => r.path === EVAL)!;
    rule.policyMode = "MODE_COMMENT";
    const ids = { deploymentId: "1", policyId: SAST_POLICY_ID };
    const old = await single.create(await checked(single, { ...ids, rulePath: EVAL, mode: "MODE_BLOCK", resourceName: "block-eval" }));
    expect(old.outs.originalMode).toBe("MODE_COMMENT");
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    // The same rule and mode: still an update, to give the state this kind's shape.
    const same = await checked(modes, { ...ids, modes: { [EVAL]: "MODE_BLOCK" }, resourceName: "block-eval" });
    expect(await modes.diff(old.outs, same)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await modes.update(old.id, old.outs, same);
    expect(outs).toMatchObject({ originals: { MODE_COMMENT: [EVAL] }, managedRules: 1, deviations: {} });
    expect(outs).not.toHaveProperty("rulePath");
    expect(writes()).toEqual([]);
    // Emptied: it manages no rule, and puts its rule back (restoreOnDelete: false would leave it).
    forgetProcessMemory();
    const empty = await checked(modes, { ...ids, modes: {}, resourceName: "block-eval" });
    expect(await modes.diff(old.outs, empty)).toMatchObject({ changes: true, replaces: [] });
    const emptied = await modes.update(old.id, old.outs, empty);
    expect(emptied.outs).toMatchObject({ originals: {}, managedRules: 0 });
    expect(rule.policyMode).toBe("MODE_COMMENT");
    // Without modes or select it names no rule: refused, naming modes.
    const nothing = await modes.check({ ...ids, resourceName: "x" });
    expect(nothing.failures?.[0]).toMatchObject({ property: "modes", reason: expect.stringContaining("`modes: {}` manages no rule") });
  });

  it("a delete that recorded no original names each rule it leaves: explicit modes from the state alone (no request), a selector from one listing, none when it manages no rule", async () => {
    const found = rules()
      .filter((r) => r.path.startsWith(DJANGO))
      .slice(0, 3);
    const ids = { deploymentId: "1", policyId: SAST_POLICY_ID };
    const explicit = await checked(modes, {
      ...ids,
      modes: Object.fromEntries(found.map((r) => [r.path, r.policyMode])),
      resourceName: "found",
    });
    const { id, outs } = await modes.create(explicit);
    expect(outs.originals).toEqual({});
    forgetProcessMemory();
    notices.length = 0;
    env.emulator.requests().length = 0;
    await modes.delete(id, outs);
    expect(env.requests()).toEqual([]);
    const note = notices.map((n) => n.message).find((m) => m.startsWith('PolicyRuleModes "found" leaves 3 rules'))!;
    // The remedy once per run, before the resources' notes.
    expect(notices.filter((n) => n.message.includes("see docs/guides/interrupted-runs.md"))).toHaveLength(1);
    for (const rule of found) expect(note).toContain(`\n    ${rule.path}`); // one a line, under its mode
    for (const mode of new Set(found.map((r) => r.policyMode))) expect(note).toMatch(new RegExp(`\\n  ${mode}, \\d+ rules?:`));

    // A selector: its rules are known from the policy's listing only (one, shared), read because the state says it manages rules.
    const mode = found[0]!.policyMode;
    const matched = rules().filter((r) => r.path.startsWith(found[0]!.path));
    for (const rule of matched) rule.policyMode = mode; // all found as declared
    forgetProcessMemory();
    const selector = await checked(modes, declared({ resourceName: "selected", mode, select: { rulePathPrefixes: [found[0]!.path] } }));
    const selected = await modes.create(selector);
    expect(selected.outs.originals).toEqual({});
    forgetProcessMemory();
    notices.length = 0;
    env.emulator.requests().length = 0;
    await modes.delete(selected.id, selected.outs);
    expect(writes()).toEqual([]);
    expect(env.requests().length).toBeGreaterThan(0);
    const said = notices.map((n) => n.message).join("\n");
    expect(said).toContain(`PolicyRuleModes "selected" leaves ${matched.length} rule`);
    for (const rule of matched) expect(said).toContain(`\n    ${rule.path}`);
    // It manages no rule: nothing to name, no request.
    forgetProcessMemory();
    notices.length = 0;
    env.emulator.requests().length = 0;
    await modes.delete(selected.id, { ...selected.outs, managedRules: 0 });
    expect(env.requests()).toEqual([]);
    expect(notices).toEqual([]);
  });
});

/**
 * Many PolicyRuleMode folded into one PolicyRuleModes (the README's "A rule moved between
 * resources"), through the real CLI against the emulator (demo preset): an alias that changes the
 * type carries a PolicyRuleMode's original into the PolicyRuleModes it becomes, and a PolicyRuleMode
 * kept for one `up` as an empty PolicyRuleModes hands its rule, with its original, to the one that
 * now declares it. Every rule stays in its declared mode throughout (no write at all), the state
 * records the modes found before the stack, and destroy puts them back (issue 21, case 2).
 */
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { sastPolicyOf, useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });

const RULE_MODE_TYPE = "pulumi-nodejs:dynamic/semgrep:PolicyRuleMode";

/** The demo emulator with three rules of policy 10 set to MODE_COMMENT, MODE_MONITOR, MODE_MONITOR. */
async function threeRules() {
  const emulator = await emulators.start();
  const { rules, modes, writesSince } = sastPolicyOf(emulator);
  const paths = rules()
    .filter((r) => r.path.startsWith("python.lang."))
    .slice(0, 3)
    .map((rule, i) => {
      rule.policyMode = i === 0 ? "MODE_COMMENT" : "MODE_MONITOR";
      return rule.path;
    }) as [string, string, string];
  return { emulator, modes, writesSince, paths };
}

const ids = `deploymentId: "1", policyId: "${SAST_POLICY_ID}"`;

describe("many PolicyRuleMode folded into one PolicyRuleModes", () => {
  // "new": the README's program, every PolicyRuleMode kept for one up as an empty PolicyRuleModes
  // and the new resource created; "alias": the new resource is one of them, its type changed.
  it.each([
    { variant: "new", givers: ["ox", "oy", "oz"], alias: "", preview: ["+ 1 to create", "~ 3 to update"] },
    { variant: "alias", givers: ["oy", "oz"], alias: `, aliases: [{ type: "${RULE_MODE_TYPE}", name: "ox" }]`, preview: ["~ 3 to update"] },
  ])(
    "in two runs ($variant): no rule is ever weaker, no request writes, the originals are kept and destroy puts them back",
    async ({ givers, alias, preview: counts }) => {
      const { emulator, modes, writesSince, paths } = await threeRules();
      const [x, y, z] = paths;
      const pathOf: Record<string, string> = { ox: x, oy: y, oz: z };
      const before = modes();
      const allBlocking = () => expect([x, y, z].map((path) => modes()[path])).toEqual(["MODE_BLOCK", "MODE_BLOCK", "MODE_BLOCK"]);
      const single = (name: string) =>
        `new semgrep.PolicyRuleMode("${name}", { ${ids}, rulePath: "${pathOf[name]}", mode: "MODE_BLOCK" });`;
      const workspace = await programWorkspace(emulator, program(["ox", "oy", "oz"].map(single).join("\n")));
      await workspace.run(["up", "--yes", "--skip-preview"]);
      allBlocking();

      // Run 1: each giver stays for one up as a PolicyRuleModes that manages no rule and leaves
      // its rule as it is; "all" takes the rules.
      const all = `new semgrep.PolicyRuleModes("all", { ${ids}, modes: ${JSON.stringify({ [x]: "MODE_BLOCK", [y]: "MODE_BLOCK", [z]: "MODE_BLOCK" })} }, { dependsOn: deps${alias} });`;
      const giver = (name: string) =>
        `new semgrep.PolicyRuleModes("${name}", { ${ids}, modes: {}, restoreOnDelete: false }, { aliases: [{ type: "${RULE_MODE_TYPE}" }] })`;
      workspace.write(program(`const deps = [${givers.map(giver).join(",\n")}];\n${all}`));
      let mark = emulator.requests().length;
      const previewed = printed(await workspace.run(["preview"]));
      for (const count of counts) expect(previewed).toContain(count);
      expect(previewed).not.toMatch(/to delete|to replace/);
      for (const name of givers) {
        const found = name === "ox" ? "MODE_COMMENT" : "MODE_MONITOR";
        expect(previewed).toContain(
          `PolicyRuleModes "${name}" no longer manages rule ${pathOf[name]} in policy ${SAST_POLICY_ID} (deployment 1): it goes to PolicyRuleModes "all", which declares it, with the mode this stack found it in, ${found}`,
        );
      }
      const up = await workspace.run(["up", "--yes", "--skip-preview"]);
      expect(printed(up)).not.toContain("warning:");
      expect(writesSince(mark)).toEqual([]);
      allBlocking();
      let state = await workspace.resources();
      const originals = { MODE_COMMENT: [x], MODE_MONITOR: [y, z].sort() };
      expect(state["all"]!.outputs.originals).toEqual(originals);
      for (const name of givers) expect(state[name]!.outputs.originals).toEqual({});

      // Run 2: the emptied givers leave; their delete writes nothing.
      workspace.write(program(`const deps = [];\n${all}`));
      mark = emulator.requests().length;
      const second = await workspace.run(["up", "--yes"]);
      expect(printed(second)).not.toContain("warning:");
      expect(writesSince(mark)).toEqual([]);
      allBlocking();
      state = await workspace.resources();
      expect(Object.keys(state)).toEqual(["all"]);
      expect(state["all"]!.outputs.originals).toEqual(originals);

      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(modes()).toEqual(before);
    },
    240_000,
  );
});

describe("a rule moved out of a PolicyRuleModes that stays", () => {
  it("with restoreOnDelete: false the giver leaves the rules it drops as they are: the taker (dependsOn) records the original, no request writes; a rule no one takes keeps its mode and the note says its original is not put back", async () => {
    const { emulator, modes, writesSince, paths } = await threeRules();
    const [x, y, z] = paths;
    const giver = (entries: string[], extra = "") =>
      `const giver = new semgrep.PolicyRuleModes("giver", { ${ids}, modes: ${JSON.stringify(Object.fromEntries(entries.map((p) => [p, "MODE_BLOCK"])))}${extra} });`;
    const workspace = await programWorkspace(emulator, program(giver([x, y, z])));
    await workspace.run(["up", "--yes", "--skip-preview"]);

    // x to no one, y to a new PolicyRuleMode; z stays.
    workspace.write(
      program(`${giver([z], ", restoreOnDelete: false")}
new semgrep.PolicyRuleMode("taker", { ${ids}, rulePath: "${y}", mode: "MODE_BLOCK" }, { dependsOn: [giver] });`),
    );
    const mark = emulator.requests().length;
    const up = await workspace.run(["up", "--yes"]);
    const said = printed(up);
    expect(said).toContain(
      `PolicyRuleModes "giver" no longer manages 2 rules and, as restoreOnDelete is false, leaves them as they are, without putting back what this stack found: MODE_COMMENT for ${x}; MODE_MONITOR for ${y}.`,
    );
    expect(said).toContain(`it goes to PolicyRuleMode "taker", which declares it, with the mode this stack found it in, MODE_MONITOR`);
    expect(said).not.toContain("warning:");
    expect(writesSince(mark)).toEqual([]);
    expect([x, y, z].map((path) => modes()[path])).toEqual(["MODE_BLOCK", "MODE_BLOCK", "MODE_BLOCK"]);
    const state = await workspace.resources();
    expect(state["taker"]!.outputs.originalMode).toBe("MODE_MONITOR");
    expect(state["giver"]!.outputs.originals).toEqual({ MODE_MONITOR: [z] });
  }, 180_000);
});

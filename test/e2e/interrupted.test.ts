/**
 * An `up` killed mid-way (the CLI and its plugins, SIGKILL), then `pulumi cancel` (the dead
 * process's lock), `pulumi refresh` and `up`, ends in the declared state; the rules the killed
 * run set but never recorded are re-adopted without claiming an original (that value is this
 * stack's own), and the `up` says so.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";

const PROGRAM = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
spec.rules.forEach((rulePath, i) => new semgrep.PolicyRuleMode("rule-" + i, { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath, mode: "MODE_BLOCK" }));
spec.projects.forEach((projectName, i) => new semgrep.ProjectTags("tags-" + i, { deploymentSlug: "acme", projectName, tags: ["interrupted"] }));
`;

describe("an interrupted up", () => {
  it("is finished by refresh and up on another machine (no journal), ending in the declared state", async () => {
    // Slow answers, so that the up is surely still running when it is killed.
    const emulator = await startEmulator({ preset: "demo", latencyMs: 250 });
    try {
      const sast = emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
      const rules = sast.rules
        .filter((r) => r.policyMode !== "MODE_BLOCK")
        .slice(0, 60)
        .map((r) => r.path);
      const trueOriginal = new Map(rules.map((path) => [path, sast.rules.find((r) => r.path === path)!.policyMode]));
      const modeOf = (path: string) => sast.rules.find((r) => r.path === path)!.policyMode;
      const projects = emulator
        .state()
        .projects.slice(0, 8)
        .map((p) => p.name);
      const files = {
        "Pulumi.yaml": "name: interrupted\nruntime: nodejs\n",
        "index.js": PROGRAM,
        "spec.json": JSON.stringify({ rules, projects }),
        "package.json": '{"name":"interrupted","main":"index.js"}',
      };
      const workspace = await pulumiWorkspace(
        files,
        { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
        join(inject("installedPackageDir"), "node_modules"),
      );

      // Kill the whole process group once some, but not all, writes have landed.
      const up = spawn("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive", "--parallel", "4"], {
        cwd: workspace.dir,
        env: workspace.env,
        detached: true,
        stdio: "ignore",
      });
      const writes = () => emulator.requests().filter((r) => r.method !== "GET").length;
      // A rule write in flight (logged, its answer 250 ms away) lands after the kill, never recorded.
      const ruleWriteInFlight = () => emulator.requests().some((r) => r.operation === "policies.updateRuleMode" && r.status === 0);
      const deadline = Date.now() + 60_000;
      while (!(writes() >= 3 && ruleWriteInFlight()) && Date.now() < deadline) await sleep(5);
      process.kill(-up.pid!, "SIGKILL");
      await new Promise((resolve) => up.once("exit", resolve));
      const landed = writes();
      expect(landed).toBeGreaterThanOrEqual(3);
      expect(landed, "the up finished before it was killed").toBeLessThan(rules.length + projects.length);

      // Recovered on another machine (a CI runner is gone with its journal of originals: with it,
      // the recovery restores every original exactly, test/e2e/interrupted-kinds.test.ts).
      rmSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep"), { recursive: true, force: true });
      // As a user would recover: release the dead process's lock, refresh (dropping creates that
      // never reported back: create adopts what exists), then up.
      // (`cancel` answers an error when no lock is left; the refresh below fails if one is.)
      await workspace.run(["cancel", "--yes"], { allowFailure: true });
      await workspace.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
      const ruleStates = async () => {
        const state = JSON.parse((await workspace.run(["stack", "export"])).stdout) as {
          deployment: { resources?: Array<{ type: string; outputs: Record<string, unknown> }> };
        };
        const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/semgrep:"));
        const rules = ours.filter((r) => r.type.endsWith(":PolicyRuleMode"));
        return Object.assign(new Map(rules.map((r) => [r.outputs.rulePath as string, r.outputs])), { resources: ours.length });
      };
      const recorded = await ruleStates();
      // Set by the killed run, but not in the stack's state: this stack's own value, whatever was there before.
      const setButLost = rules.filter((path) => modeOf(path) === "MODE_BLOCK" && !recorded.has(path));
      expect(setButLost.length, "no rule was set by the killed run without being recorded").toBeGreaterThan(0);

      const recovery = await workspace.run(["up", "--yes", "--skip-preview"]);
      expect(rules.every((path) => modeOf(path) === "MODE_BLOCK")).toBe(true);
      for (const name of projects) expect(emulator.state().projects.find((p) => p.name === name)!.tags).toContain("interrupted");
      await workspace.run(["preview", "--expect-no-changes"]);

      // No original in state is one this stack wrote: each is the true original, or unset where it cannot be known.
      const final = await ruleStates();
      for (const path of rules) {
        const expected = setButLost.includes(path) ? undefined : trueOriginal.get(path);
        expect({ path, originalMode: final.get(path)!.originalMode }).toEqual({ path, originalMode: expected });
      }
      const notes = (recovery.stdout + recovery.stderr).replace(/\s+/g, " ");
      // With any resource of the stack recorded (a ProjectTags may land before every rule), the run
      // knows the stack has a history: a note per rule. With none, it looks like a first up: one
      // line says what this may hide.
      if (recorded.resources)
        for (const path of setButLost)
          expect(notes).toContain(`the mode of rule ${path} in policy ${SAST_POLICY_ID} (deployment 1) was already as declared`);
      else
        expect(notes).toContain(
          "found values already as declared and record no original for them, as usual in a stack's first `pulumi up`. If an earlier `pulumi up` of this stack was interrupted",
        );
    } finally {
      await emulator.close();
    }
  }, 300_000);

  it("of a PolicyRuleModes: once the CLI is killed, the provider starts no further write", async () => {
    // Slow answers: the writes take seconds, so most are still to start when the CLI dies.
    const emulator = await startEmulator({ preset: "demo", latencyMs: 200 });
    try {
      const severe = ["SEVERITY_HIGH", "SEVERITY_CRITICAL"];
      const sast = emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
      const changing = sast.rules.filter((r) => severe.includes(r.severity!) && r.policyMode !== "MODE_BLOCK");
      expect(changing.length).toBeGreaterThan(60);
      const program = `const semgrep = require("pulumi-semgrep");
new semgrep.PolicyRuleModes("severe", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: ${JSON.stringify(severe)} }, mode: "MODE_BLOCK" });
`;
      const workspace = await pulumiWorkspace(
        {
          "Pulumi.yaml": "name: interrupted-bulk\nruntime: nodejs\n",
          "index.js": program,
          "package.json": '{"name":"interrupted-bulk","main":"index.js"}',
        },
        { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
        join(inject("installedPackageDir"), "node_modules"),
      );
      const up = spawn("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive"], {
        cwd: workspace.dir,
        env: workspace.env,
        detached: true,
        stdio: "ignore",
      });
      const ruleWrites = () => emulator.requests().filter((r) => r.operation === "policies.updateRuleMode").length;
      const deadline = Date.now() + 60_000;
      while (ruleWrites() < 8 && Date.now() < deadline) await sleep(5);
      process.kill(-up.pid!, "SIGKILL");
      await new Promise((resolve) => up.once("exit", resolve));
      const atKill = ruleWrites();
      // All the writes would take about changing.length / 8 * 200 ms; wait longer than that.
      await sleep(Math.ceil(changing.length / 8) * 200 + 2_000);
      const afterKill = ruleWrites() - atKill;
      // Those in flight, and those started before the provider saw the engine gone (it looks every 250 ms).
      expect(afterKill, `${afterKill} writes started after the kill, of ${changing.length - atKill} left`).toBeLessThanOrEqual(24);
      expect(atKill + afterKill).toBeLessThan(changing.length);
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

/**
 * A PolicyRuleModes create interrupted in the middle of its rule writes, through the real CLI and
 * both front ends: cancelled as a CI runner cancels a job (SIGINT to the process group of
 * `pulumi up`, SIGTERM 7.5 s later, SIGKILL 2.5 s after that), the create stops starting writes
 * at the engine's Cancel and the stack records what it wrote with its originals; after the
 * README's recovery (`pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`),
 * `destroy` puts every rule back at its pre-stack mode. The same when a SIGTERM reaches the
 * provider process itself (a machine shutting down). Killed with SIGKILL instead (nothing
 * reaches the state), the same recovery on the same machine restores exactly from the provider's
 * journal of originals; without the journal, destroy names each rule it leaves changed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";
import { recoverOnSameMachine } from "../support/recovery";
import { yamlWorkspace } from "../support/yaml-program";

/** Every severity: the demo preset's 320 SAST rules, 229 of them not yet MODE_BLOCK (one write each). */
const SEVERITIES = ["SEVERITY_LOW", "SEVERITY_MEDIUM", "SEVERITY_HIGH", "SEVERITY_CRITICAL"];
/** Rule writes landed when the run is interrupted. */
const INTERRUPT_AFTER = 150;
/** Rule writes that may start after the interrupt: those in flight (8 at once) and those started before the Cancel reached the provider. */
const IN_FLIGHT = 16;

const typescriptProgram = `import * as semgrep from "pulumi-semgrep";
new semgrep.PolicyRuleModes("every-severity", {
  deploymentId: "1",
  policyId: "${SAST_POLICY_ID}",
  select: { severities: ${JSON.stringify(SEVERITIES)} },
  mode: "MODE_BLOCK",
});
`;

const yamlProgram = `resources:
  every-severity:
    type: semgrep:index:PolicyRuleModes
    properties:
      deploymentId: "1"
      policyId: "${SAST_POLICY_ID}"
      select: { severities: [${SEVERITIES.join(", ")}] }
      mode: MODE_BLOCK
`;

type FrontEnd = "dynamic" | "native";

/** A stack holding the PolicyRuleModes above, through the dynamic classes (TypeScript) or the plugin (YAML). */
async function stackOf(frontEnd: FrontEnd, emulator: RunningEmulator): Promise<PulumiWorkspace> {
  if (frontEnd === "native")
    return yamlWorkspace(yamlProgram, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } });
  return pulumiWorkspace(
    {
      "Pulumi.yaml": "name: interrupted-writes\nruntime: nodejs\n",
      "package.json": '{"name":"interrupted-writes"}',
      "index.ts": typescriptProgram,
    },
    { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
    join(inject("installedPackageDir"), "node_modules"),
  );
}

/** `pulumi up --skip-preview` in a process group of its own (as a CI runner starts a job's command), its output collected. */
function startUp(workspace: PulumiWorkspace): ChildProcess & { output: () => string; exited: Promise<void> } {
  const up = spawn("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive"], {
    cwd: workspace.dir,
    env: workspace.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  up.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  up.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => up.once("close", () => resolve()));
  return Object.assign(up, { output: () => output, exited });
}

/** Resolves with true once `done`, false after `ms`. */
const within = (done: Promise<void>, ms: number) => Promise.race([done.then(() => true), sleep(ms).then(() => false)]);

/** Cancels as a CI runner cancels a job: SIGINT to the process group, SIGTERM 7.5 s later, SIGKILL 2.5 s after that (each only if the group is still running). */
async function cancelAsCiRunner(up: ReturnType<typeof startUp>): Promise<void> {
  for (const [signal, wait] of [
    ["SIGINT", 7_500],
    ["SIGTERM", 2_500],
    ["SIGKILL", 0],
  ] as const) {
    try {
      process.kill(-up.pid!, signal);
    } catch {
      return; // the group is gone
    }
    if (await within(up.exited, wait)) return;
  }
  await up.exited;
}

/** The pre-stack mode of every rule of the SAST policy. */
const modesOf = (emulator: RunningEmulator) =>
  new Map(
    emulator
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.map((r) => [r.path, r.policyMode]),
  );

const ruleWrites = (emulator: RunningEmulator) => emulator.requests().filter((r) => r.operation === "policies.updateRuleMode").length;

/** Starts `pulumi up` and waits until INTERRUPT_AFTER rule writes have landed. */
async function upUntilInterrupt(workspace: PulumiWorkspace, emulator: RunningEmulator) {
  const up = startUp(workspace);
  const deadline = Date.now() + 120_000;
  while (ruleWrites(emulator) < INTERRUPT_AFTER && Date.now() < deadline) {
    if (up.exitCode !== null) throw new Error(`pulumi up ended before ${INTERRUPT_AFTER} rule writes:\n${up.output()}`);
    await sleep(5);
  }
  return up;
}

/** The processes started, directly or not, by `ancestor`, with their command lines. */
function descendantsOf(ancestor: number): Array<{ pid: number; command: string }> {
  const processes = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return [{ pid: Number(name), ppid, command: readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ") }];
      } catch {
        return []; // gone meanwhile
      }
    });
  const found = new Set([ancestor]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes) if (found.has(p.ppid) && !found.has(p.pid)) grew = found.add(p.pid).size > 0;
  }
  return processes.filter((p) => p.pid !== ancestor && found.has(p.pid));
}

/** The provider process serving the resources: the dynamic-provider host, or the plugin the engine started with its own address. */
function providerOf(up: ChildProcess, frontEnd: FrontEnd): number {
  const all = descendantsOf(up.pid!);
  const providers = all.filter((p) =>
    frontEnd === "dynamic" ? /dynamic-provider[\\/]index\.js/.test(p.command) : /pulumi-resource-semgrep /.test(p.command),
  );
  // The plugin runs twice: for the engine (given the engine's address, as the language host is) and for the YAML language host's own use.
  const engine = all.find((p) => /pulumi-language-/.test(p.command))?.command.match(/\S+:\d+/)?.[0];
  const provider = providers.find((p) => frontEnd === "dynamic" || (engine !== undefined && p.command.includes(` ${engine}`)));
  if (!provider) throw new Error(`no provider process under pulumi up: ${all.map((p) => p.command).join("; ")}`);
  return provider.pid;
}

describe.each(["dynamic", "native"] as const)("a PolicyRuleModes create interrupted mid-way (%s front end)", (frontEnd) => {
  it("cancelled as a CI runner cancels a job: stops writing at the Cancel, records what it wrote, and destroy puts back every rule", async () => {
    // Answers slow enough that the create is surely mid-way at the interrupt.
    const emulator = await startEmulator({ preset: "demo", latencyMs: 50 });
    try {
      const preStack = modesOf(emulator);
      const changing = [...preStack.values()].filter((mode) => mode !== "MODE_BLOCK").length;
      expect(changing).toBeGreaterThan(INTERRUPT_AFTER + IN_FLIGHT);
      const workspace = await stackOf(frontEnd, emulator);

      const up = await upUntilInterrupt(workspace, emulator);
      const atInterrupt = ruleWrites(emulator);
      await cancelAsCiRunner(up);
      // Leave time for writes a provider left running would still make (a lane every 50 ms).
      await sleep(1_000);
      const afterInterrupt = ruleWrites(emulator) - atInterrupt;
      expect(
        afterInterrupt,
        `${afterInterrupt} rule writes landed after the SIGINT, of ${changing - atInterrupt} left`,
      ).toBeLessThanOrEqual(IN_FLIGHT);
      expect(up.output()).toContain("the Pulumi engine cancelled the run");
      expect(up.output()).toMatch(/landed and are recorded in the stack with the modes they replaced/);

      emulator.setFaults({ latencyMs: 0 });
      // The next run's note calls the rules the cancelled run did not reach what they are: not yet written (not drift).
      const preview = await workspace.run(["preview"]);
      const noted = (preview.stdout + preview.stderr).replace(/\s+/g, " ");
      expect(noted).toMatch(
        /PolicyRuleModes "[^"]+": \d+ rules are not yet written: the last run of it was interrupted before it reached them: /,
      );
      expect(noted).not.toContain("found by refresh");
      await recoverOnSameMachine(workspace);
      expect([...modesOf(emulator).values()].every((mode) => mode === "MODE_BLOCK")).toBe(true);
      expect(await destroyLeftChanged(workspace, emulator, preStack), "rules destroy left changed").toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 300_000);
  it("a SIGTERM reaching the provider process itself (a machine shutting down): it stops writing, the stack records what it wrote, and destroy puts back every rule", async () => {
    const emulator = await startEmulator({ preset: "demo", latencyMs: 50 });
    try {
      const preStack = modesOf(emulator);
      const workspace = await stackOf(frontEnd, emulator);
      const up = await upUntilInterrupt(workspace, emulator);
      const atSignal = ruleWrites(emulator);
      process.kill(providerOf(up, frontEnd), "SIGTERM");
      await up.exited;
      await sleep(1_000);
      expect(ruleWrites(emulator) - atSignal, "rule writes after the SIGTERM").toBeLessThanOrEqual(IN_FLIGHT);
      expect(up.output()).toContain("SIGTERM reached the provider process: no further write starts");
      expect(up.output()).toMatch(/landed and are recorded in the stack with the modes they replaced/);

      emulator.setFaults({ latencyMs: 0 });
      await recoverOnSameMachine(workspace);
      expect(await destroyLeftChanged(workspace, emulator, preStack), "rules destroy left changed").toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 300_000);

  /** The rules not at their pre-stack mode after `pulumi destroy`. */
  async function destroyLeftChanged(workspace: PulumiWorkspace, emulator: RunningEmulator, preStack: Map<string, string>) {
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    return [...modesOf(emulator)].filter(([path, mode]) => preStack.get(path) !== mode);
  }

  /** Kills the group of `pulumi up` as SIGKILL does (the provider, in a group of its own, stops once it sees the engine gone). */
  async function killed(workspace: PulumiWorkspace, emulator: RunningEmulator) {
    const up = await upUntilInterrupt(workspace, emulator);
    process.kill(-up.pid!, "SIGKILL");
    await up.exited;
    let writes = -1;
    // Until the orphaned provider stops writing.
    while (writes !== ruleWrites(emulator)) {
      writes = ruleWrites(emulator);
      await sleep(1_000);
    }
    emulator.setFaults({ latencyMs: 0 });
  }

  it("killed with SIGKILL: the recovery up records the originals from this machine's journal, and destroy puts back every rule", async () => {
    const emulator = await startEmulator({ preset: "demo", latencyMs: 50 });
    try {
      const preStack = modesOf(emulator);
      const workspace = await stackOf(frontEnd, emulator);
      await killed(workspace, emulator);
      const recovery = await recoverOnSameMachine(workspace);
      const said = (recovery.stdout + recovery.stderr).replace(/\s+/g, " ");
      expect([...modesOf(emulator).values()].every((mode) => mode === "MODE_BLOCK")).toBe(true);
      expect(await destroyLeftChanged(workspace, emulator, preStack), "rules destroy left changed").toEqual([]);
      expect(said).toContain("recorded from this machine's journal the modes");
      expect(existsSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep")), "the journal directory").toBe(true);
    } finally {
      await emulator.close();
    }
  }, 300_000);

  it("killed with SIGKILL, its journal lost (another machine): destroy names every rule it leaves changed", async () => {
    const emulator = await startEmulator({ preset: "demo", latencyMs: 50 });
    try {
      const preStack = modesOf(emulator);
      const workspace = await stackOf(frontEnd, emulator);
      await killed(workspace, emulator);
      rmSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep"), { recursive: true, force: true });
      await recoverOnSameMachine(workspace);
      const destroy = await workspace.run(["destroy", "--yes", "--skip-preview"]);
      const said = (destroy.stdout + destroy.stderr).replace(/\s+/g, " ");
      const changed = [...modesOf(emulator)].filter(([path, mode]) => preStack.get(path) !== mode).map(([path]) => path);
      expect(changed.length, "the killed run set rules no state recorded").toBeGreaterThan(0);
      expect(
        changed.filter((path) => !said.includes(` ${path} `)), // one rule a line, white space made one space
        "rules destroy left changed without naming them",
      ).toEqual([]);
      expect(said).toContain("recover on the machine that ran it");
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

// The benchmark's rule-modes-at-scale stacks, through the real Pulumi CLI against the emulator's
// `large` preset with its SAST policy cut to its first N rules (5,000, the whole policy, by
// default): EVERY rule of that policy as ONE PolicyRuleModes (a selector that every rule meets,
// see WHOLE_POLICY), phase by phase (up, noop-up, change-one: one explicit `modes` entry beside
// the selector, refresh, destroy), beside one PolicyRuleMode per rule at other sizes (up, noop-up,
// refresh, destroy), to show how each form grows. Reports requests, writes, the fewest the API
// allows, wall time, state bytes, the peak resident memory of the provider process, whether up
// left every managed rule in its mode, and whether destroy put every mode back. The same code at
// any N: `npm run bench` runs it at 5,000 and the test suite, through the same entry, at 50.
import { readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { clearInterval, setInterval } from "node:timers";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiWorkspace } from "../tools/pulumi-run.mjs";
import { runPhases } from "./bench-core.mjs";

const { startEmulator, SAST_POLICY_ID } = createRequire(import.meta.url)("../../dist/emulator");

export const BULK_PHASES = ["up", "noop-up", "change-one", "refresh", "destroy"];
export const SINGLE_PHASES = ["up", "noop-up", "refresh", "destroy"];
const COMMANDS = {
  up: ["up", "--yes", "--skip-preview"],
  "noop-up": ["up", "--yes"],
  "change-one": ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};
const MODE = "MODE_BLOCK";
const PAGE = 2000;
/**
 * A selector every rule of the policy meets: every severity. PolicyRuleModes has no selector for
 * "every rule" (an empty `select: {}` or `rulePathPrefixes: [""]` is refused at check, since it
 * restricts nothing); listing every value of a criterion is what a user writes today, and holds
 * for a policy whose rules all have one of these severities (the preset's do: runStack checks it).
 */
const WHOLE_POLICY = { severities: ["SEVERITY_LOW", "SEVERITY_MEDIUM", "SEVERITY_HIGH", "SEVERITY_CRITICAL"] };

const BULK_PROGRAM = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
new semgrep.PolicyRuleModes("bulk", { deploymentId: "1", policyId: spec.policyId, ...spec.declared });
`;
const SINGLE_PROGRAM = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
spec.rules.forEach((rulePath, i) => new semgrep.PolicyRuleMode("rule-" + i, { deploymentId: "1", policyId: spec.policyId, rulePath, mode: "${MODE}" }));
`;

/**
 * Samples, every 100 ms until stopped, the peak resident memory (VmHWM) of every dynamic-provider
 * process (`node …/@pulumi/pulumi/cmd/dynamic-provider`) alive at the time and running in `dir`
 * (the stack's program directory: not those of other Pulumi runs on the machine); resolves with
 * the largest, in MB (0 where /proc is not there to read).
 */
function providerMemorySampler(dir) {
  const home = realpathSync(dir);
  let peakKb = 0;
  const sample = () => {
    let pids;
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("cmd/dynamic-provider")) continue;
        if (readlinkSync(`/proc/${pid}/cwd`) !== home) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // the process ended between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return Number((peakKb / 1024).toFixed(1));
  };
}

const rulesOf = (emulator) => emulator.state().policies.find((p) => p.id === SAST_POLICY_ID).rules;
const modesOf = (emulator) => JSON.stringify(rulesOf(emulator).map((r) => [r.path, r.policyMode]));

/** The emulator's `large` preset with its SAST policy cut to its first `policyRules` rules (left in the live state, as the tests do). */
async function emulatorWithPolicyOf(policyRules) {
  const emulator = await startEmulator({ preset: "large" });
  rulesOf(emulator).splice(policyRules);
  return emulator;
}

/** One stack through its phases; the minimum per phase from the live modes before it. */
async function runStack({ installedDir, policyRules, program, spec, phases, managed, changeOne, log, label }) {
  const emulator = await emulatorWithPolicyOf(policyRules);
  try {
    const before = modesOf(emulator);
    const total = rulesOf(emulator).length;
    const listing = Math.ceil(total / PAGE);
    const differing = rulesOf(emulator).filter((r) => managed.includes(r.path) && r.policyMode !== MODE).length;
    // change-one changes the first managed rule: destroy puts it back too when up had found it as declared.
    const firstFound = rulesOf(emulator).find((r) => r.path === managed[0]).policyMode === MODE ? 1 : 0;
    const minimum = {
      up: listing + differing,
      "noop-up": 0,
      "change-one": listing + 1,
      refresh: listing,
      destroy: listing + differing + firstFound,
    };
    if (label === "singles") minimum.destroy = differing; // each PolicyRuleMode recorded its own original: no listing needed
    const stack = await pulumiWorkspace(
      { "Pulumi.yaml": `name: bench-${label}\nruntime: nodejs\n`, "index.js": program, "spec.json": JSON.stringify(spec) },
      { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
      join(installedDir, "node_modules"),
    );
    let stateBytes = 0;
    let upApplied = false;
    /** @type {Record<string, number>} */
    const peakMb = {};
    let stopSampling = () => 0;
    const result = await runPhases(stack, emulator, {
      phases,
      commands: COMMANDS,
      before: async (phase) => {
        if (phase === "change-one") writeFileSync(join(stack.dir, "spec.json"), JSON.stringify(changeOne));
        stopSampling = providerMemorySampler(stack.dir);
      },
      between: async (phase) => {
        peakMb[phase] = stopSampling();
        log(`  ${label} ${phase} done`);
        if (phase === "up") {
          stateBytes = Buffer.byteLength((await stack.run(["stack", "export"])).stdout);
          upApplied = rulesOf(emulator).every((r) => !managed.includes(r.path) || r.policyMode === MODE);
        }
      },
    });
    for (const phase of phases) Object.assign(result[phase], { minimumRequests: minimum[phase], providerPeakMb: peakMb[phase] });
    return { rules: managed.length, phases: result, stateBytes, upApplied, destroyRestored: modesOf(emulator) === before };
  } finally {
    await emulator.close();
  }
}

/**
 * @param {{ installedDir: string, bulkRules?: number, singles?: number[], log?: (line: string) => void }} options
 *   bulkRules: the size of the policy (the preset's 5,000-rule SAST policy cut to its first
 *   bulkRules), every rule of which the PolicyRuleModes selects; singles: the sizes of the
 *   one-PolicyRuleMode-per-rule stacks, on the same policy (at most bulkRules each)
 */
export async function runBenchModes({ installedDir, bulkRules = 5000, singles = [1000, 2000], log = () => {} }) {
  const probe = await startEmulator({ preset: "large" });
  const paths = rulesOf(probe).map((r) => r.path);
  await probe.close();
  if (bulkRules > paths.length) throw new Error(`the large preset's policy has ${paths.length} rules, fewer than ${bulkRules}`);
  const tooMany = singles.filter((count) => count > bulkRules);
  if (tooMany.length) throw new Error(`the policy is cut to ${bulkRules} rules: no stack of ${tooMany.join(", ")} PolicyRuleMode`);
  const managed = paths.slice(0, bulkRules);
  const declared = { select: WHOLE_POLICY, mode: MODE };
  const bulkSpec = { policyId: SAST_POLICY_ID, declared };
  log(`rule modes: every rule of a ${bulkRules}-rule policy as one PolicyRuleModes (select: ${JSON.stringify(WHOLE_POLICY)})`);
  const bulk = await runStack({
    installedDir,
    policyRules: bulkRules,
    program: BULK_PROGRAM,
    spec: bulkSpec,
    phases: BULK_PHASES,
    managed,
    // change-one: one managed rule declared MODE_COMMENT explicitly, beside the selector.
    changeOne: { ...bulkSpec, declared: { ...declared, modes: { [managed[0]]: "MODE_COMMENT" } } },
    log,
    label: "bulk",
  });
  const individual = [];
  for (const count of singles) {
    log(`rule modes: ${count} PolicyRuleMode resources`);
    const rules = paths.slice(0, count);
    individual.push(
      await runStack({
        installedDir,
        policyRules: bulkRules,
        program: SINGLE_PROGRAM,
        spec: { policyId: SAST_POLICY_ID, rules },
        phases: SINGLE_PHASES,
        managed: rules,
        log,
        label: "singles",
      }),
    );
  }
  return { bulk, individual };
}

/** A short table of a rule-modes result: one row per form and phase. */
export function formatModesTable(result) {
  const rows = [["form", "phase", "requests", "writes", "minimum", "wall s", "provider MB"]];
  const add = (form, stack) => {
    for (const [phase, p] of Object.entries(stack.phases))
      rows.push([form, phase, p.requests, p.writes, p.minimumRequests, p.wallSeconds, p.providerPeakMb]);
  };
  add(`1 PolicyRuleModes, ${result.bulk.rules} rules (whole policy)`, result.bulk);
  for (const stack of result.individual) add(`${stack.rules} PolicyRuleMode`, stack);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  "));
  const state = [result.bulk, ...result.individual].map(
    (s, i) =>
      `${i === 0 ? "PolicyRuleModes" : "PolicyRuleMode"} x${i === 0 ? 1 : s.rules}: state ${s.stateBytes} bytes, up set every rule: ${s.upApplied}, destroy restored every mode: ${s.destroyRestored}`,
  );
  return [`rule modes at scale (large preset, a SAST policy of ${result.bulk.rules} rules)`, ...lines, ...state].join("\n");
}

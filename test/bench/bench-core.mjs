// The benchmark's engine: a stack of ProjectSettings, ProjectTags and ManagedScan on N projects,
// PolicyRuleMode resources across two policies and an SBOM export, driven through the real Pulumi CLI against
// the emulator, phase by phase; the same number of no-I/O dynamic resources as the engine's
// floor; the state size; and a run under injected faults. Used by `npm run bench` (full size)
// and by the test suite (small size, request counts asserted exactly).
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiWorkspace } from "../tools/pulumi-run.mjs";

const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");

export const PHASES = ["preview", "up", "noop-up", "refresh", "destroy"];
const RULE_PAGE = 2000;
const SAST_POLICY = "10";
const SECRETS_POLICY = "11";

/** The program of the benchmark stack: its resources come from spec.json. */
const STACK_PROGRAM = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
for (const projectName of spec.projects) {
  const name = projectName.replace("/", "-");
  const address = { deploymentSlug: "acme", projectName };
  new semgrep.ProjectSettings(name + "-settings", { ...address, primaryBranch: "main" });
  new semgrep.ProjectTags(name + "-tags", { ...address, tags: spec.tags });
  new semgrep.ManagedScan(name + "-scans", { ...address, diffScan: { enabled: true }, fullScan: { enabled: true } });
}
spec.rules.forEach((rule, i) => new semgrep.PolicyRuleMode("rule-" + rule.policyId + "-" + i, { deploymentId: "1", policyId: rule.policyId, rulePath: rule.path, mode: "MODE_BLOCK" }));
new semgrep.SbomExport("sbom", { deploymentId: "1", repositoryId: String(spec.sbomRepositoryId), ref: "refs/heads/main", triggers: ["bench"] });
`;

/** The engine's floor: as many dynamic resources, whose provider does no I/O. */
const FLOOR_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const spec = require("./spec.json");
const provider = { async create(inputs) { return { id: inputs.key, outs: inputs }; } };
for (let i = 0; i < spec.resources; i++) new pulumi.dynamic.Resource(provider, "floor-" + i, { key: "k" + i });
`;

const TAGS = ["bench", "owner:appsec"];

/** The fewest requests each phase can make, from the service's state before `up`. */
function minimumRequests(state, projects, rules) {
  const byName = new Map(state.projects.map((p) => [p.name, p]));
  const pages = (policyId) => {
    const count = rules.filter((r) => r.policyId === policyId).length;
    return count ? Math.ceil(state.policies.find((p) => p.id === policyId).rules.length / RULE_PAGE) : 0;
  };
  const listings = pages(SAST_POLICY) + pages(SECRETS_POLICY);
  let branchWrites = 0;
  let tagWrites = 0;
  let scanWrites = 0;
  for (const name of projects) {
    const p = byName.get(name);
    if ((p.primaryBranch ?? p.defaultBranch) !== "refs/heads/main") branchWrites++;
    if (TAGS.some((t) => !p.tags.includes(t))) tagWrites++;
    if (!p.managedScanConfig.diff_scan.enabled || !p.managedScanConfig.full_scan.enabled) scanWrites++;
  }
  const modes = new Map(state.policies.flatMap((p) => p.rules.map((r) => [`${p.id}|${r.path}`, r.policyMode])));
  const ruleWrites = rules.filter((r) => modes.get(`${r.policyId}|${r.path}`) !== "MODE_BLOCK").length;
  const writes = branchWrites + tagWrites + scanWrites + ruleWrites;
  // The SBOM export: start it and read its status on up; read the status on refresh; nothing to undo.
  return {
    preview: 0,
    up: projects.length + listings + writes + 2,
    "noop-up": 0,
    refresh: projects.length + listings + 1,
    destroy: writes,
  };
}

/** What the stack manages, for comparing two runs: project settings and rule modes. */
function managedState(emulator, projects, rules) {
  const state = emulator.state();
  const byName = new Map(state.projects.map((p) => [p.name, p]));
  const modes = new Map(state.policies.flatMap((p) => p.rules.map((r) => [`${p.id}|${r.path}`, r.policyMode])));
  return JSON.stringify({
    projects: projects.map((name) => {
      const p = byName.get(name);
      return { name, primaryBranch: p.primaryBranch, tags: [...p.tags].sort(), scans: p.managedScanConfig };
    }),
    rules: rules.map((r) => modes.get(`${r.policyId}|${r.path}`)),
  });
}

const PHASE_COMMANDS = {
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  "noop-up": ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/**
 * Runs the phases in order (`before(phase)` ahead of each, `between(phase)` after each, both
 * outside the request count and the wall time); each phase's row holds the requests the emulator
 * logged and its writes (every request but a GET), wall seconds, and what `tally` makes of the log.
 * @template {object} [T={}]
 * @param {import("../tools/pulumi-run.mjs").PulumiWorkspace} ws
 * @param {{ requests(): Array<{ method: string, operation?: string }> } | undefined} emulator
 * @param {{ phases?: readonly string[], commands?: Record<string, string[]>, tally?: (log: Array<{ method: string, operation?: string }>) => T,
 *           before?: (phase: string) => Promise<void>, between?: (phase: string) => Promise<void> }} [options]
 * @returns {Promise<Record<string, { requests: number, writes: number, wallSeconds: number, minimumRequests?: number } & T>>}
 */
export async function runPhases(ws, emulator, { phases: names = PHASES, commands = PHASE_COMMANDS, tally, before, between } = {}) {
  const phases = {};
  for (const phase of names) {
    await before?.(phase);
    if (emulator) emulator.requests().length = 0;
    const started = process.hrtime.bigint();
    await ws.run(commands[phase]);
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const requests = emulator ? emulator.requests() : [];
    phases[phase] = {
      requests: requests.length,
      writes: requests.filter((r) => r.method !== "GET").length,
      wallSeconds: Number(wallSeconds.toFixed(2)),
      ...tally?.(requests),
    };
    await between?.(phase);
  }
  return phases;
}

/**
 * The bytes of each resource of a `pulumi stack export`, as that export prints it (the entry
 * JSON-indented by four spaces, at the depth of `deployment.resources[]`), summed by type.
 * @param {string} exported
 * @returns {Record<string, { count: number, bytes: number }>} by the type token's last part
 */
export function stateBytesByKind(exported) {
  /** @type {Record<string, { count: number, bytes: number }>} */
  const kinds = {};
  for (const resource of JSON.parse(exported).deployment.resources) {
    const text = JSON.stringify(resource, null, 4);
    const bytes = Buffer.byteLength(text) + 12 * text.split("\n").length;
    const kind = String(resource.type).split(":").at(-1);
    kinds[kind] ??= { count: 0, bytes: 0 };
    kinds[kind].count++;
    kinds[kind].bytes += bytes;
  }
  return kinds;
}

/**
 * @param {{ installedDir: string, preset?: "demo" | "large", projects?: number, rules?: [number, number],
 *           faultRate?: number, floor?: boolean, log?: (line: string) => void }} options
 */
export async function runBench({
  installedDir,
  preset = "large",
  projects: projectCount = 50,
  rules: [sastRules, secretsRules] = [200, 100],
  faultRate = 0.3,
  floor = true,
  log = () => {},
}) {
  const emulator = await startEmulator({ preset });
  try {
    const initial = structuredClone(emulator.state());
    const projects = initial.projects.slice(0, projectCount).map((p) => p.name);
    const pick = (policyId, count) =>
      initial.policies
        .find((p) => p.id === policyId)
        .rules.slice(0, count)
        .map((r) => ({ policyId, path: r.path }));
    const rules = [...pick(SAST_POLICY, sastRules), ...pick(SECRETS_POLICY, secretsRules)];
    const spec = JSON.stringify({ projects, rules, tags: TAGS, sbomRepositoryId: initial.projects[0].id });
    const resources = projects.length * 3 + rules.length + 1;
    const minimum = minimumRequests(initial, projects, rules);

    log(`stack: ${resources} resources (${projects.length} projects x 3, ${rules.length} rule modes, 1 SBOM export); preset ${preset}`);
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    const stack = await pulumiWorkspace(
      { "Pulumi.yaml": "name: bench\nruntime: nodejs\n", "index.js": STACK_PROGRAM, "spec.json": spec },
      credentials,
      join(installedDir, "node_modules"),
    );
    let stateBytes = 0;
    /** @type {Record<string, { count: number, bytes: number }>} */
    let stateByKind = {};
    let afterUp = "";
    const phases = await runPhases(stack, emulator, {
      // The requests of the rule modes (listing a policy's rules, setting a mode), for the per-rule figures.
      tally: (requests) => ({ ruleModeRequests: requests.filter((r) => r.operation?.startsWith("policies.")).length }),
      between: async (phase) => {
        log(`  ${phase} done`);
        if (phase === "up") {
          const exported = (await stack.run(["stack", "export"])).stdout;
          stateBytes = Buffer.byteLength(exported);
          stateByKind = stateBytesByKind(exported);
          afterUp = managedState(emulator, projects, rules);
        }
      },
    });
    for (const phase of PHASES) phases[phase].minimumRequests = minimum[phase];
    const restored = managedState(emulator, projects, rules) === managedState({ state: () => initial }, projects, rules);

    let floorPhases;
    if (floor) {
      log("engine floor: as many no-I/O dynamic resources");
      const floorStack = await pulumiWorkspace(
        { "Pulumi.yaml": "name: floor\nruntime: nodejs\n", "index.js": FLOOR_PROGRAM, "spec.json": JSON.stringify({ resources }) },
        {},
        join(installedDir, "node_modules"),
      );
      floorPhases = await runPhases(floorStack, undefined);
    }

    let faults;
    if (faultRate > 0) {
      log(`faults: the same stack at fault rate ${faultRate}`);
      const faulty = await startEmulator({ preset, faultRate, seed: 1 });
      try {
        const ws = await pulumiWorkspace(
          { "Pulumi.yaml": "name: bench\nruntime: nodejs\n", "index.js": STACK_PROGRAM, "spec.json": spec },
          { SEMGREP_APP_URL: faulty.url, SEMGREP_APP_TOKEN: faulty.token },
          join(installedDir, "node_modules"),
        );
        let attempts = 0;
        let converged = false;
        while (!converged && attempts < 3) {
          attempts++;
          converged = (await ws.run(["up", "--yes", "--skip-preview"], { allowFailure: true })).status === 0;
        }
        const injected = faulty.requests().filter((r) => r.fault);
        faults = {
          rate: faultRate,
          converged,
          upAttempts: attempts,
          identicalToFaultFree: converged && managedState(faulty, projects, rules) === afterUp,
          retries: injected.length,
          injected: {
            429: injected.filter((r) => r.fault === "429").length,
            503: injected.filter((r) => r.fault === "503").length,
            drop: injected.filter((r) => r.fault === "drop").length,
          },
          sbomExportsStarted: faulty.state().sbomExports.length,
        };
      } finally {
        await faulty.close();
      }
    }

    return {
      resources,
      ruleModes: rules.length,
      phases,
      engineFloorRatio: floorPhases ? Number((phases.up.wallSeconds / floorPhases.up.wallSeconds).toFixed(2)) : undefined,
      floorPhases,
      stateBytesPerResource: Math.round(stateBytes / resources),
      stateBytes,
      stateBytesPerRuleMode: stateByKind.PolicyRuleMode
        ? Math.round(stateByKind.PolicyRuleMode.bytes / stateByKind.PolicyRuleMode.count)
        : undefined,
      destroyRestoredEverything: restored,
      faults,
    };
  } finally {
    await emulator.close();
  }
}

/** A short table of a result. */
export function formatTable(result) {
  const lines = [
    `${"phase".padEnd(9)} ${"requests".padStart(8)} ${"writes".padStart(6)} ${"minimum".padStart(7)} ${"wall s".padStart(7)} ${"floor s".padStart(7)}`,
  ];
  for (const phase of PHASES) {
    const p = result.phases[phase];
    const floor = result.floorPhases?.[phase]?.wallSeconds;
    lines.push(
      `${phase.padEnd(9)} ${String(p.requests).padStart(8)} ${String(p.writes).padStart(6)} ${String(p.minimumRequests).padStart(7)} ${p.wallSeconds.toFixed(2).padStart(7)} ${(floor ?? NaN).toFixed(2).padStart(7)}`,
    );
  }
  lines.push(
    `resources: ${result.resources}; engineFloorRatio (up): ${result.engineFloorRatio}; state bytes per resource: ${result.stateBytesPerResource}; destroy restored everything: ${result.destroyRestoredEverything}`,
  );
  if (result.faults) {
    const f = result.faults;
    lines.push(
      `faults at rate ${f.rate}: converged ${f.converged} (after ${f.upAttempts} up), identical to fault-free ${f.identicalToFaultFree}, retries ${f.retries} (429: ${f.injected["429"]}, 503: ${f.injected["503"]}, dropped: ${f.injected.drop})`,
    );
  }
  return lines.join("\n");
}

/**
 * The per-rule figures of the rule modes (v1: one PolicyRuleMode resource per rule) beside those
 * of the v2 stack (one DetectionPolicy holding every disabled rule).
 */
export function formatPerRule(v1, v2) {
  const up = v1.phases.up;
  const perRule = v1.ruleModes ? (up.ruleModeRequests / v1.ruleModes).toFixed(2) : "-";
  const lines = [
    `per rule, v1: ${v1.ruleModes} PolicyRuleMode resources: up ${up.ruleModeRequests} rule-mode requests (${perRule} per rule), ` +
      `state ${v1.stateBytesPerRuleMode ?? "-"} bytes per rule mode`,
  ];
  if (v2) {
    const puts = (phase) => v2.phases[phase].operations["policiesV2.applyDetectionPolicy"] ?? 0;
    lines.push(
      `per rule, v2: ${v2.disabledRules} disabled rules in 1 DetectionPolicy: up ${puts("up")} PUT of the code bundle, change-one ${puts("change-one")}, ` +
        `destroy ${puts("destroy")}; state ${v2.stateBytesPerDisabledRule} bytes per disabled rule (the list in inputs and outputs, and the list it found)`,
    );
  }
  return lines.join("\n");
}

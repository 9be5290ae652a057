// The benchmark's engine: a stack of ProjectSettings, ProjectTags and ManagedScan on N projects,
// PolicyRuleMode resources across two policies and an SBOM export, driven through the real Pulumi CLI against
// the emulator, phase by phase; the same number of no-I/O dynamic resources as the engine's
// floor, whose `up` is measured interleaved with ours, several times each (medians and spread);
// the state size; and a run under injected faults. Used by `npm run bench` (full size)
// and by the test suite (small size, request counts asserted exactly).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { stringify as stringifyYaml } from "yaml";
import { pulumiCliDir, pulumiWorkspace } from "../tools/pulumi-run.mjs";

const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");

export const PHASES = ["preview", "up", "noop-up", "refresh", "destroy"];
const RULE_PAGE = 2000;
const SAST_POLICY = "10";
const SECRETS_POLICY = "11";

/**
 * The resources of the benchmark stack, each as a kind, a name and its inputs: one list that both
 * renderings take (the Node.js program's `stack.json` and the YAML program), so that the two
 * columns declare the same names and values.
 * @param {{ projects: string[], rules: Array<{ policyId: string, path: string }>, tags: string[], sbomRepositoryId: number | string }} spec
 * @returns {Array<{ kind: string, name: string, inputs: Record<string, unknown> }>}
 */
export function stackDeclarations({ projects, rules, tags, sbomRepositoryId }) {
  return [
    ...projects.flatMap((projectName) => {
      const name = projectName.replace("/", "-");
      const address = { deploymentSlug: "acme", projectName };
      return [
        { kind: "ProjectSettings", name: `${name}-settings`, inputs: { ...address, primaryBranch: "main" } },
        { kind: "ProjectTags", name: `${name}-tags`, inputs: { ...address, tags } },
        { kind: "ManagedScan", name: `${name}-scans`, inputs: { ...address, diffScan: { enabled: true }, fullScan: { enabled: true } } },
      ];
    }),
    ...rules.map((rule, i) => ({
      kind: "PolicyRuleMode",
      name: `rule-${rule.policyId}-${i}`,
      inputs: { deploymentId: "1", policyId: rule.policyId, rulePath: rule.path, mode: "MODE_BLOCK" },
    })),
    {
      kind: "SbomExport",
      name: "sbom",
      inputs: { deploymentId: "1", repositoryId: String(sbomRepositoryId), ref: "refs/heads/main", triggers: ["bench"] },
    },
  ];
}

/** The benchmark stack as a Node.js program through the dynamic provider: its resources come from stack.json (`stackDeclarations`). */
const STACK_PROGRAM = `
const semgrep = require("pulumi-semgrep");
for (const { kind, name, inputs } of require("./stack.json")) new semgrep[kind](name, inputs);
`;

/**
 * The benchmark stack as a YAML program through the native plugin (`semgrep:index:<Kind>`): the
 * project file itself, every resource with its inputs as `properties`.
 * @param {string} project
 * @param {ReturnType<typeof stackDeclarations>} declarations
 */
export function yamlProgram(project, declarations) {
  const resources = Object.fromEntries(
    declarations.map(({ kind, name, inputs }) => [name, { type: `semgrep:index:${kind}`, properties: inputs }]),
  );
  return stringifyYaml({ name: project, runtime: "yaml", resources }, { aliasDuplicateObjects: false }); // YAML programs refuse aliases
}

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

let clockTicks;
/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, from
 * /proc/self/stat (cutime + cstime: what getrusage(RUSAGE_CHILDREN) reports, which Node.js does
 * not expose). A `pulumi` command run as a child adds its own time and that of every process it
 * waited for: the language host, the program, the provider plugins. Undefined off Linux.
 * @returns {number | undefined}
 */
export function childrenCpuSeconds() {
  if (!existsSync("/proc/self/stat")) return undefined;
  clockTicks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command's closing parenthesis start at field 3 (state); cutime and cstime are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / clockTicks;
}

/**
 * The median and the spread of some measurements: a machine shared with other work moves single
 * runs by tens of percent, so the benchmark reports no figure from one run alone.
 * @param {number[]} samples
 * @returns {{ median: number, min: number, max: number, samples: number[] }}
 */
export function spread(samples) {
  if (!samples.length) throw new Error("no measurements to summarize");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median: Number(median.toFixed(2)), min: sorted[0], max: sorted.at(-1), samples };
}

/**
 * Runs `rounds` rounds, each calling every step once in the order given: the `up` of each column
 * and of the floor, one after the other, then again, so that a load that comes and goes on a
 * shared machine falls on all of them alike rather than on whichever ran during it.
 * @template T
 * @param {number} rounds
 * @param {Array<[string, (round: number) => Promise<T>]>} steps by name
 * @returns {Promise<Record<string, T[]>>} each step's results, by name, in round order
 */
export async function interleave(rounds, steps) {
  /** @type {Record<string, T[]>} */
  const results = Object.fromEntries(steps.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) for (const [name, step] of steps) results[name].push(await step(round));
  return results;
}

/**
 * Runs the phases in order (`before(phase)` ahead of each, `between(phase)` after each, both
 * outside the request count and the wall time); each phase's row holds the requests the emulator
 * logged and its writes (every request but a GET), wall seconds, CPU seconds of the `pulumi`
 * command and all its children (`childrenCpuSeconds`: the emulator, in this process, is not
 * counted), and what `tally` makes of the log.
 * @template {object} [T={}]
 * @param {import("../tools/pulumi-run.mjs").PulumiWorkspace} ws
 * @param {{ requests(): Array<{ method: string, operation?: string }> } | undefined} emulator
 * @param {{ phases?: readonly string[], commands?: Record<string, string[]>, tally?: (log: Array<{ method: string, operation?: string }>) => T,
 *           before?: (phase: string) => Promise<void>, between?: (phase: string) => Promise<void> }} [options]
 * @returns {Promise<Record<string, { requests: number, writes: number, wallSeconds: number, cpuSeconds?: number, minimumRequests?: number } & T>>}
 */
export async function runPhases(ws, emulator, { phases: names = PHASES, commands = PHASE_COMMANDS, tally, before, between } = {}) {
  const phases = {};
  for (const phase of names) {
    await before?.(phase);
    if (emulator) emulator.requests().length = 0;
    const cpuBefore = childrenCpuSeconds();
    const started = process.hrtime.bigint();
    await ws.run(commands[phase]);
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuAfter = childrenCpuSeconds();
    const requests = emulator ? emulator.requests() : [];
    phases[phase] = {
      requests: requests.length,
      writes: requests.filter((r) => r.method !== "GET").length,
      wallSeconds: Number(wallSeconds.toFixed(2)),
      cpuSeconds: cpuAfter === undefined || cpuBefore === undefined ? undefined : Number((cpuAfter - cpuBefore).toFixed(2)),
      ...tally?.(requests),
    };
    await between?.(phase);
  }
  return phases;
}

/** The bytes of one resource of a `pulumi stack export`, as that export prints it (JSON-indented by four spaces, at the depth of `deployment.resources[]`). */
function exportedBytes(resource) {
  const text = JSON.stringify(resource, null, 4);
  return Buffer.byteLength(text) + 12 * text.split("\n").length;
}

/**
 * The bytes of each resource of a `pulumi stack export`, summed by type; `traceBytes`: the part
 * of them that is the language host's call stack where the resource was declared (`stackTrace`
 * and `sourcePosition`, which the engine records for every resource: a YAML program's holds the
 * YAML host's Go frames), not the provider's.
 * @param {string} exported
 * @returns {Record<string, { count: number, bytes: number, traceBytes: number }>} by the type token's last part
 */
export function stateBytesByKind(exported) {
  /** @type {Record<string, { count: number, bytes: number, traceBytes: number }>} */
  const kinds = {};
  for (const resource of JSON.parse(exported).deployment.resources) {
    const bytes = exportedBytes(resource);
    const { stackTrace, sourcePosition, ...rest } = resource;
    const kind = String(resource.type).split(":").at(-1);
    kinds[kind] ??= { count: 0, bytes: 0, traceBytes: 0 };
    kinds[kind].count++;
    kinds[kind].bytes += bytes;
    kinds[kind].traceBytes += stackTrace || sourcePosition ? bytes - exportedBytes(rest) : 0;
  }
  return kinds;
}

/** The stack's state bytes per resource that are call stacks (`stateBytesByKind`'s `traceBytes`), over `resources` resources. */
function traceBytesPerResource(byKind, resources) {
  return Math.round(Object.values(byKind).reduce((sum, kind) => sum + kind.traceBytes, 0) / resources);
}

/** The mean state bytes of a PolicyRuleMode, from `stateBytesByKind`. */
function perRuleMode(byKind) {
  const modes = byKind.PolicyRuleMode;
  return modes ? Math.round(modes.bytes / modes.count) : undefined;
}

/** Requests by operation (`METHOD path` where the emulator names none): what the two columns must make alike. */
function byOperation(requests) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const r of requests) {
    const key = r.operation ?? `${r.method} ${r.path}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * One column of the comparison: a stack's workspace and its emulator, run phase by phase
 * (`run(phase)`); after `up`, its state bytes (`pulumi stack export`) and what it manages.
 * @param {import("../tools/pulumi-run.mjs").PulumiWorkspace} ws
 * @param {Awaited<ReturnType<typeof startEmulator>>} emulator
 * @param {string[]} projects
 * @param {Array<{ policyId: string, path: string }>} rules
 * @param {(line: string) => void} log
 */
function stackColumn(ws, emulator, projects, rules, log) {
  const column = {
    /** @type {Record<string, any>} */
    phases: {},
    stateBytes: 0,
    /** @type {ReturnType<typeof stateBytesByKind>} */
    stateByKind: {},
    afterUp: "",
    /** @param {string} phase */
    run: async (phase) =>
      Object.assign(
        column.phases,
        await runPhases(ws, emulator, {
          phases: [phase],
          tally,
          between: async () => {
            log(`${phase} done`);
            if (phase !== "up") return;
            const exported = (await ws.run(["stack", "export"])).stdout;
            column.stateBytes = Buffer.byteLength(exported);
            column.stateByKind = stateBytesByKind(exported);
            column.afterUp = managedState(emulator, projects, rules);
          },
        }),
      ),
    /**
     * Runs a phase again, for another measurement of it: its row, not stored in `phases`.
     * @param {string} phase
     */
    measure: async (phase) => (await runPhases(ws, emulator, { phases: [phase], tally }))[phase],
  };
  return column;
}

/** The requests of the rule modes (listing a policy's rules, setting a mode), for the per-rule figures; and every request by operation. */
function tally(requests) {
  return {
    ruleModeRequests: requests.filter((r) => r.operation?.startsWith("policies.")).length,
    operations: byOperation(requests),
  };
}

/**
 * The engine's floor as a column beside the stack's: `resources` no-I/O dynamic resources
 * (FLOOR_PROGRAM), `run(phase)` storing its rows in `phases` as a stack column does.
 * @param {string} installedDir
 * @param {number} resources
 */
async function floorColumn(installedDir, resources) {
  const ws = await pulumiWorkspace(
    { "Pulumi.yaml": "name: floor\nruntime: nodejs\n", "index.js": FLOOR_PROGRAM, "spec.json": JSON.stringify({ resources }) },
    {},
    join(installedDir, "node_modules"),
  );
  const column = {
    /** @type {Record<string, any>} */
    phases: {},
    /** @param {string} phase */
    run: async (phase) => Object.assign(column.phases, await runPhases(ws, undefined, { phases: [phase] })),
    /** @param {string} phase */
    measure: async (phase) => (await runPhases(ws, undefined, { phases: [phase] }))[phase],
  };
  return column;
}

/**
 * The `up` of each column against the floor's, from every round: each one's wall and CPU seconds
 * as median and spread, and the ratios of the medians (wall and CPU: the CPU seconds move less
 * with the machine's load than the wall time does).
 * @param {Record<string, Array<{ wallSeconds: number, cpuSeconds?: number }>>} ups by column: "dynamic", "floor", and "native" when it ran
 * @returns {{ runs: number, ratio: Record<string, { wall?: number, cpu?: number }> } &
 *           Record<string, { wallSeconds: ReturnType<typeof spread>, cpuSeconds?: ReturnType<typeof spread> }>}
 */
export function upAgainstFloor(ups) {
  const figures = (rows) => ({
    wallSeconds: spread(rows.map((r) => r.wallSeconds)),
    cpuSeconds: rows.every((r) => r.cpuSeconds !== undefined) ? spread(rows.map((r) => r.cpuSeconds)) : undefined,
  });
  const columns = Object.fromEntries(Object.entries(ups).map(([name, rows]) => [name, figures(rows)]));
  const ratio = (name, measure) => {
    const [up, floor] = [columns[name]?.[measure]?.median, columns.floor?.[measure]?.median];
    return up === undefined || !floor ? undefined : Number((up / floor).toFixed(2));
  };
  return {
    runs: ups.floor.length,
    ...columns,
    ratio: Object.fromEntries(
      Object.keys(columns)
        .filter((name) => name !== "floor")
        .map((name) => [name, { wall: ratio(name, "wallSeconds"), cpu: ratio(name, "cpuSeconds") }]),
    ),
  };
}

/**
 * Where the native column's requests differ from the dynamic column's, phase by phase and
 * operation by operation (none: the plugin calls the same handlers).
 * @returns {string[]} e.g. `up policies.updateRuleMode: dynamic 9, native 8`
 */
function requestDifferences(dynamicPhases, nativePhases) {
  return PHASES.flatMap((phase) => {
    const a = dynamicPhases[phase].operations;
    const b = nativePhases[phase].operations;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .sort()
      .filter((op) => (a[op] ?? 0) !== (b[op] ?? 0))
      .map((op) => `${phase} ${op}: dynamic ${a[op] ?? 0}, native ${b[op] ?? 0}`);
  });
}

/** Where `name` is: the first directory of `dirs` that holds it. */
function findExecutable(name, dirs) {
  return dirs.find((dir) => dir && existsSync(join(dir, name)));
}

/**
 * A workspace for the YAML program through the plugin of the installed package: its bin
 * `pulumi-resource-semgrep` (node_modules/.bin) first on the PATH, where the engine finds a
 * plugin it has not installed, and the YAML language host beside `pulumi` or on the PATH.
 * @param {string} installedDir
 * @param {Record<string, string>} files
 * @param {Record<string, string>} credentials
 */
async function nativeWorkspace(installedDir, files, credentials) {
  const bin = join(installedDir, "node_modules", ".bin");
  if (!existsSync(join(bin, "pulumi-resource-semgrep")))
    throw new Error(
      `the installed package has no bin pulumi-resource-semgrep in ${bin}: the native column needs the plugin (or run with --native false)`,
    );
  const path = [bin, dirname(process.execPath), pulumiCliDir(), ...(process.env.PATH ?? "").split(delimiter)];
  if (!findExecutable("pulumi-language-yaml", path))
    throw new Error(
      `no YAML language host (pulumi-language-yaml) beside pulumi in ${pulumiCliDir()} or on the PATH: build it ` +
        "(npm run pulumi:cli builds it beside pulumi), or run with --native false",
    );
  return pulumiWorkspace(files, { ...credentials, PATH: path.join(delimiter) }, join(installedDir, "node_modules"));
}

/**
 * @param {{ installedDir: string, preset?: "demo" | "large", projects?: number, rules?: [number, number],
 *           faultRate?: number, floor?: boolean, upRuns?: number, native?: boolean, log?: (line: string) => void }} options
 *   native: beside the Node.js program through the dynamic provider (the result's own rows), the
 *   same stack as a YAML program through the installed package's plugin (`native`), phase by
 *   phase in turn, each against its own emulator of the preset
 *   floor: the engine's floor (as many no-I/O dynamic resources) as a third column, phase by phase in turn too
 *   upRuns: how many times the `up` of each column and of the floor is measured, interleaved (the
 *   first time in the phases; each time after it, `up` then `destroy` again, the columns in turn):
 *   `upVsFloor` gives each one's median and spread and the ratios of the medians
 */
export async function runBench({
  installedDir,
  preset = "large",
  projects: projectCount = 50,
  rules: [sastRules, secretsRules] = [200, 100],
  faultRate = 0.3,
  floor = true,
  upRuns = 3,
  native: nativeColumn = true,
  log = () => {},
}) {
  const emulator = await startEmulator({ preset });
  let nativeEmulator;
  try {
    const initial = structuredClone(emulator.state());
    const projects = initial.projects.slice(0, projectCount).map((p) => p.name);
    const pick = (policyId, count) =>
      initial.policies
        .find((p) => p.id === policyId)
        .rules.slice(0, count)
        .map((r) => ({ policyId, path: r.path }));
    const rules = [...pick(SAST_POLICY, sastRules), ...pick(SECRETS_POLICY, secretsRules)];
    const declarations = stackDeclarations({ projects, rules, tags: TAGS, sbomRepositoryId: initial.projects[0].id });
    const stackJson = JSON.stringify(declarations);
    const resources = declarations.length;
    const minimum = minimumRequests(initial, projects, rules);

    log(`stack: ${resources} resources (${projects.length} projects x 3, ${rules.length} rule modes, 1 SBOM export); preset ${preset}`);
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    const stack = await pulumiWorkspace(
      { "Pulumi.yaml": "name: bench\nruntime: nodejs\n", "index.js": STACK_PROGRAM, "stack.json": stackJson },
      credentials,
      join(installedDir, "node_modules"),
    );
    const dynamic = stackColumn(stack, emulator, projects, rules, (line) => log(`  ${line}`));
    let native;
    if (nativeColumn) {
      // Its own emulator, from the same preset: both columns start from the same service.
      nativeEmulator = await startEmulator({ preset });
      if (managedState(nativeEmulator, projects, rules) !== managedState({ state: () => initial }, projects, rules))
        throw new Error(`the ${preset} preset gave a second emulator another state: the two columns would not be comparable`);
      const yamlStack = await nativeWorkspace(
        installedDir,
        { "Pulumi.yaml": yamlProgram("bench-native", declarations) },
        { SEMGREP_APP_URL: nativeEmulator.url, SEMGREP_APP_TOKEN: nativeEmulator.token },
      );
      native = stackColumn(yamlStack, nativeEmulator, projects, rules, (line) => log(`  native ${line}`));
    }
    const floored = floor ? await floorColumn(installedDir, resources) : undefined;
    /** @type {Array<[string, NonNullable<typeof dynamic | typeof floored>]>} the columns in the order each round runs them: the floor between the two stacks */
    const columns = [["dynamic", dynamic], ...(floored ? [["floor", floored]] : []), ...(native ? [["native", native]] : [])];
    // Phase by phase, the columns in turn: a shared machine's load falls on all alike.
    for (const phase of PHASES) for (const [, column] of columns) await column.run(phase);
    // The up again, interleaved as well: up, floor, up; up, floor, up; ... (each destroyed after
    // its up, so that every up starts from the service and the state the first one found).
    const again = floored
      ? await interleave(
          upRuns - 1,
          columns.map(([name, column]) => [
            name,
            async (round) => {
              log(`${name} up and destroy, run ${round + 2} of ${upRuns}`);
              return { up: await column.measure("up"), destroy: await column.measure("destroy") };
            },
          ]),
        )
      : {};
    const { phases, stateBytes, stateByKind, afterUp } = dynamic;
    for (const column of [dynamic, native]) if (column) for (const phase of PHASES) column.phases[phase].minimumRequests = minimum[phase];
    // Every up and destroy after the first, each row beside its minimum (the run fails above it).
    const repeats = Object.fromEntries(
      Object.entries(again)
        .filter(([name]) => name !== "floor")
        .map(([name, rounds]) => [
          name,
          rounds.map(({ up, destroy }) => ({
            up: { ...up, minimumRequests: minimum.up },
            destroy: { ...destroy, minimumRequests: minimum.destroy },
          })),
        ]),
    );
    const restored = managedState(emulator, projects, rules) === managedState({ state: () => initial }, projects, rules);
    const floorPhases = floored?.phases;
    const upVsFloor = floored
      ? upAgainstFloor(
          Object.fromEntries(columns.map(([name, column]) => [name, [column.phases.up, ...(again[name] ?? []).map((r) => r.up)]])),
        )
      : undefined;

    let faults;
    if (faultRate > 0) {
      log(`faults: the same stack at fault rate ${faultRate}`);
      const faulty = await startEmulator({ preset, faultRate, seed: 1 });
      try {
        const ws = await pulumiWorkspace(
          { "Pulumi.yaml": "name: bench\nruntime: nodejs\n", "index.js": STACK_PROGRAM, "stack.json": stackJson },
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

    /** The dynamic column's figures (the result's own). */
    const dynamicFigures = {
      phases,
      stateBytesPerResource: Math.round(stateBytes / resources),
      stateBytesPerRuleMode: perRuleMode(stateByKind),
      stackTraceBytesPerResource: traceBytesPerResource(stateByKind, resources),
    };
    const nativeResult = native && {
      phases: native.phases,
      stateBytesPerResource: Math.round(native.stateBytes / resources),
      stateBytes: native.stateBytes,
      stateBytesPerRuleMode: perRuleMode(native.stateByKind),
      stackTraceBytesPerResource: traceBytesPerResource(native.stateByKind, resources),
      destroyRestoredEverything: managedState(nativeEmulator, projects, rules) === managedState({ state: () => initial }, projects, rules),
      requestDifferences: requestDifferences(phases, native.phases),
    };
    return {
      resources,
      ruleModes: rules.length,
      ...dynamicFigures,
      // The ratio of the medians of the interleaved runs (upVsFloor), not of one run each.
      engineFloorRatio: upVsFloor?.ratio.dynamic.wall,
      upVsFloor,
      repeats,
      floorPhases,
      stateBytes,
      destroyRestoredEverything: restored,
      faults,
      native: nativeResult,
      comparison: nativeResult && compareColumns(dynamicFigures, nativeResult),
    };
  } finally {
    await emulator.close();
    await nativeEmulator?.close();
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
    `resources: ${result.resources}; engineFloorRatio (up, ratio of the medians): ${result.engineFloorRatio}; state bytes per resource: ${result.stateBytesPerResource}; destroy restored everything: ${result.destroyRestoredEverything}`,
  );
  if (result.upVsFloor) lines.push(...formatUpVsFloor(result.upVsFloor));
  if (result.faults) {
    const f = result.faults;
    lines.push(
      `faults at rate ${f.rate}: converged ${f.converged} (after ${f.upAttempts} up), identical to fault-free ${f.identicalToFaultFree}, retries ${f.retries} (429: ${f.injected["429"]}, 503: ${f.injected["503"]}, dropped: ${f.injected.drop})`,
    );
  }
  return lines.join("\n");
}

/**
 * The `up` against the floor (`upVsFloor`): each column's median and spread, wall and CPU, and the ratios of the medians.
 * @param {ReturnType<typeof upAgainstFloor>} upVsFloor
 * @returns {string[]}
 */
function formatUpVsFloor(upVsFloor) {
  const figure = (f) => (f ? `${f.median.toFixed(2)} (${f.min.toFixed(2)}-${f.max.toFixed(2)})`.padStart(20) : "-".padStart(20));
  const names = ["dynamic", "floor", "native"].filter((name) => upVsFloor[name]);
  const labels = { dynamic: "dynamic up", floor: "floor up", native: "native up" };
  return [
    `up against the engine floor, ${upVsFloor.runs} run(s) each, interleaved: median (min-max)`,
    `${"".padEnd(11)} ${"wall s".padStart(20)} ${"CPU s".padStart(20)}`,
    ...names.map((name) => `${labels[name].padEnd(11)} ${figure(upVsFloor[name].wallSeconds)} ${figure(upVsFloor[name].cpuSeconds)}`),
    `ratio of the medians to the floor's: ${Object.entries(upVsFloor.ratio)
      .map(([name, r]) => `${name} wall ${r.wall ?? "-"}, CPU ${r.cpu ?? "-"}`)
      .join("; ")}`,
  ];
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

/**
 * The two columns side by side, as the result's `comparison` holds them and the table prints
 * them: by phase, the requests (one figure: they must agree) and each column's wall and CPU seconds;
 * then the state bytes per resource (and how much of it is the declaring call stack) and per rule mode.
 */
function compareColumns(dynamic, native) {
  const figures = (column) => ({
    stateBytesPerResource: column.stateBytesPerResource,
    stackTraceBytesPerResource: column.stackTraceBytesPerResource,
    stateBytesPerRuleMode: column.stateBytesPerRuleMode,
  });
  return {
    columns: { dynamic: "Node.js program, dynamic provider", native: "YAML program, plugin pulumi-resource-semgrep" },
    cpu: "user + system seconds of the pulumi command and every process it waited for (language host, program, plugins): /proc/self/stat cutime + cstime",
    phases: Object.fromEntries(
      PHASES.map((phase) => {
        const [d, n] = [dynamic.phases[phase], native.phases[phase]];
        return [
          phase,
          {
            requests: d.requests === n.requests ? d.requests : { dynamic: d.requests, native: n.requests },
            dynamic: { wallSeconds: d.wallSeconds, cpuSeconds: d.cpuSeconds },
            native: { wallSeconds: n.wallSeconds, cpuSeconds: n.cpuSeconds },
          },
        ];
      }),
    ),
    state: { dynamic: figures(dynamic), native: figures(native) },
    requestsIdentical: native.requestDifferences.length === 0,
  };
}

/** The result's `comparison` (the two columns) as a table. */
export function formatNativeTable({ comparison, native }) {
  const cell = (value, width) => String(value).padStart(width);
  const secs = (value) => (value === undefined ? "-" : value.toFixed(2));
  const lines = [
    `${"".padEnd(18)}   ${"dynamic (Node.js)".padEnd(17)}   ${"native (YAML)".padEnd(17)}`,
    `${"phase".padEnd(9)} ${"requests".padStart(8)}   ${cell("wall s", 8)} ${cell("CPU s", 8)}   ${cell("wall s", 8)} ${cell("CPU s", 8)}`,
  ];
  for (const [phase, row] of Object.entries(comparison.phases)) {
    const requests = typeof row.requests === "number" ? row.requests : `${row.requests.dynamic}/${row.requests.native}`;
    lines.push(
      `${phase.padEnd(9)} ${cell(requests, 8)}   ${cell(secs(row.dynamic.wallSeconds), 8)} ${cell(secs(row.dynamic.cpuSeconds), 8)}   ${cell(secs(row.native.wallSeconds), 8)} ${cell(secs(row.native.cpuSeconds), 8)}`,
    );
  }
  const { dynamic: d, native: n } = comparison.state;
  lines.push(
    `${"state B/resource".padEnd(18)}   ${cell(d.stateBytesPerResource, 17)}   ${cell(n.stateBytesPerResource, 17)}`,
    `${" of it call stack".padEnd(18)}   ${cell(d.stackTraceBytesPerResource, 17)}   ${cell(n.stackTraceBytesPerResource, 17)}`,
    `${"state B/rule mode".padEnd(18)}   ${cell(d.stateBytesPerRuleMode ?? "-", 17)}   ${cell(n.stateBytesPerRuleMode ?? "-", 17)}`,
    `CPU: ${comparison.cpu}; requests ${comparison.requestsIdentical ? "identical, operation by operation" : `differ: ${native.requestDifferences.join("; ")}`}; native destroy restored everything: ${native.destroyRestoredEverything}`,
  );
  return lines.join("\n");
}

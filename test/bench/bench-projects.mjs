// The benchmark's projects-at-scale phase (`--projects-scale N`, default 3,000): what the Pulumi
// engine costs a deployment of many projects, through the real CLI against the emulator's `large`
// preset with its projects repeated to N (the emulator's `projects` option: its 300 ten times
// over for 3,000, the data `npm run emulator -- --preset large --projects N --data FILE` writes).
//
// For each form of declaring the projects, with and without PULUMI_SKIP_CHECKPOINTS=true (the
// engine then writes the state once at the end of a run instead of after every step, so that
// its cost no longer grows with the square of the resources): `pulumi-semgrep adopt` of the
// projects, the generated program's first `up`, a no-change `up`, a `preview`, and a one-project
// change (one tag added to one project, then `up`); each with wall time, the CPU time of the
// processes it ran (the CLI, the language host, the provider), its requests beside the fewest the
// API allows, and the state's bytes. Then the same curve for rules: one PolicyRuleMode per rule
// at each size of `--modes-singles` (first `up`, no-change `up`, preview), with and without
// skipped checkpoints, so that the crossover of the two rule forms can be given.
//
// The forms, each as adopt writes it: one ProjectSettings per project (`adopt --one-per-project`),
// and one ProjectSettingsSet whose `projects` map (projects.ts) holds every project (adopt's form
// above `--set-threshold`; FORMS below).
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlinePulumiEnv, pulumiWorkspace, runPulumi } from "../tools/pulumi-run.mjs";
import { runBin } from "./bench-adopt.mjs";
import { childrenCpuSeconds, runPhases } from "./bench-core.mjs";

const { startEmulator, SAST_POLICY_ID } = createRequire(import.meta.url)("../../dist/emulator");

const DEPLOYMENT = "acme";
const PROJECT_PAGE = 3000;
/** The tag the one-project change adds. */
const CHANGED_TAG = "bench:changed";

export const PROJECT_PHASES = ["first-up", "noop-up", "preview", "change-one"];
const COMMANDS = {
  "first-up": ["up", "--yes", "--skip-preview"],
  "noop-up": ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  "change-one": ["up", "--yes", "--skip-preview"],
};
export const RULE_PHASES = ["first-up", "noop-up", "preview"];

/** Pages of the project listing for `count` projects: only a short page ends it, so a full last page costs one more (empty) read. */
export const listingPages = (count) => Math.floor(count / PROJECT_PAGE) + 1;

/**
 * The forms of declaring a deployment's projects, each as adopt writes it, and how to change one
 * project's tags in what it wrote: both keep the projects' fields in projects.ts (one
 * ProjectSettings each by resource name, or the set's map by project name), with the same values.
 */
const FORMS = {
  "one-per-project": {
    adoptFlags: ["--one-per-project"],
    changeOne: addChangedTag,
  },
  set: {
    // Threshold 0: the set at any size, the bench's small runs (30 projects) included.
    adoptFlags: ["--set-threshold", "0"],
    changeOne: addChangedTag,
  },
};

/** Adds CHANGED_TAG to the first project that declares tags, in projects.ts (either form's). */
function addChangedTag(dir) {
  const file = join(dir, "projects.ts");
  const text = readFileSync(file, "utf8");
  const changed = text.replace(/tags: \[/, `tags: ["${CHANGED_TAG}", `);
  if (changed === text) throw new Error("projects.ts declares no tags to change");
  writeFileSync(file, changed);
}

/**
 * The fewest requests for N projects: adopt lists the deployments and the projects and reads each
 * project (the listing has no managed-scan switches). Declared one per project, the first up reads
 * each project once (each ProjectSettings its own) and writes nothing; a no-change up and a preview
 * compare inputs only; the one-project change writes that project's tags once. As one set, the
 * first up lists the projects and reads each on its own (adopt declares every project's switches);
 * the one-project change lists them, reads that project's switches and writes it once.
 */
function minimumFor(projects, form) {
  const set = form === "set";
  return {
    adopt: 1 + listingPages(projects) + projects,
    "first-up": (set ? listingPages(projects) : 0) + projects,
    "noop-up": 0,
    preview: 0,
    "change-one": set ? listingPages(projects) + 2 : 1,
  };
}

/**
 * The state's size two ways: as the engine writes its checkpoint after each step (compact JSON:
 * what a run's cost grows with), and as `pulumi stack export` prints it (indented, about four
 * times larger for nested inputs such as a set's `projects` map).
 */
const stateSizes = (exported) => ({
  checkpoint: Buffer.byteLength(JSON.stringify(JSON.parse(exported))),
  exported: Buffer.byteLength(exported),
});

const seconds = (started) => Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(2));
const cpuSince = (before) => {
  const after = childrenCpuSeconds();
  return before === undefined || after === undefined ? undefined : Number((after - before).toFixed(2));
};

/** One form at N projects, checkpoints written or skipped: adopt, then the program's phases (exported to measure one combination alone). */
export async function runForm({ installedDir, projects, form, skipCheckpoints, log }) {
  const emulator = await startEmulator({ preset: "large", projects });
  try {
    const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-projects-scale-"));
    const dir = join(root, "program");
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    const minimum = minimumFor(projects, form);
    const label = `${form}${skipCheckpoints ? ", checkpoints skipped" : ""}`;

    emulator.requests().length = 0;
    const cpuBefore = childrenCpuSeconds();
    const started = process.hrtime.bigint();
    const run = await runBin(
      installedDir,
      [
        "adopt",
        "--deployment",
        DEPLOYMENT,
        "--skip",
        "policies,unified-policies,teams,settings,notifications,users",
        ...FORMS[form].adoptFlags,
        "--out",
        dir,
      ],
      credentials,
    );
    if (run.status !== 0) throw new Error(`pulumi-semgrep adopt exited with ${run.status}\n${run.stdout}\n${run.stderr}`);
    const adoptLog = emulator.requests();
    const adopt = {
      wallSeconds: seconds(started),
      cpuSeconds: cpuSince(cpuBefore),
      requests: adoptLog.length,
      writes: adoptLog.filter((r) => r.method !== "GET").length,
      minimumRequests: minimum.adopt,
    };
    log(`  ${label}: adopt done`);

    symlinkSync(join(installedDir, "node_modules"), join(dir, "node_modules"), "dir");
    const env = offlinePulumiEnv(root, { ...credentials, PULUMI_SKIP_CHECKPOINTS: skipCheckpoints ? "true" : "false" });
    const ws = { dir, env, run: (args) => runPulumi(args, { cwd: dir, env }) };
    await ws.run(["stack", "init", "test"]);
    const stateBytes = {};
    const before = JSON.stringify(emulator.state().projects);
    let changedProject;
    const phases = await runPhases(ws, emulator, {
      phases: PROJECT_PHASES,
      commands: COMMANDS,
      before: async (phase) => {
        if (phase === "change-one") FORMS[form].changeOne(dir);
      },
      between: async (phase) => {
        log(`  ${label}: ${phase} done`);
        if (phase === "first-up" || phase === "change-one") stateBytes[phase] = stateSizes((await ws.run(["stack", "export"])).stdout);
        if (phase === "change-one") changedProject = emulator.state().projects.find((p) => p.tags.includes(CHANGED_TAG))?.name;
      },
    });
    for (const phase of PROJECT_PHASES) phases[phase].minimumRequests = minimum[phase];
    return {
      form,
      skipCheckpoints,
      projects,
      adopt,
      phases,
      stateBytes: stateBytes["first-up"].checkpoint,
      exportBytes: stateBytes["first-up"].exported,
      stateBytesPerProject: Math.round(stateBytes["first-up"].checkpoint / projects),
      // The first up, no-change up and preview leave the service as adopt found it; the change
      // lands on exactly one project.
      changeLanded: changedProject !== undefined,
      othersUnchanged:
        JSON.stringify(emulator.state().projects.map((p) => ({ ...p, tags: p.tags.filter((t) => t !== CHANGED_TAG) }))) === before,
    };
  } finally {
    await emulator.close();
  }
}

const SINGLE_RULES = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
spec.rules.forEach((rulePath, i) => new semgrep.PolicyRuleMode("rule-" + i, { deploymentId: "1", policyId: spec.policyId, rulePath, mode: "MODE_BLOCK" }));
`;

/** One PolicyRuleMode per rule for the first `count` rules of the large preset's SAST policy: first up, no-change up, preview. */
async function runSingleRules({ installedDir, count, skipCheckpoints, log }) {
  const emulator = await startEmulator({ preset: "large" });
  try {
    const rules = emulator.state().policies.find((p) => p.id === SAST_POLICY_ID).rules;
    if (count > rules.length) throw new Error(`the large preset's SAST policy has ${rules.length} rules, fewer than ${count}`);
    const managed = rules.slice(0, count);
    const differing = managed.filter((r) => r.policyMode !== "MODE_BLOCK").length;
    const listing = Math.ceil(rules.length / 2000);
    const ws = await pulumiWorkspace(
      {
        "Pulumi.yaml": "name: bench-rule-curve\nruntime: nodejs\n",
        "index.js": SINGLE_RULES,
        "spec.json": JSON.stringify({ policyId: SAST_POLICY_ID, rules: managed.map((r) => r.path) }),
      },
      { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token, PULUMI_SKIP_CHECKPOINTS: skipCheckpoints ? "true" : "false" },
      join(installedDir, "node_modules"),
    );
    let state = { checkpoint: 0, exported: 0 };
    const phases = await runPhases(ws, emulator, {
      phases: RULE_PHASES,
      commands: COMMANDS,
      between: async (phase) => {
        log(`  ${count} PolicyRuleMode${skipCheckpoints ? ", checkpoints skipped" : ""}: ${phase} done`);
        if (phase === "first-up") state = stateSizes((await ws.run(["stack", "export"])).stdout);
      },
    });
    // The first up: each resource lists the policy's rules once (shared) and writes the modes that differ.
    const minimum = { "first-up": listing + differing, "noop-up": 0, preview: 0 };
    for (const phase of RULE_PHASES) phases[phase].minimumRequests = minimum[phase];
    return {
      rules: count,
      skipCheckpoints,
      phases,
      stateBytes: state.checkpoint,
      exportBytes: state.exported,
      upApplied: managed.every((r) => r.policyMode === "MODE_BLOCK"),
    };
  } finally {
    await emulator.close();
  }
}

/**
 * @param {{ installedDir: string, projects?: number, singles?: number[], log?: (line: string) => void }} options
 *   projects: N, the projects of the deployment (the large preset's repeated); singles: the sizes
 *   of the one-PolicyRuleMode-per-rule curve (none: no curve)
 */
export async function runBenchProjects({ installedDir, projects = 3000, singles = [1000, 2000], log = () => {} }) {
  const forms = [];
  for (const form of Object.keys(FORMS))
    for (const skipCheckpoints of [false, true]) {
      log(`projects at scale: ${projects} projects, ${form}${skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`);
      forms.push(await runForm({ installedDir, projects, form, skipCheckpoints, log }));
    }
  const rules = [];
  for (const count of singles)
    for (const skipCheckpoints of [false, true]) {
      log(`rule curve: ${count} PolicyRuleMode${skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`);
      rules.push(await runSingleRules({ installedDir, count, skipCheckpoints, log }));
    }
  return { projects, forms, rules };
}

/** Every phase above its minimum, named for the verdict. */
export function projectsAboveMinimum(result) {
  const missed = [];
  for (const run of result.forms) {
    const name = `projects ${run.form}${run.skipCheckpoints ? " (checkpoints skipped)" : ""}`;
    if (run.adopt.requests > run.adopt.minimumRequests) missed.push(`${name} adopt`);
    for (const [phase, p] of Object.entries(run.phases)) if (p.requests > p.minimumRequests) missed.push(`${name} ${phase}`);
  }
  for (const run of result.rules)
    for (const [phase, p] of Object.entries(run.phases))
      if (p.requests > p.minimumRequests)
        missed.push(`${run.rules} PolicyRuleMode${run.skipCheckpoints ? " (checkpoints skipped)" : ""} ${phase}`);
  return missed;
}

/** What went wrong beside the request counts: a write where none belongs, a change that did not land alone. */
export function projectsFailures(result) {
  const failed = [];
  for (const run of result.forms) {
    const name = `projects ${run.form}${run.skipCheckpoints ? " (checkpoints skipped)" : ""}`;
    if (run.adopt.writes) failed.push(`${name}: adopt made ${run.adopt.writes} writes`);
    for (const phase of ["first-up", "noop-up", "preview"])
      if (run.phases[phase].writes) failed.push(`${name}: ${phase} made ${run.phases[phase].writes} writes`);
    if (!run.changeLanded || !run.othersUnchanged) failed.push(`${name}: the one-project change did not land on that project alone`);
  }
  for (const run of result.rules) if (!run.upApplied) failed.push(`${run.rules} PolicyRuleMode: up left a rule in another mode`);
  return failed;
}

const table = (rows) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? "").length)));
  return rows.map((r) =>
    r.map((cell, i) => (i < 2 ? String(cell ?? "").padEnd(widths[i]) : String(cell ?? "").padStart(widths[i]))).join("  "),
  );
};

/** Short tables: per form and checkpoint mode, each step; then the rule curve. */
export function formatProjectsTable(result) {
  const rows = [["form (checkpoints)", "step", "wall s", "cpu s", "requests", "minimum", "writes", "state bytes (checkpoint / export)"]];
  for (const run of result.forms) {
    const form = `${run.form} (${run.skipCheckpoints ? "skipped" : "written"})`;
    rows.push([
      form,
      "adopt",
      run.adopt.wallSeconds,
      run.adopt.cpuSeconds,
      run.adopt.requests,
      run.adopt.minimumRequests,
      run.adopt.writes,
      "",
    ]);
    for (const [phase, p] of Object.entries(run.phases))
      rows.push([
        form,
        phase,
        p.wallSeconds,
        p.cpuSeconds,
        p.requests,
        p.minimumRequests,
        p.writes,
        phase === "first-up" ? `${run.stateBytes} / ${run.exportBytes}` : "",
      ]);
  }
  const ruleRows = [
    ["PolicyRuleMode (checkpoints)", "step", "wall s", "cpu s", "requests", "minimum", "writes", "state bytes (checkpoint / export)"],
  ];
  for (const run of result.rules) {
    const form = `${run.rules} (${run.skipCheckpoints ? "skipped" : "written"})`;
    for (const [phase, p] of Object.entries(run.phases))
      ruleRows.push([
        form,
        phase,
        p.wallSeconds,
        p.cpuSeconds,
        p.requests,
        p.minimumRequests,
        p.writes,
        phase === "first-up" ? `${run.stateBytes} / ${run.exportBytes}` : "",
      ]);
  }
  return [
    `projects at scale (large preset, ${result.projects} projects; set: adopt's ProjectSettingsSet form, --set-threshold 0)`,
    ...table(rows),
    ...(result.rules.length ? ["", "one PolicyRuleMode per rule (large preset's SAST policy)", ...table(ruleRows)] : []),
  ].join("\n");
}

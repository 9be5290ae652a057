// The benchmark's adopt phase: `pulumi-semgrep adopt` (the installed package's bin, as `npx`
// runs it) against the emulator's `large` preset (300 projects; v1 policies of 5,000, 400 and 40
// rules; the access settings are bench-access.mjs's phase), then the generated project's first `pulumi up` through the real Pulumi CLI. Reports the
// adopt's wall time, its requests by operation against the fewest the API allows, the files and
// bytes it wrote; and the first up's requests (reads only: everything is found as declared),
// against the fewest, its wall time and the state it recorded. The same code at any size:
// `npm run bench` runs the whole preset, the test suite a cut of it (projects and rules per
// policy) through the same entry.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { offlinePulumiEnv, runPulumi } from "../tools/pulumi-run.mjs";

const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");
const { DEFAULT_SET_THRESHOLD } = createRequire(import.meta.url)("../../dist/adopt");

const PROJECT_PAGE = 3000;
const RULE_PAGE = 2000;
/** The deployment of the preset, by slug (as a user names it to adopt). */
const DEPLOYMENT = "acme";

/** Pages of a listing of `count` objects at `page` a page: an empty listing is still one request. */
const pages = (count, page) => Math.max(1, Math.ceil(count / page));

/**
 * The fewest requests adopt can make, by operation, from the deployment's state: the deployment
 * listing (it checks the token and finds the deployment); the projects listing at 3,000 a page and
 * one read of each project (the listing has no managed-scan configuration); the v1 policy listing
 * and each policy's rules at 2,000 a page; and one attempt at the unified policies (the detection
 * summary), which a deployment not migrated answers 403 DEPLOYMENT_NOT_MIGRATED (how adopt learns
 * which policies the deployment uses; the remediation policies are read only on a migrated one). The first up of the generated project: one read of each project
 * (the ProjectSettings, or above adopt's default --set-threshold the one ProjectSettingsSet, which
 * lists the projects first: only a short page ends that listing) and one listing of each policy's
 * rules (its PolicyRuleModes); no write.
 */
export function minimumAdoptRequests(state) {
  const { id } = state.deployments.find((d) => d.slug === DEPLOYMENT);
  const projects = state.projects.filter((p) => p.deploymentId === id).length;
  const policies = state.policies.filter((p) => p.deploymentId === id);
  const listings = policies.reduce((sum, p) => sum + pages(p.rules.length, RULE_PAGE), 0);
  return {
    adopt: {
      "deployments.list": 1,
      "projects.list": pages(projects, PROJECT_PAGE),
      "projects.get": projects,
      "policies.list": 1,
      "policies.listRules": listings,
      "policiesV2.getDetectionPolicySummary": 1,
    },
    firstUp: {
      ...(projects > DEFAULT_SET_THRESHOLD ? { "projects.list": Math.floor(projects / PROJECT_PAGE) + 1 } : {}),
      "projects.get": projects,
      "policies.listRules": listings,
    },
  };
}

/** A request log by operation (`METHOD ?` where the path named none). */
function byOperation(log) {
  /** @type {Record<string, number>} */
  const operations = {};
  for (const r of log) operations[r.operation ?? `${r.method} ?`] = (operations[r.operation ?? `${r.method} ?`] ?? 0) + 1;
  return operations;
}

/** Every file under `dir` (but node_modules), its path relative to `dir` and its size. */
function filesUnder(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === "node_modules") return [];
    if (entry.isDirectory()) return filesUnder(path, root);
    return [{ path: relative(root, path), bytes: statSync(path).size }];
  });
}

/** Runs the installed bin `pulumi-semgrep ARGS` as a user's `npx` would; resolves with its status and output. */
export function runBin(installedDir, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(join(installedDir, "node_modules/.bin/pulumi-semgrep"), args, {
      env: { ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const seconds = (started) => Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(2));

/** What each operation of `log` made beside its minimum: the table's rows. */
function compare(log, minimum) {
  const made = byOperation(log);
  const names = [...new Set([...Object.keys(minimum), ...Object.keys(made)])];
  return Object.fromEntries(names.map((name) => [name, { requests: made[name] ?? 0, minimum: minimum[name] ?? 0 }]));
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * @param {{ installedDir: string, projects?: number, rules?: number, log?: (line: string) => void }} options
 *   projects: the preset's projects cut to their first N (default all); rules: each v1 policy cut
 *   to its first N rules (default all)
 */
export async function runBenchAdopt({ installedDir, projects: projectCount, rules: ruleCount, log = () => {} }) {
  const emulator = await startEmulator({ preset: "large" });
  try {
    const live = emulator.state();
    if (projectCount !== undefined) live.projects.splice(projectCount);
    if (ruleCount !== undefined) for (const policy of live.policies) policy.rules.splice(ruleCount);
    const before = JSON.stringify(live);
    const minimum = minimumAdoptRequests(live);
    const policies = live.policies.map((p) => p.rules.length);
    log(`adopt: deployment ${DEPLOYMENT}, ${live.projects.length} projects, v1 policies of ${policies.join(", ")} rules`);

    const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-adopt-"));
    const dir = join(root, "program");
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    emulator.requests().length = 0;
    let started = process.hrtime.bigint();
    const run = await runBin(
      installedDir,
      ["adopt", "--deployment", DEPLOYMENT, "--skip", "teams,settings,notifications,users", "--out", dir],
      credentials,
    );
    const adoptSeconds = seconds(started);
    if (run.status !== 0) throw new Error(`pulumi-semgrep adopt exited with ${run.status}\n${run.stdout}\n${run.stderr}`);
    const adoptLog = [...emulator.requests()];
    const files = filesUnder(dir).sort((a, b) => (a.path < b.path ? -1 : 1));
    log("  adopt done");

    // The generated project as a user runs it after `npm install`: the installed package's node_modules.
    symlinkSync(join(installedDir, "node_modules"), join(dir, "node_modules"), "dir");
    const env = offlinePulumiEnv(root, credentials);
    const pulumi = (args) => runPulumi(args, { cwd: dir, env });
    await pulumi(["stack", "init", "test"]);
    emulator.requests().length = 0;
    started = process.hrtime.bigint();
    await pulumi(["up", "--yes", "--skip-preview"]);
    const upSeconds = seconds(started);
    const upLog = [...emulator.requests()];
    log("  first up done");
    const exported = (await pulumi(["stack", "export"])).stdout;
    const resources = JSON.parse(exported).deployment.resources.filter((r) => !r.type.startsWith("pulumi:")).length;

    return {
      projects: live.projects.length,
      policyRules: policies,
      adopt: {
        wallSeconds: adoptSeconds,
        ...requestFigures(adoptLog, minimum.adopt),
        files: files.length,
        bytes: sum(files.map((f) => f.bytes)),
        written: files,
        summary: run.stdout.trim(),
      },
      firstUp: {
        wallSeconds: upSeconds,
        ...requestFigures(upLog, minimum.firstUp),
        resources,
        stateBytes: Buffer.byteLength(exported),
      },
      serviceUnchanged: JSON.stringify(emulator.state()) === before,
    };
  } finally {
    await emulator.close();
  }
}

/** A step's requests (its request log) beside its minimum (by operation): totals, writes, and each operation. */
function requestFigures(log, minimum) {
  return {
    requests: log.length,
    writes: log.filter((r) => r.method !== "GET").length,
    minimumRequests: sum(Object.values(minimum)),
    operations: compare(log, minimum),
  };
}

/** A short table of an adopt result: adopt's requests by operation, the files, then the first up's. */
export function formatAdoptTable(result) {
  const { adopt, firstUp } = result;
  const rows = [["step", "operation", "requests", "minimum"]];
  for (const [step, phase] of [
    ["adopt", adopt],
    ["first up", firstUp],
  ]) {
    for (const [name, counts] of Object.entries(phase.operations)) rows.push([step, name, counts.requests, counts.minimum]);
    rows.push([step, "total", phase.requests, phase.minimumRequests]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  "));
  const largest = [...adopt.written].sort((a, b) => b.bytes - a.bytes)[0];
  return [
    `adopt (large preset: ${result.projects} projects, v1 policies of ${result.policyRules.join(", ")} rules)`,
    ...lines,
    `adopt: ${adopt.wallSeconds.toFixed(2)} s wall (the bin, node start included), ${adopt.writes} writes; wrote ${adopt.files} files, ` +
      `${adopt.bytes} bytes (largest ${largest?.path} ${largest?.bytes} bytes)`,
    `first up: ${firstUp.wallSeconds.toFixed(2)} s wall, ${firstUp.resources} resources, ${firstUp.writes} writes; state ${firstUp.stateBytes} bytes; ` +
      `service unchanged: ${result.serviceUnchanged}`,
  ].join("\n");
}

// The benchmark's access phase: `pulumi-semgrep adopt` of the access settings alone (`--skip
// projects,policies,unified-policies`) against the emulator's `large` preset (200 teams of 50
// members and 3 projects each, 2,000 users, the product configuration, one webhook rule), then the
// generated project's first `pulumi up` (the webhook URL set as the README says, from the file adopt
// wrote). Reports the wall and CPU seconds of each step (CPU: the bin's, or the pulumi command's
// and every process it waited for), its requests by operation against the fewest the API allows,
// and its writes (none: everything is found as declared). `npm run bench` runs the whole preset;
// the test suite a cut of it (fewer teams, fewer members each) through the same entry.
import { spawn } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlinePulumiEnv } from "../tools/pulumi-run.mjs";
import { runBin } from "./bench-adopt.mjs";
import { childrenCpuSeconds } from "./bench-core.mjs";

const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");

const DEPLOYMENT = "acme";
/** The page sizes the client asks for: the OpenAPI's default for the Teams API (it names no maximum), its maximum for the users, and the projects'. */
const TEAM_PAGE = 100;
const USER_PAGE = 100;
const PROJECT_PAGE = 3000;
/** The secret config key of the preset's webhook rule ("Critical findings to the SOC"). */
const SECRET_KEY = "criticalFindingsToTheSocUrl";

const pages = (count, page) => Math.max(1, Math.ceil(count / page));
const sum = (values) => values.reduce((a, b) => a + b, 0);
const seconds = (started) => Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(2));
const cpuSince = (before) => {
  const after = childrenCpuSeconds();
  return before === undefined || after === undefined ? undefined : Number((after - before).toFixed(2));
};

/**
 * The fewest requests, by operation. The Teams API has no listing that carries a team's members
 * or repositories: each team costs one page of members and one of repositories (up to 100 each),
 * after the listing of the teams (100 a page); a repository is named from the one project listing.
 * The product configuration is one read, the notification rules one listing (it has no pages),
 * the users 100 a page (their org roles). adopt also lists the deployments (to check the token and
 * find the deployment). The first up (`--skip-preview`: one provider process) reads the same: the
 * token's deployments once (the project listing, which names the teams' repositories, is by slug);
 * each Team finds its team in the shared team listing and reads its members and repositories once
 * (they are the declared ones: no write); one user listing serves the Teams' check (an unknown
 * member refused before any write) and the UserRoles (no role changes, so the token's own user is
 * not asked for); the NotificationRule checks its policy slug against the remediation policies
 * (one read) and finds its rule in the rule listing; the DeploymentSettings reads the configuration once.
 */
export function minimumAccessRequests(state) {
  const { id } = state.deployments.find((d) => d.slug === DEPLOYMENT);
  const teams = state.teams.filter((t) => t.deploymentId === id);
  const users = state.users.filter((u) => u.deploymentId === id).length;
  const projects = state.projects.filter((p) => p.deploymentId === id).length;
  const perTeam = {
    "teams.members": sum(teams.map((t) => pages(t.members.length, TEAM_PAGE))),
    "teams.repositories": sum(teams.map((t) => pages(t.repositoryIds.length, TEAM_PAGE))),
  };
  const rules = state.notificationRules.filter((r) => r.deploymentId === id).length;
  return {
    adopt: {
      "deployments.list": 1,
      "projects.list": pages(projects, PROJECT_PAGE),
      "teams.list": pages(teams.length, TEAM_PAGE),
      ...perTeam,
      "products.get": 1,
      "notificationRules.list": 1,
      "users.list": pages(users, USER_PAGE),
    },
    firstUp: {
      "deployments.list": 1,
      "projects.list": pages(projects, PROJECT_PAGE),
      "teams.list": pages(teams.length, TEAM_PAGE),
      ...perTeam,
      "products.get": 1,
      ...(rules ? { "notificationRules.list": 1, "policiesV2.getRemediationPolicies": 1 } : {}),
      "users.list": pages(users, USER_PAGE),
    },
  };
}

/** Requests that change something: neither a GET nor a listing the API serves as a POST. */
const writesOf = (log) => log.filter((r) => r.method !== "GET" && !/\.list$/.test(r.operation ?? ""));

function figures(log, minimum) {
  const made = {};
  for (const r of log) made[r.operation ?? `${r.method} ?`] = (made[r.operation ?? `${r.method} ?`] ?? 0) + 1;
  const names = [...new Set([...Object.keys(minimum), ...Object.keys(made)])];
  return {
    requests: log.length,
    minimumRequests: sum(Object.values(minimum)),
    writes: writesOf(log).length,
    operations: Object.fromEntries(names.map((name) => [name, { requests: made[name] ?? 0, minimum: minimum[name] ?? 0 }])),
  };
}

/** `sh -c SCRIPT` in `cwd` (the README's `pulumi config set --secret KEY < secrets/KEY`). */
const shell = (script, cwd, env) =>
  new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (output += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (output += c));
    child.once("error", reject);
    child.once("close", (status) =>
      status === 0 ? resolve(output) : reject(new Error(`sh -c ${script} exited with ${status}\n${output}`)),
    );
  });

/** `pulumi ARGS` in `cwd`, timed: its wall and CPU seconds (this process's children: the emulator, here, is not counted). */
async function timedPulumi(args, cwd, env) {
  const cpuBefore = childrenCpuSeconds();
  const started = process.hrtime.bigint();
  const output = await shell(`pulumi ${args.map((a) => `'${a}'`).join(" ")} --non-interactive`, cwd, env);
  return { output, wallSeconds: seconds(started), cpuSeconds: cpuSince(cpuBefore) };
}

/**
 * @param {{ installedDir: string, teams?: number, members?: number, log?: (line: string) => void }} options
 *   teams: the preset's teams cut to their first N (default all 200); members: each team's members cut to its first N (default all 50)
 */
export async function runBenchAccess({ installedDir, teams: teamCount, members: memberCount, log = () => {} }) {
  // Both policy APIs: the preset's notification rule names a remediation policy, which a deployment has once migrated.
  const emulator = await startEmulator({ preset: "large", policiesV2: "both" });
  try {
    const live = emulator.state();
    if (teamCount !== undefined) live.teams.splice(teamCount);
    if (memberCount !== undefined) for (const team of live.teams) team.members.splice(memberCount);
    const before = JSON.stringify(live);
    const minimum = minimumAccessRequests(live);
    const members = sum(live.teams.map((t) => t.members.length));
    log(`access: deployment ${DEPLOYMENT}, ${live.teams.length} teams, ${members} memberships, ${live.users.length} users`);

    const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-access-"));
    const dir = join(root, "program");
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    emulator.requests().length = 0;
    const cpuBefore = childrenCpuSeconds();
    const started = process.hrtime.bigint();
    const run = await runBin(
      installedDir,
      ["adopt", "--deployment", DEPLOYMENT, "--skip", "projects,policies,unified-policies", "--out", dir],
      credentials,
    );
    const adoptTimes = { wallSeconds: seconds(started), cpuSeconds: cpuSince(cpuBefore) };
    if (run.status !== 0) throw new Error(`pulumi-semgrep adopt exited with ${run.status}\n${run.stdout}\n${run.stderr}`);
    const adoptLog = [...emulator.requests()];
    log("  adopt done");

    symlinkSync(join(installedDir, "node_modules"), join(dir, "node_modules"), "dir");
    const env = offlinePulumiEnv(root, credentials);
    await shell("pulumi stack init test --non-interactive", dir, env);
    await shell(`pulumi config set --secret ${SECRET_KEY} < secrets/${SECRET_KEY} && rm -r secrets`, dir, env);
    emulator.requests().length = 0;
    const up = await timedPulumi(["up", "--yes", "--skip-preview"], dir, env);
    const upLog = [...emulator.requests()];
    log("  first up done");
    const resources = JSON.parse((await shell("pulumi stack export --non-interactive", dir, env)).trim()).deployment.resources.filter(
      (r) => !r.type.startsWith("pulumi:"),
    ).length;

    return {
      teams: live.teams.length,
      memberships: members,
      users: live.users.length,
      adopt: { ...adoptTimes, ...figures(adoptLog, minimum.adopt), summary: run.stdout.trim() },
      firstUp: { wallSeconds: up.wallSeconds, cpuSeconds: up.cpuSeconds, ...figures(upLog, minimum.firstUp), resources },
      serviceUnchanged: JSON.stringify(emulator.state()) === before,
    };
  } finally {
    await emulator.close();
  }
}

/** A short table: each step's requests by operation beside the minimum, then its seconds and writes. */
export function formatAccessTable(result) {
  const rows = [["step", "operation", "requests", "minimum"]];
  for (const [step, phase] of [
    ["adopt", result.adopt],
    ["first up", result.firstUp],
  ]) {
    for (const [name, counts] of Object.entries(phase.operations)) rows.push([step, name, counts.requests, counts.minimum]);
    rows.push([step, "total", phase.requests, phase.minimumRequests]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  "));
  const time = (p) => `${p.wallSeconds.toFixed(2)} s wall, ${p.cpuSeconds ?? "-"} s CPU`;
  return [
    `access settings (large preset: ${result.teams} teams, ${result.memberships} memberships, ${result.users} users)`,
    ...lines,
    `adopt: ${time(result.adopt)} (the bin, node start included), ${result.adopt.writes} writes`,
    `first up: ${time(result.firstUp)}, ${result.firstUp.resources} resources, ${result.firstUp.writes} writes; service unchanged: ${result.serviceUnchanged}`,
  ].join("\n");
}

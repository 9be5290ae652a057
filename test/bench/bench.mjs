#!/usr/bin/env node
// `npm run bench -- [--out FILE] [--projects N] [--sast-rules N] [--secrets-rules N] [--fault-rate R] [--up-runs N]
//                  [--v2-disabled N] [--v2-remediation N] [--modes-rules N] [--modes-singles N,N]
//                  [--adopt-projects N] [--adopt-rules N] [--projects-scale N] [--access-teams N] [--access-members N]
//                  [--native true|false] [--installed DIR]`
// Runs the benchmark through the real Pulumi CLI against the emulator's `large` preset: the v1
// stack (projects, rule modes, an SBOM export; as a Node.js program through the dynamic provider
// and, unless --native false, as a YAML program through the installed package's plugin
// pulumi-resource-semgrep, which needs the YAML language host), then the v2 stack (one DetectionPolicy with
// --v2-disabled rules in `disabled`, default 5000, and --v2-remediation RemediationPolicy
// resources, default 50), then rule modes at scale (the SAST policy cut to --modes-rules rules,
// default 5000, the whole policy, every rule selected by one PolicyRuleModes, beside one
// PolicyRuleMode per rule at each size of --modes-singles, default 1000,2000; 0 skips), then
// adopt: `pulumi-semgrep adopt` of the whole preset (its projects cut to --adopt-projects and each
// v1 policy to --adopt-rules rules, default all) and the generated project's first up, then
// projects at scale (bench-projects.mjs: --projects-scale N projects, default 3,000, adopted and
// run through first up, no-change up, preview and a one-project change, with and without
// PULUMI_SKIP_CHECKPOINTS; and one PolicyRuleMode per rule at each size of --modes-singles, with
// and without; 0 skips the phase), then the access settings (bench-access.mjs: adopt of the
// preset's teams, cut to --access-teams, default all 200, of --access-members members each,
// default all 50, with its product configuration, notification rule and org admins, then the
// first up; --access-teams 0 skips the phase). Writes
// the result as JSON to FILE and prints short tables. Exits 1 when a phase made more requests
// than the fewest the API allows, an up or destroy left a value other than it should, or adopt or
// its project's first up wrote anything: the test suite runs this entry at small sizes
// (test/bench/bench.test.ts). --installed: a directory whose node_modules holds the packed
// package already (the test suite's), instead of packing it here. `npm run bench -- --help` lists
// every flag with its default.
import { writeFileSync } from "node:fs";
import { readCommandLine, usageError } from "../tools/command-line.mjs";
import { installPackedPackage } from "../tools/install-packed.mjs";
import { pulumiCliDir } from "../tools/pulumi-run.mjs";
import { formatNativeTable, formatPerRule, formatTable, runBench } from "./bench-core.mjs";
import { formatAccessTable, runBenchAccess } from "./bench-access.mjs";
import { formatAdoptTable, runBenchAdopt } from "./bench-adopt.mjs";
import { formatModesTable, runBenchModes } from "./bench-modes.mjs";
import { formatProjectsTable, projectsAboveMinimum, projectsFailures, runBenchProjects } from "./bench-projects.mjs";
import { formatV2Table, runBenchV2 } from "./bench-v2.mjs";

const BENCH = {
  command: "npm run bench",
  about: `Runs the benchmark through the real Pulumi CLI against the emulator's \`large\` preset: the v1
stack (projects, rule modes, an SBOM export) as a Node.js program and, unless --native false, as a
YAML program through the native plugin; the v2 stack (one DetectionPolicy, RemediationPolicy
resources); rule modes at scale; then \`pulumi-semgrep adopt\` of the whole preset and the generated
project's first up; then projects at scale (adopt, first up, no-change up, preview and a one-project
change of --projects-scale projects) and one PolicyRuleMode per rule at each --modes-singles size,
each with and without PULUMI_SKIP_CHECKPOINTS; then the access settings (adopt of --access-teams
teams of --access-members members, the product configuration, the notification rule and the org
admins, and the generated project's first up). Prints short tables; exits 1 when a phase made more requests than the fewest
the API allows, an up or destroy left a value other than it should, or adopt or its project's
first up wrote anything.`,
  flags: {
    out: { type: "string", value: "FILE", help: "write the result as JSON to FILE", defaultText: "none, the tables only" },
    projects: { type: "string", value: "N", default: "50", help: "projects of the v1 stack" },
    "sast-rules": { type: "string", value: "N", default: "200", help: "rules of the SAST policy the v1 stack sets modes of" },
    "secrets-rules": { type: "string", value: "N", default: "100", help: "rules of the secrets policy the v1 stack sets modes of" },
    "fault-rate": {
      type: "string",
      value: "R",
      default: "0.3",
      help: "share of requests answered with a transient fault in the v1 stack's run under faults (0 to 1; 0 skips it)",
    },
    "up-runs": {
      type: "string",
      value: "N",
      default: "3",
      help: "times the v1 stack's up (each column) and the engine floor's up are measured, interleaved, for their medians and spread (at least 1)",
    },
    "v2-disabled": { type: "string", value: "N", default: "5000", help: "rules in the v2 DetectionPolicy's `disabled` (at least 2)" },
    "v2-remediation": { type: "string", value: "N", default: "50", help: "RemediationPolicy resources of the v2 stack" },
    "modes-rules": {
      type: "string",
      value: "N",
      default: "5000",
      help: "rules the SAST policy is cut to for rule modes at scale, all selected by one PolicyRuleModes (0 skips the phase)",
    },
    "modes-singles": {
      type: "string",
      value: "N,N",
      default: "1000,2000",
      help: "sizes of the stacks of one PolicyRuleMode per rule beside it",
    },
    "adopt-projects": { type: "string", value: "N", help: "projects of the preset adopt reads", defaultText: "all" },
    "access-teams": {
      type: "string",
      value: "N",
      default: "200",
      help: "teams of the preset the access phase adopts, with the product configuration, the notification rule and the org admins (0 skips it)",
    },
    "access-members": { type: "string", value: "N", default: "50", help: "members of each team the access phase adopts" },
    "adopt-rules": { type: "string", value: "N", help: "rules each v1 policy is cut to for adopt", defaultText: "all" },
    "projects-scale": {
      type: "string",
      value: "N",
      default: "3000",
      help: "projects of the projects-at-scale phase: the large preset's 300 repeated to N (0 skips the phase and its rule curve)",
    },
    native: {
      type: "string",
      value: "true|false",
      default: "true",
      help: "run the v1 stack as a YAML program through the native plugin too",
    },
    installed: {
      type: "string",
      value: "DIR",
      help: "a directory whose node_modules holds the packed package already (the test suite's)",
      defaultText: "pack and install it here",
    },
  },
};
const { values } = readCommandLine(BENCH);
if (!["true", "false"].includes(String(values.native))) usageError(BENCH, `--native must be true or false, not ${values.native}`);
/** A whole number option, at least `min`. */
function count(name, min = 0) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min)
    usageError(BENCH, `--${name} must be a whole number of at least ${min}, not ${values[name]}`);
  return value;
}
const faultRate = Number(values["fault-rate"]);
if (!(faultRate >= 0 && faultRate <= 1)) usageError(BENCH, `--fault-rate must be between 0 and 1, not ${values["fault-rate"]}`);
// Every value checked before anything runs: a mistyped one stops the benchmark at once, not after an hour.
const v1Options = {
  projects: count("projects"),
  rules: [count("sast-rules"), count("secrets-rules")],
  faultRate,
  upRuns: count("up-runs", 1),
  native: values.native === "true",
};
const v2Options = { disabled: count("v2-disabled", 2), remediation: count("v2-remediation") };
const modesRules = count("modes-rules");
const singles = String(values["modes-singles"]).split(",").filter(Boolean).map(Number);
if (singles.some((n) => !Number.isInteger(n) || n < 1))
  usageError(BENCH, `--modes-singles must be whole numbers of at least 1, not ${values["modes-singles"]}`);
const adoptOptions = {
  projects: values["adopt-projects"] === undefined ? undefined : count("adopt-projects"),
  rules: values["adopt-rules"] === undefined ? undefined : count("adopt-rules"),
};
const projectsScale = count("projects-scale");
const accessTeams = count("access-teams");
const accessMembers = count("access-members");
const log = (line) => process.stderr.write(`[bench] ${line}\n`);
pulumiCliDir();
if (!values.installed) log("packing and installing the package");
const installedDir = values.installed ?? installPackedPackage();
const result = await runBench({ installedDir, ...v1Options, log });
const v2 = await runBenchV2({ installedDir, ...v2Options, log });
const modes = modesRules ? await runBenchModes({ installedDir, bulkRules: modesRules, singles, log }) : undefined;
const adopt = await runBenchAdopt({ installedDir, ...adoptOptions, log });
const projectsAtScale = projectsScale ? await runBenchProjects({ installedDir, projects: projectsScale, singles, log }) : undefined;
const access = accessTeams ? await runBenchAccess({ installedDir, teams: accessTeams, members: accessMembers, log }) : undefined;
if (values.out) writeFileSync(values.out, `${JSON.stringify({ ...result, v2, modes, adopt, projectsAtScale, access }, null, 2)}\n`);
console.log(formatTable(result));
if (result.native) console.log(`\n${formatNativeTable(result)}`);
console.log("");
console.log(formatV2Table(v2));
console.log("");
console.log(formatPerRule(result, v2));
if (modes) console.log(`\n${formatModesTable(modes)}`);
console.log(`\n${formatAdoptTable(adopt)}`);
if (projectsAtScale) console.log(`\n${formatProjectsTable(projectsAtScale)}`);
if (access) console.log(`\n${formatAccessTable(access)}`);
/** @type {Array<[string, { phases: Record<string, { requests: number, minimumRequests: number }> }]>} every stack by its name in the verdict */
const modeStacks = modes
  ? [["rule modes bulk", modes.bulk], ...modes.individual.map((stack) => [`rule modes ${stack.rules} singles`, stack])]
  : [];
const stacks = [["v1", result], ...(result.native ? [["v1 native", result.native]] : []), ["v2", v2], ...modeStacks];
const missed = stacks.flatMap(([name, stack]) =>
  Object.entries(stack.phases)
    .filter(([, p]) => p.requests > p.minimumRequests)
    .map(([phase]) => `${name} ${phase}`),
);
// The v1 stack's up and destroy measured again for the medians: each at its minimum too.
for (const [column, rounds] of Object.entries(result.repeats))
  rounds.forEach((round, i) => {
    for (const phase of ["up", "destroy"])
      if (round[phase].requests > round[phase].minimumRequests)
        missed.push(`v1${column === "native" ? " native" : ""} ${phase} (run ${i + 2})`);
  });
// adopt: each operation at its minimum (a total at the minimum could hide one operation above it).
for (const [step, phase] of [
  ["adopt", adopt.adopt],
  ["adopt first up", adopt.firstUp],
  ...(access
    ? [
        ["access adopt", access.adopt],
        ["access first up", access.firstUp],
      ]
    : []),
])
  for (const [operation, made] of Object.entries(phase.operations)) if (made.requests > made.minimum) missed.push(`${step} ${operation}`);
const failed = [
  ...(result.destroyRestoredEverything ? [] : ["v1: destroy did not restore every value"]),
  ...(result.native && !result.native.destroyRestoredEverything ? ["v1 native: destroy did not restore every value"] : []),
  ...(result.native?.requestDifferences.length
    ? [`v1 native: requests differ from the dynamic column: ${result.native.requestDifferences.join("; ")}`]
    : []),
  ...(result.faults && !result.faults.identicalToFaultFree ? ["v1: under faults, the stack did not converge to the fault-free state"] : []),
  ...(v2.changeOneApplied ? [] : ["v2: change-one did not apply"]),
  ...(v2.destroyRestoredBundles ? [] : ["v2: destroy did not restore the bundles"]),
  ...modeStacks.flatMap(([name, stack]) => [
    ...(stack.upApplied ? [] : [`${name}: up left a managed rule in another mode`]),
    ...(stack.destroyRestored ? [] : [`${name}: destroy did not restore every mode`]),
  ]),
  ...(adopt.adopt.writes ? [`adopt: made ${adopt.adopt.writes} writes`] : []),
  ...(adopt.firstUp.writes ? [`adopt: the first up made ${adopt.firstUp.writes} writes`] : []),
  ...(adopt.serviceUnchanged ? [] : ["adopt: the service changed between adopt and the end of the first up"]),
  ...(projectsAtScale ? projectsFailures(projectsAtScale) : []),
  ...(access?.adopt.writes ? [`access: adopt made ${access.adopt.writes} writes`] : []),
  ...(access?.firstUp.writes ? [`access: the first up made ${access.firstUp.writes} writes`] : []),
  ...(access && !access.serviceUnchanged ? ["access: the service changed between adopt and the end of the first up"] : []),
];
if (projectsAtScale) missed.push(...projectsAboveMinimum(projectsAtScale));
if (missed.length) console.log(`above the minimum: ${missed.join(", ")}`);
for (const line of failed) console.log(`FAILED: ${line}`);
if (missed.length || failed.length) process.exitCode = 1;

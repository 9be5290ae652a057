// `npm run soak -- [--front-end dynamic|native] [--seed N] [--runs N] [--steps N] [--shrink-seconds N]
// [--cancel-delays TERM,KILL] [--all-edits]`: the workflow generator of test/workflows for longer
// than `npm test` runs it, through one front end, with any seed (default: a random one, printed
// first). A failure prints its seed, the shrunk sequence and the program to replay.
// `npm run soak -- --help` lists the flags and their defaults.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine, usageError } from "../tools/command-line.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** The test file of each front end. */
const FILES = { dynamic: "test/workflows/workflows.test.ts", native: "test/workflows/workflows-native.test.ts" };
const SOAK = {
  command: "npm run soak",
  about: `Runs the workflow generator of test/workflows (random sequences of program edits, each applied
through the real Pulumi CLI against the emulator, the promises checked after every step) for longer
than \`npm test\` runs it. A failure prints its seed, the shrunk sequence and the program to replay.`,
  flags: {
    "front-end": {
      type: "string",
      value: "NAME",
      default: "dynamic",
      help: "dynamic (TypeScript programs of the package's classes) or native (YAML programs of the plugin, installed from its tarball)",
    },
    seed: { type: "string", value: "N", help: "seed of the generator, to replay a run", defaultText: "a random one, printed first" },
    runs: { type: "string", value: "N", default: "20", help: "sequences to generate" },
    steps: { type: "string", value: "N", default: "10", help: "most steps in a sequence" },
    "shrink-seconds": { type: "string", value: "N", default: "600", help: "time allowed for shrinking a failing sequence" },
    "cancel-delays": {
      type: "string",
      value: "TERM,KILL",
      help: "milliseconds from SIGINT to SIGTERM and from SIGTERM to SIGKILL when a step cancels an up as a CI runner does (7500,2500 are GitHub Actions')",
      defaultText: "1500,500, the CI's scaled down fivefold",
    },
    "all-edits": {
      type: "boolean",
      default: false,
      help: "generate every kind of step, those test/workflows/known-defects.ts leaves out while a defect is open too",
      defaultText: "off, the known defects' steps are left out",
    },
  },
};
const { values } = readCommandLine(SOAK);
for (const name of ["seed", "runs", "steps", "shrink-seconds"])
  if (values[name] !== undefined && !/^\d+$/.test(values[name])) usageError(SOAK, `--${name} must be a whole number, not ${values[name]}`);
const frontEnd = values["front-end"];
if (!Object.hasOwn(FILES, frontEnd)) usageError(SOAK, `--front-end must be dynamic or native, not ${frontEnd}`);
const delays = values["cancel-delays"];
if (delays !== undefined && !/^\d+,\d+$/.test(delays))
  usageError(SOAK, `--cancel-delays must be two whole numbers of milliseconds, TERM,KILL, not ${delays}`);
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`soak: ${frontEnd} front end, seed ${seed}, ${values.runs} runs of at most ${values.steps} steps`);
const result = spawnSync("npx", ["vitest", "run", "--project", "all", FILES[frontEnd]], {
  cwd: REPO,
  stdio: "inherit",
  env: {
    ...process.env,
    WORKFLOW_SEED: seed,
    WORKFLOW_RUNS: values.runs,
    WORKFLOW_STEPS: values.steps,
    WORKFLOW_SHRINK_SECONDS: values["shrink-seconds"],
    ...(delays ? { WORKFLOW_CANCEL_DELAYS: delays } : {}),
    ...(values["all-edits"] ? { WORKFLOW_KNOWN_DEFECTS: "none" } : {}),
  },
});
if (result.status !== 0)
  console.log(
    `soak: FAILED with seed ${seed} (replay: npm run soak -- --front-end ${frontEnd} --seed ${seed} --runs ${values.runs} --steps ${values.steps}${values["all-edits"] ? " --all-edits" : ""})`,
  );
process.exit(result.status ?? 1);

// `npm run soak -- --seed N --runs N [--steps N] [--shrink-seconds N] [--all-edits]`: the workflow
// generator of test/workflows for longer than `npm test` runs it, with any seed (default: a random
// one, printed first). A failure prints its seed, the shrunk sequence and the program to replay.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    runs: { type: "string", default: "20" },
    steps: { type: "string", default: "10" },
    "shrink-seconds": { type: "string", default: "600" },
    "all-edits": { type: "boolean", default: false },
  },
});
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`soak: seed ${seed}, ${values.runs} runs of at most ${values.steps} steps`);
const result = spawnSync("npx", ["vitest", "run", "--project", "all", "test/workflows/"], {
  cwd: REPO,
  stdio: "inherit",
  env: {
    ...process.env,
    WORKFLOW_SEED: seed,
    WORKFLOW_RUNS: values.runs,
    WORKFLOW_STEPS: values.steps,
    WORKFLOW_SHRINK_SECONDS: values["shrink-seconds"],
    ...(values["all-edits"] ? { WORKFLOW_KNOWN_DEFECTS: "none" } : {}),
  },
});
if (result.status !== 0)
  console.log(`soak: FAILED with seed ${seed} (replay: npm run soak -- --seed ${seed} --runs ${values.runs} --steps ${values.steps})`);
process.exit(result.status ?? 1);

#!/usr/bin/env node
// `npm run bench -- --out FILE [--projects N] [--sast-rules N] [--secrets-rules N] [--fault-rate R]`
// Runs the benchmark through the real Pulumi CLI against the emulator's `large` preset, writes
// the result as JSON to FILE and prints a short table.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { installPackedPackage } from "../tools/install-packed.mjs";
import { pulumiCliDir } from "../tools/pulumi-run.mjs";
import { formatTable, runBench } from "./bench-core.mjs";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    projects: { type: "string", default: "50" },
    "sast-rules": { type: "string", default: "200" },
    "secrets-rules": { type: "string", default: "100" },
    "fault-rate": { type: "string", default: "0.3" },
  },
});
const log = (line) => process.stderr.write(`[bench] ${line}\n`);
pulumiCliDir();
log("packing and installing the package");
const result = await runBench({
  installedDir: installPackedPackage(),
  projects: Number(values.projects),
  rules: [Number(values["sast-rules"]), Number(values["secrets-rules"])],
  faultRate: Number(values["fault-rate"]),
  log,
});
if (values.out) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(formatTable(result));
const missed = Object.entries(result.phases)
  .filter(([, p]) => p.requests > p.minimumRequests)
  .map(([phase]) => phase);
if (missed.length) console.log(`above the minimum: ${missed.join(", ")}`);

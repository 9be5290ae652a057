#!/usr/bin/env node
// The test tiers, which CI runs as jobs of their own (.github/workflows/ci.yml), split by what they
// need besides Node.js:
//   e2e   the Pulumi CLI and its language hosts, Go (builds from the module proxy: the CLI, the SDK
//         generator, actionlint, the Go example) or Python: the end-to-end files in both vitest
//         projects (the `omit-empty` pass is all e2e and data sources), the workflows, the
//         benchmark, the plugin's tarballs, the SDKs, the release and CI workflows, and the schema
//         check against Pulumi's metaschema (read from the Go module cache);
//   unit  every other test file (test/live aside, which has its own config): Node.js and the emulator.
// `npm run test:unit` and `npm run test:e2e` run one (`node test/tools/tiers.mjs <tier> [vitest flags]`);
// `npm test` runs every file at once. A new test file is in the unit tier unless it is listed here.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine, usageError } from "./command-line.mjs";

export const REPO = join(fileURLToPath(import.meta.url), "../../..");

/** The e2e tier: directories (ending in `/`) and files, relative to the repository. */
export const E2E = [
  "test/e2e/",
  "test/functions/",
  "test/workflows/",
  "test/bench/",
  "test/plugin/",
  "test/sdk/",
  "test/release/",
  "test/native/schema.test.ts",
];

/** Test files outside vitest's projects (test/live: `npm run test:live`). */
const ELSEWHERE = ["test/live/"];

const matches = (file, pattern) => (pattern.endsWith("/") ? file.startsWith(pattern) : file === pattern);

/** Every test file vitest's projects run, relative to the repository, sorted. */
export function testFiles(dir = join(REPO, "test")) {
  return readdirSync(dir, { recursive: true, withFileTypes: false })
    .map((name) =>
      relative(REPO, join(dir, String(name)))
        .split("\\")
        .join("/"),
    )
    .filter((file) => file.endsWith(".test.ts") && !ELSEWHERE.some((p) => matches(file, p)))
    .sort();
}

/** The tier of a test file. */
export const tierOf = (file) => (E2E.some((p) => matches(file, p)) ? "e2e" : "unit");

/**
 * vitest's arguments for one tier. The e2e tier runs in both projects (`all` and `omit-empty`),
 * its patterns as vitest's file filters; the unit tier is every other file of the `all` project.
 */
export function vitestArgs(tier) {
  if (tier === "e2e") return ["run", ...E2E];
  if (tier === "unit") return ["run", "--project", "all", ...testFiles().filter((f) => tierOf(f) === "unit")];
  throw new Error(`unknown tier ${JSON.stringify(tier)}: unit or e2e`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Flags after the tier (and after `--`) are vitest's: only the tier is ours.
  const [first, ...rest] = process.argv.slice(2);
  const tool = {
    command: "node test/tools/tiers.mjs",
    about: `Runs one test tier with vitest (npm run test:unit, npm run test:e2e): unit, every file that needs
Node.js and the emulator only; e2e, the files that need the Pulumi CLI, Go or Python, in both vitest projects.
Arguments after the tier go to vitest.`,
    positionals: { synopsis: "<unit|e2e> [vitest arguments]", help: "The tier: unit or e2e." },
  };
  const args = process.argv.slice(2);
  readCommandLine(tool, args.includes("--help") || args.includes("-h") ? ["--help"] : first?.startsWith("-") ? [first] : []);
  if (first === undefined) usageError(tool, "which tier? unit or e2e");
  let vitestArguments;
  try {
    vitestArguments = vitestArgs(first);
  } catch (error) {
    usageError(tool, error.message);
  }
  const vitest = join(REPO, "node_modules/vitest/vitest.mjs");
  const result = spawnSync(process.execPath, [vitest, ...vitestArguments, ...rest], { cwd: REPO, stdio: "inherit" });
  process.exit(result.status ?? 1);
}

#!/usr/bin/env node
// `npm run demo`: the API emulator (demo preset) plus a real `pulumi up` of the root Pulumi.yaml
// program (examples/security-baseline) against it, with a local file backend; then the outputs,
// the emulator's request summary, `pulumi destroy` and clean-up. The backend, PULUMI_HOME and the
// stack's config file live in a temporary directory: the demo leaves nothing in the checkout.
// Its last line says whether it passed (test/e2e/demo.test.ts runs it as the README does).
import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine } from "./command-line.mjs";
import { differences, snapshotOf, withoutAuditFields } from "./emulator-state.mjs";
import { offlinePulumiEnv, runPulumi } from "./pulumi-run.mjs";

readCommandLine({
  command: "npm run demo",
  about: `Starts the Semgrep API emulator (demo preset), then runs the root Pulumi.yaml program
(examples/security-baseline) against it through the real Pulumi CLI, with a local file backend in
a temporary directory: \`pulumi up\`, a preview that must find no change, \`pulumi destroy\`; prints
each one's API requests and whether destroy put back every project setting and rule mode it
found (exit 1 if not). Needs \`npm run build\` (npm ci runs it) and the Pulumi CLI (on PATH, or
built once by \`npm run pulumi:cli\`).`,
});

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");

// The program imports "pulumi-semgrep" as a user's would: make this checkout resolvable by name.
const selfLink = join(REPO, "node_modules", "pulumi-semgrep");
if (!existsSync(selfLink) && !lstatSync(selfLink, { throwIfNoEntry: false })) symlinkSync("..", selfLink, "dir");

const work = mkdtempSync(join(tmpdir(), "pulumi-semgrep-demo-"));
const env = offlinePulumiEnv(work, { SEMGREP_APP_TOKEN: "", SEMGREP_APP_URL: "" });
const emulator = await startEmulator({ preset: "demo" });

/** Runs pulumi from the repository root (the root Pulumi.yaml); output goes to the terminal unless captured. */
const pulumi = (args, { capture = false } = {}) => runPulumi(args, { cwd: REPO, env, stream: !capture });
/** The same, with the stack's config in the temporary directory rather than a Pulumi.demo.yaml in the checkout. */
const configFile = join(work, "Pulumi.demo.yaml");
const pulumiWithConfig = (args, options) => pulumi([...args, "--config-file", configFile], options);

function summary(title) {
  const counts = {};
  for (const r of emulator.requests())
    counts[`${r.method} ${r.operation ?? r.path}`] = (counts[`${r.method} ${r.operation ?? r.path}`] ?? 0) + 1;
  console.log(`\n${title}: ${emulator.requests().length} API requests`);
  for (const [operation, n] of Object.entries(counts)) console.log(`  ${String(n).padStart(4)}  ${operation}`);
}

/** What the stack manages on the service: the projects and the policies' rules (an SBOM export job it starts stays, as on the service). */
function managedState() {
  const { projects, policies } = snapshotOf(emulator);
  return { projects, policies };
}

let failure;
try {
  console.log(`Semgrep API emulator (demo preset) at ${emulator.url}\n`);
  const before = managedState();
  await pulumi(["stack", "init", "demo"], { capture: true });
  await pulumiWithConfig(["config", "set", "semgrep:url", emulator.url], { capture: true });
  await pulumiWithConfig(["config", "set", "--secret", "semgrep:token", emulator.token], { capture: true });
  await pulumiWithConfig(["up", "--yes"]);
  summary("pulumi up");
  emulator.requests().length = 0;
  await pulumiWithConfig(["preview", "--expect-no-changes"]);
  summary("pulumi preview (no changes expected, no API request)");
  emulator.requests().length = 0;
  await pulumiWithConfig(["destroy", "--yes"]);
  summary("pulumi destroy");
  const after = managedState();
  withoutAuditFields(after, before); // a rule set and put back keeps the time of its last change
  const left = differences(before, after);
  console.log(`\nAfter destroy, every project setting and rule mode is as it was found: ${left.length ? "NO" : "yes"}`);
  if (left.length) failure = new Error(`destroy did not put every value back:\n${left.map((line) => `  ${line}`).join("\n")}`);
} catch (error) {
  failure = error;
} finally {
  await pulumi(["stack", "rm", "--yes", "--force", "demo"], { capture: true }).catch(() => {});
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
if (failure) {
  console.error(`\n${failure.message.trim()}`);
  console.log("\nnpm run demo: FAILED (see above)");
  process.exitCode = 1;
} else {
  console.log("\nnpm run demo: passed (up, a no-change preview that made no request, and a destroy that put every value back)");
}

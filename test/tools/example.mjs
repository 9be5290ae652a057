#!/usr/bin/env node
// `npm run example -- <dir>` (node test/tools/example.mjs <dir>): one example program (the SDK
// ones, examples/nodejs-sdk, python, csharp and go, and examples/yaml) run as a user runs it, against
// the emulator (demo preset) started here, with a local file backend:
//   1. a copy of the example in a temporary directory, this repository's SDK of its language
//      wired in (example-sdks.mjs) and the native plugin installed from `npm run plugin:pack`'s
//      tarball for this machine (`pulumi plugin install resource semgrep <version> --file …`);
//   2. a stack with the emulator's address and token in its config (`semgrep:url`, secret
//      `semgrep:token`; never the environment) and whatever else the example needs (EXAMPLE_CONFIG);
//   3. `pulumi up`, `pulumi preview --expect-no-changes`, `pulumi destroy`;
//   4. the emulator's state after destroy compared with the one before the run.
// Exits 0 when all of it passes; else 1, naming the step that failed (with its output), or every
// value destroy left changed. The Pulumi CLI is the one on the PATH (CI installs a release), else
// the build `npm run pulumi:cli` caches. CI runs each SDK example through this (.github/workflows/ci.yml);
// the end-to-end tests drive the same steps (prepareExample) with their own assertions between them.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine, usageError } from "./command-line.mjs";
import { changedSince, snapshotOf } from "./emulator-state.mjs";
import { copyExample, ExampleError, runtimeOf, wireSdk } from "./example-sdks.mjs";
import { pack, REPO, tarballForHere } from "./plugin-pack.mjs";
import { offlinePulumiEnv, runPulumi } from "./pulumi-run.mjs";
import { packageVersion } from "./release.mjs";

export { ExampleError } from "./example-sdks.mjs";

/** The stack every example runs in. */
export const STACK = "example";

/**
 * Config an example needs besides the credentials, by its project's name (Pulumi.yaml `name`).
 * examples/go reads `ownerTag` as a secret: its text must appear in no output, state or message.
 */
export const EXAMPLE_CONFIG = {
  "semgrep-go": { ownerTag: { value: "owner:go-secret-5d21c8", secret: true } },
};

/** The three runs of an example, in order. */
export const STEPS = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview", "--expect-no-changes"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

const log = (msg) => process.stderr.write(`[example] ${msg}\n`);

/** The last `lines` lines of a run's output: enough to see why it failed. */
const tail = (text, lines = 60) => text.trimEnd().split("\n").slice(-lines).join("\n");

/** `pulumi plugin install` of this machine's plugin tarball (packed into `work` unless given). */
async function installPlugin(run, work, tarball) {
  const version = packageVersion();
  const file = tarball ?? tarballForHere(await pack(join(work, "plugins")), version);
  await run(["plugin", "install", "resource", "semgrep", version, "--file", file]);
}

/**
 * @typedef {object} Example
 * @property {string} dir the example's copy, with its SDK wired in
 * @property {Record<string, string>} env the environment of its Pulumi runs
 * @property {(args: string[], options?: { allowFailure?: boolean }) => Promise<{ status: number | null, stdout: string, stderr: string }>} run
 *   runs `pulumi ARGS` in the copy; rejects with its output when it fails, unless `allowFailure`
 * @property {(step: keyof typeof STEPS) => Promise<{ status: number | null, stdout: string, stderr: string }>} step
 *   runs one of STEPS; rejects with an ExampleError naming it and showing its output when it fails
 * @property {() => string[]} changed the emulator's state's differences from the one before the example was prepared
 * @property {() => void} remove deletes the copy, its stack and its builds
 */

/**
 * Prepares the example in `source` against `emulator` (anything with `url`, `token` and
 * `state()`): a copy with its SDK wired in, a stack with its config, the plugin installed. The
 * emulator's state is taken as it is now, for `changed()`.
 * @param {string} source
 * @param {{ emulator: { url: string, token: string, state(): object }, config?: Record<string, { value: string, secret?: boolean }>, pluginTarball?: string }} options
 * @returns {Promise<Example>}
 */
export async function prepareExample(source, { emulator, config = {}, pluginTarball }) {
  const before = snapshotOf(emulator);
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-example-"));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    const dir = join(root, "program");
    copyExample(source, dir);
    const { project } = runtimeOf(dir);
    const wired = await wireSdk(dir, join(root, "work"));
    const env = offlinePulumiEnv(root, {
      // Credentials come from the stack's config only, as the examples say to set them.
      SEMGREP_APP_URL: "",
      SEMGREP_APP_TOKEN: "",
      // A TypeScript example is type-checked as it runs, as for a user (the tests' default skips that).
      PULUMI_NODEJS_TRANSPILE_ONLY: "false",
      ...wired,
    });
    const run = (args, { allowFailure = false } = {}) => runPulumi(args, { cwd: dir, env, allowFailure });
    await run(["stack", "init", STACK]);
    const settings = { ...EXAMPLE_CONFIG[project], ...config };
    await run([
      "config",
      "set-all",
      "--plaintext",
      `semgrep:url=${emulator.url}`,
      "--secret",
      `semgrep:token=${emulator.token}`,
      ...Object.entries(settings).flatMap(([key, { value, secret }]) => [secret ? "--secret" : "--plaintext", `${key}=${value}`]),
    ]);
    await installPlugin(run, join(root, "work"), pluginTarball);
    return {
      dir,
      env,
      run,
      async step(name) {
        const args = STEPS[name];
        const result = await run(args, { allowFailure: true });
        if (result.status !== 0) {
          throw new ExampleError(`pulumi ${args.join(" ")} failed (exit ${result.status}):\n${tail(result.stdout + result.stderr)}`);
        }
        return result;
      },
      changed: () => changedSince(emulator, before),
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * The whole run of one example: prepared, up, a no-change preview, destroy, and the emulator's
 * state compared with the one before. Rejects with an ExampleError naming the step that failed or
 * the values destroy left changed. `print` receives each step's output.
 * @param {string} source
 * @param {{ emulator: { url: string, token: string, state(): object }, config?: Record<string, { value: string, secret?: boolean }>, pluginTarball?: string, print?: (text: string) => void }} options
 */
export async function runExample(source, { print = () => undefined, ...options }) {
  const example = await prepareExample(source, options);
  try {
    for (const name of Object.keys(STEPS)) {
      const result = await example.step(name);
      print(result.stdout + result.stderr);
    }
    const changed = example.changed();
    if (changed.length) {
      throw new ExampleError(
        `after destroy, the emulator's state differs from the one before the run (destroy left ${changed.length === 1 ? "a value" : `${changed.length} values`}):\n${changed.map((line) => `  ${line}`).join("\n")}`,
      );
    }
  } finally {
    example.remove();
  }
}

/** The command line (test/tools/command-line.mjs): one example directory, no flags. */
const TOOL = {
  command: "npm run example",
  about: `Runs one example (examples/nodejs-sdk, examples/python, examples/csharp, examples/go, examples/yaml) against the
emulator (demo preset) started here: up, preview --expect-no-changes, destroy, and checks that destroy put back
every value the run changed. Exits 1 naming the step or the values otherwise. The example's language must be
installed (node, python3, dotnet or go); the npm script builds the package first.`,
  positionals: { synopsis: "<example directory>", help: "The directory of the example, e.g. examples/go." },
};

async function main(argv) {
  const { positionals } = readCommandLine(TOOL, argv);
  if (positionals.length !== 1) usageError(TOOL, positionals.length ? "give one example directory" : "which example? give its directory");
  const source = resolve(positionals[0]);
  const name = relative(REPO, source).startsWith("..") ? source : relative(REPO, source);
  if (!existsSync(join(source, "Pulumi.yaml"))) throw new ExampleError(`${name} holds no Pulumi.yaml: give the directory of an example`);
  const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");
  const emulator = await startEmulator({ preset: "demo" });
  try {
    log(`${name} (${runtimeOf(source).name}) against the emulator at ${emulator.url}`);
    await runExample(source, { emulator, print: (text) => process.stdout.write(text) });
    log(`${name}: up, a no-change preview and destroy passed; destroy put back every value`);
  } catch (error) {
    if (error instanceof ExampleError) error.message = `${name}: ${error.message}`;
    throw error;
  } finally {
    await emulator.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    const message = error instanceof ExampleError ? error.message : (error?.stack ?? String(error));
    log(`error: ${message}`);
    process.exit(1);
  });
}

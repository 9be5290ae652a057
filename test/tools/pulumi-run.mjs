// Running the real Pulumi CLI offline: a local file backend, a throw-away PULUMI_HOME, no update
// checks, no plugin downloads; Node 24 and the CLI from `npm run pulumi:cli` first on the PATH.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
let cliDir;

/** @returns {string} the directory holding `pulumi` and its Node.js plugins (built and cached on first use) */
export function pulumiCliDir() {
  cliDir ??= execFileSync(process.execPath, [join(REPO, "test/tools/pulumi-cli.mjs")], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1);
  return cliDir;
}

/**
 * The environment of an offline Pulumi run whose backend and home live under `root` (made here).
 * @param {string} root
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function offlinePulumiEnv(root, extra = {}) {
  mkdirSync(join(root, "backend"), { recursive: true });
  return {
    ...process.env,
    PATH: [dirname(process.execPath), pulumiCliDir(), process.env.PATH ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: `file://${join(root, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_HOME: join(root, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    // Programs are type-checked by `npm run typecheck`; here they only run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // The provider's journal of originals (provider/core/runtime/journal.ts): one per workspace, not the user's.
    XDG_STATE_HOME: join(root, "state"),
    // The provider falls back to these after SEMGREP_APP_TOKEN / SEMGREP_APP_URL: a shell's own
    // (the Semgrep CLI's SEMGREP_URL) must not send a run elsewhere.
    SEMGREP_API_TOKEN: "",
    SEMGREP_URL: "",
    ...extra,
  };
}

/**
 * Runs `pulumi ARGS --non-interactive` without blocking this process (an emulator in it keeps
 * answering). Resolves with the exit status and output; rejects on failure unless `allowFailure`.
 * With `stream`, the output goes to this process's terminal instead of being collected.
 * @param {string[]} args
 * @param {{ cwd: string, env: Record<string, string>, allowFailure?: boolean, stream?: boolean }} options
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
export function runPulumi(args, { cwd, env, allowFailure = false, stream = false }) {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      cwd,
      env,
      stdio: ["ignore", stream ? "inherit" : "pipe", stream ? "inherit" : "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => {
      if (status !== 0 && !allowFailure) reject(new Error(`pulumi ${args.join(" ")} exited with ${status}\n${stdout}\n${stderr}`));
      else resolve({ status, stdout, stderr });
    });
  });
}

/**
 * @typedef {object} PulumiWorkspace
 * @property {string} dir the program's directory
 * @property {Record<string, string>} env
 * @property {(args: string[], options?: { allowFailure?: boolean, env?: Record<string, string> }) => Promise<{ status: number | null, stdout: string, stderr: string }>} run
 *   runs `pulumi ARGS` in the program's directory; rejects with its output when it fails, unless `allowFailure`
 */

/**
 * A Pulumi project in a temporary directory with its own file backend and a stack `test`
 * selected. `files` (by relative path, directories made as needed) are written into it; `node_modules` links to `nodeModules` (default: this
 * repo's; pass the installed package's to run as a user's project does).
 * @param {Record<string, string>} files
 * @param {Record<string, string>} [extraEnv]
 * @param {string} [nodeModules]
 * @returns {Promise<PulumiWorkspace>}
 */
export async function pulumiWorkspace(files, extraEnv = {}, nodeModules = join(REPO, "node_modules")) {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-e2e-"));
  const dir = join(root, "program");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true }); // `policies/x.ts`: a path with directories
    writeFileSync(join(dir, name), text);
  }
  symlinkSync(nodeModules, join(dir, "node_modules"), "dir");
  const env = offlinePulumiEnv(root, extraEnv);
  /** @type {PulumiWorkspace} */
  const workspace = {
    dir,
    env,
    run: (args, options = {}) => runPulumi(args, { cwd: dir, env: { ...env, ...options.env }, allowFailure: options.allowFailure }),
  };
  await workspace.run(["stack", "init", "test"]);
  return workspace;
}

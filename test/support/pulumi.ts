/**
 * Driving the real Pulumi CLI offline: a local file backend, a throw-away PULUMI_HOME, no update
 * checks and no plugin downloads. The CLI comes from `npm run pulumi:cli` (built once, cached).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

const REPO = join(__dirname, "../..");
let cliDir: string | undefined;

/** The directory holding `pulumi` and its Node.js plugins (built and cached on first use). */
export function pulumiCliDir(): string {
  cliDir ??= execFileSync(process.execPath, [join(REPO, "test/tools/pulumi-cli.mjs")], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .at(-1)!;
  return cliDir;
}

export interface PulumiResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface PulumiWorkspace {
  /** The program's directory. */
  dir: string;
  env: Record<string, string>;
  /**
   * Runs `pulumi ARGS` in the program's directory; rejects with its output when it fails, unless
   * `allowFailure`. Asynchronous, so an emulator in this process keeps answering meanwhile.
   */
  run(args: string[], options?: { allowFailure?: boolean; env?: Record<string, string> }): Promise<PulumiResult>;
}

/**
 * A Pulumi project in a temporary directory with its own file backend and a stack `test`
 * selected. `files` are written into it; `node_modules` links to `nodeModules` (default: this
 * repo's; pass the installed package's to run as a user's project does).
 */
export async function pulumiWorkspace(
  files: Record<string, string>,
  extraEnv: Record<string, string> = {},
  nodeModules = join(REPO, "node_modules"),
): Promise<PulumiWorkspace> {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-e2e-"));
  const dir = join(root, "program");
  mkdirSync(join(root, "backend"), { recursive: true });
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  symlinkSync(nodeModules, join(dir, "node_modules"), "dir");
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    // Node 24 (the program's runtime) first, then the CLI and its plugins.
    PATH: [dirname(process.execPath), pulumiCliDir(), process.env.PATH ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: `file://${join(root, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_HOME: join(root, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    NO_COLOR: "1",
    // The examples are type-checked by `npm run typecheck`; here they only run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...extraEnv,
  };
  const workspace: PulumiWorkspace = {
    dir,
    env,
    async run(args, options = {}) {
      const child = spawn("pulumi", [...args, "--non-interactive"], { cwd: dir, env: { ...env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const status = await new Promise<number | null>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", resolve);
      });
      if (status !== 0 && !options.allowFailure) {
        throw new Error(`pulumi ${args.join(" ")} exited with ${status}\n${stdout}\n${stderr}`);
      }
      return { status, stdout, stderr };
    },
  };
  await workspace.run(["stack", "init", "test"]);
  return workspace;
}

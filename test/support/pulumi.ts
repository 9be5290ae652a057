/** Pulumi projects in temporary directories, driven through the real CLI (see test/tools/pulumi-run.mjs). */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlinePulumiEnv, pulumiCliDir, runPulumi } from "../tools/pulumi-run.mjs";

export { pulumiCliDir };
const REPO = join(__dirname, "../..");

export interface PulumiResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface PulumiWorkspace {
  /** The program's directory. */
  dir: string;
  env: Record<string, string>;
  /** Runs `pulumi ARGS` in the program's directory; rejects with its output when it fails, unless `allowFailure`. */
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
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  symlinkSync(nodeModules, join(dir, "node_modules"), "dir");
  const env = offlinePulumiEnv(root, extraEnv);
  const workspace: PulumiWorkspace = {
    dir,
    env,
    run: (args, options = {}) => runPulumi(args, { cwd: dir, env: { ...env, ...options.env }, allowFailure: options.allowFailure }),
  };
  await workspace.run(["stack", "init", "test"]);
  return workspace;
}

/**
 * A command run to its end without blocking the test worker (an emulator in the worker keeps
 * answering it): its exit status and what it printed, stdout and stderr apart and interleaved.
 */
import { spawn } from "node:child_process";

export interface CommandRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
}

export function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const run = { stdout: "", stderr: "", output: "" };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => ((run.stdout += chunk), (run.output += chunk)));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => ((run.stderr += chunk), (run.output += chunk)));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, ...run }));
  });
}

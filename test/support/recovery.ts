/** The README's recovery after an interrupted `up`, as the interrupted-run tests run it through the real CLI. */
import type { RunningEmulator } from "../../provider/emulator";
import { cutRun } from "../workflows/interrupts";
import type { PulumiWorkspace } from "./pulumi";

/**
 * Releases the lock, drops creates that never reported back, finishes the job: `pulumi cancel`
 * (which answers an error when no lock is left), `pulumi refresh --clear-pending-creates`,
 * `pulumi up`. Returns the `up`'s output. `env` is added to each command's environment.
 */
export async function recoverOnSameMachine(workspace: Pick<PulumiWorkspace, "run">, env: Record<string, string> = {}) {
  await workspace.run(["cancel", "--yes"], { allowFailure: true });
  await workspace.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"], { env });
  return workspace.run(["up", "--yes", "--skip-preview"], { env });
}

/** `pulumi up --skip-preview` killed with SIGKILL as its `atWrite`th write reaches the emulator (answers slow from the first write on). */
export const killUpAtWrite = (workspace: { dir: string; env: Record<string, string> }, emulator: RunningEmulator, atWrite: number) =>
  cutRun(workspace, emulator, ["up", "--yes", "--skip-preview"], { how: "kill", atWrite }, { termMs: 6_000, killMs: 0 });

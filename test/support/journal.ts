/** The journal of originals (provider/core/runtime/journal.ts) as a killed run leaves it, for tests of the recovery. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";

/**
 * Marks every journal line under `stateHome` as written by another process (a killed run): a
 * process never reads its own lines as a killed run's.
 */
export function markAsKilledRun(stateHome = process.env.XDG_STATE_HOME!): void {
  const dir = join(stateHome, "pulumi-semgrep");
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(/"p":"[^"]*"/g, '"p":"killed"'));
  }
}

/** The next call is a new provider process: its memory forgotten, the journal's lines so far another process's. */
export function asAnotherProcess(): void {
  forgetProcessMemory();
  markAsKilledRun();
}

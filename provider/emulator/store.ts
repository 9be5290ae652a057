/** Loading and persisting the emulator's state (`--data FILE`) with atomic writes. */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { EmulatorState } from "./model";

export function loadState(file: string): EmulatorState | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as EmulatorState;
}

/** Writes to a temporary file beside the target, then renames it over: readers never see half a file. */
export function saveState(file: string, state: EmulatorState): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * Coalesces saves: many changes in one turn of the event loop give one write of the latest
 * state, so no change is lost and a burst of requests does not write the file a hundred times.
 */
export class StateWriter {
  #pending = false;

  constructor(
    private readonly file: string | undefined,
    private readonly current: () => EmulatorState,
  ) {}

  schedule(): void {
    if (!this.file || this.#pending) return;
    this.#pending = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    if (!this.file) return;
    this.#pending = false;
    saveState(this.file, this.current());
  }
}

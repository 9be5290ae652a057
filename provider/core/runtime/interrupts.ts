/**
 * Whether the writes under way must stop: the engine cancelled the run (its `Cancel` call), a
 * SIGINT or SIGTERM reached this provider process, or the engine is gone (engine-watch.ts). A
 * resource that makes many writes (PolicyRuleModes) asks before each one, lets those in flight
 * end, and returns what they wrote with its originals (partial.ts), so that the engine records
 * them and `destroy` puts them back.
 *
 * What a CI runner's cancel does (SIGINT to the process group of `pulumi up`, SIGTERM 7.5 s
 * later, SIGKILL 2.5 s after that), measured with Pulumi CLI 3.259 and PULUMI_DEBUG_GRPC:
 * - The engine's plugins run in process groups of their own: the SIGINT reaches the CLI (and
 *   its Go code only), never this process. The CLI prints "^C received; cancelling", stops
 *   starting steps and calls `Cancel` on every provider at once (for the dynamic provider too,
 *   whose host answers it and does nothing else), then waits for the steps in flight.
 * - A second signal (the SIGTERM) makes the CLI terminate: it calls `Cancel` again, sends SIGINT
 *   to each plugin's process group (SIGKILL 5 s later if it is still there), records nothing
 *   more, and exits (code 8) within a quarter of a second. The SIGKILL then finds nothing left.
 * So the `Cancel` call is what saves a run: a create that stops at it and answers with its
 * partial state is recorded. A signal reaching this process means the engine is terminating (or
 * the machine is shutting down): the writes stop, and the process leaves once those in flight end.
 */
import { engineGone } from "./engine-watch";
import { onForget } from "./process-memory";

/** Why new writes must not start, once known. */
let reason: string | undefined;
onForget(() => (reason = undefined));
/** How many write loops are under way in this process. */
let writing = 0;
/** The signal to leave with once the write loops end. */
let leaving: NodeJS.Signals | undefined;

/** How long the process stays after its last write loop ends, so that its answer reaches the engine. */
const LEAVE_AFTER_MS = 1_000;

/** Stops new writes in this process: the engine cancelled the run, or a signal came. */
export function interrupt(why: string): void {
  reason ??= why;
}

/** The engine's `Cancel` call (either front end): the run is being cancelled, by a signal to the CLI or its end. */
export function cancelledByEngine(): void {
  interrupt("the Pulumi engine cancelled the run (Ctrl-C, a CI job's cancel): no further write starts");
}

/** The error a write loop ends with when it stops because of {@link interrupt} or a gone engine. */
export class Interrupted extends Error {
  override name = "Interrupted";
}

/** Why no further write may start, or `undefined` when writing may go on. */
export function interruption(): Interrupted | undefined {
  if (!reason && engineGone()) reason = "the Pulumi CLI running this update is gone (killed or cancelled): no further write starts";
  return reason === undefined ? undefined : new Interrupted(reason);
}

/**
 * Runs a loop of writes, which a signal waits for: the process leaves once every loop under way
 * has ended (and its answer had time to reach the engine), not in the middle of one.
 */
export async function whileWriting<T>(loop: () => Promise<T>): Promise<T> {
  watchSignals();
  writing++;
  try {
    return await loop();
  } finally {
    writing--;
    if (leaving && !writing) setTimeout(() => leave(leaving!), LEAVE_AFTER_MS);
  }
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;
let watching = false;

/** Handles SIGINT and SIGTERM from now on (the process's default for both is to end at once). */
export function watchSignals(): void {
  if (watching) return;
  watching = true;
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function onSignal(signal: NodeJS.Signals): void {
  interrupt(`${signal} reached the provider process: no further write starts`);
  leaving = signal;
  if (!writing) leave(signal);
}

/** Ends the process as the signal would have without a handler (its exit status says which). */
function leave(signal: NodeJS.Signals): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
}

/**
 * A CLI run cut short at a chosen write, as a run is cut in real life: a CI runner cancelling the
 * job (SIGINT to the process group, SIGTERM 7.5 s later, SIGKILL 2.5 s after that if still
 * running) or a machine dying (SIGKILL). The write is counted in the emulator's request log, whose
 * answers are slowed once the writes begin so that writes are in flight when the signal comes.
 */
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { isWriteRequest, type RunningEmulator } from "../../provider/emulator";

/** How a run is cut: `cancel` as a CI runner cancels a job, `kill` with SIGKILL alone. */
export interface Cut {
  how: "cancel" | "kill";
  /** The write request (1 for the first) at whose arrival the first signal is sent. */
  atWrite: number;
}

/** The CI runner's delays between its signals. Tests scale them down, keeping their order. */
export interface CancelDelays {
  /** From SIGINT to SIGTERM. */
  termMs: number;
  /** From SIGTERM to SIGKILL. */
  killMs: number;
}

/** GitHub Actions' delays when a job is cancelled. */
export const CI_CANCEL_DELAYS: CancelDelays = { termMs: 7500, killMs: 2500 };

/** `WORKFLOW_CANCEL_DELAYS=term,kill` (milliseconds); by default the CI's, scaled down fivefold. */
export function cancelDelays(env: Record<string, string | undefined> = process.env): CancelDelays {
  const [termMs, killMs] = (env.WORKFLOW_CANCEL_DELAYS ?? "").split(",").map(Number);
  if (Number.isInteger(termMs) && Number.isInteger(killMs) && termMs! >= 0 && killMs! >= 0) return { termMs: termMs!, killMs: killMs! };
  return { termMs: CI_CANCEL_DELAYS.termMs / 5, killMs: CI_CANCEL_DELAYS.killMs / 5 };
}

/**
 * The latency of every answer once a cut run's writes begin: a third of the time from SIGINT to
 * SIGTERM, so that writes are in flight at the signal, a provider that stops starting writes at
 * the cancel is done long before SIGTERM, and one that goes on writing a create of most of the
 * policy (five rounds of eight writes) is still writing at SIGKILL.
 */
const slowAnswers = (delays: CancelDelays) => Math.max(50, Math.round(delays.termMs / 3));

export interface CutRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The signals sent, in order; none when the run ended before its chosen write. */
  signals: NodeJS.Signals[];
  /** Writes the service had received when the first signal was sent, when the CLI exited, and once all writes stopped. */
  writes: { atSignal: number; atExit: number; atEnd: number };
}

/** Requests that change the service (the emulator's own definition, which its `slowFromFirstWrite` follows). */
export const isWrite = isWriteRequest;

/** `pulumi args` in `workspace`, cut as `cut` says (the request log is read from where it stands: clear it first). */
export async function cutRun(
  workspace: { dir: string; env: Record<string, string> },
  emulator: RunningEmulator,
  args: string[],
  cut: Cut,
  delays: CancelDelays,
): Promise<CutRun> {
  const writes = () => emulator.requests().filter(isWrite).length;
  // The reads before the first write answer at once; from it on, answers are slow.
  emulator.setFaults({ latencyMs: slowAnswers(delays), slowFromFirstWrite: true });
  // Its own process group (detached), as a CI runner starts a job's shell: the signals go to the CLI and its language host.
  const child = spawn("pulumi", [...args, "--non-interactive"], {
    cwd: workspace.dir,
    env: workspace.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  // "exit", not "close": the provider process (a process group of its own) may hold the pipes a moment longer.
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let done = false;
  void exited.then(() => (done = true));
  const exitsWithin = (ms: number) => Promise.race([exited.then(() => true), sleep(ms).then(() => false)]);
  const signals: NodeJS.Signals[] = [];
  const send = (signal: NodeJS.Signals) => {
    if (done) return;
    try {
      process.kill(-child.pid!, signal);
      signals.push(signal);
    } catch {
      // The group is gone: the run ended as the signal was sent.
    }
  };
  const deadline = Date.now() + 120_000;
  // The emulator slows its answers from the first write on, that write included, before answering
  // it (slowFromFirstWrite): however late this loop sees a write on a loaded machine, the writes are
  // still in flight when the signal comes. (Slowed only once seen here, a run's writes could all end,
  // and its create be answered, before the signal.)
  while (!done && writes() < cut.atWrite && Date.now() < deadline) await sleep(5);
  const atSignal = writes();
  if (cut.how === "kill") send("SIGKILL");
  else {
    send("SIGINT");
    if (!done && !(await exitsWithin(delays.termMs))) {
      send("SIGTERM");
      if (!done && !(await exitsWithin(delays.killMs))) send("SIGKILL");
    }
  }
  const status = await exited;
  const atExit = writes();
  // The provider outlives a killed CLI: what it still writes is part of what the run left.
  await quiet(emulator);
  child.stdout.destroy();
  child.stderr.destroy();
  emulator.setFaults({ latencyMs: 0, slowFromFirstWrite: false });
  return { status, stdout, stderr, signals, writes: { atSignal, atExit, atEnd: writes() } };
}

/** Until no request is in flight and none arrived for a second (at most 60 s). */
async function quiet(emulator: RunningEmulator): Promise<void> {
  const deadline = Date.now() + 60_000;
  let seen = -1;
  while (Date.now() < deadline) {
    const requests = emulator.requests();
    if (requests.length === seen && !requests.some((r) => r.status === 0)) return;
    seen = requests.length;
    await sleep(1000);
  }
}

/** How a cut run ended, in words: the signals it took, and the writes after them. */
export function cutSaid(cut: Cut, run: CutRun): string {
  if (!run.signals.length) return `ended before write ${cut.atWrite} (${run.writes.atEnd} writes), not cut`;
  const after = run.writes.atEnd - run.writes.atSignal;
  return `${run.signals.join(", then ")} at write ${run.writes.atSignal}; ${after} writes after it${run.writes.atEnd > run.writes.atExit ? `, ${run.writes.atEnd - run.writes.atExit} of them after the CLI exited` : ""}`;
}

/**
 * Whether the Pulumi engine that started this provider process is gone: its CLI was killed (a
 * cancelled CI job, a SIGKILL). The provider process outlives it, since the host runs in a
 * process group of its own, and would go on writing what no state will ever record: each such
 * write is one more original lost. A resource that makes many writes (PolicyRuleModes) asks
 * before each one (interrupts.ts) and stops; the orphaned process then exits.
 *
 * The host is started with the engine's gRPC address among its arguments (where notices.ts
 * also sends messages); once that address refuses connections, the engine is gone.
 */
import { connect } from "node:net";

/** How often the engine's address is probed while writes are under way. */
const PROBE_MS = 250;
/** How long an orphaned provider process lingers once the engine is gone. */
const EXIT_AFTER_MS = 2_000;

/** The engine's address as the native front end was told it (useEngineAddress). */
let given: string | undefined;

/**
 * The engine's address, when this process is a provider the engine started: the address given to
 * {@link useEngineAddress}, else, in the dynamic-provider host, its one argument that is an
 * address (the engine may pass flags such as `--logflow` before it).
 */
export function engineAddress(): string | undefined {
  if (given !== undefined) return given;
  const [, script, ...args] = process.argv;
  if (!script || !/dynamic-provider[\\/]index\.js$/.test(script)) return undefined;
  return addressAmong(args);
}

/** The one argument that is an address, among a plugin's arguments (flags such as `--logflow` may come first). */
export const addressAmong = (args: readonly string[]) => args.find((arg) => /^[\w.[\]:-]+:\d+$/.test(arg));

/** Sets the engine's address, for a process the engine started as a plugin (the native front end). */
export function useEngineAddress(address: string | undefined): void {
  given = address;
}

let engine: RegExpExecArray | null | undefined;

let gone = false;
let probing: NodeJS.Timeout | undefined;

/** True once the engine's address refuses connections; the first call starts probing it. */
export function engineGone(): boolean {
  engine ??= /^\[?(.*?)\]?:(\d+)$/.exec(engineAddress() ?? "");
  if (engine && !probing && !gone) {
    probing = setInterval(probe, PROBE_MS);
    probing.unref(); // never what keeps the process alive
  }
  return gone;
}

function probe(): void {
  const [, host, port] = engine!;
  const socket = connect(Number(port), host);
  socket.once("connect", () => socket.destroy());
  socket.once("error", (error: NodeJS.ErrnoException) => {
    socket.destroy();
    if (error.code !== "ECONNREFUSED") return;
    gone = true;
    clearInterval(probing);
    // Nothing will call this process again: leave once the writes in flight have had time to end.
    setTimeout(() => process.exit(1), EXIT_AFTER_MS);
  });
}

/**
 * Whether the engine answers a connection now (true where no engine started this process): asked
 * once a write call ends, whose answer reaches no state if the engine is gone (journal.ts keeps
 * its originals then). One connection to a local address, refused at once when the CLI is gone.
 */
export function engineReachable(): Promise<boolean> {
  engine ??= /^\[?(.*?)\]?:(\d+)$/.exec(engineAddress() ?? "");
  if (!engine || gone) return Promise.resolve(!gone);
  const [, host, port] = engine;
  return new Promise((resolve) => {
    const socket = connect(Number(port), host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", (error: NodeJS.ErrnoException) => (socket.destroy(), resolve(error.code !== "ECONNREFUSED")));
  });
}

/**
 * The engine's `Cancel`, as the dynamic-provider host receives it: @pulumi/pulumi's host
 * (cmd/dynamic-provider) answers it and does nothing else, so a create in the middle of its
 * writes would go on until the CLI kills the process. This module, loaded in the host with the
 * runtime at its first call, makes every gRPC server of the process tell the runtime
 * (interrupts.ts) when a `Cancel` arrives, without touching the host's code.
 *
 * How: grpc-js (1.14) looks up the handler of every incoming call with
 * `Server.prototype._retrieveHandler(path)`; each copy of grpc-js loaded in the process (the
 * host's, maybe not this package's) gets that method wrapped to notice the Cancel's path. The
 * method is internal: a grpc-js without it is left alone (no patch; a cancelled run then goes on
 * writing until the engine is gone, engine-watch.ts, as before).
 */
import { cancelledByEngine } from "../core/runtime/interrupts";

const CANCEL = "/pulumirpc.ResourceProvider/Cancel";
const PATCHED = Symbol.for("pulumi-semgrep.cancel-watch");

type RetrieveHandler = (this: unknown, path: string) => unknown;
interface ServerPrototype {
  _retrieveHandler?: RetrieveHandler;
  [PATCHED]?: true;
}

/** Wraps `_retrieveHandler` of every grpc-js server module in `require.cache`; returns how many it wrapped. */
export function watchHostCancel(cache: NodeJS.Dict<NodeModule> = require.cache): number {
  let patched = 0;
  for (const [path, loaded] of Object.entries(cache)) {
    if (!/[\\/]@grpc[\\/]grpc-js[\\/]build[\\/]src[\\/]server\.js$/.test(path)) continue;
    const prototype = (loaded?.exports as { Server?: { prototype?: ServerPrototype } } | undefined)?.Server?.prototype;
    const retrieve = prototype?._retrieveHandler;
    if (!prototype || typeof retrieve !== "function" || prototype[PATCHED]) continue;
    prototype._retrieveHandler = function (this: unknown, callPath: string) {
      if (callPath === CANCEL) cancelledByEngine();
      return retrieve.call(this, callPath);
    };
    prototype[PATCHED] = true;
    patched++;
  }
  return patched;
}

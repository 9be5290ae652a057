/**
 * Messages for the person running `pulumi`: warnings (something was left undone to keep the
 * stack's state true, such as a value not put back because another resource now declares it)
 * and notes (what a resource could not know). The dynamic-provider host gets the engine's
 * address as its argument; messages go to the engine's log there, which prints them with the
 * run's diagnostics (warnings counted as such). Anywhere else they go to stderr.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { engineAddress } from "./engine-watch";
import { onForget } from "./process-memory";
import { redacted } from "./redact";

export type Severity = "info" | "warning";
export type NoticeSink = (severity: Severity, message: string) => Promise<void>;

let sink: NoticeSink | undefined;

/** `a, b, c and 9 more`: at most `shown` of `items`, for messages that would otherwise list thousands. */
export const someOf = (items: readonly string[], shown = 10) =>
  items.length <= shown ? items.join(", ") : `${items.slice(0, shown).join(", ")} and ${items.length - shown} more`;

/**
 * Sends a message to the person running `pulumi`, the texts of the current resource's secret
 * inputs hidden (redact.ts). Resolves once it is delivered.
 */
export function notify(severity: Severity, message: string): Promise<void> {
  sink ??= engineLog(engineAddress()) ?? stderrSink;
  return sink(severity, redacted(message));
}

/**
 * Sends a message once per provider process: again under the same `key` it sends nothing (the
 * engine checks a replaced resource twice in one run, for instance). Forgotten with the process's
 * memory.
 */
export function notifyOnce(key: string, severity: Severity, message: string): Promise<void> {
  if (given.has(key)) return Promise.resolve();
  given.add(key);
  return notify(severity, message);
}

/** The keys of the messages {@link notifyOnce} has sent. */
const given = new Set<string>();
onForget(() => given.clear());

/** The URN of the resource a call is for, where the front end knows it: the engine prints its messages with that resource. */
const resourceUrn = new AsyncLocalStorage<string>();

/** Runs `work` with its messages attached to the resource `urn` (the native front end). */
export function aboutResource<T>(urn: string, work: () => T): T {
  return resourceUrn.run(urn, work);
}

/** Replaces where messages go (tests collect them); `undefined` restores the default. */
export function setNoticeSink(next: NoticeSink | undefined): void {
  sink = next;
}

const stderrSink: NoticeSink = async (severity, message) => {
  process.stderr.write(`${severity === "warning" ? "warning: " : ""}${message}\n`);
};

/** Pulumi's engine protocol, as the installed @pulumi/pulumi ships it. */
interface EngineProtocol {
  grpc: { credentials: { createInsecure(): unknown } };
  EngineClient: new (address: string, credentials: unknown) => { log(request: unknown, done: (error: Error | null) => void): void };
  LogRequest: new () => { setSeverity(s: number): void; setMessage(m: string): void; setUrn(u: string): void };
  LogSeverity: Record<"INFO" | "WARNING", number>;
}

function loadEngineProtocol(): EngineProtocol {
  // From @pulumi/pulumi's own location, so that its gRPC library is used whatever the layout.
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
  const { EngineClient } = fromPulumi("./proto/engine_grpc_pb") as Pick<EngineProtocol, "EngineClient">;
  const { LogRequest, LogSeverity } = fromPulumi("./proto/engine_pb") as Pick<EngineProtocol, "LogRequest" | "LogSeverity">;
  return { grpc: fromPulumi("@grpc/grpc-js") as EngineProtocol["grpc"], EngineClient, LogRequest, LogSeverity };
}

/** Delivery through the engine's `Log` call, falling back to stderr when it cannot be reached. */
function engineLog(address: string | undefined): NoticeSink | undefined {
  if (!address) return undefined;
  let protocol: EngineProtocol;
  try {
    protocol = loadEngineProtocol();
  } catch {
    return undefined;
  }
  const client = new protocol.EngineClient(address, protocol.grpc.credentials.createInsecure());
  return (severity, message) =>
    new Promise<void>((resolve) => {
      const request = new protocol.LogRequest();
      request.setSeverity(severity === "warning" ? protocol.LogSeverity.WARNING : protocol.LogSeverity.INFO);
      request.setMessage(message);
      // The dynamic host does not tell a provider which resource it serves; the native front end does.
      request.setUrn(resourceUrn.getStore() ?? "");
      client.log(request, (error) => (error ? stderrSink(severity, message).then(resolve) : resolve()));
    });
}

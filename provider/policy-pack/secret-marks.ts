/**
 * Which inputs of a native plugin resource are secret, as the pack learns it. The engine hands an
 * analyzer every secret value wrapped in Pulumi's secret signature, and `@pulumi/policy` unwraps
 * them before a policy sees its props, keeping no mark: a policy cannot tell a secret from a plain
 * value. The dynamic classes name their secret inputs in `secretInputs`; the native plugin's
 * resources (`semgrep:index:<Kind>`) carry no such input. So the pack reads the engine's marks on
 * the request itself, before `@pulumi/policy` does, and gives every resource of this package the
 * same `secretInputs` list (the union of the class's and the engine's): each policy and the
 * redaction of every message (redact.ts) then treat a native resource's secrets as a dynamic one's.
 */
import { unwrapSecrets } from "../native/secrets";
import { kindOf } from "./resources";

/**
 * The names of the inputs the engine marks secret, in its wire form of properties: a whole input,
 * or a part of it (a map entry, an element), hides the whole input, as a dynamic class marks it.
 */
export function markedSecretInputs(properties: Record<string, unknown>): string[] {
  // The same reading of the wire form as the native plugin's own (native/secrets.ts).
  return unwrapSecrets(properties).secret;
}

/** A `google.protobuf.Struct` as the analyzer's requests carry it (from whichever copy of google-protobuf loaded it). */
interface Struct {
  toJavaScript(): Record<string, unknown>;
  constructor: { fromJavaScript(value: Record<string, unknown>): Struct };
}

/** A resource of an AnalyzeRequest or an AnalyzeStackRequest (`AnalyzerResource`): both have these accessors. */
interface AnalyzedResource {
  getType(): string;
  getProperties(): Struct | undefined;
  setProperties(value: Struct): void;
}

/**
 * Adds to a resource of this package the inputs the engine marks secret, as `secretInputs` (kept
 * beside the names its class passed); leaves any other resource, and one without marks, as it is.
 */
export function markSecretInputs(resource: AnalyzedResource): void {
  const struct = resource.getProperties();
  if (!struct || !kindOf(resource.getType())) return;
  const properties = struct.toJavaScript();
  const marked = markedSecretInputs(properties);
  if (!marked.length) return;
  const named = Array.isArray(properties.secretInputs) ? properties.secretInputs.filter((n) => typeof n === "string") : [];
  const secretInputs = [...new Set([...named, ...marked])].filter((name) => name !== "secretInputs");
  resource.setProperties(struct.constructor.fromJavaScript({ ...properties, secretInputs }));
}

type Call = { request: unknown };
type Handler = (call: Call, callback: (...args: unknown[]) => void) => unknown;

/** `handler` with `mark` run on its request first. */
const marking =
  (handler: Handler, mark: (request: unknown) => void): Handler =>
  (call, callback) => {
    mark(call.request);
    return handler(call, callback);
  };

/**
 * The analyzer service's handlers with `analyze` and `analyzeStack` marking the secret inputs of
 * each resource of the request before `@pulumi/policy` reads it.
 */
export function markingSecrets<T extends object>(impl: T): T {
  const handlers = impl as Record<string, Handler | undefined>;
  const wrapped = { ...handlers };
  if (handlers.analyze) wrapped.analyze = marking(handlers.analyze, (request) => markSecretInputs(request as AnalyzedResource));
  if (handlers.analyzeStack)
    wrapped.analyzeStack = marking(handlers.analyzeStack, (request) => {
      for (const resource of (request as { getResourcesList(): AnalyzedResource[] }).getResourcesList()) markSecretInputs(resource);
    });
  return wrapped as T;
}

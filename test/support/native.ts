/**
 * The native front end (the `pulumi-resource-semgrep` plugin's gRPC server) in this process, and
 * a client that talks to it as the Pulumi engine does: over the protocol stubs @pulumi/pulumi
 * ships. `nativeProvider(kind)` is the same driver interface as the dynamic one
 * (test/support/provider.ts), so that one table of steps runs through both front ends.
 *
 * The tables speak the dynamic front end's language: the resource's context travels in the
 * properties under the meta inputs' names (`resourceName`, `resourceParent`, `secretInputs`) and
 * the state holds them. The engine gives the native front end the same context another way,
 * and keeps none of it in the state; the driver translates both ways, in one place:
 *  - in: `resourceName` and `resourceParent` become the URN (the parent's types, not its name:
 *    the engine sends no more), each input `secretInputs` names is sent wrapped as a secret, and
 *    the derived outputs' placeholder inputs (`originalMode: null`) are not sent (the schema has
 *    no such inputs);
 *  - out: the secret wrappers come off, the inputs the server returned wrapped are listed in
 *    `secretInputs` again, and the name and parent the table gave are put back beside the rest.
 * The state the engine keeps (the wire outputs and the inputs of the last create, update or read)
 * is remembered with the object returned, so that passing it back sends exactly what the engine
 * would; a state the table writes by hand is translated as above.
 */
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { DERIVED_OUTPUTS, type ResourceKind } from "../../provider/core/kinds";
import { startPlugin } from "../../provider/native/server";
import type { ProviderCalls } from "./provider";

type Props = Record<string, unknown>;

/** Pulumi's signature of a secret on the wire (sdk/go/common/resource/sig). */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
/** The engine's stand-in for a value not known at preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** `value` as the engine sends a secret. */
export const secret = (value: unknown): Props => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });
export const isSecret = (value: unknown): value is { value: unknown } =>
  !!value && typeof value === "object" && (value as Props)[SIGNATURE_KEY] === SECRET_SIGNATURE;

/** A protobuf Struct, which has no `undefined`: an absent value is left out. */
export const struct = (value: Props): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, never>);
export const plainOf = (value: Struct | undefined): Props => (value?.toJavaScript() ?? {}) as Props;

/** The type token of a kind. */
export const typeOf = (kind: ResourceKind) => `semgrep:index:${kind}`;

/** The URN the engine gives a resource of `kind` named `name`, under a parent of the given URN. */
export function urnOf(kind: ResourceKind, name: string, parentUrn?: string): string {
  const parentTypes = parentUrn?.split("::")[2];
  return `urn:pulumi:test::native::${parentTypes ? `${parentTypes}$` : ""}${typeOf(kind)}::${name}`;
}

export interface NativeServer {
  client: ResourceProviderClient;
  rpc: Rpc;
  /** The port the server printed as its first line of stdout. */
  port: number;
  /** What it printed on stdout while starting. */
  printed: string;
  close(): Promise<void>;
}

/** Starts the plugin's server in this process, capturing the port it prints, with a client connected to it. */
export async function startNativeServer(args: string[] = []): Promise<NativeServer> {
  const write = process.stdout.write;
  let printed = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  let server: grpc.Server;
  try {
    server = await startPlugin(args);
  } finally {
    process.stdout.write = write;
  }
  const port = Number(printed.split("\n")[0]);
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    client,
    rpc: rpcOf(client),
    port,
    printed,
    async close() {
      client.close();
      server.forceShutdown();
    },
  };
}

/** An error the server answered, as the engine reads it: the message, and an initialization failure's state. */
export interface NativeError extends Error {
  code?: number;
  id?: string;
  properties?: Props;
  reasons?: string[];
}

/** The `ErrorResourceInitFailed` an error's status details carry, if any. */
function initFailure(error: grpc.ServiceError): proto.ErrorResourceInitFailed | undefined {
  const [details] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!details) return undefined;
  const status = Status.deserializeBinary(new Uint8Array(details as Buffer));
  const any = status.getDetailsList().find((d) => d.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
  return any ? proto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8()) : undefined;
}

type Unary<Req, Res> = (request: Req, callback: (error: grpc.ServiceError | null, response: Res) => void) => unknown;

/** One method of the client as a promise; a failure rejects with the server's message (no `2 UNKNOWN:` prefix). */
function promised<Req, Res>(client: ResourceProviderClient, method: Unary<Req, Res>): (request: Req) => Promise<Res> {
  return (request) =>
    new Promise((resolve, reject) =>
      method.call(client, request, (error, response) => {
        if (!error) return resolve(response);
        const failure = initFailure(error);
        const rejected: NativeError = Object.assign(new Error(error.details), { code: error.code });
        if (failure)
          Object.assign(rejected, { id: failure.getId(), properties: plainOf(failure.getProperties()), reasons: failure.getReasonsList() });
        reject(rejected);
      }),
    );
}

/** The provider's methods the engine calls, as promises. */
export function rpcOf(client: ResourceProviderClient) {
  return {
    getPluginInfo: promised<Empty, PluginInfo>(client, client.getPluginInfo),
    getSchema: promised<proto.GetSchemaRequest, proto.GetSchemaResponse>(client, client.getSchema),
    checkConfig: promised<proto.CheckRequest, proto.CheckResponse>(client, client.checkConfig),
    diffConfig: promised<proto.DiffRequest, proto.DiffResponse>(client, client.diffConfig),
    configure: promised<proto.ConfigureRequest, proto.ConfigureResponse>(client, client.configure),
    check: promised<proto.CheckRequest, proto.CheckResponse>(client, client.check),
    diff: promised<proto.DiffRequest, proto.DiffResponse>(client, client.diff),
    create: promised<proto.CreateRequest, proto.CreateResponse>(client, client.create),
    read: promised<proto.ReadRequest, proto.ReadResponse>(client, client.read),
    update: promised<proto.UpdateRequest, proto.UpdateResponse>(client, client.update),
    delete: promised<proto.DeleteRequest, Empty>(client, client.delete),
    invoke: promised<proto.InvokeRequest, proto.InvokeResponse>(client, client.invoke),
  };
}
export type Rpc = ReturnType<typeof rpcOf>;

let shared: Promise<NativeServer> | undefined;

/** The server the drivers talk to: started (and configured with no config, so the environment counts) on first use. */
async function sharedServer(): Promise<NativeServer> {
  shared ??= startNativeServer().then(async (server) => {
    await server.rpc.configure(new proto.ConfigureRequest().setAcceptsecrets(true));
    return server;
  });
  return shared;
}

/** Stops the drivers' server, if one was started (after a test file). */
export async function closeNativeServer(): Promise<void> {
  const server = shared;
  shared = undefined;
  await (await server)?.close();
}

// --- The driver: the table's properties to the wire and back ---

const META = ["resourceName", "resourceParent", "secretInputs"];

/** The context a table gives in the meta inputs. */
interface Context {
  name?: string;
  parent?: string;
  secret: string[];
}

/** The name of a resource whose table state names none (state of old releases, a read from the id alone). */
const UNNAMED = "unnamed";

function contextOf(props: Props | undefined): Context {
  return {
    ...(typeof props?.resourceName === "string" ? { name: props.resourceName } : {}),
    ...(typeof props?.resourceParent === "string" ? { parent: props.resourceParent } : {}),
    secret: Array.isArray(props?.secretInputs) ? (props.secretInputs as string[]) : [],
  };
}

const urnFor = (kind: ResourceKind, context: Context) => urnOf(kind, context.name ?? UNNAMED, context.parent);

const withoutKeys = (props: Props, keys: (key: string) => boolean) => Object.fromEntries(Object.entries(props).filter(([k]) => !keys(k)));

function wrapped(props: Props, secretKeys: Iterable<string>): Props {
  const out = { ...props };
  for (const key of secretKeys) if (out[key] !== undefined && !isSecret(out[key])) out[key] = secret(out[key]);
  return out;
}

/** The outputs derived from any of `secretInputs`. */
const derivedSecrets = (kind: ResourceKind, secretInputs: string[]) =>
  Object.entries(DERIVED_OUTPUTS[kind])
    .filter(([, sources]) => sources.some((s) => secretInputs.includes(s)))
    .map(([output]) => output);

/** Inputs as the engine sends them: no meta inputs, no placeholders of derived outputs, secrets wrapped. */
function wireInputs(kind: ResourceKind, props: Props, context: Context): Props {
  const own = withoutKeys(props, (key) => META.includes(key) || key in DERIVED_OUTPUTS[kind]);
  return wrapped(own, context.secret);
}

/** Plain values, and the keys that were secrets. */
function unwrapped(props: Props): { plain: Props; secret: string[] } {
  const plain: Props = {};
  const secretKeys: string[] = [];
  for (const [key, value] of Object.entries(props)) {
    plain[key] = isSecret(value) ? value.value : value;
    if (isSecret(value)) secretKeys.push(key);
  }
  return { plain, secret: secretKeys };
}

/** The table's view of what came back: plain, with the name and parent the table gave and the secrets listed. */
function view(props: Props, context: Context, secretInputs: string[]): Props {
  return {
    ...props,
    ...(context.name !== undefined ? { resourceName: context.name } : {}),
    ...(context.parent !== undefined ? { resourceParent: context.parent } : {}),
    ...(secretInputs.length ? { secretInputs } : {}),
  };
}

/** What the engine keeps of a resource: its outputs and inputs as they were on the wire. */
interface Kept {
  outputs: Props;
  inputs?: Props;
}

/**
 * Outputs from the server: each of a secret input's name, or derived from a secret input, must come
 * back wrapped, or the engine would store it in plain text (every output derived from a secret
 * input is a secret: docs/architecture.md, "Secrets"); the driver fails the step that shows otherwise.
 */
function outputsView(kind: ResourceKind, outputs: Props, context: Context): Props {
  const { plain, secret: wrappedKeys } = unwrapped(outputs);
  const mustBeSecret = [...context.secret, ...derivedSecrets(kind, context.secret)].filter((key) => plain[key] !== undefined);
  const plainText = mustBeSecret.filter((key) => !wrappedKeys.includes(key));
  if (plainText.length)
    throw new Error(`native front end: ${kind} returned ${plainText.join(", ")} in plain text, though derived from a secret input`);
  return view(plain, context, context.secret);
}

const changesOf = (changes: proto.DiffResponse.DiffChanges) =>
  changes === proto.DiffResponse.DiffChanges.DIFF_SOME ? true : changes === proto.DiffResponse.DiffChanges.DIFF_NONE ? false : undefined;

/** The provider methods of one kind through the native front end, as the engine calls them. */
export function nativeProvider(kind: ResourceKind): ProviderCalls {
  const kept = new WeakMap<object, Kept>();
  /** The state the engine would send for `props`: what the server returned with it, else the table's, translated. */
  const stateOf = (props: Props): Kept => {
    const found = kept.get(props);
    if (found) return found;
    const context = contextOf(props);
    const own = withoutKeys(props, (key) => META.includes(key));
    return { outputs: wrapped(own, [...context.secret, ...derivedSecrets(kind, context.secret)]) };
  };
  const remembered = (viewed: Props, state: Kept) => (kept.set(viewed, state), viewed);
  const rpc = async () => (await sharedServer()).rpc;
  /** A failed create or update's state (an initialization failure), in the table's view and remembered. */
  const failed = (error: unknown, context: Context, inputs: Props): never => {
    const e = error as NativeError;
    if (e.properties) {
      const outputs = e.properties;
      e.properties = remembered(outputsView(kind, outputs, context), { outputs, inputs });
    }
    throw e;
  };
  return {
    async check(news, olds = {}) {
      const context = contextOf(news);
      const request = new proto.CheckRequest()
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED)
        .setOlds(struct(wireInputs(kind, olds, contextOf(olds))))
        .setNews(struct(wireInputs(kind, news, context)));
      const response = await (await rpc()).check(request);
      const { plain, secret: secretKeys } = unwrapped(plainOf(response.getInputs()));
      const failures = response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
      return { inputs: view(plain, context, secretKeys), ...(failures.length ? { failures } : {}) };
    },
    async diff(olds, news, id = "id") {
      const context = contextOf(news.resourceName === undefined ? olds : news);
      const state = stateOf(olds);
      const request = new proto.DiffRequest()
        .setId(id)
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED)
        .setOlds(struct(state.outputs))
        .setNews(struct(wireInputs(kind, news, contextOf(news))));
      if (state.inputs) request.setOldInputs(struct(state.inputs));
      const response = await (await rpc()).diff(request);
      const detailedDiff: Record<string, number> = {};
      response.getDetaileddiffMap().forEach((diff, path) => (detailedDiff[path] = diff.getKind()));
      return {
        changes: changesOf(response.getChanges()),
        replaces: response.getReplacesList(),
        diffs: response.getDiffsList(),
        detailedDiff,
      };
    },
    async create(inputs) {
      const context = contextOf(inputs);
      const sent = wireInputs(kind, inputs, context);
      const request = new proto.CreateRequest()
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED)
        .setProperties(struct(sent));
      const response = await (await rpc()).create(request).catch((error: unknown) => failed(error, context, sent));
      const outputs = plainOf(response.getProperties());
      return { id: response.getId(), outs: remembered(outputsView(kind, outputs, context), { outputs, inputs: sent }) };
    },
    async read(id, props) {
      const context = contextOf(props);
      const state = stateOf(props);
      const request = new proto.ReadRequest()
        .setId(id)
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED);
      // `pulumi import` sends neither properties nor inputs.
      if (Object.keys(state.outputs).length) request.setProperties(struct(state.outputs));
      if (state.inputs) request.setInputs(struct(state.inputs));
      const response = await (await rpc()).read(request);
      if (!response.getId()) return { id: "" };
      const outputs = plainOf(response.getProperties());
      const inputs = plainOf(response.getInputs());
      const { plain, secret: secretKeys } = unwrapped(inputs);
      return {
        id: response.getId(),
        props: remembered(outputsView(kind, outputs, context), { outputs, inputs }),
        inputs: view(plain, context, secretKeys),
      };
    },
    async update(id, olds, news) {
      const context = contextOf(news);
      const state = stateOf(olds);
      const sent = wireInputs(kind, news, context);
      const request = new proto.UpdateRequest()
        .setId(id)
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED)
        .setOlds(struct(state.outputs))
        .setNews(struct(sent));
      if (state.inputs) request.setOldInputs(struct(state.inputs));
      const response = await (await rpc()).update(request).catch((error: unknown) => failed(error, context, sent));
      const outputs = plainOf(response.getProperties());
      return { outs: remembered(outputsView(kind, outputs, context), { outputs, inputs: sent }) };
    },
    async delete(id, props) {
      const context = contextOf(props);
      const state = stateOf(props);
      const request = new proto.DeleteRequest()
        .setId(id)
        .setUrn(urnFor(kind, context))
        .setType(typeOf(kind))
        .setName(context.name ?? UNNAMED)
        .setProperties(struct(state.outputs));
      if (state.inputs) request.setOldInputs(struct(state.inputs));
      await (await rpc()).delete(request);
    },
  };
}

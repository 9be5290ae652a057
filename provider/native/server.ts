/**
 * The plugin's gRPC server: Pulumi's ResourceProvider protocol, over the protocol stubs
 * `@pulumi/pulumi` ships, served by the same handlers as the dynamic provider (the dynamic
 * runtime's `run`). What this front end adds is what the dynamic host cannot do: the provider's
 * config (Configure, CheckConfig, DiffConfig), a read without properties (`pulumi import`), a
 * detailed diff, native secrets, functions through Invoke, and the schema.
 *
 * `@pulumi/pulumi/provider`'s own server is not used: it drops the provider's config, crashes on
 * the property-less Read that import sends, and passes no detailed diff (docs/architecture.md,
 * "Through the native front end").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { implicitSecrets, KINDS, RESOURCE_KINDS, type ResourceKind } from "../core/kinds";
import { parseBaseUrl } from "../client/config";
import { configureCredentials, configuredCredentials, withCredentialsHint } from "../core/runtime/credentials";
import { redactedError, redactorOf, textsOf } from "../core/runtime/redact";
import { addressAmong, useEngineAddress } from "../core/runtime/engine-watch";
import { cancelledByEngine } from "../core/runtime/interrupts";
import { aboutResource, notifyOnce } from "../core/runtime/notices";
import { containsUnknown } from "../core/runtime/check";
import { run } from "../core/runtime/dispatch";
import { identityFromUrn, secretOutputs } from "./context";
import type { ResourceIdentity } from "../core/runtime/call-context";
import { withoutMeta, withoutPlaceholders } from "../core/runtime/resource-meta";
import { detailedDiff, setDetailedDiff } from "./detailed-diff";
import { importedInputs, importedState } from "./import";
import { importRefusal } from "./import-refusals";
import { FROM_PROVIDER_CONFIG } from "../functions/client";
import { FUNCTION_NAMES, FUNCTIONS, type FunctionName, SECRET_RESULTS } from "./functions";
import { unwrapSecrets, withSecrets } from "./secrets";

type Props = Record<string, unknown>;

/** The package name: type tokens are `semgrep:index:<Kind>`, functions `semgrep:index:<getX>`. */
export const PACKAGE_NAME = "semgrep";
const TOKEN_PREFIX = `${PACKAGE_NAME}:index:`;

/** This package's package.json: beside the bundle in a release tarball, two levels up in the npm package. */
const PACKAGE_ROOTS = [__dirname, join(__dirname, "../..")];

function packageFile(name: string): string {
  for (const root of PACKAGE_ROOTS) {
    try {
      return readFileSync(join(root, name), "utf8");
    } catch {
      // the next candidate
    }
  }
  throw new Error(`pulumi-resource-semgrep: ${name} is missing beside the plugin (looked in ${PACKAGE_ROOTS.join(", ")})`);
}

export const PLUGIN_VERSION = (JSON.parse(packageFile("package.json")) as { version: string }).version;

/** The resource kind a request is for, from its type token (or its URN's type, from engines that send no type). */
function kindOf(type: string | undefined, urn: string): ResourceKind {
  const token = type || urn.split("::")[2]?.split("$").at(-1) || "";
  const kind = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  if (!(RESOURCE_KINDS as string[]).includes(kind))
    throw new Error(
      `pulumi-resource-semgrep: unknown resource type ${token}; the kinds are ${RESOURCE_KINDS.map((k) => TOKEN_PREFIX + k).join(", ")}`,
    );
  return kind as ResourceKind;
}

const plain = (struct: Struct | undefined): Props => (struct?.toJavaScript() ?? {}) as Props;

/** A protobuf Struct, which has no `undefined`: an absent value is left out. */
function toStruct(value: Props): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, never>);
}

/**
 * The properties of a request, plain, and the context of the call (secrets from `secretsFrom`,
 * else from the properties). Only declared inputs count as secret inputs: the state of a resource
 * moved here from the dynamic provider by an alias also holds the secret placeholders the
 * TypeScript classes pass for derived outputs (`originalMode: null`), which no program of this
 * front end sends; counted, they would make the first diff after the move an update.
 */
function received(kind: ResourceKind, struct: Struct | undefined, urn: string, secretsFrom?: Struct) {
  const { plain: props, secret } = unwrapSecrets(plain(struct));
  const inputSecrets = (secretsFrom ? unwrapSecrets(plain(secretsFrom)).secret : secret).filter((key) => key in KINDS[kind].inputs);
  // An input the kind holds as a secret whatever the program says (declare.ts `secretWhen`) is one.
  const implicit = implicitSecrets(kind, props).filter((key) => !inputSecrets.includes(key));
  return { props, context: identityFromUrn(urn, [...inputSecrets, ...implicit]) };
}

/** The outputs a handler returned, as the engine stores them: no context, secrets wrapped. */
function stored(kind: ResourceKind, outputs: Props, context: ResourceIdentity, declared: Props): Props {
  return withSecrets(outputs, secretOutputs(kind, outputs, context, declared));
}

const answered = (kind: ResourceKind, outputs: Props, context: ResourceIdentity, declared: Props): Struct =>
  toStruct(stored(kind, outputs, context, declared));

/**
 * A create or update that failed after some writes landed carries the outputs so far, which the
 * engine stores as the resource's state ({@link grpcError}): as stored as any other outputs, those
 * derived from a secret input wrapped, or they would reach the state in plain text.
 */
function withStoredPartialState(kind: ResourceKind, error: unknown, context: ResourceIdentity, declared: Props): unknown {
  const partial = error as { properties?: Props };
  if (error instanceof Error && partial.properties) partial.properties = stored(kind, partial.properties, context, declared);
  return error;
}

/** What a handler's `check` returns. */
interface CheckResult {
  inputs?: Props;
  failures?: Array<{ property: string; reason: string }>;
}

const declaredInputs = (kind: ResourceKind) => Object.keys(KINDS[kind].inputs);

class ResourceProvider {
  async getPluginInfo(): Promise<PluginInfo> {
    return new PluginInfo().setVersion(PLUGIN_VERSION);
  }

  async getSchema(request: proto.GetSchemaRequest): Promise<proto.GetSchemaResponse> {
    if (request.getSubpackageName()) throw new Error("pulumi-resource-semgrep has no subpackages");
    return new proto.GetSchemaResponse().setSchema(packageFile("schema.json"));
  }

  async checkConfig(request: proto.CheckRequest): Promise<proto.CheckResponse> {
    const { plain: news, secret } = unwrapSecrets(plain(request.getNews()));
    const response = new proto.CheckResponse().setInputs(toStruct(withSecrets(news, new Set([...secret, "token"]))));
    // A missing token is no mistake here: the environment may give it when the provider runs. A
    // url that is no address is, and says so at preview rather than at the first request.
    const url = stringOr(news.url);
    if (url !== undefined && !containsUnknown(url)) {
      try {
        parseBaseUrl(url, "semgrep:url");
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        response.setFailuresList([new proto.CheckFailure().setProperty("url").setReason(message)]);
      }
    }
    return response;
  }

  async diffConfig(request: proto.DiffRequest): Promise<proto.DiffResponse> {
    const olds = unwrapSecrets(plain(request.getOldInputs() ?? request.getOlds())).plain;
    const news = unwrapSecrets(plain(request.getNews())).plain;
    const changed = ["token", "url"].filter((key) => (olds[key] ?? "") !== (news[key] ?? ""));
    // A new token or address changes how the provider reaches the service, never a resource: no replacement.
    const response = new proto.DiffResponse()
      .setChanges(changed.length ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(changed)
      .setHasdetaileddiff(true);
    for (const key of changed) response.getDetaileddiffMap().set(key, new proto.PropertyDiff().setKind(proto.PropertyDiff.Kind.UPDATE));
    return response;
  }

  async configure(request: proto.ConfigureRequest): Promise<proto.ConfigureResponse> {
    const args = request.getArgs() ? unwrapSecrets(plain(request.getArgs())).plain : undefined;
    const variables = request.getVariablesMap();
    const variable = (key: string) => variables.get(`${PACKAGE_NAME}:config:${key}`) ?? variables.get(`${PACKAGE_NAME}:${key}`);
    configureCredentials({
      token: stringOr(args?.token) ?? variable("token"),
      url: stringOr(args?.url) ?? variable("url"),
    });
    return new proto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(false).setAcceptresources(false);
  }

  async check(request: proto.CheckRequest): Promise<proto.CheckResponse> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    const olds = received(kind, request.getOlds(), urn);
    const news = received(kind, request.getNews(), urn);
    const hasOlds = Object.keys(olds.props).length > 0;
    const result = (await run(kind, "check", [olds.props, news.props], {
      now: news.context,
      ...(hasOlds ? { before: olds.context } : {}),
    })) as CheckResult;
    const inputs = result.inputs ?? news.props;
    const response = new proto.CheckResponse().setInputs(toStruct(withSecrets(inputs, news.context.secretInputs)));
    response.setFailuresList((result.failures ?? []).map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)));
    return response;
  }

  async diff(request: proto.DiffRequest): Promise<proto.DiffResponse> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    const olds = received(kind, request.getOlds(), urn, request.getOldInputs());
    const news = received(kind, request.getNews(), urn);
    const result = (await run(kind, "diff", [request.getId(), olds.props, news.props], { now: news.context, before: olds.context })) as {
      changes?: boolean;
      replaces?: string[];
      stables?: string[];
      deleteBeforeReplace?: boolean;
    };
    const response = new proto.DiffResponse()
      .setReplacesList(result.replaces ?? [])
      .setStablesList(result.stables ?? [])
      .setDeletebeforereplace(result.deleteBeforeReplace ?? false);
    if (!result.changes) return response.setChanges(proto.DiffResponse.DiffChanges.DIFF_NONE);
    response.setChanges(proto.DiffResponse.DiffChanges.DIFF_SOME);
    // Field by field against the inputs of the last update (a refresh rewrote them to what it found live).
    const before = request.getOldInputs() ? unwrapSecrets(plain(request.getOldInputs())).plain : olds.props;
    const secret = [...new Set([...olds.context.secretInputs, ...news.context.secretInputs])];
    setDetailedDiff(response, detailedDiff(before, news.props, declaredInputs(kind), result.replaces ?? [], secret), proto);
    return response;
  }

  async create(request: proto.CreateRequest): Promise<proto.CreateResponse> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    const news = received(kind, request.getProperties(), urn);
    const result = (await run(kind, "create", [news.props], { now: news.context }).catch((error: unknown) => {
      throw withStoredPartialState(kind, error, news.context, news.props);
    })) as { id: string; outs?: Props };
    return new proto.CreateResponse().setId(result.id).setProperties(answered(kind, result.outs ?? {}, news.context, news.props));
  }

  async read(request: proto.ReadRequest): Promise<proto.ReadResponse> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    // `pulumi import` sends neither properties nor inputs: the id alone says what to read, and
    // the answer's inputs must declare what the object holds (import.ts).
    const state = received(kind, request.getProperties(), urn, request.getInputs());
    const oldInputs = unwrapSecrets(plain(request.getInputs())).plain;
    const result = (await run(kind, "read", [request.getId(), state.props], { now: state.context })) as {
      id?: string;
      props?: Props;
      inputs?: Props;
    };
    const response = new proto.ReadResponse().setId(result.id ?? "");
    if (!result.id) return response; // gone from the service
    // `pulumi import` sends no properties at all; a `get` (read by id, managing nothing) sends empty ones.
    const isImport = !request.hasProperties() && !request.hasInputs();
    // The old inputs of a stack moved here from the dynamic classes hold their metadata too.
    const read = result.inputs ?? withoutPlaceholders(kind, withoutMeta(oldInputs));
    if (!isImport) {
      // A refresh, or a `get`: it declares what its state declared (a `get`, nothing), so a set other
      // resources add to (a project's tags, secret ones among them) is answered as a secret.
      response.setProperties(answered(kind, result.props ?? {}, state.context, read));
      return response.setInputs(toStruct(withSecrets(read, state.context.secretInputs)));
    }
    const inputs = await importedInputs(kind, result.props ?? {}, read);
    // Refuse what the stack could not hold, before the engine records it (a failed check would only warn).
    const unchecked = (why: string) => aboutResource(urn, () => notifyOnce(`import ${urn}`, "warning", why));
    const refusal = await importRefusal(kind, urn, inputs, unchecked);
    if (refusal) throw new Error(refusal);
    const outputs = await importedOutputs(kind, result.id, inputs, state.context);
    if (!outputs) return response.setId(""); // gone between the two reads
    response.setProperties(answered(kind, outputs, state.context, inputs));
    return response.setInputs(toStruct(withSecrets(inputs, state.context.secretInputs)));
  }

  async update(request: proto.UpdateRequest): Promise<proto.UpdateResponse> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    const olds = received(kind, request.getOlds(), urn, request.getOldInputs());
    const news = received(kind, request.getNews(), urn);
    const result = (await run(kind, "update", [request.getId(), olds.props, news.props], { now: news.context, before: olds.context }).catch(
      (error: unknown) => {
        throw withStoredPartialState(kind, error, news.context, news.props);
      },
    )) as {
      outs?: Props;
    };
    return new proto.UpdateResponse().setProperties(answered(kind, result.outs ?? {}, news.context, news.props));
  }

  async delete(request: proto.DeleteRequest): Promise<Empty> {
    const urn = request.getUrn();
    const kind = kindOf(request.getType(), urn);
    const state = received(kind, request.getProperties(), urn, request.getOldInputs());
    await run(kind, "delete", [request.getId(), state.props], { now: state.context });
    return new Empty();
  }

  async invoke(request: proto.InvokeRequest): Promise<proto.InvokeResponse> {
    const token = request.getTok();
    const name = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
    if (!(FUNCTION_NAMES as string[]).includes(name))
      throw new Error(
        `pulumi-resource-semgrep: unknown function ${token}; the functions are ${FUNCTION_NAMES.map((f) => TOKEN_PREFIX + f).join(", ")}`,
      );
    const { plain: args, secret } = unwrapSecrets(plain(request.getArgs()));
    // The functions check their arguments themselves, naming the field (provider/functions/args.ts),
    // and their messages quote them: a secret argument's text is hidden there.
    const redact = redactorOf(textsOf(secret.map((key) => args[key])));
    const fn = FUNCTIONS[name as FunctionName] as unknown as (args: Props, opts: object) => Promise<unknown>;
    let result: Props;
    try {
      result = (await fn(args, { ...configuredCredentials(), [FROM_PROVIDER_CONFIG]: true })) as Props;
    } catch (error) {
      throw redactedError(withCredentialsHint(error), redact);
    }
    const shaped = SECRET_RESULTS[name as FunctionName]?.(result) ?? result;
    // A result read with a secret argument is a secret too, as Pulumi's own providers answer.
    return new proto.InvokeResponse().setReturn(toStruct(secret.length ? withSecrets(shaped, Object.keys(shaped)) : shaped));
  }

  /** The engine cancels the run (a signal to the CLI): the writes under way stop and answer with what they wrote. */
  async cancel(): Promise<Empty> {
    cancelledByEngine();
    return new Empty();
  }
}

/**
 * The outputs of an imported resource: those of a resource that declares what the import
 * declares, from a second read with those inputs as its state. The read by id alone answers as a
 * resource that manages nothing (a ProjectTags with no declared tags, a PolicyRuleModes with no
 * modes), and the next diff compares the program's inputs with these outputs: the generated code
 * would then preview an update of values that are live as declared. The state also records that
 * the resource found the object (import.ts), so that destroy leaves it.
 */
async function importedOutputs(kind: ResourceKind, id: string, inputs: Props, context: ResourceIdentity): Promise<Props | undefined> {
  const again = (await run(kind, "read", [id, importedState(kind, inputs)], { now: context })) as { id?: string; props?: Props };
  return again.id ? (again.props ?? {}) : undefined;
}

const stringOr = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * An error as the engine reads it: the message, and for a create or update whose writes partly
 * landed (the runtime's partial-state error carries `id` and `properties`), the resource's state
 * as far as they go, so that the engine records it (`ErrorResourceInitFailed`).
 */
function grpcError(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  const partial = error as { id?: string; properties?: Props; reasons?: string[] };
  if (error instanceof Error && typeof partial.id === "string" && partial.id) {
    const detail = new proto.ErrorResourceInitFailed()
      .setId(partial.id)
      .setProperties(toStruct(partial.properties ?? {}))
      .setReasonsList(partial.reasons ?? [message]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/** The protocol's methods, each answering through the handlers above; the rest answer UNIMPLEMENTED. */
function service(provider: ResourceProvider): grpc.UntypedServiceImplementation {
  const methods = [
    "getPluginInfo",
    "getSchema",
    "checkConfig",
    "diffConfig",
    "configure",
    "check",
    "diff",
    "create",
    "read",
    "update",
    "delete",
    "invoke",
    "cancel",
  ] as const;
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const method of methods) {
    const fn = (provider[method] as (request: unknown) => Promise<unknown>).bind(provider);
    implementation[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const urn = (call.request as { getUrn?: () => string }).getUrn?.() ?? "";
      aboutResource(urn, () => fn(call.request)).then(
        (response) => callback(null, response),
        (error: unknown) => callback(grpcError(error)),
      );
    };
  }
  return implementation;
}

/** Large states (a policy of thousands of rules) exceed gRPC's default 4 MB message limit. */
const MESSAGE_LIMIT = 400 * 1024 * 1024;

/**
 * Starts the server on a loopback port and prints the port as the first line of stdout, as the
 * engine expects of a plugin; `args` are the plugin's arguments, the engine's address among them.
 */
export async function startPlugin(args: string[]): Promise<grpc.Server> {
  useEngineAddress(addressAmong(args));
  const server = new grpc.Server({ "grpc.max_receive_message_length": MESSAGE_LIMIT, "grpc.max_send_message_length": MESSAGE_LIMIT });
  server.addService(rpc.ResourceProviderService, service(new ResourceProvider()));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  process.stdout.write(`${port}\n`);
  return server;
}

/**
 * The dispatch both front ends call: one provider method of one resource kind, with what every
 * call shares (the redaction of secret inputs, the partial-failure state, the service errors as
 * check failures). The dynamic front end reaches it through `pulumi-semgrep/dynamic`
 * (dynamic/runtime.ts), the native one from its gRPC server; both give the call's context (the
 * resource's name, parent and secret inputs) in the properties under the meta inputs' names.
 */
import { causeChain, SemgrepError } from "../../client";
import { KINDS, type ResourceKind } from "../kinds";
import type { Props } from "./check";
import type { CheckResult, ConfigureRequest, CreateResult, DiffResult, Handler, ReadResult, UpdateResult } from "./handler";
import { configure, withCredentialsHint } from "./credentials";
import { detectionPolicy } from "../handlers/detection-policy";
import { detectionPolicyException } from "../handlers/detection-policy-exception";
import { managedScan } from "../handlers/managed-scan";
import { policyRuleMode } from "../handlers/policy-rule-mode";
import { whileWriting } from "./interrupts";
import { dropRecorded, journaling, resourceJournalKey } from "./journal";
import { notify } from "./notices";
import { describeResource, noteCall } from "./owned";
import { fail, type Owner, settle, withCallDeadline } from "./ownership";
import { PartiallyApplied, withPartialState } from "./partial";
import { policyRuleModes } from "../handlers/policy-rule-modes";
import { claimSecrets, type Redact, redactedError, redactorFor, withRedaction } from "./redact";
import { ownerOf, secretInputsOf, withoutPlaceholders } from "./resource-meta";
import { projectSettings } from "../handlers/project-settings";
import { projectTags } from "../handlers/project-tags";
import { remediationPolicy } from "../handlers/remediation-policy";
import { sbomExport } from "../handlers/sbom-export";

export const handlers: { [K in ResourceKind]: Handler<(typeof KINDS)[K]> } = {
  ProjectSettings: projectSettings,
  ProjectTags: projectTags,
  ManagedScan: managedScan,
  PolicyRuleMode: policyRuleMode,
  PolicyRuleModes: policyRuleModes,
  SbomExport: sbomExport,
  DetectionPolicy: detectionPolicy,
  DetectionPolicyException: detectionPolicyException,
  RemediationPolicy: remediationPolicy,
};

type Method = keyof Handler | "configure";

/**
 * Where the checked inputs are among a method's arguments. They carry the placeholders of derived
 * outputs (resource-meta.ts), which matter to the engine only and must not overwrite the outputs
 * of the same names.
 */
const CHECKED_INPUTS_ARGUMENT: Partial<Record<Method, number>> = { create: 0, diff: 2, update: 2 };

/** Runs one provider method of one resource kind. */
export async function run(kind: ResourceKind, method: Method, args: unknown[]): Promise<unknown> {
  if (method === "configure") return configure(args[0] as ConfigureRequest);
  const handler = handlers[kind];
  if (!handler)
    throw new Error(`pulumi-semgrep: unknown resource kind ${String(kind)}; is the installed pulumi-semgrep older than the program's?`);
  const fn = handler[method] as (...a: unknown[]) => unknown;
  if (typeof fn !== "function") throw new Error(`pulumi-semgrep: ${kind} has no method ${String(method)}`);
  await noteCall(method, method === "check" ? args[0] : undefined);
  const given = args.map(withoutProviderKey);
  const at = CHECKED_INPUTS_ARGUMENT[method];
  if (at !== undefined) given[at] = withoutPlaceholders(kind, given[at] as Props);
  const byIdAlone = method === "read" && !hasInputs(kind, given[1] as Props);
  if (method === "read") given[1] = withIdInputs(kind, given[0] as string, given[1] as Props);
  // Every message of the call, whatever kind wrote it, hides the texts of the resource's secret
  // inputs, and those of every other resource's secret claims (the secrecy travels with the claim).
  for (const props of args.filter(isProps)) claimSecrets(props);
  const redact = redactorFor(kind, args.filter(isProps));
  try {
    const call = () => withRedaction(redact, () => withCallDeadline(() => fn.apply(handler, given) as Promise<unknown>));
    const result = withoutUndefined(await (WRITING.includes(method) ? asWrite(kind, method, given, call) : call()));
    settleAfter(kind, method, given, result);
    if (method === "check") return withRedactedFailures(result as CheckResult, given[1] as Props, redact);
    // A refresh may find its object gone (the engine then drops it); `X.get` of a missing one is a mistake.
    if (byIdAlone && (result as ReadResult).id === "") {
      throw new Error(
        `${kind}: no object with the id "${String(given[0])}" (${KINDS[kind].id.format}) exists; ` +
          `\`${kind}.get\`, a YAML \`get:\` and \`pulumi import\` need the id of an existing object`,
      );
    }
    return result;
  } catch (error) {
    failAfter(kind, method, given, error);
    const providerKey = at === undefined ? undefined : (args[at] as Props | undefined)?.__provider;
    const reported = withPartialState(redactedError(withCredentialsHint(error), redact), error, providerKey, withoutUndefined);
    if (!isServiceError(error) || !(reported instanceof Error)) throw reported;
    // At preview, the usual place: a check failure, which the engine prints once, with the resource.
    if (method === "check") return { inputs: given[1], failures: [{ property: "", reason: reported.message }] };
    throw withoutStackTrace(reported);
  }
}

/** The methods that write to the service. */
const WRITING: readonly Method[] = ["create", "update", "delete"];

/**
 * A create, update or delete: a signal to the provider waits for it to end (interrupts.ts), and a
 * create or update has the resource's journal of originals at hand (journal.ts), which a delete
 * drops. The same for every kind, so that none loses an original its handler did not think of.
 */
function asWrite(kind: ResourceKind, method: Method, given: unknown[], call: () => Promise<unknown>): Promise<unknown> {
  const props = (method === "delete" ? given[1] : given[CHECKED_INPUTS_ARGUMENT[method]!]) as Props | undefined;
  const key = isProps(props) && typeof props.resourceName === "string" ? journalKeyOf(kind, props) : undefined;
  if (!key) return whileWriting(call);
  if (method === "delete") return whileWriting(call).then((result) => (dropRecorded(key), result));
  const secret = secretInputsOf(props!);
  return whileWriting(() => journaling(key, secret, call, (restored, lost) => noteJournaled(kind, props!, restored, lost)));
}

/** The journal's key of a resource: its kind, name, parent and identity inputs (those whose change replaces it). */
function journalKeyOf(kind: ResourceKind, props: Props): string {
  const inputs = KINDS[kind].inputs as Record<string, { replaces?: boolean }>;
  const identity = Object.fromEntries(Object.keys(inputs).flatMap((input) => (inputs[input]!.replaces ? [[input, props[input]]] : [])));
  const parent = typeof props.resourceParent === "string" ? props.resourceParent : undefined;
  return resourceJournalKey(kind, String(props.resourceName), parent, identity);
}

/** Says which originals a create or update took from this machine's journal (a killed run of it wrote them), and which it could not (secret). */
async function noteJournaled(kind: ResourceKind, props: Props, restored: ReadonlyMap<string, unknown>, lost: readonly string[]) {
  const self = describeResource(kind, props);
  if (restored.size)
    await notify(
      "info",
      `${self} found ${[...restored.keys()].join(" and ")} already as declared, set by an interrupted run of it: it recorded from this ` +
        `machine's journal the value${restored.size === 1 ? "" : "s"} that run replaced (destroy puts ${restored.size === 1 ? "it" : "them"} back): ` +
        [...restored].map(([field, original]) => `${field} (was ${JSON.stringify(original)})`).join("; "),
    );
  if (lost.length)
    await notify(
      "warning",
      `${self} found ${lost.join(" and ")} already as declared, set to a secret value by an interrupted run of it; the journal keeps no ` +
        `secret, so nothing is recorded to put back and destroy will leave ${lost.length === 1 ? "it" : "them"} as ${lost.length === 1 ? "it is" : "they are"}.`,
    );
}

/**
 * Where the resource's own inputs are among a method's arguments (its name and parent, for its
 * claims: ownership.ts), for the methods after which the dispatcher settles its claims.
 */
const DECLARING_ARGUMENT: Partial<Record<Method, number>> = { check: 1, diff: 2, create: 0, update: 2 };

/**
 * Settles the resource's claims once the service holds what it declares: after a create, an
 * update, or a diff that finds nothing to change, with the originals its outputs (a diff: its
 * olds) recorded. A check that failed on a conflict holds nothing: nobody waits for it.
 * Here rather than in each handler, so that no path forgets it.
 */
function settleAfter(kind: ResourceKind, method: Method, given: unknown[], result: unknown): void {
  const owner = ownerAt(kind, method, given);
  if (!owner) return;
  if (method === "check" && (result as CheckResult).failures?.length) fail(owner);
  else if (method === "diff" && !(result as DiffResult).changes) settle(owner, "unchanged", recordedBy(kind, given[1]));
  else if (method === "create" || method === "update") settleWritten(kind, method, owner, (result as CreateResult | UpdateResult).outs);
}

/** What a state of `kind` recorded as each claimed field's original (the handler's `recorded`). */
const recordedBy = (kind: ResourceKind, state: unknown) => handlers[kind].recorded?.((state ?? {}) as Props) ?? {};

/** Settles a resource after its create or update, with the originals its outputs (or partial state) record. */
const settleWritten = (kind: ResourceKind, method: "create" | "update", owner: Owner, outs: unknown) =>
  settle(owner, method === "create" ? "created" : "updated", recordedBy(kind, outs));

/**
 * After a check, diff, create or update that failed: a create or update whose writes partly
 * landed holds what they wrote (its partial state records it, partial.ts), and settles with what
 * that state recorded; any other failure holds nothing of what the resource declares (ownership.ts fail).
 */
function failAfter(kind: ResourceKind, method: Method, given: unknown[], error: unknown): void {
  const owner = ownerAt(kind, method, given);
  if (!owner) return;
  const partial = [...causeChain(error)].find((e): e is PartiallyApplied => e instanceof PartiallyApplied);
  if (partial && (method === "create" || method === "update")) settleWritten(kind, method, owner, partial.outs);
  else fail(owner);
}

function ownerAt(kind: ResourceKind, method: Method, given: unknown[]) {
  const at = DECLARING_ARGUMENT[method];
  const props = at === undefined ? undefined : given[at];
  return isProps(props) ? ownerOf(kind, props) : undefined;
}

/** An error of the service or of the connection to it (the client's errors), whose message says what to do. */
const isServiceError = (error: unknown) => [...causeChain(error)].some((e) => e instanceof SemgrepError);

/**
 * `error` without its stack trace: the dynamic host prints an error's stack for `check`, `diff`, `read`
 * and `delete`, which for an error of the service or of its address buries the one line that
 * says what to fix under frames of the provider's code.
 */
function withoutStackTrace(error: Error): Error {
  error.stack = "";
  return error;
}

const isProps = (arg: unknown): arg is Props => arg !== null && typeof arg === "object" && !Array.isArray(arg);

/**
 * Check failures as the engine may print them: the engine prints the value of the property a
 * failure names, so a failure about a secret input (or anything inside one: `select.exclude[0]`,
 * `modes.<rule>`) names no property; and its reason hides the secret texts, which the service's
 * own validation messages quote.
 */
function withRedactedFailures(result: CheckResult, news: Props, redact: Redact): CheckResult {
  if (!result.failures?.length) return result;
  const secret = secretInputsOf(news);
  const failures = result.failures.map(({ property, reason }) => ({
    property: secret.includes(property.split(/[.[]/)[0] ?? "") ? "" : property,
    reason: redact(reason),
  }));
  return { ...result, failures };
}

const hasInputs = (kind: ResourceKind, props: Props) => Object.keys(KINDS[kind].inputs).some((input) => props[input] !== undefined);

/**
 * The properties `read` is given, completed with what the id stands for: the engine reads a
 * resource constructed with `opts.id` (`X.get(name, id)`) with no state at all.
 */
function withIdInputs(kind: ResourceKind, id: string, props: Props): Props {
  const format = KINDS[kind].id;
  const fromId: Props | undefined = format.parse(id);
  if (fromId) return { ...fromId, ...props };
  if (hasInputs(kind, props)) return props;
  throw new Error(`${kind}: "${id}" is not an id of this kind: give ${format.format}`);
}

/** The host passes the serialized shim (`__provider`) along with the properties; handlers never need it. */
function withoutProviderKey(arg: unknown): unknown {
  if (!arg || typeof arg !== "object" || Array.isArray(arg) || !("__provider" in arg)) return arg;
  const { __provider: _shim, ...props } = arg as Props;
  return props;
}

/**
 * The host turns results into protobuf Structs, which have no `undefined`: an absent value is
 * simply left out.
 */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    );
  }
  return value;
}

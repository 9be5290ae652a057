/**
 * The dispatch both front ends call: one provider method of one resource kind, with what every
 * call shares (the redaction of secret inputs, the partial-failure state, the service errors as
 * check failures). The dynamic front end reaches it through `pulumi-semgrep/dynamic`
 * (dynamic/runtime.ts), the native one from its gRPC server. Each handler method gets the call's
 * context (call-context.ts) as its last argument: the resource's name, parent and secret inputs,
 * and the claims API.
 */
import { causeChain, SemgrepError } from "../../client";
import { implicitSecrets, KINDS, type ResourceKind } from "../kinds";
import { ABSENT } from "../kinds/declare";
import type { Props } from "./check";
import type { CheckResult, ConfigureRequest, CreateResult, DiffResult, Handler, ReadResult, UpdateResult } from "./handler";
import { configure, withCredentialsHint } from "./credentials";
import { deploymentSettings } from "../handlers/deployment-settings";
import { detectionPolicy } from "../handlers/detection-policy";
import { detectionPolicyException } from "../handlers/detection-policy-exception";
import { managedScan } from "../handlers/managed-scan";
import { notificationRule } from "../handlers/notification-rule";
import { policyRuleMode } from "../handlers/policy-rule-mode";
import { whileWriting } from "./interrupts";
import { dropRecorded, journaling, resourceJournalKey, settleJournal } from "./journal";
import { notify } from "./notices";
import { noteCall } from "./owned";
import { fail, type Owner, Refusal, settle, withCallDeadline } from "./ownership";
import { PartiallyApplied, withPartialState } from "./partial";
import { policyRuleModes } from "../handlers/policy-rule-modes";
import { claimSecrets, type Given, type Redact, redactedError, redactorFor, withRedaction } from "./redact";
import { checkMeta, identityOf, metaOutputs, refreshedMetaInputs, withoutMeta, withoutPlaceholders } from "./resource-meta";
import { type CallContext, callContext, identityChanged, type ResourceIdentity } from "./call-context";
import { projectSettings } from "../handlers/project-settings";
import { projectSettingsSet } from "../handlers/project-settings-set";
import { projectTags } from "../handlers/project-tags";
import { remediationPolicy } from "../handlers/remediation-policy";
import { sbomExport } from "../handlers/sbom-export";
import { userRole } from "../handlers/user-role";
import { team } from "../handlers/team";
import { teamMembers } from "../handlers/team-members";
import { teamProjects } from "../handlers/team-projects";

export const handlers: { [K in ResourceKind]: Handler<(typeof KINDS)[K]> } = {
  ProjectSettings: projectSettings,
  ProjectSettingsSet: projectSettingsSet,
  ProjectTags: projectTags,
  ManagedScan: managedScan,
  PolicyRuleMode: policyRuleMode,
  PolicyRuleModes: policyRuleModes,
  SbomExport: sbomExport,
  DetectionPolicy: detectionPolicy,
  DetectionPolicyException: detectionPolicyException,
  RemediationPolicy: remediationPolicy,
  UserRole: userRole,
  DeploymentSettings: deploymentSettings,
  NotificationRule: notificationRule,
  Team: team,
  TeamMembers: teamMembers,
  TeamProjects: teamProjects,
};

type Method = keyof Handler | "configure";

/**
 * Where a method's properties are among its arguments: the resource's own (its inputs, or for
 * read and delete its state) and, for check, diff and update, the olds.
 */
const NOW: Partial<Record<Method, number>> = { check: 1, diff: 2, create: 0, read: 1, update: 2, delete: 1 };
const BEFORE: Partial<Record<Method, number>> = { check: 0, diff: 1, update: 1 };
/**
 * Where a method's inputs are (the others are states). Inputs carry the placeholders of derived
 * outputs (resource-meta.ts), which matter to the engine only and must not overwrite the outputs
 * of the same names.
 */
const INPUTS_AT: Partial<Record<Method, number[]>> = { check: [0, 1], create: [0], diff: [2], update: [2] };

/**
 * Who a call is for, as the native front end tells it (from the request). The dynamic front end
 * passes none: its resource classes put the same in the properties (resource-meta.ts), which the
 * dispatcher reads, hands to the handler as its context, and puts back in what the call returns,
 * so that the state keeps it.
 */
export interface Identities {
  now?: ResourceIdentity;
  before?: ResourceIdentity;
}

/** Runs one provider method of one resource kind. */
export async function run(kind: ResourceKind, method: Method, args: unknown[], identities?: Identities): Promise<unknown> {
  if (method === "configure") return configure(args[0] as ConfigureRequest);
  const handler = handlers[kind];
  if (!handler)
    throw new Error(`pulumi-semgrep: unknown resource kind ${String(kind)}; is the installed pulumi-semgrep older than the program's?`);
  const fn = handler[method] as (...a: unknown[]) => unknown;
  if (typeof fn !== "function") throw new Error(`pulumi-semgrep: ${kind} has no method ${String(method)}`);
  await noteCall(method, method === "check" ? args[0] : undefined);
  const given = args.map(withoutProviderKey);
  const fromMeta = identities === undefined;
  const at = { now: NOW[method], before: BEFORE[method] };
  const propsAt = (i: number | undefined) => (i === undefined || !isProps(given[i]) ? undefined : (given[i] as Props));
  const now = withImplicitSecrets(kind, fromMeta ? identityAt(propsAt(at.now)) : identities.now, propsAt(at.now));
  const before = withImplicitSecrets(kind, fromMeta ? identityAt(propsAt(at.before)) : identities.before, propsAt(at.before));
  const ctx = callContext(kind, now, before);
  // Every message of the call, whatever kind wrote it, hides the texts of the resource's secret
  // inputs, and those of every other resource's secret claims (the secrecy travels with the claim).
  const secretGiven = [
    { props: propsAt(at.now), secretInputs: now?.secretInputs ?? [] },
    { props: propsAt(at.before), secretInputs: before?.secretInputs ?? [] },
  ].filter((g): g is Given => g.props !== undefined);
  for (const g of secretGiven) claimSecrets(g);
  const redact = redactorFor(kind, secretGiven);
  // The handler sees the kind's properties only: the metadata and the placeholders of derived
  // outputs are the dynamic classes' (a state moved from them to the plugin holds them too).
  const meta = fromMeta && method === "check" && propsAt(at.now) ? checkMeta(kind, propsAt(at.now)!) : undefined;
  const stored = propsAt(at.now) ?? {};
  for (const i of [at.now, at.before]) if (propsAt(i)) given[i!] = withoutMeta(propsAt(i)!);
  for (const i of INPUTS_AT[method] ?? []) if (propsAt(i)) given[i] = withoutPlaceholders(kind, propsAt(i)!);
  const byIdAlone = method === "read" && !hasInputs(kind, given[1] as Props);
  if (method === "read") given[1] = withIdInputs(kind, given[0] as string, given[1] as Props);
  if (method === "diff" || method === "read" || method === "update") settleJournalWith(kind, method, ctx, given, before);
  try {
    const call = () => withRedaction(redact, () => withCallDeadline(() => fn.apply(handler, [...given, ctx]) as Promise<unknown>));
    let result = await (WRITING.includes(method) ? asWrite(kind, method, ctx, given, call) : call());
    if (method === "diff")
      result = {
        ...(result as DiffResult),
        changes: (result as DiffResult).changes === true || identityChanged(comparedBefore(kind, before, propsAt(at.now)), now),
      };
    if (fromMeta) result = withMeta(kind, method, result, stored, meta);
    result = withoutUndefined(result);
    settleAfter(kind, method, ctx, given, result);
    if (method === "check") return withRedactedFailures(result as CheckResult, ctx, redact);
    // A refresh may find its object gone (the engine then drops it); `X.get` of a missing one is a mistake.
    if (byIdAlone && (result as ReadResult).id === "") {
      throw new Error(
        `${kind}: no object with the id "${String(given[0])}" (${KINDS[kind].id.format}) exists; ` +
          `\`${kind}.get\`, a YAML \`get:\` and \`pulumi import\` need the id of an existing object`,
      );
    }
    return result;
  } catch (error) {
    failAfter(kind, method, ctx, error);
    if (fromMeta) withMetaInPartialState(error, stored);
    // A partial state (create, update) goes back with the provider's reference, as outputs do.
    const providerKey = method === "create" || method === "update" ? (args[at.now!] as Props | undefined)?.__provider : undefined;
    const reported = withPartialState(redactedError(withCredentialsHint(error), redact), error, providerKey, withoutUndefined);
    if (!isServiceError(error) || !(reported instanceof Error)) throw reported;
    // At preview, the usual place: a check failure, which the engine prints once, with the resource.
    if (method === "check") return { inputs: stored, failures: [{ property: "", reason: reported.message }] };
    throw withoutStackTrace(reported);
  }
}

const identityAt = (props: Props | undefined) => (props ? identityOf(props) : undefined);

/**
 * The identity with the inputs the kind holds as secrets whatever the program gave (declare.ts
 * `secretWhen`: a rule's config with a webhook URL) among its secret inputs, so that every message
 * of the call hides their values, in either front end.
 */
function withImplicitSecrets(kind: ResourceKind, identity: ResourceIdentity | undefined, props: Props | undefined) {
  const implicit = props ? implicitSecrets(kind, props).filter((input) => !identity?.secretInputs.includes(input)) : [];
  if (!implicit.length) return identity;
  return { ...identity, secretInputs: [...(identity?.secretInputs ?? []), ...implicit] };
}

/**
 * The olds' identity as a diff compares it with the news': without the inputs the kind holds as
 * secrets for their value (`secretWhen`) that the program does not declare. The olds are outputs,
 * which carry every live value (a rule's config with its webhook URL, which the resource does not
 * manage): such an input is no secret the program stopped giving, and counted it would make every
 * preview an update.
 */
function comparedBefore(kind: ResourceKind, before: ResourceIdentity | undefined, news: Props | undefined) {
  if (!before || !news) return before;
  const inputs = KINDS[kind].inputs as Record<string, { secretWhen?: unknown }>;
  const undeclared = (input: string) => news[input] === undefined && inputs[input]?.secretWhen !== undefined;
  return { ...before, secretInputs: before.secretInputs.filter((input) => !undeclared(input)) };
}

/** The methods that write to the service. */
const WRITING: readonly Method[] = ["create", "update", "delete"];

/**
 * A create, update or delete: a signal to the provider waits for it to end (interrupts.ts), and a
 * create or update has the resource's journal of originals at hand (journal.ts), which a delete
 * drops. The same for every kind, so that none loses an original its handler did not think of.
 */
function asWrite(kind: ResourceKind, method: Method, ctx: CallContext, given: unknown[], call: () => Promise<unknown>): Promise<unknown> {
  const props = given[NOW[method]!] as Props | undefined;
  const key = isProps(props) && ctx.owner ? journalKeyOf(kind, ctx.owner, props) : undefined;
  if (!key) return whileWriting(call);
  if (method === "delete") return whileWriting(call).then((result) => (dropRecorded(key), result));
  const outputsOf = (result: unknown) => (result as CreateResult | UpdateResult | undefined)?.outs;
  return whileWriting(() => journaling(key, ctx.secretInputs, call, outputsOf, (restored, lost) => noteJournaled(ctx, restored, lost)));
}

/**
 * Drops the lines of the resource's journal that the state this call is given (the olds of a diff
 * or update, the state a refresh reads) records: once the state holds a create's or update's
 * outputs, the originals that call journaled are in it (journal.ts settleJournal). A resource
 * renamed or moved with an alias kept them under its earlier name and parent, which the dynamic
 * classes' olds say (`before`): left there, a later resource of that name would read them as a
 * killed run's. (The native plugin is told the new URN alone: there they stay.)
 */
function settleJournalWith(kind: ResourceKind, method: Method, ctx: CallContext, given: unknown[], before?: ResourceIdentity): void {
  const [identity, state] = [given[NOW[method]!], given[1]];
  if (!isProps(identity) || !isProps(state)) return;
  if (ctx.owner) settleJournal(journalKeyOf(kind, ctx.owner, identity), state);
  const moved = before?.name !== undefined && (before.name !== ctx.owner?.name || before.parent !== ctx.owner?.parent);
  if (moved)
    settleJournal(journalKeyOf(kind, { kind, name: before.name!, ...(before.parent ? { parent: before.parent } : {}) }, identity), state);
}

/** The journal's key of a resource: its kind, name, parent and identity inputs (those whose change replaces it), as text. */
function journalKeyOf(kind: ResourceKind, owner: Owner, props: Props): string {
  const inputs = KINDS[kind].inputs as Record<string, { replaces?: boolean }>;
  const identity = Object.fromEntries(
    Object.keys(inputs).flatMap((input) => (inputs[input]!.replaces ? [[input, textOf(props[input])]] : [])),
  );
  return resourceJournalKey(kind, owner.name, owner.parent, identity);
}

/** An identity input as text, so that the inputs of a create and the state of a later call (which may hold `1` for `"1"`) give one key. */
const textOf = (value: unknown) => (value === undefined || value === null || typeof value === "object" ? value : String(value));

/** Says which originals a create or update took from this machine's journal (a killed run of it wrote them), and which it could not (secret). */
async function noteJournaled(ctx: CallContext, restored: ReadonlyMap<string, unknown>, lost: readonly string[]) {
  const self = ctx.name;
  // An object or tag the run added was absent before it: said so, not as a value named "absent".
  const was = (original: unknown) => (original === ABSENT ? "(it added it)" : `(was ${JSON.stringify(original)})`);
  const entries = [...restored].map(([field, original]) => `${field} ${was(original)}`);
  // A few on one line; more (a set's projects, hundreds of fields) one a line, so that no line runs on.
  const many = restored.size > 3;
  if (restored.size)
    await notify(
      "info",
      `${self} found ${many ? `${restored.size} values` : [...restored.keys()].join(" and ")} already as declared, set by an interrupted ` +
        `run of it: it recorded from this machine's journal the value${restored.size === 1 ? "" : "s"} that run replaced (destroy puts ` +
        `${restored.size === 1 ? "it" : "them"} back):` +
        (many ? entries.map((entry) => `\n  ${entry}`).join("") : ` ${entries.join("; ")}`),
    );
  if (lost.length)
    await notify(
      "warning",
      `${self} found ${lost.join(" and ")} already as declared, set to a secret value by an interrupted run of it; the journal keeps no ` +
        `secret, so nothing is recorded to put back and destroy will leave ${lost.length === 1 ? "it" : "them"} as ${lost.length === 1 ? "it is" : "they are"}.`,
    );
}

/**
 * A result with the dynamic classes' metadata put back (from `stored`, the call's own properties):
 * check returns it checked beside the inputs, and the outputs of create, update and read keep it,
 * so that read and delete, which see only the state, know it too.
 */
function withMeta(
  kind: ResourceKind,
  method: Method,
  result: unknown,
  stored: Props,
  meta: ReturnType<typeof checkMeta> | undefined,
): unknown {
  if (method === "check") {
    const checked = result as CheckResult;
    const failures = [...(checked.failures ?? []), ...(meta?.failures ?? [])];
    const inputs = { ...(checked.inputs ?? {}), ...(meta?.meta ?? {}) };
    return failures.length ? { ...checked, inputs, failures } : { ...checked, inputs };
  }
  if (method === "create" || method === "update") {
    const done = result as CreateResult | UpdateResult;
    return done.outs ? { ...done, outs: { ...done.outs, ...metaOutputs(stored) } } : done;
  }
  if (method === "read") {
    const read = result as ReadResult;
    return {
      ...read,
      ...(read.props ? { props: { ...read.props, ...metaOutputs(stored) } } : {}),
      ...(read.inputs ? { inputs: { ...read.inputs, ...refreshedMetaInputs(kind, stored) } } : {}),
    };
  }
  return result;
}

/** A create or update whose writes partly landed: its partial state keeps the metadata too (see {@link withMeta}). */
function withMetaInPartialState(error: unknown, stored: Props): void {
  const partial = [...causeChain(error)].find((e): e is PartiallyApplied => e instanceof PartiallyApplied);
  if (partial) Object.assign(partial.outs, withoutUndefined(metaOutputs(stored)));
}

/**
 * Settles the resource's claims once the service holds what it declares: after a create, an
 * update, or a diff that finds nothing to change, with the originals its outputs (a diff: its
 * olds) recorded. A check that failed on a conflict holds nothing: nobody waits for it.
 * Here rather than in each handler, so that no path forgets it.
 */
function settleAfter(kind: ResourceKind, method: Method, ctx: CallContext, given: unknown[], result: unknown): void {
  const owner = ctx.owner;
  if (!owner || !(method in DECLARING)) return;
  if (method === "check" && (result as CheckResult).failures?.length) fail(owner);
  else if (method === "diff" && !(result as DiffResult).changes) settle(owner, "unchanged", recordedBy(kind, given[1]));
  else if (method === "create" || method === "update") settleWritten(kind, method, owner, (result as CreateResult | UpdateResult).outs);
}

/** The methods whose properties declare what the resource claims (read and delete declare nothing). */
const DECLARING = { check: true, diff: true, create: true, update: true };

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
function failAfter(kind: ResourceKind, method: Method, ctx: CallContext, error: unknown): void {
  const owner = ctx.owner;
  if (!owner || !(method in DECLARING)) return;
  const partial = [...causeChain(error)].find((e): e is PartiallyApplied => e instanceof PartiallyApplied);
  if (partial && (method === "create" || method === "update")) settleWritten(kind, method, owner, partial.outs);
  else fail(owner);
}

/** An error of the service or of the connection to it (the client's errors), or a refusal of a conflict: its message says what to do. */
const isServiceError = (error: unknown) => [...causeChain(error)].some((e) => e instanceof SemgrepError || e instanceof Refusal);

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
function withRedactedFailures(result: CheckResult, ctx: CallContext, redact: Redact): CheckResult {
  if (!result.failures?.length) return result;
  const failures = result.failures.map(({ property, reason }) => ({
    property: ctx.secret(property.split(/[.[]/)[0] ?? "") ? "" : property,
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

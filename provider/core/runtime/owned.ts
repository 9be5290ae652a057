/**
 * The ownership steps every resource handler takes (see ownership.ts for why):
 * `check` declares what the resource manages and refuses a conflict (the dispatcher settles the
 * claims after `diff`, `create` and `update`: dispatch.ts), and `delete` leaves to another
 * resource of the run what it now holds, with a warning that says what each recorded and what
 * destroying the holder will do.
 */
import type { CheckResult, DiffResult } from "./handler";
import { fieldRules, inputSchema, KINDS, type ResourceKind } from "../kinds";
import { diffDeclared } from "./diff";
import { managedFields } from "./managed";
import type { CheckedInputs, ManagedField } from "../kinds/declare";
import { checkInputs, containsUnknown, type Props } from "./check";
import { type Claim, type Holder, type Offer, type Owner, ownerName, sameOwner } from "./ownership";
import { notify, notifyOnce, someOf } from "./notices";
import { onForget } from "./process-memory";
import { redacted } from "./redact";
import type { CallContext } from "./call-context";

/**
 * Whether this run has seen a resource of the stack with state from an earlier run (its `check`
 * had old inputs, or it was diffed, read, updated or deleted). Until then the stack may have set
 * nothing at all (its first `up`), and a create that finds its value already as declared is an
 * ordinary adoption: {@link noteFoundAsDeclared} holds its note back, and sends it only if the
 * run meets such a resource later (the engine runs the steps of many resources at once, so a
 * create may finish before another resource's check). Once seen, the stack has a history, and
 * the value found may be one it set (an interrupted `up`, `pulumi state delete`).
 */
let stackHistory = false;
/** Notes held back until the run shows the stack has a history (redacted as their resource's). */
const heldNotes: string[] = [];
let saidWithoutHistory = false;
onForget(() => {
  stackHistory = false;
  heldNotes.length = 0;
  saidWithoutHistory = false;
});

/** Called for every method call of the provider: records whether it shows the stack has a history. */
export async function noteCall(method: string, olds: unknown): Promise<void> {
  const hasOlds = !!olds && typeof olds === "object" && Object.keys(olds).some((key) => key !== "__provider");
  if (!["diff", "read", "update", "delete"].includes(method) && !(method === "check" && hasOlds)) return;
  stackHistory = true;
  await Promise.all(heldNotes.splice(0).map((message) => notify("info", message)));
}

/** True when none of `values` is a preview's unknown: what a claim is made of must be known. */
export const known = (...values: unknown[]) => values.every((v) => v !== undefined && !containsUnknown(v));

/**
 * `check` of an owning resource: its inputs, then its claims. A field another resource of the
 * stack already declares on the same object fails the check, naming both resources, before any
 * write (at preview, or in an `up` without preview before the later resource's own write).
 */
export function checkOwned<K extends ResourceKind>(
  kind: K,
  ctx: CallContext,
  news: Props,
  claimsOf: (inputs: CheckedInputs<(typeof KINDS)[K]>) => Claim[],
): CheckResult {
  const result = checkKindInputs(ctx, news);
  if (result.failures || !ctx.owner) return result;
  if (kind !== ctx.kind) throw new Error(`pulumi-semgrep: a ${kind} check given the context of a ${ctx.kind}`);
  const conflicts = ctx.claims.declare(claimsOf(result.inputs as CheckedInputs<(typeof KINDS)[K]>));
  if (!conflicts.length) return result;
  return {
    inputs: result.inputs,
    failures: conflicts.map(({ claim, other }) => ({
      // The engine prints the value of the property a failure names: none for a secret.
      property: claim.secret ? "" : (claim.property ?? claim.field),
      reason:
        `${ctx.name} declares ${claim.field} of ${claim.object}, which ${ownerName(other)} declares too. ` +
        "Declare each field of an object in one resource only: two would overwrite each other's value, " +
        "and destroying either would put back the wrong original.",
    })),
  };
}

/** `check` of a resource's own inputs against its kind's declared schema (a secret input's value never shown). */
export function checkKindInputs(ctx: CallContext, news: Props): CheckResult {
  return checkInputs(inputSchema(ctx.kind), news, new Set(ctx.secretInputs));
}

/**
 * `diff` of a kind that declares its managed fields: its field rules' result, where a managed
 * field the program no longer declares (its original recorded in `object`) alone makes an update
 * (it drops the field's original from the state), after the preview's warning of what no
 * `pulumi destroy` will then put back ({@link noteDroppedFields}).
 */
export async function diffManaged(ctx: CallContext, olds: Props, news: Props, object: string): Promise<DiffResult> {
  const result = diffDeclared(olds, news, fieldRules(ctx.kind));
  const dropped = managedFields(ctx.kind).dropped(olds, news);
  await noteDroppedFields(ctx, object, dropped);
  return { ...result, changes: result.changes === true || dropped.length > 0 };
}

export interface HandOver {
  /** The context of the resource that lets go. */
  ctx: CallContext;
  /** How it lets go; default "was deleted". */
  verb?: string;
  /** What it leaves: `the mode of rule x in policy 10 (deployment 1)`. */
  what: string;
  /** The field's name, or for a resource of many objects the object's (a rule's path). */
  name: string;
  holder: Holder;
  /** The delete wrote the value the holder declares (the service had another). */
  wrote: boolean;
  /** What the resource that lets go recorded as the field's original, if anything. */
  original?: unknown;
  /** How a value of the field is shown; secret values show as `[secret]` whatever this says. */
  show: (value: unknown) => string;
  /** The original is a secret of the program. */
  secretOriginal?: boolean;
}

/**
 * Warns that a resource let go of a field another resource of the run holds, saying only what
 * is known: the value left (or written), what each of the two recorded as the original, what
 * destroying the holder will do, and, after what looks like a rename, the alias that keeps the
 * original next time.
 */
export function warnHandedOver(handOver: HandOver): Promise<void> {
  const { ctx, what, holder, wrote, original, show } = handOver;
  const self = ctx.name;
  const other = holderName(holder);
  const newer = holder.settled === "created";
  // A shared claim's value is the claim itself (a tag): "declares it" says all.
  const value = holder.value === undefined || holder.shared ? undefined : holder.secret ? "[secret]" : show(holder.value);
  const who = heir(handOver);
  const action = wrote
    ? `set ${what} to ${value}, which ${other} declares and its state holds, but the service no longer had`
    : `left ${what} to ${who}, which ${newer ? "was created in this run and " : ""}declares ${value ?? "it"}`;
  let message = `${self} ${handOver.verb ?? "was deleted"} and ${action}.`;
  if (original !== undefined) {
    const was = handOver.secretOriginal ? "[secret]" : show(original);
    const recorded =
      holder.recorded === undefined || holder.recorded === null ? holder.recorded : holder.secret ? "[secret]" : show(holder.recorded);
    if (newer) {
      message += ` Before this stack managed it, it was ${was}.`;
      if (recorded === null)
        message +=
          ` ${capitalized(who)} found the value as it declares it and recorded ` +
          `no original, so destroying it will leave the value as it is.`;
      else if (recorded === was)
        message += ` ${capitalized(who)} recorded ${recorded} as its original too, so destroying it will put ${recorded} back.`;
      else if (recorded !== undefined)
        message +=
          ` ${capitalized(who)} recorded ${recorded}, the value it found, as ` +
          `its original, so destroying it will put ${recorded} back, not ${was}.`;
    } else {
      message += ` ${self} had recorded ${was} as the value it found`;
      message +=
        recorded === undefined
          ? "."
          : recorded === null
            ? `; ${other} has recorded none.`
            : `; ${other} has recorded ${recorded}, which destroying it will put back.`;
    }
  }
  return notify("warning", message + renameAdvice(handOver));
}

/** Whether the holder is the resource's own replacement (same name and parent). */
function isReplacement({ ctx, holder }: HandOver): boolean {
  return ctx.owner !== undefined && sameOwner(ctx.owner, holder.owner);
}

/** How messages name the holder: `its replacement`, or by name. */
const heir = (handOver: HandOver) => (isReplacement(handOver) ? "its replacement" : holderName(handOver.holder));

const holderName = (holder: Holder) => ownerName(holder.owner);

/** After what looks like a rename (the holder is new, of the same kind, not a replacement): the alias that keeps the originals. */
function renameAdvice(handOver: HandOver): string {
  const { ctx, holder } = handOver;
  if (holder.settled !== "created" || isReplacement(handOver) || holder.owner.kind !== ctx.kind) return "";
  return (
    ` If ${ownerName(holder.owner)} is ${ctx.name} renamed or moved, give it ${aliasFor(ctx.owner, holder.owner)} ` +
    `next time: an alias keeps what the old resource recorded.`
  );
}

/** How many objects a grouped warning names per original value. */
const LISTED = 50;

/**
 * {@link warnHandedOver} for many objects of one resource (the rules of a PolicyRuleModes): one
 * warning per resource that holds them now, with every original grouped by value, rather than
 * one warning per object. `objects(n)` names them: `the modes of 95 rules of policy 10`.
 */
export async function warnAllHandedOver(handOvers: readonly HandOver[], objects: (count: number) => string): Promise<void> {
  const groups = new Map<string, HandOver[]>();
  for (const handOver of handOvers) {
    const key = `${holderName(handOver.holder)}\u0000${handOver.wrote}`;
    groups.set(key, [...(groups.get(key) ?? []), handOver]);
  }
  for (const group of groups.values()) {
    const [first] = group as [HandOver];
    if (group.length === 1) {
      await warnHandedOver(first);
      continue;
    }
    const { ctx, holder, wrote } = first;
    const self = ctx.name;
    const who = heir(first);
    const action = wrote
      ? `set ${objects(group.length)} to what ${holderName(holder)} declares and its state holds, which the service no longer had`
      : `left ${objects(group.length)} to ${who}, which ${holder.settled === "created" ? "was created in this run and " : ""}declares them`;
    const byOriginal = new Map<string, string[]>();
    for (const h of group) {
      if (h.original === undefined) continue;
      const was = h.secretOriginal ? "[secret]" : h.show(h.original);
      byOriginal.set(was, [...(byOriginal.get(was) ?? []), h.name]);
    }
    // At most LISTED per value: the old resource's last state (`pulumi stack export --version`) holds them all.
    const shownAll = [...byOriginal.values()].every((names) => names.length <= LISTED);
    const originals =
      [...byOriginal].map(([was, names]) => `${was} for ${someOf(names, LISTED)}`).join("; ") +
      (shownAll ? "" : ` (all in ${self}'s last state: \`pulumi stack history\`, then \`pulumi stack export --version <N>\`)`);
    const before = !originals
      ? ""
      : holder.settled === "created"
        ? ` Before this stack managed them: ${originals}. ${capitalized(who)} recorded originals only for those it changed ` +
          `itself, so destroying it will leave the others as they are.`
        : ` ${self} had recorded these as the values it found: ${originals}.`;
    await notify("warning", `${self} ${first.verb ?? "was deleted"} and ${action}.${before}${renameAdvice(first)}`);
  }
}

/**
 * The alias that makes `now` the resource `old` was (TypeScript `aliases: [{ name: "old" }]`, with
 * the old parent if it moved; a YAML program gives the old URN; the SDKs of other languages take
 * the same alias in their own syntax).
 */
function aliasFor(old: Owner | undefined, now: Owner): string {
  if (!old) return "an alias naming the old resource";
  const parts = [
    ...(old.name !== now.name ? [`name: ${JSON.stringify(old.name)}`] : []),
    ...(old.parent !== now.parent ? [`parent: ${old.parent ? JSON.stringify(old.parent) : "pulumi.rootStackResource"}`] : []),
  ];
  // A YAML program names an alias by the old resource's URN (`pulumi stack --show-urns` lists it).
  return `\`aliases: [{ ${parts.join(", ")} }]\` (in a YAML program: \`options: aliases: ["<the old URN>"]\`; in Go, Python or C#: the same alias in the resource's options)`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * {@link noteFoundAsDeclared} for some fields of one object: names them, and the outputs that
 * would have held their originals (`originalOutput`; default as the kind declares its managed
 * fields), which stay unset. Nothing when none.
 */
export async function noteFieldsFoundAsDeclared(
  ctx: CallContext,
  object: string,
  fields: readonly string[],
  originalOutput: (field: string) => string = (field) =>
    (KINDS[ctx.kind].managed as Record<string, ManagedField> | undefined)?.[field]?.original ?? field,
): Promise<void> {
  if (!fields.length) return;
  // `the rulesets … were`: a list field's name is a plural.
  const plural = fields.length > 1 || fields[0]!.endsWith("s");
  const unset = `${fields.map(originalOutput).join(", ")} ${fields.length > 1 ? "stay" : "stays"} unset`;
  await noteFoundAsDeclared(ctx, { what: `the ${fields.join(" and ")} of ${object}`, plural, unset });
}

/**
 * Notes that a resource found what it declares already in place, so it records no original and
 * its delete will leave it: it cannot tell a value that was there before the stack from one an
 * earlier, interrupted run of this stack set.
 */
export function noteFoundAsDeclared(
  ctx: CallContext,
  found: { what: string; plural?: boolean; unset: string; list?: string },
): Promise<void> {
  const [were, them] = found.plural ? ["were", "them"] : ["was", "it"];
  const message =
    `${ctx.name}: ${found.what} ${were} already as ` +
    `declared, so there is nothing to put back on delete (${found.unset}). ` +
    `If this stack set ${them} (in an interrupted \`pulumi up\`, before \`pulumi ` +
    `state delete\`, or through a resource this run renames or replaces, ` +
    "whose warning below then gives what was there before), this resource cannot know what was there before." +
    (found.list ?? "");
  if (stackHistory) return notify("info", message);
  heldNotes.push(redacted(message)); // an ordinary first create, unless the run shows otherwise
  return noteOnceWithoutHistory(ctx.name);
}

/**
 * One line per run without a history so far: a stack's first `up` looks exactly like an `up` after
 * a first `up` that was killed before it recorded anything, whose values are then found as
 * declared. Said once, not per resource.
 */
function noteOnceWithoutHistory(first: string): Promise<void> {
  if (saidWithoutHistory) return Promise.resolve();
  saidWithoutHistory = true;
  return notify(
    "info",
    `${first} and maybe other resources of this run found values already as declared and record no original ` +
      "for them, as usual in a stack's first `pulumi up`. If an earlier `pulumi up` of this stack was interrupted " +
      "before it recorded anything, those values may be ones it set, and `pulumi destroy` will leave them.",
  );
}

/**
 * A field the program stopped declaring, whose original the resource had recorded. Its name is
 * the input's, or a path into it (`managedScanConfig.fullScan`): the field is secret when that
 * input was given as a secret.
 */
export interface DroppedField {
  name: string;
  original: unknown;
  /** The last known live value. */
  last: unknown;
  /** How a value (or a list's entry) prints; JSON unless given. */
  show?: (value: unknown) => string;
}

/**
 * Warns, at preview, of the fields the program no longer declares whose original the resource
 * had recorded: the update drops the original from the state (the field is no longer managed), so
 * no `destroy` will put it back. Names what will not come back (for a list, the entries it had
 * before the stack that it has no longer) and the remedy: declare it as it was before dropping it.
 * A field whose input `olds` gave as a secret prints no value.
 */
export function noteDroppedFields(ctx: CallContext, object: string, fields: readonly DroppedField[]): Promise<void> {
  const dropped = fields.filter((field) => field.original !== undefined && field.original !== null);
  if (!dropped.length) return Promise.resolve();
  const each = dropped.map(({ name, original, last, show = JSON.stringify }) => {
    if (ctx.wasSecret(name.split(".")[0]!)) return `${name} was [secret]`;
    const lost = Array.isArray(original)
      ? original.filter((item) => !(Array.isArray(last) && last.some((now) => JSON.stringify(now) === JSON.stringify(item))))
      : [];
    if (!Array.isArray(original)) return `${name} was ${show(original)}`;
    const count = `${original.length} entr${original.length === 1 ? "y" : "ies"}`;
    const gone = lost.length
      ? `, ${lost.length} of them gone now: ${someOf(
          lost.map((item) => show(item)),
          5,
        )}`
      : ", all there now";
    return `${name} had ${count}${gone}`;
  });
  const names = dropped.map((field) => field.name).join(" and ");
  const [it, is] = dropped.length === 1 ? ["it", "is"] : ["them", "are"];
  return notify(
    "warning",
    `${ctx.name}: ${names} of ${object} ${is} no longer declared, so no longer managed: this update drops ` +
      `what the stack recorded as ${dropped.length === 1 ? "its original" : "their originals"}, and no \`pulumi destroy\` will put ${it} back. ` +
      `Before this stack managed ${it}, ${each.join("; ")}. To have ${it} back, declare ${names} as ${dropped.length === 1 ? "it was" : "they were"} ` +
      `for one \`pulumi up\` before dropping ${it}, or destroy the resource first.`,
  );
}

/**
 * Notes, at preview, that a value moves from a resource that stops declaring it to another that
 * takes it with the original the first recorded (ownership.ts offer). Whichever of the two the
 * engine sees second says it, once.
 */
export function noteHandOver(claim: Claim, offer: Offer, taker: Owner): Promise<void> {
  const original = offer.secret ? "[secret]" : String(offer.original);
  return notifyOnce(
    `hand-over\u0000${claim.object}\u0000${claim.field}`,
    "info",
    `${ownerName(offer.from)} no longer manages ${claim.object}: it goes to ${ownerName(taker)}, which declares it, ` +
      `with the ${claim.field} this stack found it in, ${original} (destroying ${ownerName(taker)} puts ${original} back).`,
  );
}

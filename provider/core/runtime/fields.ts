/**
 * The value fields of a resource (a rule's mode; a project's branch, tags and scan toggles), as
 * create and update apply them and delete undoes them, under the ownership rules:
 *  - an original is recorded when the resource first changes a field it manages: at create, a
 *    value found already as declared records none (it may be one an earlier run of this stack
 *    set); a later update that changes it records the value it replaces (what create found, or
 *    what a refresh found since), so that destroy puts back every value the stack changed;
 *  - delete puts back an original unless another resource of the run holds the field; then it
 *    leaves the field to that resource (setting the value that resource declares when that one
 *    was found unchanged from its own state while the deleted resource's state has another value)
 *    and says what the user should know.
 */
import type { CallContext } from "./call-context";
import { journalBefore, journaledOriginal } from "./journal";
import { noteLeftWithoutOriginal } from "./left-by-delete";
import { type HandOver, warnHandedOver } from "./owned";
import { type Claim, holderOf } from "./ownership";

/** One field as an apply sees it. */
export interface FieldToApply {
  /** The field's name in `managedFields`. */
  name: string;
  wanted: unknown;
  /** The last known live value. */
  have: unknown;
  /** Whether the service must be written (usually: `have` is not `wanted`). */
  differs: boolean;
  /** Whether `have` can be recorded as the original when the write changes it (default true). */
  recordable?: boolean;
}

export interface Plan {
  changes: Record<string, unknown>;
  originals: Record<string, unknown>;
  /** Fields managed for the first time and found as declared: no original recorded. */
  foundAsDeclared: string[];
  /** Fields managed for the first time and changed, whose value before cannot be recorded. */
  unrecordable: string[];
}

/** What an apply writes and records, given what the resource managed and recorded before. */
export function planApply(
  fields: readonly FieldToApply[],
  before: { managed: readonly string[]; originals: Record<string, unknown> },
): Plan {
  const plan: Plan = { changes: {}, originals: {}, foundAsDeclared: [], unrecordable: [] };
  for (const field of fields) {
    if (field.differs) plan.changes[field.name] = field.wanted;
    if (before.managed.includes(field.name)) {
      // Managed before: its original stays; one found as declared gets one now, if this write changes it.
      const first = field.differs && field.recordable !== false ? field.have : undefined;
      // One found as declared before and now again may be one a killed update of it wrote (its journal says).
      plan.originals[field.name] =
        before.originals[field.name] ?? first ?? (field.differs ? undefined : journaledOriginal(field.name)?.original);
    } else if (!field.differs) {
      // Found as declared: a run of this resource killed after its write (a SIGKILL, or a cancel
      // whose step the engine stopped waiting for) left it so, and journaled what it replaced.
      const journaled = journaledOriginal(field.name);
      if (journaled) plan.originals[field.name] = journaled.original;
      else plan.foundAsDeclared.push(field.name);
    } else if (field.recordable === false) plan.unrecordable.push(field.name);
    else plan.originals[field.name] = field.have;
  }
  // Before the write: killed after it, nothing else says what it replaced (journal.ts).
  const firsts = Object.keys(plan.changes).filter((name) => plan.originals[name] !== undefined && before.originals[name] === undefined);
  journalBefore(Object.fromEntries(firsts.map((name) => [name, plan.originals[name]])));
  return plan;
}

/** One field with an original, as a delete sees it. */
export interface FieldToUndo {
  name: string;
  claim: Claim;
  original: unknown;
  /** The last known live value. */
  last: unknown;
  same: (a: unknown, b: unknown) => boolean;
  /** How messages show a value of this field (`[secret]` instead where the claim says the program gave it as a secret). */
  show: (value: unknown) => string;
  /** How messages name it; default `the <name> of <the claim's object>`. */
  what?: string;
  /** The resource managed it (default: it recorded an original). One found as declared has none, yet was the resource's. */
  managed?: boolean;
}

/**
 * The fields a delete undoes when each is known by its name alone: its claim, its original and
 * its last known value by name, compared by `same` and shown as JSON unless `show` says otherwise.
 */
export function fieldsToUndo<F extends string>(
  names: readonly F[],
  of: {
    claim: (name: F) => Claim;
    originals: Partial<Record<F, unknown>>;
    last: Partial<Record<F, unknown>>;
    same: (name: F, a: unknown, b: unknown) => boolean;
    show?: (value: unknown) => string;
    /** The fields the resource managed; default those with an original. */
    managed?: readonly F[];
  },
): FieldToUndo[] {
  const show = of.show ?? ((value: unknown) => JSON.stringify(value));
  return names.map((name) => ({
    name,
    claim: of.claim(name),
    original: of.originals[name],
    last: of.last[name],
    same: (a, b) => of.same(name, a, b),
    show,
    ...(of.managed ? { managed: of.managed.includes(name) } : {}),
  }));
}

/**
 * The values a delete writes: each original, unless another resource holds the field. Then the
 * field is left to it, with the value it declares written when the service's last known value
 * differs (it was found unchanged from its own, older, record), and a warning.
 */
export async function planUndo(
  ctx: CallContext,
  fields: readonly FieldToUndo[],
  warn: (handOver: HandOver) => Promise<void> = warnHandedOver,
): Promise<Record<string, unknown>> {
  const writes: Record<string, unknown> = {};
  const left: FieldToUndo[] = [];
  for (const field of fields) {
    const holder = holderOf(field.claim);
    // Managed, found as declared and held by no other resource: left as it is, and named below.
    if (field.original === undefined && (field.managed ?? true) && !holder) left.push(field);
    if (!(field.managed ?? field.original !== undefined)) continue;
    if (!holder) {
      if (field.original !== undefined && !field.same(field.last, field.original)) writes[field.name] = field.original;
      continue;
    }
    // The holder was found unchanged from its own state, which the service no longer matches: this
    // resource's value is live. Written back even when this resource recorded no original (it found
    // the value as declared, or could not tell it), or the holder's value would be lost.
    const stale = holder.settled === "unchanged" && holder.value !== undefined && !field.same(holder.value, field.last);
    if (stale) writes[field.name] = holder.value;
    if (field.original === undefined && !stale) continue;
    const what = field.what ?? `the ${field.name} of ${field.claim.object}`;
    await warn({
      ctx,
      what,
      name: field.name,
      holder,
      wrote: stale,
      original: field.original,
      show: field.show,
      secretOriginal: field.claim.secret === true,
    });
  }
  await noteLeftFields(ctx, left);
  return writes;
}

/**
 * Names the fields a delete leaves as it found them (no original recorded), by object, each with
 * its last known value (`[secret]` where the claim is secret): left-by-delete.ts.
 */
function noteLeftFields(ctx: CallContext, left: readonly FieldToUndo[]): Promise<void> {
  const byObject = new Map<string, string[]>();
  for (const field of left) {
    const value = field.claim.secret ? "[secret]" : field.last === undefined ? undefined : field.show(field.last);
    const items = byObject.get(field.claim.object) ?? [];
    // Named as its claim names it (`diffScan`, `exception project … rule …`, `policy <slug>`).
    items.push(value === undefined ? field.claim.field : `${field.claim.field}: ${value}`);
    byObject.set(field.claim.object, items);
  }
  return noteLeftWithoutOriginal(
    ctx,
    "value",
    [...byObject].map(([heading, items]) => ({ heading, items })),
  );
}

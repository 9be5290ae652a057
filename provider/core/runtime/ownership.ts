/**
 * Which resource of the stack declares which field of which object, as this provider process has
 * seen it. The engine checks every resource of the program in the process that then applies the
 * changes, and runs the deletes of removed resources last (the engine's order of steps), so:
 *  - `check` catches two resources declaring the same field of one object (a conflict: they would
 *    overwrite each other's value and each other's record of the original);
 *  - `delete` leaves to another resource what it now holds: after a rename without an alias the
 *    new resource has already adopted the object when the old one is deleted, and a tag one
 *    ProjectTags drops may still be declared by another.
 * Nothing here is written to the service or to state, or shared with another process; a new
 * process starts with nothing. (A stack moving from the dynamic classes to the generated SDK keeps
 * each resource, in one process, through the alias schema.json gives every SDK resource.)
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { claimKey, clashes } from "./claim-space";
import { onForget } from "./process-memory";

/** A resource: its kind, its name, and its parent's URN when it has a parent other than the stack. */
export interface Owner {
  kind: string;
  name: string;
  parent?: string;
}

/** One field of one object that a resource declares. */
export interface Claim {
  /** The object, as messages name it: `project acme/web-app (deployment acme)`. */
  object: string;
  /** The field, as messages name it: `primaryBranch`, `tags`, `tag "pci"`. */
  field: string;
  /** The input of this resource that declares it, named in a conflict; default `field`. */
  property?: string;
  /** Several resources may declare it together (the tags ProjectTags add); default false. */
  shared?: boolean;
  /** The value the resource declares, where one field has one value (a mode, a branch, a toggle). */
  value?: unknown;
  /** The value is a secret of the program: messages must not print it. */
  secret?: boolean;
}

/** How a holder came to hold its claims in this run. */
export type Settlement = "created" | "updated" | "unchanged";

/** A resource that declares a claim, as a delete finds it. */
export interface Holder {
  owner: Owner;
  shared: boolean;
  value?: unknown;
  secret: boolean;
  /** Set once the service holds what the resource declares: it was created or updated in this run, or needed no change. */
  settled?: Settlement;
  /** Set when the resource's check, diff, create or update failed in this run, none of its writes landed: nobody waits for it. */
  failed?: boolean;
  /** What the holder recorded as the field's original when it settled; `null` when it recorded none. */
  recorded?: unknown;
}

export interface Conflict {
  claim: Claim;
  other: Owner;
}

const entries = new Map<string, Holder[]>();
/** The keys each resource has claims under, to replace them when it is checked again. */
const keysByOwner = new Map<string, Set<string>>();
/** Claims a resource undid in this run (a tag it dropped and removed). */
const released = new Set<string>();
/** Claims a resource took up in this run (a tag it added). */
const added = new Set<string>();
/** Originals offered with the claims resources of this run stop declaring (see offer). */
const offers = new Map<string, Offer>();
onForget(() => {
  entries.clear();
  keysByOwner.clear();
  released.clear();
  added.clear();
  offers.clear();
});

const keyOf = claimKey;
const ownerKey = (owner: Owner) => `${owner.kind}\u0000${owner.name}\u0000${owner.parent ?? ""}`;
export const sameOwner = (a: Owner, b: Owner) => ownerKey(a) === ownerKey(b);

/**
 * `PolicyRuleMode "block-eval"`, or `PolicyRuleMode "eval" (child of acme:AppSec "appsec")`; the
 * native front end knows only the parent's type (the engine's URN of a resource holds its
 * parents' types, not their names): `PolicyRuleMode "eval" (child of an acme:AppSec)`.
 */
export function ownerName(owner: Owner): string {
  const parent = owner.parent ? parentOf(owner.parent) : undefined;
  if (!parent) return `${owner.kind} ${JSON.stringify(owner.name)}`;
  const of = parent.name ? `${parent.type} ${JSON.stringify(parent.name)}` : `${/^[aeiou]/i.test(parent.type) ? "an" : "a"} ${parent.type}`;
  return `${owner.kind} ${JSON.stringify(owner.name)} (child of ${of})`;
}

/** A parent's type and name, read from its URN (`urn:pulumi:stack::project::a$b::name`). */
function parentOf(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  return { type: (parts[2] ?? "").split("$").at(-1) ?? "", name: parts.slice(3).join("::") };
}

/**
 * A resource refused because another resource of the run declares what it does: the message says
 * which and what to do, so the provider reports it without a stack trace (dispatch.ts).
 */
export class Refusal extends Error {}

/**
 * Records what a resource declares (replacing what it declared before in this process) and
 * returns the claims another resource already made that cannot be shared.
 */
export function declare(owner: Owner, claims: readonly Claim[]): Conflict[] {
  const key = ownerKey(owner);
  for (const claimKey of keysByOwner.get(key) ?? [])
    entries.set(
      claimKey,
      entries.get(claimKey)!.filter((e) => !sameOwner(e.owner, owner)),
    );
  const keys = new Set<string>();
  const conflicts: Conflict[] = [];
  for (const claim of claims) {
    const claimKey = keyOf(claim);
    const list = entries.get(claimKey) ?? [];
    const other = list.find((e) => clashes(e, claim));
    if (other) conflicts.push({ claim, other: other.owner });
    list.push({ owner, shared: claim.shared ?? false, value: claim.value, secret: claim.secret ?? false });
    entries.set(claimKey, list);
    keys.add(claimKey);
  }
  keysByOwner.set(key, keys);
  return conflicts;
}

/**
 * Per resource that declared something and has not settled or failed yet, what resolves when it
 * does (othersSettled). Per resource, not per claim: declare replaces a resource's claims when it
 * is checked again or declares more (a PolicyRuleModes' write declares its selector's rules).
 */
const endings = new Map<string, { ended: Promise<void>; end: () => void }>();
onForget(() => endings.clear());

function endingOf(owner: Owner): Promise<void> {
  const key = ownerKey(owner);
  let found = endings.get(key);
  if (!found) {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    endings.set(key, (found = { ended, end }));
  }
  return found.ended;
}

function ended(owner: Owner): void {
  endings.get(ownerKey(owner))?.end();
  endings.delete(ownerKey(owner));
}

/** The claims `owner` made in this run, as holders. */
function holdersOf(owner: Owner): Array<{ key: string; holder: Holder }> {
  return [...(keysByOwner.get(ownerKey(owner)) ?? [])].flatMap((key) =>
    entries
      .get(key)!
      .filter((entry) => sameOwner(entry.owner, owner))
      .map((holder) => ({ key, holder })),
  );
}

/**
 * Marks what a resource declares as held on the service: created, updated, or already as
 * declared; with, by claim field, what it recorded as the original (`null` for none). Only the
 * dispatcher calls it (dispatch.ts), after the resource's diff, create or update.
 */
export function settle(owner: Owner, how: Settlement, recorded: Record<string, unknown> = {}): void {
  for (const { key, holder } of holdersOf(owner)) {
    holder.settled = how;
    holder.failed = false;
    const field = key.slice(key.indexOf("\u0000") + 1);
    if (field in recorded) holder.recorded = recorded[field];
  }
  ended(owner);
}

/**
 * Marks a resource whose check, diff, create or update failed with none of its writes landed: it
 * holds nothing it declares (holderOf passes it over, so a giver puts back what it would have
 * left to it), and whoever waits for it to settle stops waiting now. Only the dispatcher calls it.
 */
export function fail(owner: Owner): void {
  for (const { holder } of holdersOf(owner)) {
    if (holder.settled) continue; // settled earlier in the run (its diff found nothing to change): it still holds
    holder.failed = true;
  }
  ended(owner);
}

/** Every resource that declares `claim` in this run, settled or not. */
export function declarersOf(claim: Claim): Holder[] {
  return entries.get(keyOf(claim)) ?? [];
}

/** The holders of the claims under `prefix` (`tag `) on `object` that some resource holds now (see holderOf). */
export function heldUnder(object: string, prefix: string): Holder[] {
  const start = `${object}\u0000${prefix}`;
  return [...entries]
    .filter(([key, list]) => key.startsWith(start) && list.some((e) => e.settled))
    .map(([, list]) => list.find((e) => e.settled)!);
}

/**
 * The resource that now holds `claim`, if any: one that declares it and was created, updated or
 * found unchanged in this run. A resource being deleted is never among them (it is not in the
 * program), but its replacement, under the same name, may be.
 */
export function holderOf(claim: Claim): Holder | undefined {
  const settled = declarersOf(claim).filter((e) => e.settled);
  return settled.find((e) => e.settled !== "unchanged") ?? settled[0];
}

/**
 * Records that a resource is undoing `claim` (removing a tag it no longer declares), so that a
 * resource whose check comes later in this run and declares it knows to put it back.
 */
export function release(claim: Claim): void {
  released.add(keyOf(claim));
}

/** Whether a resource of this run undid `claim`. */
export function wasReleased(claim: Claim): boolean {
  return released.has(keyOf(claim));
}

/** Records that a resource is adding what `claim` names (a tag), before the write leaves. */
export function take(claim: Claim): void {
  added.add(keyOf(claim));
}

/** Whether a resource of this run added what `claim` names: found there, it is still this stack's own. */
export function wasTaken(claim: Claim): boolean {
  return added.has(keyOf(claim));
}

/** The original a resource recorded for a claim it stops declaring in this run, for the resource that takes the claim. */
export interface Offer {
  original: unknown;
  from: Owner;
  /** The original is a secret of the program. */
  secret: boolean;
  /** The resource that recorded it as its own original, once one has. */
  acceptedBy?: Owner;
}

/**
 * Offers the original a resource recorded for `claim`, which it stops declaring in this run while
 * it stays in the program (a rule dropped from one resource's `modes` and declared by another).
 * Its `diff` offers before its update, and the engine checks and diffs resources in the order the
 * program registers them, so a resource registered later that takes the claim records this
 * original, the value before the stack changed it, and not the value the stack itself set.
 */
export function offer(claim: Claim, original: unknown, from: Owner, secret = false): void {
  offers.set(keyOf(claim), { original, from, secret });
}

/** The original another resource of this run offered with `claim`, if any. */
export function offered(claim: Claim, self?: Owner): Offer | undefined {
  const found = offers.get(keyOf(claim));
  return found && !(self && sameOwner(found.from, self)) ? found : undefined;
}

/** Records that `taker` recorded the original offered with `claim` (see offer): the giver then has nothing to warn of. */
export function accept(claim: Claim, taker: Owner): void {
  const found = offers.get(keyOf(claim));
  if (found) found.acceptedBy = taker;
}

/**
 * How long one provider call may wait, in all, for the other resources it hands values to: the
 * engine runs their steps beside it, and a step that never ends must not hold this one.
 */
export const WAIT_FOR_OTHERS_MS = 30_000;

const callDeadlines = new AsyncLocalStorage<number>();

/** Runs one provider call (dispatch.ts) with its one deadline for waiting on others. */
export function withCallDeadline<T>(work: () => T, waitMs = WAIT_FOR_OTHERS_MS): T {
  return callDeadlines.run(Date.now() + waitMs, work);
}

/** The current call's deadline for waiting on others (ms since the epoch); outside a call, from now. */
export const callDeadline = () => callDeadlines.getStore() ?? Date.now() + WAIT_FOR_OTHERS_MS;

/**
 * Waits until every other resource of the run that declares one of `claims` has settled (its
 * create or update done, or its diff found nothing to change) or failed, until `deadline` (ms
 * since the epoch) at the latest: a resource checked already runs beside the caller (the engine
 * runs steps in parallel), and whether it took an offer is known only then. One wait for all the
 * claims, so the deadline is the call's, however many values it hands over. A resource not
 * checked yet is not waited for: it comes later and finds the offer. Resolves whether they
 * settled or the deadline passed: the caller reads what is known then.
 */
export async function othersSettled(claims: readonly Claim[], self: Owner, deadline = callDeadline()): Promise<void> {
  // The resources still under way, read again after each one ends (one may declare more meanwhile).
  const pending = () => {
    const owners = new Map<string, Owner>();
    for (const claim of claims)
      for (const holder of declarersOf(claim))
        if (!sameOwner(holder.owner, self) && !holder.settled && !holder.failed) owners.set(ownerKey(holder.owner), holder.owner);
    return [...owners.values()];
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  try {
    for (let waiting = pending(); waiting.length && Date.now() < deadline; waiting = pending())
      await Promise.race([...waiting.map(endingOf), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The offer `from` made with `claim` in this run, if any (accepted or not). */
export function offerOf(claim: Claim, from: Owner): Offer | undefined {
  const found = offers.get(keyOf(claim));
  return found && sameOwner(found.from, from) ? found : undefined;
}

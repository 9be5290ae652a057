/**
 * Which resource of the stack declares which field of which object, as this provider process has
 * seen it. The engine checks every resource of the program in the process that then applies the
 * changes, and runs the deletes of removed resources last (design.md, rule 9), so:
 *  - `check` catches two resources declaring the same field of one object (a conflict: they would
 *    overwrite each other's value and each other's record of the original);
 *  - `delete` leaves alone what another resource now holds: after a rename without an alias the
 *    new resource has already adopted the object when the old one is deleted, and a tag one
 *    ProjectTags drops may still be declared by another.
 * Nothing here is written to the service or to state; a new process starts with nothing.
 */
import { onForget } from "./process-memory";

/** A resource, as messages name it: `PolicyRuleMode "block-eval"`. */
export interface Owner {
  kind: string;
  name: string;
}

/** One field of one object that a resource declares. */
export interface Claim {
  /** The object, as messages name it: `project acme/web-app (deployment acme)`. */
  object: string;
  /** The field, as the resource's inputs name it: `primaryBranch`, `tags`, `tag "pci"`. */
  field: string;
  /** The input of this resource that declares it, named in a conflict; default `field`. */
  property?: string;
  /** Several resources may declare it together (the tags ProjectTags add); default false. */
  shared?: boolean;
}

/** How a holder came to hold its claim in this run. */
export type Settlement = "created" | "updated" | "unchanged";

export interface Holder {
  owner: Owner;
  /** Set once the service holds what the resource declares: it was created or updated in this run, or needed no change. */
  settled?: Settlement;
}

interface Entry extends Holder {
  shared: boolean;
}

export interface Conflict {
  claim: Claim;
  other: Owner;
}

const entries = new Map<string, Entry[]>();
/** The keys each resource has claims under, to replace them when it is checked again. */
const keysByOwner = new Map<string, Set<string>>();
/** Claims a resource undid in this run (a tag it dropped and removed). */
const released = new Set<string>();
onForget(() => {
  entries.clear();
  keysByOwner.clear();
  released.clear();
});

const keyOf = (claim: Claim) => `${claim.object}\u0000${claim.field}`;
const same = (a: Owner, b: Owner) => a.kind === b.kind && a.name === b.name;

/** `PolicyRuleMode "block-eval"` */
export const ownerName = (owner: Owner) => `${owner.kind} ${JSON.stringify(owner.name)}`;

/**
 * Records what a resource declares (replacing what it declared before in this process) and
 * returns the claims another resource already made that cannot be shared.
 */
export function declare(owner: Owner, claims: readonly Claim[]): Conflict[] {
  const ownerKey = ownerName(owner);
  for (const key of keysByOwner.get(ownerKey) ?? []) entries.set(key, entries.get(key)!.filter((e) => !same(e.owner, owner)));
  const keys = new Set<string>();
  const conflicts: Conflict[] = [];
  for (const claim of claims) {
    const key = keyOf(claim);
    const list = entries.get(key) ?? [];
    const other = list.find((e) => !(e.shared && claim.shared));
    if (other) conflicts.push({ claim, other: other.owner });
    list.push({ owner, shared: claim.shared ?? false });
    entries.set(key, list);
    keys.add(key);
  }
  keysByOwner.set(ownerKey, keys);
  return conflicts;
}

/** Marks what a resource declares as held on the service: created, updated, or already as declared. */
export function settle(owner: Owner, how: Settlement): void {
  for (const key of keysByOwner.get(ownerName(owner)) ?? []) {
    for (const entry of entries.get(key)!) if (same(entry.owner, owner)) entry.settled = how;
  }
}

/** Every resource that declares `claim` in this run, settled or not. */
export function declarersOf(claim: Claim): Holder[] {
  return entries.get(keyOf(claim)) ?? [];
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

/**
 * The resource that now holds `claim`, if any: one that declares it and was created, updated or
 * found unchanged in this run. A resource being deleted is never among them (it is not in the
 * program), but its replacement, under the same name, may be.
 */
export function holderOf(claim: Claim): Holder | undefined {
  const settled = (entries.get(keyOf(claim)) ?? []).filter((e) => e.settled);
  return settled.find((e) => e.settled === "created") ?? settled[0];
}

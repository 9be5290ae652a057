/**
 * The ownership steps every resource handler takes (see ownership.ts for why):
 * `check` declares what the resource manages and refuses a conflict, `diff`, `create` and
 * `update` record that the service holds it, and `delete` leaves alone, with a warning that says
 * what the user lost, what another resource of the stack now holds.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceKind } from "../kinds";
import { containsUnknown, type Props } from "./check";
import { type Claim, declare, type Holder, ownerName, type Settlement, settle } from "./ownership";
import { notify } from "./notices";
import { checkResource, metaChanged, ownerOf } from "./resource-meta";

/** True when none of `values` is a preview's unknown: what a claim is made of must be known. */
export const known = (...values: unknown[]) => values.every((v) => v !== undefined && !containsUnknown(v));

/**
 * `check` of an owning resource: its inputs, then its claims. A field another resource of the
 * stack already declares on the same object fails the check, naming both resources, before any
 * write (at preview, or in an `up` without preview before the later resource's own write).
 */
export function checkOwned<S extends z.ZodType<Props>>(
  kind: ResourceKind,
  schema: S,
  news: Props,
  claimsOf: (inputs: z.output<S>) => Claim[],
): pulumi.dynamic.CheckResult {
  const result = checkResource(kind, schema, news);
  const owner = ownerOf(kind, result.inputs);
  if (result.failures || !owner) return result;
  const conflicts = declare(owner, claimsOf(result.inputs as z.output<S>));
  if (!conflicts.length) return result;
  return {
    inputs: result.inputs,
    failures: conflicts.map(({ claim, other }) => ({
      property: claim.property ?? claim.field,
      reason:
        `${ownerName(owner)} declares ${claim.field} of ${claim.object}, which ${ownerName(other)} declares too. ` +
        "Declare each field of an object in one resource only: two would overwrite each other's value, " +
        "and destroying either would put back the wrong original.",
    })),
  };
}

/** `diff` of an owning resource: the declared fields' result, plus metadata changes. No change means the service holds it. */
export function diffOwned(kind: ResourceKind, olds: Props, news: Props, result: pulumi.dynamic.DiffResult): pulumi.dynamic.DiffResult {
  const changes = result.changes === true || metaChanged(olds, news);
  if (!changes) settleOwner(kind, news, "unchanged");
  return { ...result, changes };
}

/** Records that the service now holds what the resource declares. */
export function settleOwner(kind: ResourceKind, props: Props, how: Settlement): void {
  const owner = ownerOf(kind, props);
  if (owner) settle(owner, how);
}

/** `PolicyRuleMode "block-eval"`, or the kind and its object for state written before names were kept. */
export function describeResource(kind: ResourceKind, props: Props, object: string): string {
  const owner = ownerOf(kind, props);
  return owner ? ownerName(owner) : `${kind} of ${object}`;
}

interface HandOver {
  kind: ResourceKind;
  /** The properties (outputs) of the resource being deleted. */
  props: Props;
  /** What was left as it is: `the mode of rule x in policy 10 (deployment 1)`. */
  what: string;
  /** Its value, when the message should show it. */
  value?: string;
  holder: Holder;
  /**
   * What the deleted resource knew of the time before this stack, which no one records once it is
   * gone (`its value before this stack managed it was MODE_COMMENT`); undefined when it knew nothing.
   */
  before?: string;
}

/**
 * Warns that a delete left something as it is because another resource holds it, with what the
 * deleted resource knew of the value before this stack and, after what looks like a rename, the
 * alias that keeps it next time.
 */
export function warnHandedOver({ kind, props, what, value, holder, before }: HandOver): Promise<void> {
  const self = describeResource(kind, props, what);
  const other = ownerName(holder.owner);
  const oldName = ownerOf(kind, props)?.name;
  const replaced = holder.owner.kind === kind && holder.owner.name === oldName;
  const now = replaced
    ? "its replacement holds it now"
    : holder.settled === "created"
      ? `${other}, created in this run, declares it now`
      : `${other} still declares it`;
  let message = `${self} was deleted and left ${what} as it is${value === undefined ? "" : ` (${value})`}: ${now}.`;
  if (before !== undefined) {
    message += ` ${capitalized(before)}; ${replaced ? "the replacement" : other} cannot know that, and destroying it will leave it as it is.`;
  }
  if (holder.settled === "created" && !replaced) {
    const alias = oldName ? `aliases: [{ name: ${JSON.stringify(oldName)} }]` : "an alias naming the old resource";
    message += ` If ${other} is ${self} renamed, give it \`${alias}\` next time: a rename with an alias keeps what the old resource recorded.`;
  }
  return notify("warning", message);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Notes that a resource found what it declares already in place, so it records no original and
 * its delete will leave it: it cannot tell a value that was there before the stack from one an
 * earlier, interrupted run of this stack set.
 */
export function noteFoundAsDeclared(kind: ResourceKind, props: Props, found: { what: string; plural?: boolean; unset: string }): Promise<void> {
  const [were, them] = found.plural ? ["were", "them"] : ["was", "it"];
  return notify(
    "info",
    `${describeResource(kind, props, found.what)}: ${found.what} ${were} already as declared, so there is nothing to put back on delete (${found.unset}). ` +
      `If an earlier run of this stack set ${them} (an interrupted \`pulumi up\`, or \`pulumi state delete\` then \`up\`), what was there before is unknown.`,
  );
}

export { type Claim, holderOf } from "./ownership";

/**
 * What a handler is told of the resource a call is for, beside its inputs: its name and parent,
 * which of its inputs are secrets, and the claims API bound to it. The dispatcher builds it
 * (dispatch.ts) from what the front end knows: the native plugin from the request (the URN and the
 * secret marks), the dynamic classes from the metadata they pass beside the inputs
 * (resource-meta.ts). Handlers read nothing of that metadata: their properties hold the kind's
 * inputs and outputs only.
 */
import type { ResourceKind } from "../kinds";
import {
  accept,
  type Claim,
  type Conflict,
  declare,
  type Offer,
  offered,
  offerOf,
  othersSettled,
  type Owner,
  ownerName,
} from "./ownership";

/** Who a call is for, as a front end knows it. */
export interface ResourceIdentity {
  /** The resource's name in the program (absent in state written before resources kept their names: 0.1). */
  readonly name?: string;
  /** The parent's URN, when the resource has a parent other than the stack. */
  readonly parent?: string;
  /** The inputs the program gave as secrets (or holding one). */
  readonly secretInputs: readonly string[];
  /** Which inputs are secrets is not known yet (a preview, where the list is computed): no change of it counts. */
  readonly secretsUnknown?: boolean;
}

/** The claims of the call's resource (ownership.ts), as it makes them. */
export interface Claims {
  /** Declares what the resource manages (replacing what it declared before) and returns the conflicts. */
  declare(claims: readonly Claim[]): Conflict[];
  /** The original another resource of the run offers with a claim this one takes. */
  offered(claim: Claim): Offer | undefined;
  /** What this resource itself offered with a claim it stops declaring. */
  offeredBySelf(claim: Claim): Offer | undefined;
  /** Takes an offered original: it is this resource's now. */
  accept(claim: Claim): void;
  /** Waits, under the call's deadline, until every other declarer of these claims has settled or failed. */
  othersSettled(claims: readonly Claim[]): Promise<void>;
}

export interface CallContext {
  readonly kind: ResourceKind;
  /**
   * The resource as claims and messages name it. Absent for state written before resources kept
   * their names (0.1), and for the state of `X.get(name, id)`: such a resource claims nothing.
   */
  readonly owner?: Owner;
  /** How messages name the resource: `PolicyRuleMode "block-eval"`. */
  readonly name: string;
  /** The inputs the program gave as secrets: in this call's inputs (read and delete: in the state). */
  readonly secretInputs: readonly string[];
  /** Whether `input` is one of {@link secretInputs}. */
  secret(input: string): boolean;
  /** Whether the previous inputs gave `input` as a secret (diff and update: the olds; otherwise as {@link secret}). */
  wasSecret(input: string): boolean;
  /** `text`, or `[secret]` when the program gave `input` as a secret: messages never print secrets. */
  shown(input: string, text: string): string;
  /** The claims API, bound to this resource (nothing to claim without an owner: the methods do nothing). */
  readonly claims: Claims;
}

/**
 * Which inputs a resource gave as secrets, all a kind's claims need beside its inputs: a call's
 * context is one, and so is a resource of the stack's exported state (native/import-refusals.ts).
 */
export type Secrecy = Pick<CallContext, "secret">;

const noClaims: Claims = {
  declare: () => [],
  offered: () => undefined,
  offeredBySelf: () => undefined,
  accept: () => {},
  othersSettled: () => Promise.resolve(),
};

function claimsOf(owner: Owner): Claims {
  return {
    declare: (claims) => declare(owner, claims),
    offered: (claim) => offered(claim, owner),
    offeredBySelf: (claim) => offerOf(claim, owner),
    accept: (claim) => accept(claim, owner),
    othersSettled: (claims) => othersSettled(claims, owner),
  };
}

/** The resource's owner in claims: its kind, name and parent. */
function ownerOfIdentity(kind: ResourceKind, identity: ResourceIdentity | undefined): Owner | undefined {
  if (identity?.name === undefined) return undefined;
  return { kind, name: identity.name, ...(identity.parent ? { parent: identity.parent } : {}) };
}

/**
 * The context of a call for the resource `now` (the identity its inputs, or for read and delete
 * its state, give), with `before` the identity of its olds (diff, update).
 */
export function callContext(
  kind: ResourceKind,
  now: ResourceIdentity | undefined,
  before: ResourceIdentity | undefined = now,
): CallContext {
  const owner = ownerOfIdentity(kind, now);
  const secret = new Set(now?.secretInputs ?? []);
  const wasSecret = new Set(before?.secretInputs ?? []);
  return {
    kind,
    ...(owner ? { owner } : {}),
    name: owner ? ownerName(owner) : `a ${kind} (state from before 0.2)`,
    secretInputs: [...secret],
    secret: (input) => secret.has(input),
    wasSecret: (input) => wasSecret.has(input),
    shown: (input, text) => (secret.has(input) ? "[secret]" : text),
    claims: owner ? claimsOf(owner) : noClaims,
  };
}

/**
 * Whether the identity changed in a way that needs an update (which writes nothing to the
 * service): the state predates names, the resource was renamed or moved with an alias (so that
 * messages name it as the program does), or an input became secret or stopped being one (so that
 * the outputs derived from it are stored accordingly).
 */
export function identityChanged(before: ResourceIdentity | undefined, now: ResourceIdentity | undefined): boolean {
  if (now?.name !== undefined && (now.name !== before?.name || now.parent !== before?.parent)) return true;
  if (now?.secretsUnknown) return false;
  const was = new Set(before?.secretInputs ?? []);
  const is = new Set(now?.secretInputs ?? []);
  return was.size !== is.size || [...is].some((input) => !was.has(input));
}

/**
 * A space of claims of its own, for claims made outside a run of the provider: an import, checked
 * against the claims of the resources the stack's state holds (stack-claims.ts). It applies the
 * process's conflict rule (ownership.ts `declare` uses the same {@link clashes}) without touching
 * the process's claims, which a later call of the same process would otherwise see.
 */
import type { Claim, Owner } from "./ownership";

/** Where a claim is held: one field of one object. */
export const claimKey = (claim: Pick<Claim, "object" | "field">) => `${claim.object}\u0000${claim.field}`;

/** Whether a claim held already and a new one on the same field conflict: only two shared ones may stand together. */
export const clashes = (held: { shared?: boolean }, claim: Claim) => !(held.shared && claim.shared);

/** A claim that conflicts with one another resource made, with that resource's own claim (its secrecy, its property). */
export interface ClaimClash {
  claim: Claim;
  other: Owner;
  otherClaim: Claim;
}

export class ClaimSpace {
  readonly #byKey = new Map<string, Array<{ owner: Owner; claim: Claim }>>();

  /** Records what `owner` declares and returns its claims that conflict with those made before. */
  declare(owner: Owner, claims: readonly Claim[]): ClaimClash[] {
    const clashed: ClaimClash[] = [];
    for (const claim of claims) {
      const held = this.#byKey.get(claimKey(claim)) ?? [];
      const other = held.find((entry) => clashes({ shared: entry.claim.shared }, claim));
      if (other) clashed.push({ claim, other: other.owner, otherClaim: other.claim });
      held.push({ owner, claim });
      this.#byKey.set(claimKey(claim), held);
    }
    return clashed;
  }
}

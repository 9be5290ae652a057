/**
 * A create or update that failed after some of its writes landed. What those writes found (the
 * originals a delete puts back) exists only in this process's memory; dropped with the error, the
 * next `up` would find those objects already as declared and record nothing, and `destroy` would
 * leave them changed.
 *
 * The dynamic-provider host sends an error that carries `id` and `properties` to the engine as a
 * resource that was created but failed to initialize (`ErrorResourceInitFailed`): the engine
 * records those properties as the resource's state, fails the run with the message, and the next
 * `up` updates the resource (its diff sees the writes still to do) to finish the work.
 */
import { causeChain } from "../../client";
import type { Props } from "./check";

export class PartiallyApplied extends Error {
  override name = "PartiallyApplied";
  constructor(
    /** The resource's id (a create's new one). */
    readonly id: string,
    /** The outputs as far as the landed writes go. */
    readonly outs: Props,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * `reported` (the error the host will see, built from `error`) with the fields the host turns into
 * an initialization failure, when `error` wraps a {@link PartiallyApplied}. The host does not add
 * the serialized provider (`__provider`) to these properties as it does to a result's outputs, so
 * it is added here: without it the engine could not run the next update or delete of the resource.
 */
export function withPartialState(reported: unknown, error: unknown, providerKey: unknown, clean: (value: unknown) => unknown): unknown {
  const partial = [...causeChain(error)].find((e): e is PartiallyApplied => e instanceof PartiallyApplied);
  if (!partial || !(reported instanceof Error)) return reported;
  return Object.assign(reported, {
    id: partial.id,
    properties: clean({ ...partial.outs, __provider: providerKey }),
    reasons: [reported.message],
  });
}

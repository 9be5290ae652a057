/**
 * The inputs every resource class passes beside the user's (see provider/dynamic/resources/meta.ts):
 *  - `resourceName` and, for a resource with a parent, `resourceParent` (the parent's URN): the
 *    host passes no name to the provider; they identify the resource in conflicts and in what a
 *    delete leaves to another resource (two components may each have a child of the same name);
 *  - `secretInputs`: which of its value inputs the program gave as secrets (the host hands the
 *    provider plain values), so messages never print them;
 *  - a secret `null` input under the name of each output derived from a secret input (provider/core/kinds: `derivedFrom`).
 * They are kept in the outputs (the derived ones replaced by their values), so that `read` and
 * `delete`, which see only the outputs, know them too. The dispatcher (dispatch.ts) reads them into
 * the call's context (call-context.ts), hands the handlers the properties without them, and puts
 * them back in what the call returns: no handler reads them.
 */
import { z } from "zod";
import { DERIVED_OUTPUTS, type ResourceKind } from "../kinds";
import { checkInputs, containsUnknown, type Props } from "./check";
import type { ResourceIdentity } from "./call-context";
import type { CheckFailure } from "./handler";

const metaSchema = z.strictObject({
  resourceName: z.string({ error: "must be the resource's name (set by the resource class)" }).min(1).optional(),
  resourceParent: z.string({ error: "must be the URN of the resource's parent (set by the resource class)" }).min(1).optional(),
  secretInputs: z.array(z.string(), { error: "must list input names (set by the resource class)" }).optional(),
});
const META_KEYS = Object.keys(metaSchema.shape);

function isMetaKey(kind: ResourceKind, key: string): boolean {
  return META_KEYS.includes(key) || key in DERIVED_OUTPUTS[kind];
}

/**
 * The metadata of `props` checked, apart from the resource's own inputs (which the handler
 * checks): the dispatcher returns it with the checked inputs, so that the engine keeps it (and the
 * secret marks of the derived placeholders).
 */
export function checkMeta(kind: ResourceKind, props: Props): { meta: Props; own: Props; failures?: CheckFailure[] } {
  const own: Props = {};
  const meta: Props = {};
  for (const [key, value] of Object.entries(props)) (isMetaKey(kind, key) ? meta : own)[key] = value;
  const derived = Object.keys(meta).filter((key) => key in DERIVED_OUTPUTS[kind]);
  const checked = checkInputs(metaSchema, Object.fromEntries(Object.entries(meta).filter(([key]) => !derived.includes(key))));
  // The derived inputs are placeholders whatever their value: null, or unknown during a preview.
  const kept = { ...checked.inputs, ...Object.fromEntries(derived.map((key) => [key, meta[key]])) };
  return { meta: kept, own, ...(checked.failures?.length ? { failures: checked.failures } : {}) };
}

/**
 * Who the resource of these properties is, from the metadata its class passed: undefined for
 * state written before the metadata existed, and for a read by id alone. Secret inputs not yet known
 * (a preview of an input computed from another resource) count as none.
 */
export function identityOf(props: Props): ResourceIdentity | undefined {
  if (typeof props.resourceName !== "string" && props.secretInputs === undefined) return undefined;
  return {
    ...(typeof props.resourceName === "string" ? { name: props.resourceName } : {}),
    ...(typeof props.resourceParent === "string" ? { parent: props.resourceParent } : {}),
    secretInputs: secretInputsOf(props),
    ...(containsUnknown(props.secretInputs) ? { secretsUnknown: true } : {}),
  };
}

/** The names of the inputs the program gave as secrets. */
export function secretInputsOf(props: Props): string[] {
  return Array.isArray(props.secretInputs) ? props.secretInputs.filter((n): n is string => typeof n === "string") : [];
}

/** The inputs without the placeholders of derived outputs (they matter to the engine only). */
export function withoutPlaceholders(kind: ResourceKind, inputs: Props): Props {
  return Object.fromEntries(Object.entries(inputs).filter(([key]) => !(key in DERIVED_OUTPUTS[kind])));
}

/** The resource's own inputs, without the metadata (to send them to the service). */
export function withoutMeta(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([key]) => !META_KEYS.includes(key)));
}

/** The metadata kept in the outputs, as declared (an absent one clears what older outputs hold). */
export function metaOutputs(props: Props): Props {
  return Object.fromEntries(META_KEYS.map((key) => [key, props[key]]));
}

/**
 * The metadata inputs as the program passes them, rebuilt from the outputs for `read` (so that a
 * refresh without drift leaves the inputs exactly as they were). State written before the
 * metadata existed has none, in its outputs as in its inputs.
 */
export function refreshedMetaInputs(kind: ResourceKind, props: Props): Props {
  if (props.resourceName === undefined) return {};
  const secret = secretInputsOf(props);
  const placeholders = Object.entries(DERIVED_OUTPUTS[kind]).filter(([, sources]) => sources.some((s) => secret.includes(s)));
  return { ...metaOutputs(props), ...Object.fromEntries(placeholders.map(([output]) => [output, null])) };
}

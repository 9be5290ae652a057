/**
 * The inputs every resource class passes beside the user's (see provider/dynamic/resources/meta.ts):
 *  - `resourceName` and, for a resource with a parent, `resourceParent` (the parent's URN): the
 *    host passes no name to the provider; they identify the resource in conflicts and in what a
 *    delete leaves to another resource (two components may each have a child of the same name);
 *  - `secretInputs`: which of its value inputs the program gave as secrets (the host hands the
 *    provider plain values), so messages never print them;
 *  - a secret `null` input under the name of each output derived from a secret input (provider/core/kinds: `derivedFrom`).
 * They are kept in the outputs (the derived ones replaced by their values), so that `read` and
 * `delete`, which see only the outputs, know them too.
 */
import { z } from "zod";
import { DERIVED_OUTPUTS, inputSchema, type ResourceKind } from "../kinds";
import { checkInputs, containsUnknown, type Props } from "./check";
import type { Owner } from "./ownership";
import { sameSet } from "./diff";

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
 * `check` of a resource: its own inputs against its kind's declared schema, the metadata beside them, returned
 * together so that the engine keeps the metadata (and the secret marks of the derived inputs).
 */
export function checkResource(kind: ResourceKind, news: Props) {
  const own: Props = {};
  const meta: Props = {};
  for (const [key, value] of Object.entries(news)) (isMetaKey(kind, key) ? meta : own)[key] = value;
  const derived = Object.keys(meta).filter((key) => key in DERIVED_OUTPUTS[kind]);
  const checkedMeta = checkInputs(metaSchema, Object.fromEntries(Object.entries(meta).filter(([key]) => !derived.includes(key))));
  const checked = checkInputs(inputSchema(kind), own, new Set(secretInputsOf(news)));
  const failures = [...(checked.failures ?? []), ...(checkedMeta.failures ?? [])];
  // The derived inputs are placeholders whatever their value: null, or unknown during a preview.
  const inputs = { ...checked.inputs, ...checkedMeta.inputs, ...Object.fromEntries(derived.map((key) => [key, meta[key]])) };
  return failures.length ? { inputs, failures } : { inputs };
}

/** The resource these properties belong to, when its class passed its name. */
export function ownerOf(kind: ResourceKind, props: Props): Owner | undefined {
  if (typeof props.resourceName !== "string") return undefined;
  return { kind, name: props.resourceName, ...(typeof props.resourceParent === "string" ? { parent: props.resourceParent } : {}) };
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

/**
 * Whether the metadata changed in a way that needs an update (which writes nothing to the
 * service): the state predates it, the resource was renamed or moved with an alias (so that
 * messages name it as the program does), or an input became secret or stopped being one (so
 * that the outputs derived from it are stored accordingly).
 */
export function metaChanged(olds: Props, news: Props): boolean {
  if (news.resourceName !== undefined && (news.resourceName !== olds.resourceName || news.resourceParent !== olds.resourceParent))
    return true;
  if (containsUnknown(news.secretInputs)) return false;
  return !sameSet(secretInputsOf(olds), secretInputsOf(news));
}

/** `text`, unless the program gave `input` as a secret: messages never print secrets. */
export function shown(props: Props, input: string, text: string): string {
  return secretInputsOf(props).includes(input) ? "[secret]" : text;
}

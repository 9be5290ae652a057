/**
 * The inputs every resource class passes beside the user's (see provider/resources/meta.ts):
 *  - `resourceName`: the resource's own name, since the host passes no name to the provider; it
 *    names the resource in conflicts and in what a delete leaves to another resource;
 *  - `secretInputs`: which of its value inputs the program gave as secrets (the host hands the
 *    provider plain values), so messages never print them;
 *  - a secret `null` input under the name of each output derived from a secret input (kinds.ts).
 * They are kept in the outputs (the derived ones replaced by their values), so that `read` and
 * `delete`, which see only the outputs, know them too.
 */
import { z } from "zod";
import { DERIVED_OUTPUTS, type ResourceKind } from "../kinds";
import { checkInputs, containsUnknown, type Props } from "./check";
import type { Owner } from "./ownership";
import { sameSet } from "./diff";

const metaSchema = z.strictObject({
  resourceName: z.string({ error: "must be the resource's name (set by the resource class)" }).min(1).optional(),
  secretInputs: z.array(z.string(), { error: "must list input names (set by the resource class)" }).optional(),
});

function isMetaKey(kind: ResourceKind, key: string): boolean {
  return key === "resourceName" || key === "secretInputs" || key in DERIVED_OUTPUTS[kind];
}

/**
 * `check` of a resource: its own inputs against `schema`, the metadata beside them, returned
 * together so that the engine keeps the metadata (and the secret marks of the derived inputs).
 */
export function checkResource<S extends z.ZodType<Props>>(kind: ResourceKind, schema: S, news: Props) {
  const own: Props = {};
  const meta: Props = {};
  for (const [key, value] of Object.entries(news)) (isMetaKey(kind, key) ? meta : own)[key] = value;
  const derived = Object.keys(meta).filter((key) => key in DERIVED_OUTPUTS[kind]);
  const checkedMeta = checkInputs(metaSchema, Object.fromEntries(Object.entries(meta).filter(([key]) => !derived.includes(key))));
  const checked = checkInputs(schema, own);
  const failures = [...(checked.failures ?? []), ...(checkedMeta.failures ?? [])];
  // The derived inputs are placeholders whatever their value: null, or unknown during a preview.
  const inputs = { ...checked.inputs, ...checkedMeta.inputs, ...Object.fromEntries(derived.map((key) => [key, meta[key]])) };
  return failures.length ? { inputs, failures } : { inputs };
}

/** The resource these properties belong to, when its class passed its name. */
export function ownerOf(kind: ResourceKind, props: Props): Owner | undefined {
  return typeof props.resourceName === "string" ? { kind, name: props.resourceName } : undefined;
}

/** The resource's own inputs, without the metadata (to send them to the service). */
export function withoutMeta(props: Props): Props {
  const { resourceName: _name, secretInputs: _secrets, ...own } = props;
  return own;
}

/** The metadata kept in the outputs: the name and the secret inputs, as declared. */
export function metaOutputs(props: Props): Props {
  return { resourceName: props.resourceName, secretInputs: props.secretInputs };
}

/**
 * The metadata inputs as the program passes them, rebuilt from the outputs for `read` (so that a
 * refresh without drift leaves the inputs exactly as they were). State written before the
 * metadata existed has none, in its outputs as in its inputs.
 */
export function refreshedMetaInputs(kind: ResourceKind, props: Props): Props {
  if (props.resourceName === undefined) return {};
  const secret = Array.isArray(props.secretInputs) ? props.secretInputs : [];
  const placeholders = Object.entries(DERIVED_OUTPUTS[kind]).filter(([, source]) => secret.includes(source));
  return { ...metaOutputs(props), ...Object.fromEntries(placeholders.map(([output]) => [output, null])) };
}

/**
 * Whether the metadata changed in a way that needs an update (which writes nothing to the
 * service): the state predates it, the resource was renamed with an alias (so that messages
 * name it as the program does), or an input became secret or stopped being one (so that the
 * outputs derived from it are stored accordingly).
 */
export function metaChanged(olds: Props, news: Props): boolean {
  if (news.resourceName !== undefined && news.resourceName !== olds.resourceName) return true;
  if (containsUnknown(news.secretInputs)) return false;
  return !sameSet(olds.secretInputs ?? [], news.secretInputs ?? []);
}

/** `text`, unless the program gave `input` as a secret: messages never print secrets. */
export function shown(props: Props, input: string, text: string): string {
  return Array.isArray(props.secretInputs) && props.secretInputs.includes(input) ? "[secret]" : text;
}

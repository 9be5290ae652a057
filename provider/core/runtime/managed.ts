/**
 * The managed fields of a kind, derived from its declaration (`managed` in
 * provider/core/kinds/<kind>.ts): each field's value in inputs or outputs, the originals a state
 * recorded, the outputs that hold them, what a state recorded for the claims, the fields a
 * program dropped, and the inputs a refresh gives back. A kind that declares its managed fields
 * writes none of this: its handler maps them to the API (what to read, what to send).
 */
import { KINDS, type ResourceKind } from "../kinds";
import type { InputField, ManagedField } from "../kinds/declare";
import type { Props } from "./check";
import type { DroppedField } from "./owned";

type Values = Record<string, unknown>;

/** The value at a dotted path (`managedScanConfig.diffScan`), or undefined. */
function at(props: Props, path: string): unknown {
  let value: unknown = props;
  for (const key of path.split(".")) value = value && typeof value === "object" ? (value as Props)[key] : undefined;
  return value;
}

/** `target` with `value` at a dotted path, creating the objects on the way. */
function put(target: Props, path: string, value: unknown): void {
  const keys = path.split(".");
  let into = target;
  for (const key of keys.slice(0, -1)) into = (into[key] ??= {}) as Props;
  into[keys.at(-1)!] = value;
}

export interface ManagedFields {
  /** Every managed field, in declaration order. */
  readonly names: readonly string[];
  /** The fields whose input is required: always managed (a rule's mode), never dropped. */
  readonly required: readonly string[];
  /** Each field's value in `props` (declared inputs, or outputs, which carry every live value). */
  values(props: Props): Values;
  /** The fields `props` declares (a value given). */
  declared(props: Props): string[];
  /** The optional fields `props` declares: what a `managedFields` output lists. */
  declaredOptional(props: Props): string[];
  /**
   * The fields a state managed: the required ones, and its `managedFields`, or, in state written
   * before that output (or a kind without it), those with an original.
   */
  managed(props: Props): string[];
  /** The originals a state recorded, by field. */
  originals(props: Props): Values;
  /** What a state managed and recorded, as an update's apply starts from (fields.ts planApply). */
  before(props: Props): { managed: string[]; originals: Values };
  /** The outputs that hold `originals` (an output of nested fields none of which has one is left unset). */
  originalOutputs(originals: Values): Props;
  /** What a state recorded as each managed field's original, `null` for none, by claim field (default: the field's name). */
  recorded(props: Props, claimField?: (field: string) => string): Record<string, unknown>;
  /** The fields `olds` managed that `news` no longer declares, with their originals and last values (owned.ts diffDropping). */
  dropped(olds: Props, news: Props): DroppedField[];
  /** The inputs that make the next diff right after a refresh: the identity inputs, `restoreOnDelete`, and each managed field's live value. */
  refreshedInputs(props: Props, live: Props): Props;
}

const cache = new Map<ResourceKind, ManagedFields>();

/** The managed fields of `kind`, as its declaration gives them. */
export function managedFields(kind: ResourceKind): ManagedFields {
  const found = cache.get(kind);
  if (found) return found;
  const declaration = KINDS[kind];
  const fields = (declaration.managed ?? {}) as Readonly<Record<string, ManagedField>>;
  const names = Object.keys(fields);
  const inputFields = declaration.inputs as Readonly<Record<string, InputField>>;
  const required = names.filter((name) => !inputFields[name.split(".")[0]!]!.schema.safeParse(undefined).success);
  const values = (props: Props) => Object.fromEntries(names.map((name) => [name, at(props, name)]));
  const originals = (props: Props) =>
    Object.fromEntries(
      names.map((name) => {
        const stored = at(props, fields[name]!.original);
        return [name, fields[name]!.fromState ? fields[name]!.fromState(stored, props) : stored];
      }),
    );
  const managed = (props: Props) => {
    const listed = props.managedFields;
    if (Array.isArray(listed)) return names.filter((name) => required.includes(name) || listed.includes(name));
    const recorded = originals(props);
    return names.filter((name) => required.includes(name) || recorded[name] !== undefined);
  };
  const declared = (props: Props) => names.filter((name) => at(props, name) !== undefined);
  const identity = Object.keys(inputFields).filter((input) => inputFields[input]!.replaces);
  const result: ManagedFields = {
    names,
    required,
    values,
    declared,
    declaredOptional: (props) => declared(props).filter((name) => !required.includes(name)),
    managed,
    originals,
    before: (props) => ({ managed: managed(props), originals: originals(props) }),
    originalOutputs(recorded) {
      const outputs: Props = {};
      for (const name of names) {
        const path = fields[name]!.original;
        if (!path.includes(".")) outputs[path] = recorded[name];
        else if (recorded[name] !== undefined) put(outputs, path, recorded[name]);
        else outputs[path.split(".")[0]!] ??= undefined;
      }
      return outputs;
    },
    recorded(props, claimField = (field) => field) {
      const recorded = originals(props);
      return Object.fromEntries(managed(props).map((name) => [claimField(name), recorded[name] ?? null]));
    },
    dropped(olds, news) {
      const recorded = originals(olds);
      const last = values(olds);
      return managed(olds)
        .filter((name) => at(news, name) === undefined)
        .map((name) => ({ name, original: recorded[name], last: last[name] }));
    },
    refreshedInputs(props, live) {
      const inputs: Props = { restoreOnDelete: props.restoreOnDelete };
      for (const input of identity) inputs[input] = props[input];
      for (const name of managed(props)) put(inputs, name, fields[name]!.refreshed ? fields[name]!.refreshed(live) : at(live, name));
      return inputs;
    },
  };
  cache.set(kind, result);
  return result;
}

/** `diff` for every resource: compare only what the program declares, and never decide on an unknown. */
import type { DiffResult } from "./handler";
import { containsUnknown, type Props } from "./check";

export interface FieldRule {
  /** Input name, compared with the output of the same name (the live value). */
  name: string;
  /** A change of this field replaces the resource (deployment, project, policy, rule). */
  replaces?: boolean;
  /** Whether the live value satisfies the declared one; default {@link covers}. */
  equal?: (live: unknown, declared: unknown, olds: Props) => boolean;
}

/**
 * The declared fields whose value differs from the last known live value. A field not declared
 * is not compared (it is not managed). A value not yet known counts as a change.
 */
export function changedFields(olds: Props, news: Props, fields: readonly FieldRule[]): FieldRule[] {
  return fields.filter((field) => {
    const declared = news[field.name];
    if (declared === undefined) return false;
    return containsUnknown(declared) || !(field.equal ?? covers)(olds[field.name], declared, olds);
  });
}

/**
 * The engine's diff: the changed declared fields, identity fields among them as replacements
 * (an unknown identity field too, so previews never understate what may happen).
 */
export function diffDeclared(olds: Props, news: Props, fields: readonly FieldRule[]): DiffResult {
  const changed = changedFields(olds, news, fields);
  const replaces = changed.filter((f) => f.replaces).map((f) => f.name);
  const restoreChanged = (news.restoreOnDelete ?? true) !== (olds.restoreOnDelete ?? true);
  return {
    changes: changed.length > 0 || restoreChanged,
    replaces,
    stables: fields.filter((f) => f.replaces && !replaces.includes(f.name)).map((f) => f.name),
  };
}

/**
 * Whether `live` satisfies `declared`: equal scalars and lists; for objects, every key the
 * declaration sets (a key left out is not managed, e.g. `fullScan` when only `diffScan` is declared).
 */
export function covers(live: unknown, declared: unknown): boolean {
  if (live === declared) return true;
  if (Array.isArray(live) && Array.isArray(declared))
    return live.length === declared.length && live.every((v, i) => covers(v, declared[i]));
  if (isRecord(live) && isRecord(declared)) {
    return Object.entries(declared).every(([key, value]) => value === undefined || covers(live[key], value));
  }
  return false;
}

export function isRecord(value: unknown): value is Props {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** Two tag lists hold the same tags, in any order. */
export function sameSet(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return false;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

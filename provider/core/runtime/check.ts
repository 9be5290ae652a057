/**
 * `check` for every resource: validate the inputs with a zod schema, report each problem against
 * its property, and leave alone what is not known yet (during preview the engine passes a
 * sentinel string in place of any value computed by another resource).
 */
import type { CheckFailure, CheckResult } from "./handler";
import type { z } from "zod";

/**
 * The engine's stand-in for a value not known until apply: a constant of Pulumi's resource
 * protocol (`pulumi.runtime.unknownValue`; test/resources/check.test.ts holds them equal), written
 * out so that the core needs nothing of `@pulumi/pulumi` at run time.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;
type Path = ReadonlyArray<PropertyKey>;

/** True when `value` is, or holds anywhere inside it, a value not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

function unknownPaths(value: unknown, path: PropertyKey[] = [], found: Path[] = []): Path[] {
  if (value === UNKNOWN) found.push(path);
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) unknownPaths(v, [...path, i], found);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) unknownPaths(v, [...path, k], found);
  return found;
}

const isPrefix = (a: Path, b: Path) => a.length <= b.length && a.every((k, i) => b[i] === k);

/** `managedScanConfig.diffScan.enabled`, `tags[1]` */
export function propertyName(path: Path): string {
  return path.reduce<string>(
    (name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    "",
  );
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined), value);
}

function describe(value: unknown, secret: boolean): string {
  if (value === undefined) return "";
  if (secret) return "[secret]: ";
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 80 ? `${text}: ` : "";
}

/**
 * Validates the new inputs. Without unknowns, the inputs returned are the schema's normalized
 * output; with unknowns, they go back as given and only the known parts are judged.
 *
 * The engine prints the value of the property a failure names; a failure about an input in
 * `secret` (which the program gave as a secret) therefore names no property, and its reason
 * shows `[secret]` in place of the value.
 */
export function checkInputs<S extends z.ZodType<Props>>(schema: S, props: Props, secret: ReadonlySet<string> = new Set()): CheckResult {
  const unknowns = unknownPaths(props);
  const parsed = schema.safeParse(props);
  if (parsed.success) return { inputs: parsed.data };

  const failures: CheckFailure[] = [];
  for (const issue of parsed.error.issues) {
    if (unknowns.some((u) => isPrefix(u, issue.path) || isPrefix(issue.path, u))) continue;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) failures.push({ property: propertyName([...issue.path, key]), reason: `unknown input "${key}"` });
      continue;
    }
    const property = propertyName(issue.path);
    const hidden = secret.has(String(issue.path[0]));
    const reason = `${property || "inputs"}: ${describe(valueAt(props, issue.path), hidden)}${issue.message}`;
    if (failures.some((f) => f.reason.startsWith(`${property || "inputs"}: `))) continue; // the first problem of a property is enough
    failures.push({ property: hidden ? "" : property, reason });
  }
  return failures.length ? { inputs: props, failures } : { inputs: props };
}

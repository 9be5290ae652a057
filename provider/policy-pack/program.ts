/**
 * The inputs of the new program's resources, as the resource validations of this run saw them.
 * A stack validation is given the resources' outputs (at preview, partly the old ones), while
 * what a run puts back depends on what the program now declares: the resource validation of a
 * policy records each resource's inputs here, and the same policy's stack validation, which the
 * engine calls last, reads them.
 */
import type { Inputs } from "./resources";

/** A resource of the new program: its inputs, or `unknown` when some are not known at preview. */
export interface ProgramResource {
  urn: string;
  type: string;
  inputs?: Inputs;
  unknown?: boolean;
  /** Of a resource `unknown` at preview: its top-level inputs that are known (a policy that can judge from them alone reads these). */
  knownInputs?: Inputs;
  /**
   * The URNs it was known by (its aliases, as the engine resolves them): a resource moved from
   * the dynamic type to the native plugin's (`aliases: [{ type: "pulumi-nodejs:dynamic/semgrep:X" }]`)
   * is the same resource as the state's under its old URN, not a removed one.
   */
  aliases?: string[];
}

const seen = new Map<string, ProgramResource>();

/**
 * Records `props` (the proxy `@pulumi/policy` gives, which throws on a value unknown at preview)
 * as the inputs of `urn`; a value unknown at preview marks the resource `unknown`.
 */
export function recordInputs(urn: string, type: string, props: unknown, aliases: readonly string[] = []): void {
  const known = aliases.length ? { aliases: [...aliases] } : {};
  try {
    seen.set(urn, { urn, type, inputs: JSON.parse(JSON.stringify(props)) as Inputs, ...known });
  } catch {
    seen.set(urn, { urn, type, unknown: true, knownInputs: knownParts(props), ...known });
  }
}

/** The top-level values of `props` that are wholly known. */
function knownParts(props: unknown): Inputs {
  const parts: Inputs = {};
  if (!props || typeof props !== "object") return parts;
  for (const key of Object.keys(props)) {
    try {
      parts[key] = JSON.parse(JSON.stringify((props as Inputs)[key])) as unknown;
    } catch {
      // unknown at preview (the proxy throws), or holding an unknown value: left out
    }
  }
  return parts;
}

/** The recorded resources among `urns` (the stack validation's resources: the new program's). */
export function programResources(urns: Iterable<string>): ProgramResource[] {
  return [...urns].flatMap((urn) => seen.get(urn) ?? []);
}

/** Forgets every record (tests emulate one run after another in one process). */
export function forgetProgram(): void {
  seen.clear();
}

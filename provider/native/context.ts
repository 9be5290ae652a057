/**
 * Who the resource a call is for is, built by this front end from the request: its name (the
 * URN's last part), its parent (the URN's type chain, when the resource has a parent other than
 * the stack) and which inputs are secrets (the wrappers the engine sent). The dispatcher hands it
 * to the handlers as their call context (provider/core/runtime/call-context.ts); nothing of it is
 * stored in the state. (The dynamic front end's resource classes pass the same as meta inputs:
 * provider/core/runtime/resource-meta.ts.)
 */
import { DERIVED_OUTPUTS, implicitSecrets, type ResourceKind, SHARED_SET_OUTPUTS } from "../core/kinds";
import type { ResourceIdentity } from "../core/runtime/call-context";

type Props = Record<string, unknown>;

/** `urn:pulumi:<stack>::<project>::<parent types $ type>::<name>`, taken apart. */
export function parseUrn(urn: string): { stack: string; project: string; types: string[]; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0]!.startsWith("urn:pulumi:")) throw new Error(`pulumi-resource-semgrep: not a resource URN: ${urn}`);
  return { stack: parts[0]!.slice("urn:pulumi:".length), project: parts[1]!, types: parts[2]!.split("$"), name: parts.slice(3).join("::") };
}

/**
 * The resource's identity from its URN. Its `parent` stands for the resource's parent: the URN of
 * a parent whose name the request does not give (only its type), so two resources of one name
 * under parents of different types stay apart.
 */
export function identityFromUrn(urn: string, secretInputs: readonly string[]): ResourceIdentity {
  const { stack, project, types, name } = parseUrn(urn);
  const parentTypes = types.slice(0, -1).filter((type) => type !== "pulumi:pulumi:Stack");
  const parent = parentTypes.length ? `urn:pulumi:${stack}::${project}::${parentTypes.join("$")}::` : undefined;
  return { name, ...(parent ? { parent } : {}), secretInputs };
}

/**
 * The outputs to return as secrets: those of a secret input's name, those derived from a secret
 * input, and a whole set other resources may add to (a project's tags) unless this resource
 * declares it.
 */
export function secretOutputs(kind: ResourceKind, outputs: Props, context: ResourceIdentity, declared: Props): string[] {
  const secret = new Set(context.secretInputs);
  // A value the kind holds as a secret (declare.ts `secretWhen`) that the service gave, not the program: a live
  // webhook URL of a rule declared without `config`, or the URL of the rule an original records.
  for (const input of implicitSecrets(kind, outputs)) secret.add(input);
  for (const output of Object.keys(DERIVED_OUTPUTS[kind])) {
    const value = outputs[output];
    if (value && typeof value === "object" && !Array.isArray(value) && implicitSecrets(kind, value as Props).length) secret.add(output);
  }
  for (const [output, sources] of Object.entries(DERIVED_OUTPUTS[kind])) if (sources.some((s) => secret.has(s))) secret.add(output);
  for (const output of SHARED_SET_OUTPUTS[kind]) if (declared[output] === undefined) secret.add(output);
  return Object.keys(outputs).filter((key) => secret.has(key));
}

/**
 * What the handlers learn of the resource a call is for, built by this front end from the
 * request: its name (the URN's last part), its parent (the URN's type chain, when the resource has
 * a parent other than the stack) and which inputs are secrets (the wrappers the engine sent).
 * The dynamic front end learns the same from the meta inputs its resource classes pass
 * (provider/core/runtime/resource-meta.ts); the handlers read it from the properties under those
 * names, so this front end puts it there for the call and takes it off the answer: nothing of it
 * is stored in the state.
 */
import { DERIVED_OUTPUTS, type ResourceKind, SHARED_SET_OUTPUTS } from "../core/kinds";
import { withoutMeta, withoutPlaceholders } from "../core/runtime/resource-meta";

type Props = Record<string, unknown>;

export interface CallContext {
  /** The resource's name in the program. */
  readonly name: string;
  /**
   * Stands for the resource's parent: the URN of a parent whose name the request does not give
   * (only its type), so two resources of one name under parents of different types stay apart.
   */
  readonly parent?: string;
  /** The inputs the program gave as secrets (or holding one). */
  readonly secretInputs: readonly string[];
}

/** `urn:pulumi:<stack>::<project>::<parent types $ type>::<name>`, taken apart. */
export function parseUrn(urn: string): { stack: string; project: string; types: string[]; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0]!.startsWith("urn:pulumi:")) throw new Error(`pulumi-resource-semgrep: not a resource URN: ${urn}`);
  return { stack: parts[0]!.slice("urn:pulumi:".length), project: parts[1]!, types: parts[2]!.split("$"), name: parts.slice(3).join("::") };
}

export function contextOf(urn: string, secretInputs: readonly string[]): CallContext {
  const { stack, project, types, name } = parseUrn(urn);
  const parentTypes = types.slice(0, -1).filter((type) => type !== "pulumi:pulumi:Stack");
  const parent = parentTypes.length ? `urn:pulumi:${stack}::${project}::${parentTypes.join("$")}::` : undefined;
  return { name, ...(parent ? { parent } : {}), secretInputs };
}

/** The properties as the handlers read them: with the context under the meta inputs' names. */
export function withContext(props: Props, context: CallContext): Props {
  return {
    ...props,
    resourceName: context.name,
    ...(context.parent ? { resourceParent: context.parent } : {}),
    ...(context.secretInputs.length ? { secretInputs: [...context.secretInputs] } : {}),
  };
}

/** A handler's answer without the context it was given: the state keeps none of it. */
export const withoutContext = (props: Props): Props => withoutMeta(props);

/**
 * Inputs a handler returned (`check`, `read`), without the context and without the placeholders
 * of derived outputs the dynamic classes pass as inputs (`originalMode: null` beside a secret
 * `mode`): a refresh would otherwise store them among the inputs, which the schema has not.
 */
export function inputsWithoutContext(kind: ResourceKind, inputs: Props): Props {
  return withoutPlaceholders(kind, withoutMeta(inputs));
}

/**
 * The outputs to return as secrets: those of a secret input's name, those derived from a secret
 * input, and a whole set other resources may add to (a project's tags) unless this resource
 * declares it.
 */
export function secretOutputs(kind: ResourceKind, outputs: Props, context: CallContext, declared: Props): string[] {
  const secret = new Set(context.secretInputs);
  for (const [output, sources] of Object.entries(DERIVED_OUTPUTS[kind])) if (sources.some((s) => secret.has(s))) secret.add(output);
  for (const output of SHARED_SET_OUTPUTS[kind]) if (declared[output] === undefined) secret.add(output);
  return Object.keys(outputs).filter((key) => secret.has(key));
}

/**
 * Imports refused before they land. `pulumi import` runs no program: the plugin sees the imported
 * resource alone, so a conflict with a resource the stack already holds (a DetectionPolicy that
 * declares the whole `exceptions` list, beside a DetectionPolicyException that would manage one
 * entry of it) would only show at the next preview, after the import recorded the resource as
 * protected, and the user would have to take it out of the state by hand. The stack's state says
 * what the stack declares: read with `pulumi stack export`, as the policy pack reads it. The same
 * conflict the other way: a DetectionPolicy's import declares the whole live list, and a
 * DetectionPolicyException of the stack already declares an entry of it.
 */
import type { ResourceKind } from "../core/kinds";
import { exceptionKey, keyString, keyText } from "../core/kinds/detection-exceptions";
import { detectionObject } from "../core/handlers/detection-bundles";
import { exportState, isSecretValue, type StackState, type StateResource } from "../policy-pack/stack-state";
import { kindOf } from "../policy-pack/resources";

type Props = Record<string, unknown>;

/** Why a kind's import conflicts with the stack's resources, or undefined when it does not. */
type Refusal = (name: string, inputs: Props, state: readonly StateResource[]) => string | undefined;

const nameOf = (resource: StateResource) => resource.urn.split("::").at(-1) ?? resource.urn;

/** The resources of `state` of `kind` on the detection policy `inputs` names (deployment and product). */
const onSameProduct = (state: readonly StateResource[], kind: ResourceKind, inputs: Props) =>
  state.filter(
    (r) =>
      kindOf(r.type) === kind && String(r.inputs?.deploymentId) === String(inputs.deploymentId) && r.inputs?.product === inputs.product,
  );

const REFUSALS: Partial<Record<ResourceKind, Refusal>> = {
  // The import declares the live `exceptions` (the whole list), one entry of which each of these manages.
  DetectionPolicy: (name, inputs, state) => {
    if (inputs.exceptions === undefined) return undefined;
    const exceptions = onSameProduct(state, "DetectionPolicyException", inputs).map((r) => JSON.stringify(nameOf(r)));
    if (!exceptions.length) return undefined;
    const them = `DetectionPolicyException ${exceptions.join(", ")}`;
    return (
      `DetectionPolicy ${JSON.stringify(name)} is not imported: an import declares every exception of ` +
      `${detectionObject(inputs.deploymentId, inputs.product)} (the whole list), and ${them} of this stack ` +
      `${exceptions.length === 1 ? "declares one" : "declare some"} of them. One resource declares a field of an object: the ` +
      `two would overwrite each other, and the next preview would fail. Declare the DetectionPolicy in the program instead ` +
      "(creating it takes the policy over, recording what it finds), without `exceptions`; or, to declare the whole list in it, " +
      `first give ${them} \`restoreOnDelete: false\` for one \`pulumi up\`, then remove ${exceptions.length === 1 ? "it" : "them"} ` +
      "from the program and `pulumi up` (the exceptions stay), then import it."
    );
  },
  DetectionPolicyException: (name, inputs, state) => {
    const owner = onSameProduct(state, "DetectionPolicy", inputs).find((r) => r.inputs?.exceptions !== undefined);
    if (!owner) return undefined;
    const policy = `DetectionPolicy ${JSON.stringify(nameOf(owner))}`;
    const declared = owner.inputs!.exceptions;
    const key = keyString(exceptionKey(inputs as Parameters<typeof exceptionKey>[0]));
    const holds = Array.isArray(declared) && declared.some((e) => keyString(exceptionKey(e as Parameters<typeof exceptionKey>[0])) === key);
    const where = isSecretValue(declared)
      ? ""
      : holds
        ? `, and its list already holds this exception (${keyText(exceptionKey(inputs as Parameters<typeof exceptionKey>[0]))})`
        : ", and its list does not hold this exception: its next update removes it";
    return (
      `DetectionPolicyException ${JSON.stringify(name)} is not imported: ${policy} of this stack declares the exceptions of ` +
      `${detectionObject(inputs.deploymentId, inputs.product)} (the whole list)${where}. One resource declares a field of an ` +
      `object: the two would overwrite each other, and the next preview would fail. Keep the exception in the \`exceptions\` of ` +
      `${policy}; or, to manage it on its own, first remove \`exceptions\` from ${policy} and run \`pulumi up\` (the exceptions ` +
      "stay as they are), then import it."
    );
  },
};

const states = new Map<string, Promise<StackState>>();

/** The stack of `urn` (`urn:pulumi:<stack>::<project>::…`), exported once per process. */
function stateOf(urn: string): Promise<StackState> {
  const stack = urn.split("::")[0]!.replace(/^urn:pulumi:/, "");
  let state = states.get(stack);
  if (!state) states.set(stack, (state = exportState({ stack })));
  return state;
}

/**
 * Why importing `urn` (a `kind` declaring `inputs`) is refused, or undefined when it may land;
 * `unchecked` is called with the reason when the stack's state cannot be read (the import goes on).
 */
export async function importRefusal(kind: ResourceKind, urn: string, inputs: Props, unchecked: (why: string) => void) {
  const refusal = REFUSALS[kind];
  if (!refusal) return undefined;
  const state = await stateOf(urn);
  if ("error" in state) {
    unchecked(`could not read the stack's state to check this import against its resources: ${state.error}`);
    return undefined;
  }
  return refusal(urn.split("::").at(-1) ?? urn, inputs, state.resources);
}

/**
 * Imports refused before they land. `pulumi import` runs no program: the plugin sees the imported
 * resource alone, so a conflict with a resource the stack already holds would only show at the
 * next preview, after the import recorded the resource as protected, and the user would have to
 * take it out of the state by hand. The stack's state says what the stack declares: read with
 * `pulumi stack export`, as the policy pack reads it. The import's claims are checked against
 * those of the stack's resources, each kind's as its own `check` makes them
 * (core/runtime/stack-claims.ts): a PolicyRuleMode whose rule a selector of the stack matches, a
 * ProjectSettings (whose import declares the whole tag list) beside a ProjectTags, and the
 * reverse of each. A DetectionPolicy and its exceptions keep their own, more precise, text.
 */
import { KINDS, type ResourceKind } from "../core/kinds";
import { exceptionKey, keyString, keyText } from "../core/kinds/detection-exceptions";
import { detectionObject } from "../core/handlers/detection-bundles";
import { teamsByName } from "../core/handlers/team-access";
import { UNKNOWN } from "../core/runtime/check";
import { someOf } from "../core/runtime/notices";
import { onForget } from "../core/runtime/process-memory";
import { type Owner, ownerName } from "../core/runtime/ownership";
import { identityOf, secretInputsOf, withoutMeta, withoutPlaceholders } from "../core/runtime/resource-meta";
import { type ClaimConflict, conflictsWithStack, type StackResource } from "../core/runtime/stack-claims";
import { exportState, isSecretValue, type StackState, type StateResource } from "../policy-pack/stack-state";
import { kindOf } from "../policy-pack/resources";
import { identityFromUrn } from "./context";

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

/** A value of the exported state with every secret (ciphertext) in it made a value not known: it makes no claim of its own. */
const withoutCiphertext = (value: unknown): unknown =>
  isSecretValue(value)
    ? UNKNOWN
    : Array.isArray(value)
      ? value.map(withoutCiphertext)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutCiphertext(v)]))
        : value;

const holdsSecret = (value: unknown): boolean =>
  isSecretValue(value) || (!!value && typeof value === "object" && Object.values(value).some(holdsSecret));

/** A resource of this package in the exported state, as its claims see it; undefined for any other, or one pending deletion. */
function stackResourceOf(resource: StateResource & { delete?: boolean }): StackResource | undefined {
  const kind = kindOf(resource.type);
  if (!kind || resource.delete) return undefined;
  const stored = resource.inputs ?? {};
  // The dynamic classes keep their name, parent and secret inputs beside the inputs (resource-meta.ts).
  const meta = identityOf(stored);
  const inputs = withoutPlaceholders(kind, withoutMeta(stored));
  delete inputs.__provider;
  // A Team's team is one of its outputs (its id), by which its claims name the team's members and projects.
  if (kind === "Team" && typeof resource.outputs?.teamId === "string") inputs.teamId = resource.outputs.teamId;
  const secretInputs = [...new Set([...secretInputsOf(stored), ...Object.keys(inputs).filter((k) => holdsSecret(inputs[k]))])];
  const identity = meta?.name !== undefined ? meta : identityFromUrn(resource.urn, []);
  const owner: Owner = { kind, name: identity.name!, ...(identity.parent ? { parent: identity.parent } : {}) };
  return { owner, inputs: withoutCiphertext(inputs) as Record<string, unknown>, secretInputs };
}

/** Whether `kind` may be declared without `input` (a required one cannot be dropped from it). */
const optional = (kind: string, input: string) =>
  (KINDS[kind as ResourceKind]?.inputs as Record<string, { schema: { safeParse(v: unknown): { success: boolean } } }> | undefined)?.[
    input
  ]?.schema.safeParse(undefined).success ?? false;

/**
 * The input of a claim's property: a field inside one (`managedScanConfig.fullScan`, a toggle of
 * a ProjectSettings) is an entry of its top-level input, which the program can leave it out of.
 */
const inputOf = (property: string) => property.split(".")[0]!;

/** How `other` stops declaring what it shares with the import, by the input that declares it. */
function wayOut({ other, otherProperty, otherEntry }: ClaimConflict, them: string): string {
  const named = ownerName(other);
  const property = inputOf(otherProperty);
  if (property === "select") return `leave ${them} out of the select of ${named} with \`select.exclude\``;
  if (optional(other.kind, property) && otherEntry) return `leave ${them} out of the \`${property}\` of ${named}`;
  if (optional(other.kind, property)) return `remove \`${property}\` from ${named} (the values stay as they are)`;
  if (KINDS[other.kind as ResourceKind]?.inputs && "restoreOnDelete" in KINDS[other.kind as ResourceKind].inputs)
    return `give ${named} \`restoreOnDelete: false\` for one \`pulumi up\`, then remove it from the program (the values stay as they are)`;
  return `remove ${named} from the program`;
}

/** The refusal of an import of `self` that would declare what each of `conflicts` names, grouped by the other resource. */
function refusalOf(self: Owner, conflicts: readonly ClaimConflict[]): string {
  const byOther = new Map<string, ClaimConflict[]>();
  for (const conflict of conflicts) byOther.set(ownerName(conflict.other), [...(byOther.get(ownerName(conflict.other)) ?? []), conflict]);
  const name = ownerName(self);
  const clauses = [...byOther].map(([other, group]) => {
    const secret = group.some((c) => c.secret);
    const what = secret
      ? `${group.length === 1 ? "a field" : `${group.length} fields`} of an object it reads ([secret])`
      : someOf(
          group.map((c) => `the ${c.claim.field} of ${c.claim.object}`),
          5,
        );
    const bySelector = group.every((c) => c.otherProperty === "select")
      ? ` (the select of ${other} matches ${group.length === 1 ? "it" : "them"})`
      : "";
    return { text: `${what}, which ${other} of this stack declares too${bySelector}`, group };
  });
  const them = conflicts.length === 1 ? "it" : "them";
  const ways = [...byOther.values()].map((group) => wayOut(group[0]!, group.length === 1 ? "it" : "them"));
  const ownInput = (c: ClaimConflict) => inputOf(c.claim.property ?? c.claim.field);
  const own = [...new Set(conflicts.map(ownInput))];
  // A whole input the kind may go without (`tags`), or entries of one (rules of `modes`): else only the other way.
  const wholes = own.filter((input) => conflicts.some((c) => ownInput(c) === input && c.claim.field === input));
  const leftOut = own.every((input) => optional(self.kind, input))
    ? wholes.length === own.length
      ? `without ${own.map((i) => `\`${i}\``).join(" and ")}`
      : `leaving ${them} out of ${own.map((i) => `\`${i}\``).join(" and ")}`
    : undefined;
  const instead = leftOut
    ? ` Or declare ${name} in the program instead of importing it, ${leftOut} (creating it takes the object over, recording what it finds).`
    : ` Or leave ${them} to the resource${byOther.size === 1 ? "" : "s"} of this stack that declare${byOther.size === 1 ? "s" : ""} ${them}.`;
  return (
    `${name} is not imported: an import declares every value the object holds, so it would declare ${clauses.map((c) => c.text).join("; and ")}. ` +
    "One field of an object is declared by one resource only: the two would overwrite each other, and the next preview would fail. " +
    `To import it, first ${ways.join(", and ")}, and run \`pulumi up\`; then import it.${instead}`
  );
}

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
export function importRefusal(
  kind: ResourceKind,
  urn: string,
  inputs: Props,
  unchecked: (why: string) => void,
): Promise<string | undefined> {
  // One at a time, so that each import of one `pulumi import --file` sees those admitted before it.
  const checked = imports.then(async () => {
    const state = await stateOf(urn);
    if ("error" in state) {
      unchecked(`could not read the stack's state to check this import against its resources: ${state.error}`);
      return undefined;
    }
    const earlier = admittedBy.get(stackOf(urn)) ?? [];
    const declared = await withOutputIdentity(kind, inputs);
    const refusal = await refusalAgainst(kind, urn, declared, [...state.resources, ...earlier], unchecked);
    if (!refusal) admittedBy.set(stackOf(urn), [...earlier, { urn, type: `semgrep:index:${kind}`, inputs: declared, outputs: declared }]);
    return refusal;
  });
  imports = checked.catch(() => undefined);
  return checked;
}

/**
 * The imports this process let through, by stack: `pulumi import --file` reads every resource of
 * the file in one plugin process, and the exported state holds none of them yet, so each is also
 * checked against those before it (two of one file that declare the same field: the later one is
 * refused, naming the earlier).
 */
const admittedBy = new Map<string, StateResource[]>();
onForget(() => admittedBy.clear());
let imports: Promise<unknown> = Promise.resolve();
const stackOf = (urn: string) => urn.split("::")[0]!;

/**
 * The inputs of an import, with the identity a kind's claims name its object by where that is an
 * output its inputs lack: a Team's `teamId`, the team of its name (the listing its read made).
 */
async function withOutputIdentity(kind: ResourceKind, inputs: Props): Promise<Props> {
  if (kind !== "Team" || inputs.teamId !== undefined || typeof inputs.name !== "string") return inputs;
  const team = (await teamsByName(String(inputs.deploymentId)).catch(() => undefined))?.get(inputs.name);
  return team ? { ...inputs, teamId: team.id } : inputs;
}

/** Why importing `urn` (a `kind` declaring `inputs`) into a stack whose exported state holds `resources` is refused, or undefined. */
export async function refusalAgainst(
  kind: ResourceKind,
  urn: string,
  inputs: Props,
  resources: readonly StateResource[],
  unchecked: (why: string) => void = () => {},
) {
  const name = urn.split("::").at(-1) ?? urn;
  inputs = await withOutputIdentity(kind, inputs);
  const precise = REFUSALS[kind]?.(name, inputs, resources);
  if (precise) return precise;
  const identity = identityFromUrn(urn, []);
  const self: Owner = { kind, name: identity.name!, ...(identity.parent ? { parent: identity.parent } : {}) };
  const stack = resources.flatMap((resource) => stackResourceOf(resource) ?? []);
  const { conflicts, unchecked: hidden } = await conflictsWithStack({ owner: self, inputs }, stack);
  if (conflicts.length) return refusalOf(self, conflicts);
  if (hidden.length)
    unchecked(
      `could not check this import against ${someOf(hidden.map(ownerName), 5)} of this stack: the state holds the inputs ` +
        `that say what ${hidden.length === 1 ? "it declares" : "they declare"} encrypted (secrets). If the import declares what ` +
        `${hidden.length === 1 ? "it declares" : "one of them declares"}, the next preview fails naming both: then ` +
        "`pulumi state unprotect <urn>` and `pulumi state delete <urn>` take the import out (nothing is written to Semgrep).",
    );
  return undefined;
}

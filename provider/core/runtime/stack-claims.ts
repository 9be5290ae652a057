/**
 * The claims one resource would make beside those of the resources a stack already holds, read
 * from the stack's state rather than made by a run: what `pulumi import` must check, since it runs
 * no program (the plugin sees the imported resource alone) and an import the stack could not hold
 * would only fail the next preview, after it was recorded as protected. Each kind's claims come
 * from its handler's `claims` and `rules` (handler.ts), the functions its own `check` uses, in a
 * claim space of its own (claim-space.ts, and a RuleDeclarations of rule-selectors.ts): the
 * process's claims stay as they are.
 */
import type { ResourceKind } from "../kinds";
import { RuleDeclarations, type RuleSet } from "../handlers/rule-selectors";
import { policyRules } from "../handlers/rule-index";
import { ruleObject } from "../handlers/policy-rule-mode";
import type { Secrecy } from "./call-context";
import type { Props } from "./check";
import { ClaimSpace } from "./claim-space";
import { handlers } from "./dispatch";
import { type Claim, type Owner, sameOwner } from "./ownership";

/** A resource of the stack as its state records it: its inputs, with the secret ones unknown (their values are ciphertext). */
export interface StackResource {
  owner: Owner;
  inputs: Props;
  secretInputs: readonly string[];
}

/** One field of one object both the new resource and `other` declare. */
export interface ClaimConflict {
  /** The new resource's claim. */
  claim: Claim;
  other: Owner;
  /** The input of `other` that declares it (`select` where its selector matches a rule). */
  otherProperty: string;
  /** `other` declares it as an entry of that input (a rule of `modes`), not as the whole input. */
  otherEntry: boolean;
  /** Either claim is a secret of the program: messages name neither the field nor the object. */
  secret: boolean;
}

const policyOf = (rules: RuleSet) => `${rules.deploymentId}/${rules.policyId}`;

const secrecyOf = (secretInputs: readonly string[]): Secrecy => ({ secret: (input) => secretInputs.includes(input) });

/** The kinds that may declare values of the same objects (a rule, a project, a product's policy, a remediation policy, a user, a team). */
const FAMILIES: readonly (readonly string[])[] = [
  ["PolicyRuleMode", "PolicyRuleModes"],
  ["ProjectSettings", "ProjectTags", "ManagedScan", "ProjectSettingsSet"],
  ["DetectionPolicy", "DetectionPolicyException"],
  ["RemediationPolicy"],
  ["UserRole"],
  ["Team", "TeamMembers", "TeamProjects"],
];
const sameFamily = (a: string, b: string) => FAMILIES.some((family) => family.includes(a) && family.includes(b));

/**
 * What `resource` (not yet in the stack, its inputs as it would declare them; none secret) would
 * declare that a resource of `stack` declares already, and the resources of `stack` it could not
 * be checked against (all they declare hangs on inputs the state holds encrypted). Reads nothing, except the listing of a
 * policy where a selector meets the new resource's rules: a rule-mode import has just listed it
 * (rule-index.ts shares the listing), so that costs no request either.
 */
export async function conflictsWithStack(
  resource: { owner: Owner; inputs: Props },
  stack: readonly StackResource[],
): Promise<{ conflicts: ClaimConflict[]; unchecked: Owner[] }> {
  const claims = new ClaimSpace();
  const rules = new RuleDeclarations();
  const unchecked: Owner[] = [];
  /** Resources whose selector the state holds encrypted (their other rules are known): the rules it takes are not. */
  const hiddenSelectors: Array<{ owner: Owner; policy: string }> = [];
  for (const held of stack) {
    const handler = handlers[held.owner.kind as ResourceKind];
    if (!handler?.claims) continue;
    const made = handler.claims(held.inputs, secrecyOf(held.secretInputs));
    claims.declare(held.owner, made);
    const declared = handler.rules?.(held.inputs);
    if (declared) rules.declare(held.owner, declared);
    // Nothing known of what it declares, and secrets in its inputs: they may name the objects (a rule path, a project).
    const declaresNothing = !made.length && !declared?.select && !declared?.explicit.length;
    if (declaresNothing && held.secretInputs.length && sameFamily(held.owner.kind, resource.owner.kind)) unchecked.push(held.owner);
    else if (declared && held.inputs.select !== undefined && !declared.select)
      hiddenSelectors.push({ owner: held.owner, policy: policyOf(declared) });
  }
  const handler = handlers[resource.owner.kind as ResourceKind];
  const conflicts: ClaimConflict[] = claims
    .declare(resource.owner, handler.claims?.(resource.inputs, secrecyOf([])) ?? [])
    .map(({ claim, other, otherClaim }) => ({
      claim,
      other,
      otherProperty: otherClaim.property ?? otherClaim.field,
      otherEntry: (otherClaim.property ?? otherClaim.field) !== otherClaim.field,
      secret: !!claim.secret || !!otherClaim.secret,
    }));
  const declared = handler.rules?.(resource.inputs);
  if (!declared) return { conflicts, unchecked };
  unchecked.push(...hiddenSelectors.filter((hidden) => hidden.policy === policyOf(declared)).map((hidden) => hidden.owner));
  rules.declare(resource.owner, declared);
  if (!rules.mayOverlap(resource.owner)) return { conflicts, unchecked };
  // A selector's rules are known only from the policy's listing (rule-selectors.ts).
  const listing = await policyRules(declared.deploymentId, declared.policyId);
  for (const overlap of rules.overlapsOf(resource.owner, listing)) {
    const object = ruleObject({ deploymentId: declared.deploymentId, policyId: declared.policyId, rulePath: overlap.path });
    // Declared explicitly on both sides, the rule is a claim conflict already (above).
    if (conflicts.some((c) => c.claim.object === object && sameOwner(c.other, overlap.other))) continue;
    // A selector in exported state is known only when it is not a secret: then it is no secret here.
    const claim = { object, field: "mode", property: resource.owner.kind === "PolicyRuleModes" ? "modes" : "mode" };
    conflicts.push({ claim, other: overlap.other, otherProperty: "select", otherEntry: true, secret: false });
  }
  return { conflicts, unchecked };
}

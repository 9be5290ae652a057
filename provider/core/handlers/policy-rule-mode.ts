/** PolicyRuleMode in the provider process: the mode of one rule (by path) in one policy. */
import { causeChain, DeploymentMigratedError, NotFoundError, type Rule } from "../../client";
import { fieldRules, type policyRuleModeKind } from "../kinds";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { planUndo } from "../runtime/fields";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { managedFields } from "../runtime/managed";
import { checkOwned, known, noteFoundAsDeclared, noteHandOver } from "../runtime/owned";
import { type Claim, type Offer, ownerName } from "../runtime/ownership";
import { notify } from "../runtime/notices";
import type { CallContext, Secrecy } from "../runtime/call-context";
import { findRule, ruleCount, writeRuleMode } from "./rule-index";
import { declareRules, overlapFailures, type RuleSet, selectorTaking } from "./rule-selectors";

const KIND = "PolicyRuleMode";
type Kind = typeof policyRuleModeKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();
/** Its mode, as the declaration gives it (runtime/managed.ts): its original, the output that holds it, the refreshed inputs. */
const MANAGED = managedFields(KIND);

/** `rule python.lang…eval-detected in policy 10 (deployment 1)`: the object of a rule-mode claim (PolicyRuleModes makes the same). */
export const ruleObject = (props: Props) =>
  `rule ${String(props.rulePath)} in policy ${String(props.policyId)} (deployment ${String(props.deploymentId)})`;

/** The one field a PolicyRuleMode declares: its rule's mode. */
function modeClaim(secrecy: Secrecy, props: Props): Claim {
  return { object: ruleObject(props), field: "mode", value: props.mode, secret: secrecy.secret("mode") };
}

/** Its one rule, as the rule sets a selector may overlap (rule-selectors.ts). */
const rulesOf = (declared: Props): RuleSet | undefined =>
  known(declared.deploymentId, declared.policyId, declared.rulePath)
    ? { deploymentId: String(declared.deploymentId), policyId: String(declared.policyId), explicit: [String(declared.rulePath)] }
    : undefined;

const subject = (props: Props) => `PolicyRuleMode ${String(props.rulePath)} in policy ${String(props.policyId)}`;

type RuleOutputs = Pick<Outputs<Kind>, "mode" | "ruleId" | "severity" | "confidence" | "category" | "url">;

/** The rule's descriptive outputs, beside its mode. */
function ruleOutputs(rule: Rule): RuleOutputs {
  return {
    mode: rule.policyMode,
    ruleId: rule.id,
    severity: rule.severity ?? null,
    confidence: rule.confidence ?? null,
    category: rule.category ?? null,
    url: rule.url ?? null,
  };
}

/** The rule, or an error naming the rule, the policy and the deployment. */
async function requireRule(ctx: CallContext, declared: Inputs): Promise<Rule> {
  let rule: Rule | undefined;
  try {
    rule = await findRule(declared.deploymentId, declared.policyId, declared.rulePath);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(`policy ${declared.policyId} does not exist in deployment ${declared.deploymentId} (${error.message})`, {
        cause: error,
      });
    }
    throw error;
  }
  if (rule) {
    // A PolicyRuleModes whose selector takes this rule declares it too: known only now, from the listing.
    const self = ctx.owner;
    const other = selectorTaking(declared.deploymentId, declared.policyId, rule, self);
    if (other && self) {
      throw new Error(
        `${ownerName(self)} declares the mode of ${ruleObject(declared)}, which ${ownerName(other)} declares too (the select of ${ownerName(other)} matches the rule). ` +
          "Declare each rule in one resource only: leave it out with select.exclude, or drop this resource.",
      );
    }
  }
  if (!rule) {
    const count = await ruleCount(declared.deploymentId, declared.policyId);
    throw new Error(
      `rule "${declared.rulePath}" is not in policy ${declared.policyId} of deployment ${declared.deploymentId} ` +
        `(the policy has ${count} rules; rule paths are dotted, e.g. python.lang.security.audit.eval-detected.eval-detected)`,
    );
  }
  return rule;
}

/** The original another resource of the run offers with the rule this one declares, if any (ownership.ts offer). */
const handedOver = (ctx: CallContext, declared: Props): Offer | undefined => ctx.claims.offered(modeClaim(ctx, declared));

export const policyRuleMode: Handler<Kind> = {
  /** What a PolicyRuleMode in this state recorded as the mode's original (`null` for none). */
  recorded: (outputs) => MANAGED.recorded(outputs),

  claims: (declared, secrecy) => (rulesOf(declared) ? [modeClaim(secrecy, declared)] : []),
  rules: rulesOf,

  check: async (_olds, news, ctx) => {
    let registered: Inputs | undefined;
    const result = checkOwned(KIND, ctx, news, (declared) => {
      const rules = rulesOf(declared);
      if (!rules) return [];
      if (ctx.owner) declareRules(ctx.owner, rules.deploymentId, rules.policyId, undefined, rules.explicit);
      registered = declared;
      return [modeClaim(ctx, declared)];
    });
    if (result.failures?.length || !registered) return result;
    const self = ctx.owner;
    if (!self) return result;
    const claim = modeClaim(ctx, registered as Props);
    const taken = ctx.claims.offered(claim);
    if (taken) await noteHandOver(claim, taken, self);
    const failures = await overlapFailures(self, registered.deploymentId, registered.policyId, {
      property: "rulePath",
      secret: false,
      object: (path) => ruleObject({ ...registered, rulePath: path }),
    });
    return failures.length ? { inputs: result.inputs, failures } : result;
  },

  diff: async (_id, olds, news, ctx) => {
    const declared = diffDeclared(olds, news, fieldRules(KIND));
    // A rule another resource of the run hands over: the update takes its original (see update).
    return handedOver(ctx, news) ? { ...declared, changes: true } : declared;
  },

  create: (declared, ctx) => {
    const props = declared as Props;
    return about(subject(declared), async () => {
      let rule = await requireRule(ctx, declared);
      // An original is what this resource changed; a mode found as declared has nothing to put
      // back. A rule another resource of the run stops declaring comes with the original it
      // recorded: the value found is this stack's own (ownership.ts offer).
      const taken = handedOver(ctx, props);
      if (taken) ctx.claims.accept(modeClaim(ctx, props));
      // Found as declared: a killed run of this resource may have set it, and journaled what it replaced (journal.ts).
      const originalMode = taken
        ? (taken.original as Inputs["mode"])
        : rule.policyMode !== declared.mode
          ? rule.policyMode
          : (journaledOriginal("mode")?.original as Inputs["mode"] | undefined);
      if (originalMode === undefined) {
        await noteFoundAsDeclared(ctx, { what: `the mode of ${ruleObject(declared)}`, unset: "originalMode stays unset" });
      }
      if (rule.policyMode !== declared.mode) {
        journalBefore({ mode: originalMode });
        rule = await writeRuleMode(declared, declared.mode);
      }
      return {
        id: `${declared.deploymentId}/${declared.policyId}/${declared.rulePath}`,
        outs: outputs({ ...declared, ...ruleOutputs(rule), ...MANAGED.originalOutputs({ mode: originalMode }) }),
      };
    });
  },

  read: (id, props) =>
    about(subject(props), async () => {
      const { deploymentId, policyId, rulePath: path } = props as Inputs;
      const rule = await unlessGone(() => findRule(deploymentId, policyId, path));
      if (!rule) return { id: "" };
      const live = { ...props, ...ruleOutputs(rule) };
      return { id, props: live, inputs: MANAGED.refreshedInputs(props, live) };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      // What the program declares now (an input dropped from it leaves the outputs), the rule as last known, the original kept.
      const last: RuleOutputs = {
        mode: olds.mode ?? declared.mode,
        ruleId: olds.ruleId as string, // every state has it: create records it
        severity: olds.severity ?? null,
        confidence: olds.confidence ?? null,
        category: olds.category ?? null,
        url: olds.url ?? null,
      };
      // Handed over by another resource of the run (ownership.ts offer): its original is older than
      // the one recorded here (this resource took the rule while the other still declared it), and
      // the other may have put it back before this update: the rule is listed again and set.
      const taken = handedOver(ctx, declared);
      const found = taken ? ruleOutputs(await requireRule(ctx, declared)) : last;
      const rule = found.mode === declared.mode ? found : ruleOutputs(await writeRuleMode(declared, declared.mode));
      if (taken) ctx.claims.accept(modeClaim(ctx, declared));
      // The original stays; a mode create found as declared is recorded by the first update that changes it.
      const first = found.mode !== declared.mode ? (found.mode as Inputs["mode"]) : undefined;
      const original = (taken ? taken.original : MANAGED.originals(olds).mode) ?? first;
      const outs = outputs({ ...declared, ...rule, ...MANAGED.originalOutputs({ mode: original }) });
      return { outs };
    }),

  delete: (_id, props, ctx) =>
    about(subject(props), () =>
      unlessMigrated(subject(props), props, String(props.originalMode ?? props.mode), async () => {
        if (props.restoreOnDelete === false) return;
        const claim = modeClaim(ctx, props);
        const field = {
          name: "mode",
          claim,
          original: MANAGED.originals(props).mode,
          last: props.mode,
          same: Object.is,
          show: String,
        };
        const { mode } = await planUndo(ctx, [field]);
        if (mode !== undefined) await unlessGone(() => writeRuleMode(props as Inputs, mode as Inputs["mode"]));
      }),
    ),
};

/**
 * Deleting once the deployment has moved to unified policies: the v1 rule modes are gone with the
 * v1 policy (the service answers 410 `DEPLOYMENT_MIGRATED`), so there is nothing left to restore,
 * and the resource leaves the stack with a warning naming what it had changed (a refresh or an
 * update still fails, so that nothing is dropped unasked). PolicyRuleModes leaves the same way.
 */
export async function unlessMigrated(subject: string, props: Props, changed: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (![...causeChain(error)].some((e) => e instanceof DeploymentMigratedError)) throw error;
    await notify(
      "warning",
      `${subject}: deployment ${String(props.deploymentId)} now uses Semgrep's unified policies (Policies V2; the v1 policy ` +
        `operations answer 410 DEPLOYMENT_MIGRATED), where v1 rule modes no longer exist: nothing to restore (${changed}), ` +
        "so the resource only leaves the stack",
    );
  }
}

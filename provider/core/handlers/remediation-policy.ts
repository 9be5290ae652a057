/**
 * RemediationPolicy in the provider process: one policy, by slug, of the deployment's remediation
 * policies bundle (Policies V2). Adopts the policy with that slug (recording it) or creates it;
 * delete puts back what it found or removes what it created. Writes go through bundles.ts.
 */
import { type RemediationPoliciesBundle, type RemediationPolicyEntry, remediationPolicyInput } from "../../client";
import type { remediationPolicyKind } from "../kinds";
import { ABSENT } from "../kinds/declare";
import { type RemediationPolicyState, remediationPolicyState as stateOf } from "../kinds/remediation-policy";
import { type BundleEndpoint, editBundle, readBundle, type Versioned } from "./bundles";
import type { Props } from "../runtime/check";
import { apiClient } from "../runtime/credentials";
import { claimsWithDryRun, dryRunVerdict, failuresOf } from "./dry-run";
import { planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { managedFields } from "../runtime/managed";
import { diffManaged, known, noteFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";

const KIND = "RemediationPolicy";
type Kind = typeof remediationPolicyKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();
/** Its fields, as the declaration gives them (runtime/managed.ts): which it manages, the dropped ones, the refreshed inputs. */
const MANAGED = managedFields(KIND);

const objectOf = (props: Props) => `the remediation policies of deployment ${String(props.deploymentId)}`;
const subject = (props: Props) => `RemediationPolicy ${String(props.slug)} of deployment ${String(props.deploymentId)}`;

function endpointOf(props: Props): BundleEndpoint<RemediationPoliciesBundle> {
  const deploymentId = String(props.deploymentId);
  return {
    name: objectOf(props),
    key: `${deploymentId}/remediation-policies`,
    read: async () => {
      const { bundle, state_version } = await apiClient().policiesV2.getRemediationPolicies(deploymentId);
      return { bundle, stateVersion: state_version };
    },
    write: async (bundle, ifMatch) => {
      const { bundle: written, state_version } = await apiClient().policiesV2.applyRemediationPolicies(deploymentId, request(bundle), {
        ifMatch,
      });
      return { bundle: written, stateVersion: state_version };
    },
  };
}

const request = (bundle: RemediationPoliciesBundle) => ({ policies: bundle.policies.map(remediationPolicyInput) });

/** The policy the program declares, over what the service has (description and active kept when not declared). */
function declaredPolicy(declared: Props, live: Pick<RemediationPolicyEntry, "description" | "active"> | undefined): RemediationPolicyEntry {
  const filters = declared.filters as RemediationPolicyState["filters"];
  return {
    slug: String(declared.slug),
    name: String(declared.policyName),
    description: (declared.description as string | undefined) ?? live?.description ?? "",
    active: (declared.active as boolean | undefined) ?? live?.active ?? true,
    filters: { mode: filters.mode, conditions: filters.conditions.map((c) => ({ type: c.type, values: c.values, mode: c.mode ?? "any" })) },
    actions: (declared.actions as RemediationPolicyState["actions"]).map((a) => ({ type: a.type, config: a.config ?? {} })),
  };
}

const find = (bundle: RemediationPoliciesBundle, slug: unknown) => bundle.policies.find((p) => p.slug === slug);

/** The bundle with this slug's policy replaced by `policy`, appended, or removed (`undefined`). */
function withPolicy(
  bundle: RemediationPoliciesBundle,
  slug: string,
  policy: RemediationPolicyEntry | undefined,
): RemediationPoliciesBundle {
  const at = bundle.policies.findIndex((p) => p.slug === slug);
  const policies = [...bundle.policies];
  if (at < 0 && policy) policies.push(policy);
  else if (at >= 0 && policy) policies[at] = policy;
  else if (at >= 0) policies.splice(at, 1);
  return { ...bundle, policies };
}

const samePolicy = (a: RemediationPolicyEntry | undefined, b: RemediationPolicyEntry | undefined) =>
  JSON.stringify(a && remediationPolicyInput(a)) === JSON.stringify(b && remediationPolicyInput(b));

/** The field a RemediationPolicy claims: the policy of its slug. */
const claimField = (props: Props) => `policy ${String(props.slug)}`;

function claimOf(secrecy: Secrecy, props: Props): Claim {
  // No value: the whole policy is what a holder declares, and a delete never writes another holder's policy.
  return { object: objectOf(props), field: claimField(props), property: "slug", secret: secrecy.secret("slug") };
}

/** What a RemediationPolicy declares: the policy of its slug. */
const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentId, declared.slug) ? [claimOf(secrecy, declared)] : [];

/**
 * What the resource records of its slug's policy: the policy it found, ABSENT when it created
 * the policy (the slug was free), null when it found the policy already as declared (nothing to
 * put back). State written before `created` existed has no `created`: no original there means it
 * created the policy. One claim for the whole policy, which records the policy, not a field of it.
 */
const recordedPolicy = (props: Props): RemediationPolicyState | typeof ABSENT | null =>
  (props.original as RemediationPolicyState | undefined) ?? (props.created === false ? null : ABSENT);
const recorded = (props: Props) => ({ [claimField(props)]: recordedPolicy(props) });

function liveOutputs(live: Versioned<RemediationPoliciesBundle>, policy: RemediationPolicyEntry) {
  const state = stateOf(policy);
  return {
    policyName: state.name,
    description: state.description,
    active: state.active,
    filters: state.filters,
    actions: state.actions,
    deploymentSlug: live.bundle.deployment_slug,
    stateVersion: live.stateVersion,
  };
}

/**
 * Writes the declared policy over whatever has its slug when this write's turn comes. On create
 * (no `before`), records what it found: nothing (created), the policy (original), or, when the
 * policy was already as declared, nothing to put back (the stack may have set it itself). On
 * update, the original stays; one found as declared is recorded by the first update that changes it.
 */
async function apply(ctx: CallContext, declared: Inputs, before?: { original: RemediationPolicyState | undefined; created: boolean }) {
  let found: RemediationPolicyEntry | undefined;
  let attempted = false;
  const written = await editBundle(endpointOf(declared), (bundle, { ownWriteMayHaveLanded }) => {
    const live = find(bundle, declared.slug);
    // What it records comes from the bundle before its own write, which a lost answer may hide.
    if (!ownWriteMayHaveLanded || !attempted) found = live;
    attempted = true;
    const wanted = declaredPolicy(declared, live);
    if (samePolicy(live, wanted)) return undefined;
    // Any secret input may be part of the policy it replaces: the journal then keeps only that it wrote.
    if (!before) journalBefore({ policy: found ? stateOf(found) : ABSENT }, ctx.secretInputs.length > 0);
    return withPolicy(bundle, declared.slug, wanted);
  });
  let asDeclared = found !== undefined && samePolicy(found, declaredPolicy(declared, found));
  // Found as declared: a killed run of this resource may have written it, and journaled what it found (journal.ts).
  const journaled = !before && asDeclared ? journaledOriginal("policy") : undefined;
  const fromJournal = journaled && journaled.original !== ABSENT ? (journaled.original as RemediationPolicyState) : undefined;
  if (journaled) asDeclared = false;
  const policy = find(written.bundle, declared.slug) ?? declaredPolicy(declared, found);
  const managedFields = MANAGED.declaredOptional(declared);
  const live = liveOutputs(written, policy);
  if (before) {
    // A policy it found as declared has no original until a write changes it: then the policy it replaces.
    const first = !before.created && found && !asDeclared ? stateOf(found) : undefined;
    return outputs({ ...declared, ...live, original: before.original ?? first, created: before.created, managedFields });
  }
  if (asDeclared) {
    await noteFoundAsDeclared(ctx, {
      what: `the policy ${declared.slug} of ${objectOf(declared)}`,
      unset: "original stays unset",
    });
  }
  const original = fromJournal ?? (found && !asDeclared && !journaled ? stateOf(found) : undefined);
  return outputs({ ...declared, ...live, original, created: journaled ? !fromJournal : found === undefined, managedFields });
}

export const remediationPolicy: Handler<Kind> = {
  recorded,

  ...claimsWithDryRun(KIND, claimsOf, async (declared, ctx) => {
    const live = await readBundle(endpointOf(declared));
    const candidate = withPolicy(live.bundle, declared.slug, declaredPolicy(declared, find(live.bundle, declared.slug)));
    const { errors } = await dryRunVerdict(() =>
      apiClient().policiesV2.dryRunRemediationPolicies(declared.deploymentId, request(candidate)),
    );
    const mine = errors.filter((e) => !e.policy_slug || e.policy_slug === declared.slug);
    return failuresOf(ctx, declared, mine, { prefix: "policies", rename: { name: "policyName" } });
  }),

  diff: async (_id, olds, news, ctx) => {
    // An optional field the program no longer declares is no longer managed (an update that writes nothing records it).
    // What it changed of a dropped field stays as it is: the preview says so (owned.ts).
    return diffManaged(ctx, olds, news, `remediation policy ${String(news.slug)} of deployment ${String(news.deploymentId)}`);
  },

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared);
      return { id: `${declared.deploymentId}/${declared.slug}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const live = await unlessGone(() => readBundle(endpointOf(props)));
      const policy = live && find(live.bundle, props.slug);
      if (!live || !policy) return { id: "" };
      const values = liveOutputs(live, policy);
      return { id, props: { ...props, ...values }, inputs: MANAGED.refreshedInputs(props, values) };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared, {
        original: olds.original as RemediationPolicyState | undefined,
        created: recordedPolicy(olds) === ABSENT,
      });
      return { outs };
    }),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const claim = claimOf(ctx, props);
      // `same` never holds: the original (or its absence) is written back unless another resource holds the slug now.
      const original = recordedPolicy(props);
      const field = {
        name: "policy",
        claim,
        original: original ?? undefined, // found as declared: nothing to put back
        last: undefined,
        same: () => false,
        show: (v: unknown) => (v === ABSENT ? "no policy" : `the policy named ${JSON.stringify((v as RemediationPolicyState).name)}`),
        secret: false,
      };
      const { policy } = await planUndo(ctx, [field]);
      if (policy === undefined) return;
      const back = policy === ABSENT ? undefined : (policy as RemediationPolicyState);
      // Optional fields this resource does not manage (description, active) stay as they are live.
      const managed = MANAGED.managed(props);
      const unmanaged = Object.fromEntries(MANAGED.names.filter((field) => !managed.includes(field)).map((field) => [field, undefined]));
      await unlessGone(() =>
        editBundle(endpointOf(props), (bundle) => {
          const live = find(bundle, props.slug);
          const restored = back && declaredPolicy({ ...back, slug: props.slug, policyName: back.name, ...unmanaged }, live ?? back);
          return samePolicy(live, restored) ? undefined : withPolicy(bundle, String(props.slug), restored);
        }),
      );
    }),
};

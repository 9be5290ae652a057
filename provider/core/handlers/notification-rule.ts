/**
 * NotificationRule in the provider process: one rule of a deployment, by name. Adopts the rule of
 * that name (recording it whole) or creates it; delete puts back what it found or deletes what it
 * created. A policy slug that names no remediation policy of the deployment (live, or declared by
 * a RemediationPolicy of the run) is refused before any write.
 */
import {
  DeploymentNotMigratedError,
  type NotificationRuleEntry,
  type NotificationRuleInput,
  type RemediationPoliciesBundle,
} from "../../client";
import type { NotificationChannel } from "../../client/schemas/notification-rules";
import type { notificationRuleKind } from "../kinds";
import { ABSENT } from "../kinds/declare";
import { type NotificationRuleState, notificationRuleState as stateOf } from "../kinds/notification-rule";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import { apiAddress, apiClient } from "../runtime/credentials";
import { planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler } from "../runtime/handler";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { checkOwned, diffManaged, known, noteFoundAsDeclared } from "../runtime/owned";
import { type Claim, declarersOf, Refusal } from "../runtime/ownership";
import { sharedReads } from "../runtime/shared-reads";
import { readBundle } from "./bundles";

const KIND = "NotificationRule";
type Kind = typeof notificationRuleKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();
const MANAGED = managedFields(KIND);

const objectOf = (props: Props) => `the notification rules of deployment ${String(props.deploymentId)}`;
const subject = (props: Props) => `NotificationRule ${JSON.stringify(String(props.name))} of deployment ${String(props.deploymentId)}`;

// ---- Reads shared by the rules of a process ---------------------------------------------------

/** The deployment's rules, listed once per process and kept current by this process's writes. */
const listings = sharedReads<NotificationRuleEntry[]>({ ttlMs: Infinity });
const listingKey = (deploymentId: unknown) => `${apiAddress()}|${String(deploymentId)}/notification-rules`;
const rulesOf = (deploymentId: unknown) =>
  listings.get(listingKey(deploymentId), () => apiClient().notificationRules.list(String(deploymentId)));
/** The listing after a write: `rule` in place of the rule of its id (or gone, for a delete). */
async function written(deploymentId: unknown, id: number, rule: NotificationRuleEntry | undefined): Promise<void> {
  const listed = listings.peek(listingKey(deploymentId));
  if (!listed) return; // not listed in this process: the next read lists what the service has
  const rules = (await listed).filter((r) => r.id !== id);
  listings.set(listingKey(deploymentId), rule ? [...rules, rule] : rules);
}

/** The remediation policies of the deployment, read through the bundle RemediationPolicy resources share (bundles.ts). */
function remediationPolicies(deploymentId: unknown) {
  return readBundle<RemediationPoliciesBundle>({
    name: `the remediation policies of deployment ${String(deploymentId)}`,
    key: `${String(deploymentId)}/remediation-policies`,
    read: async () => {
      const { bundle, state_version } = await apiClient().policiesV2.getRemediationPolicies(String(deploymentId));
      return { bundle, stateVersion: state_version };
    },
    write: () => Promise.reject(new Error("NotificationRule never writes remediation policies")),
  });
}

/**
 * The declared policy slugs that name no remediation policy: neither live nor declared by a
 * RemediationPolicy of the run (one created in this run after the rule's check is in the shared bundle).
 */
async function unknownSlugs(declared: Props): Promise<string[]> {
  const slugs = Array.isArray(declared.policySlugs) ? (declared.policySlugs as unknown[]).filter((s) => known(s)).map(String) : [];
  if (!slugs.length) return [];
  const declaredByRun = (slug: string) =>
    declarersOf({ object: `the remediation policies of deployment ${String(declared.deploymentId)}`, field: `policy ${slug}` }).some(
      (holder) => !holder.failed,
    );
  const pending = slugs.filter((slug) => !declaredByRun(slug));
  if (!pending.length) return [];
  const live = new Set((await remediationPoliciesOrNone(declared.deploymentId)).bundle.policies.map((p) => p.slug));
  return pending.filter((slug) => !live.has(slug));
}

/** The remediation policies of a deployment, none where it still uses v1 policies (remediation policies are Policies V2's). */
async function remediationPoliciesOrNone(deploymentId: unknown) {
  try {
    return await remediationPolicies(deploymentId);
  } catch (error) {
    if (error instanceof DeploymentNotMigratedError) return { bundle: { policies: [] as Array<{ slug: string }> } };
    throw error;
  }
}

function refuseUnknownSlugs(ctx: CallContext, declared: Props, unknown: string[]): string | undefined {
  if (!unknown.length) return undefined;
  const named = ctx.shown("policySlugs", unknown.map((s) => JSON.stringify(s)).join(", "));
  return (
    `${ctx.name}: policySlugs names ${named}, which no remediation policy of deployment ${String(declared.deploymentId)} has. ` +
    "Give the slug of an existing RemediationPolicy; for one this stack creates, take the slug from its `slug` output " +
    "(or give the rule `dependsOn` it), so that the policy exists before the rule."
  );
}

// ---- Claims -------------------------------------------------------------------------------------

const claimField = (props: Props) => `rule ${String(props.name)}`;

function claimOf(secrecy: Secrecy, props: Props): Claim {
  // No value: the whole rule is what a holder declares.
  return { object: objectOf(props), field: claimField(props), property: "name", secret: secrecy.secret("name") };
}

const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentId, declared.name) ? [claimOf(secrecy, declared)] : [];

/** What the resource records of its rule: the rule it found, ABSENT when it created it, null when it found it as declared. */
const recordedRule = (props: Props): NotificationRuleState | typeof ABSENT | null =>
  (props.original as NotificationRuleState | undefined) ?? (props.created === false ? null : ABSENT);
const recorded = (props: Props) => ({ [claimField(props)]: recordedRule(props) });

// ---- Writes -------------------------------------------------------------------------------------

/** The rule the program declares, over what the service has (a field not declared kept as it is). */
function declaredRule(declared: Props, live: NotificationRuleState | undefined): NotificationRuleInput {
  const pick = <K extends keyof NotificationRuleState>(key: K, fallback: NotificationRuleState[K]): NotificationRuleState[K] =>
    (declared[key] as NotificationRuleState[K] | undefined) ?? live?.[key] ?? fallback;
  return {
    name: String(declared.name),
    channel: (declared.channel ?? live?.channel) as NotificationChannel,
    config: pick("config", {}),
    policySlugs: pick("policySlugs", []),
    enabled: pick("enabled", true),
    sendScanCompletion: pick("sendScanCompletion", true),
    useNetworkBroker: pick("useNetworkBroker", false),
  };
}

const sameRule = (live: NotificationRuleState | undefined, wanted: NotificationRuleInput) =>
  live !== undefined &&
  live.channel === wanted.channel &&
  JSON.stringify(sortedKeys(live.config)) === JSON.stringify(sortedKeys(wanted.config ?? {})) &&
  JSON.stringify([...live.policySlugs].sort()) === JSON.stringify([...(wanted.policySlugs ?? [])].sort()) &&
  live.enabled === wanted.enabled &&
  live.sendScanCompletion === wanted.sendScanCompletion &&
  live.useNetworkBroker === wanted.useNetworkBroker;

const sortedKeys = (config: Record<string, string>) => Object.fromEntries(Object.entries(config).sort(([a], [b]) => a.localeCompare(b)));

function liveOutputs(rule: NotificationRuleEntry) {
  const state = stateOf(rule);
  return {
    ruleId: rule.id,
    channel: state.channel,
    config: state.config,
    policySlugs: state.policySlugs,
    enabled: state.enabled,
    sendScanCompletion: state.sendScanCompletion,
    useNetworkBroker: state.useNetworkBroker,
    configError: rule.configError,
  };
}

/** The live rule of a state: by its id, else (state from before it had one) by name. */
async function liveRule(props: Props, id?: number): Promise<NotificationRuleEntry | undefined> {
  const rules = await rulesOf(props.deploymentId);
  return id !== undefined ? rules.find((r) => r.id === id) : rules.find((r) => r.name === props.name);
}

/**
 * Writes the declared rule over the live one of its name (or creates it). On create (no
 * `before`), records what it found: nothing (created), the rule (original), or, found as
 * declared, nothing to put back.
 */
async function apply(
  ctx: CallContext,
  declared: Inputs,
  before?: { id: number; original: NotificationRuleState | undefined; created: boolean },
) {
  const refusal = refuseUnknownSlugs(ctx, declared, await unknownSlugs(declared));
  if (refusal) throw new Refusal(refusal);
  const found = await liveRule(declared, before?.id);
  const live = found && stateOf(found);
  const wanted = declaredRule(declared, live);
  let rule = found;
  if (!sameRule(live, wanted)) {
    const client = apiClient().notificationRules;
    if (found) {
      // Config values may be secrets: the journal then keeps only that it wrote.
      if (!before) journalBefore({ rule: live }, ctx.secretInputs.length > 0);
      rule = await client.replace(String(declared.deploymentId), found.id, wanted);
    } else {
      if (!before) journalBefore({ rule: ABSENT }, ctx.secretInputs.length > 0);
      rule = await client.create(String(declared.deploymentId), wanted);
    }
    await written(declared.deploymentId, rule.id, rule);
  }
  const managed = MANAGED.declaredOptional(declared);
  const values = liveOutputs(rule!);
  if (before) {
    // A rule found as declared has no original until a write changes it: then the rule it replaces.
    const first = !before.created && live && !sameRule(live, wanted) ? live : undefined;
    return outputs({ ...declared, ...values, original: before.original ?? first, created: before.created, managedFields: managed });
  }
  let asDeclared = live !== undefined && sameRule(live, wanted);
  const journaled = asDeclared ? journaledOriginal("rule") : undefined;
  const fromJournal = journaled && journaled.original !== ABSENT ? (journaled.original as NotificationRuleState) : undefined;
  if (journaled) asDeclared = false;
  if (asDeclared)
    await noteFoundAsDeclared(ctx, {
      what: `the rule ${JSON.stringify(declared.name)} of ${objectOf(declared)}`,
      unset: "original stays unset",
    });
  const original = fromJournal ?? (live && !asDeclared && !journaled ? live : undefined);
  return outputs({ ...declared, ...values, original, created: journaled ? !fromJournal : found === undefined, managedFields: managed });
}

const ruleIdOf = (id: string, props: Props): number | undefined =>
  typeof props.ruleId === "number" ? props.ruleId : /^\d+\/\d+$/.test(id) ? Number(id.split("/")[1]) : undefined;

export const notificationRule: Handler<Kind> = {
  recorded,

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: async (_olds, news, ctx) => {
    const result = checkOwned(KIND, ctx, news, (declared) => claimsOf(ctx, declared));
    if (result.failures || !result.inputs) return result;
    // At preview, a slug that names no policy fails here, before any write of the run.
    const refusal = refuseUnknownSlugs(ctx, result.inputs, await unknownSlugs(result.inputs));
    return refusal ? { ...result, failures: [{ property: ctx.secret("policySlugs") ? "" : "policySlugs", reason: refusal }] } : result;
  },

  // An optional field the program no longer declares is no longer managed.
  diff: (_id, olds, news, ctx) =>
    diffManaged(ctx, olds, news, `notification rule ${JSON.stringify(String(news.name))} of deployment ${String(news.deploymentId)}`),

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared);
      return { id: `${declared.deploymentId}/${outs.ruleId}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const rule = await unlessGone(() => liveRule(props, ruleIdOf(id, props)));
      if (!rule) return { id: "" };
      const values = { ...props, ...liveOutputs(rule), name: rule.name };
      return {
        id,
        props: values,
        inputs: { ...MANAGED.refreshedInputs(props, values), name: rule.name, plainConfigKeys: props.plainConfigKeys },
      };
    }),

  update: (id, olds, declared, ctx) =>
    about(subject(declared), async () => ({
      outs: await apply(ctx, declared, {
        id: ruleIdOf(id, olds)!,
        original: olds.original as NotificationRuleState | undefined,
        created: recordedRule(olds) === ABSENT,
      }),
    })),

  delete: (id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const original = recordedRule(props);
      const field = {
        name: "rule",
        claim: claimOf(ctx, props),
        original: original ?? undefined, // found as declared: nothing to put back
        last: undefined,
        same: () => false,
        show: (v: unknown) => (v === ABSENT ? "no rule" : `the rule as it was (channel ${(v as NotificationRuleState).channel})`),
        secret: false,
      };
      const { rule } = await planUndo(ctx, [field]);
      if (rule === undefined) return;
      const ruleId = ruleIdOf(id, props);
      if (ruleId === undefined) return;
      const client = apiClient().notificationRules;
      if (rule === ABSENT) {
        await unlessGone(() => client.delete(String(props.deploymentId), ruleId));
        await written(props.deploymentId, ruleId, undefined);
        return;
      }
      // Optional fields this resource did not manage stay as they are live.
      const back = rule as NotificationRuleState;
      const managed = MANAGED.managed(props);
      const kept = Object.fromEntries(MANAGED.names.filter((f) => !managed.includes(f)).map((f) => [f, undefined]));
      const live = await liveRule(props, ruleId);
      const restored = declaredRule({ ...back, name: props.name, ...kept }, live && stateOf(live));
      if (live && sameRule(stateOf(live), restored)) return;
      const put = await unlessGone(() => client.replace(String(props.deploymentId), ruleId, restored));
      if (put) await written(props.deploymentId, ruleId, put);
    }),
};

/**
 * PolicyRuleModes in the provider process: the modes of many rules of one policy as one resource
 * (explicit `modes`, and `mode` for every rule `select` matches). Reads share the policy's one
 * listing per phase (rule-index.ts); writes are one request per rule whose mode changes.
 */
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { PolicyMode, Rule } from "../../client";
import type { policyRuleModesKind } from "../kinds";
import type { RuleSelectorArgs } from "../kinds/policy-rule-modes";
import { meetsCriteria } from "../kinds/rule-criteria";
import type { Props } from "../runtime/check";
import { planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler, type State, type DiffResult } from "../runtime/handler";
import { about } from "../runtime/lookup";
import { Interrupted, interruption, whileWriting } from "../runtime/interrupts";
import { callJournal } from "../runtime/journal";
import { notify, notifyOnce, someOf } from "../runtime/notices";
import { checkOwned, type HandOver, known, noteFoundAsDeclared, noteHandOver, warnAllHandedOver } from "../runtime/owned";
import { type Claim, declarersOf, holderOf, offer, offered, type Owner, ownerName, sameOwner } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";
import { ruleObject, unlessMigrated } from "./policy-rule-mode";
import { groupedLines, noteLeftWithoutOriginal } from "../runtime/left-by-delete";
import { PartiallyApplied } from "../runtime/partial";
import { declareRules, overlapFailures, type RuleSet, selectorTaking } from "./rule-selectors";
import { warnIfSelectsNothing } from "./selector-reach";
import { policyRules, writeRuleMode } from "./rule-index";

const KIND = "PolicyRuleModes";
type Kind = typeof policyRuleModesKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

/**
 * Why the run that recorded a partial state stopped before all its writes (`"interrupted"`, or
 * `"failed"`: a write failed): kept in that state beside the declared outputs, so that the next
 * `up`'s note can say the rules in `deviations` are ones that run did not reach, not drift. Not an
 * output of the schema: no program reads it, and no finished update or refresh keeps it (a
 * refresh's deviations may hold drift too).
 */
const STOPPED = "stoppedBeforeWrites";

/** How many rule writes are in flight at once (the transport caps connections too). */
const WRITE_CONCURRENCY = 8;

const subject = (ctx: CallContext, props: Props) => `PolicyRuleModes ${ctx.owner?.name ?? ""} in policy ${String(props.policyId)}`;

/**
 * Whether the program gave a mode (in `modes` or `mode`) as a secret: messages then print no mode
 * of its rules. `before`: in the olds (what an update stops declaring).
 */
const secretModes = (ctx: CallContext, before = false) =>
  ["modes", "mode"].some((input) => (before ? ctx.wasSecret(input) : ctx.secret(input)));

/** The claim on one rule's mode: the same a PolicyRuleMode of that rule makes, so that the two conflict. */
const claimOn = (secrecy: Secrecy, props: Props, rulePath: string, mode: unknown): Claim => ({
  object: ruleObject({ ...props, rulePath }),
  field: "mode",
  value: mode,
  property: "modes",
  secret: ["modes", "mode"].some((input) => secrecy.secret(input)),
});

/** Its explicit rules' claims: the rules `select` matches are known only from the listing (rulesOf). */
const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentId, declared.policyId, declared.modes ?? {})
    ? Object.entries((declared.modes as Props | undefined) ?? {}).map(([path, mode]) => claimOn(secrecy, declared, path, mode))
    : [];

/** Its rules of the policy: the selector (when known) and the explicit rules (rule-selectors.ts). */
const rulesOf = (declared: Props): RuleSet | undefined => {
  if (!known(declared.deploymentId, declared.policyId, declared.modes ?? {})) return undefined;
  const select = declared.select as RuleSelectorArgs | undefined;
  return {
    deploymentId: String(declared.deploymentId),
    policyId: String(declared.policyId),
    // A selector not known yet is registered at the update's check, where it is known.
    ...(select && known(select) ? { select } : {}),
    explicit: Object.keys((declared.modes as Props | undefined) ?? {}),
  };
};

/** Every managed rule and the mode declared for it: the selected ones (less `exclude`), then `modes` over them. */
function wantedModes(declared: Props, rules: ReadonlyMap<string, Rule>): Map<string, PolicyMode> {
  const wanted = new Map<string, PolicyMode>();
  const select = declared.select as RuleSelectorArgs | undefined;
  if (select && declared.mode) {
    const excluded = new Set(select.exclude ?? []);
    for (const rule of rules.values()) {
      if (!excluded.has(rule.path) && meetsCriteria(rule, select)) wanted.set(rule.path, declared.mode as PolicyMode);
    }
  }
  for (const [path, mode] of Object.entries((declared.modes as Record<string, PolicyMode> | undefined) ?? {})) wanted.set(path, mode);
  return wanted;
}

/**
 * How messages show text naming rules: when the program gave `modes` as a secret, its keys (rule
 * paths) are part of the secret, and each prints as `[secret]`.
 */
function redactor(ctx: CallContext, props: Props): (text: string) => string {
  if (!ctx.secret("modes")) return (text) => text;
  const hidden = new Set(Object.keys((props.modes as Record<string, unknown> | undefined) ?? {}));
  return (text) => text.replace(/[\w.-]+/g, (token) => (hidden.has(token) ? "[secret]" : token));
}

/** `error`, its message redacted, when redacting changes it (the original stays its cause). */
function redactedError(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof Error)) return error;
  const message = redact(error.message);
  return message === error.message ? error : new Error(message, { cause: error });
}

/** `{ MODE_MONITOR: [a, b] }` → `Map { a => MODE_MONITOR, b => MODE_MONITOR }`, and back. */
const originalsByRule = (grouped: unknown) =>
  new Map(
    Object.entries((grouped as Record<string, string[]> | undefined) ?? {}).flatMap(([mode, paths]) =>
      paths.map((p) => [p, mode] as const),
    ),
  );
function groupedOriginals(byRule: ReadonlyMap<string, string>): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const [path, mode] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) (grouped[mode] ??= []).push(path);
  return grouped;
}

/**
 * The live modes of the managed rules, counted, and those that are not as declared; plus, among
 * the deviations, the rules it no longer manages but has still to put back (still in `originals`:
 * a put-back that failed), so that the next `up` sees work left and does it.
 */
function liveSummary(
  wanted: ReadonlyMap<string, PolicyMode>,
  originals: ReadonlyMap<string, string>,
  liveMode: (path: string) => string | undefined,
) {
  const modeCounts: Record<string, number> = {};
  const deviations: Record<string, string> = {};
  for (const [path, mode] of wanted) {
    const live = liveMode(path) ?? "absent";
    modeCounts[live] = (modeCounts[live] ?? 0) + 1;
    if (live !== mode) deviations[path] = live;
  }
  for (const path of originals.keys()) if (!wanted.has(path)) deviations[path] = liveMode(path) ?? "absent";
  return { modeCounts, deviations, managedRules: wanted.size };
}

/**
 * Runs `work` for each item, at most WRITE_CONCURRENCY at once. After a failure it starts no
 * more (a token or network problem would fail them all), lets those in flight end, and rethrows
 * the first failure. It starts none either once the run is interrupted (the engine's Cancel, a
 * signal, the engine gone: interrupts.ts), and then ends with that interruption.
 */
export async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && next < items.length) {
      const stop = interruption();
      if (stop) {
        failed ??= { error: stop };
        break;
      }
      try {
        await work(items[next++]!);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await whileWriting(() => Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, items.length) }, lane)));
  if (failed) throw failed.error;
}

/** Whether a resource of this run other than `owner` declares `rule` of the policy (explicitly, or through its selector). */
function declaredElsewhere(ctx: CallContext, props: Props, owner: Owner, rule: Rule | undefined): boolean {
  if (!rule) return false;
  const claim = claimOn(ctx, props, rule.path, undefined);
  return (
    declarersOf(claim).some((holder) => !sameOwner(holder.owner, owner)) ||
    selectorTaking(props.deploymentId, props.policyId, rule, owner) !== undefined
  );
}

/**
 * Offers, with each rule this resource stops managing in this update, the original it recorded,
 * to the resource of the run that declares the rule now (ownership.ts offer): run in `diff`, which
 * precedes the taker's create when the taker `dependsOn` this resource (the engine runs steps in
 * parallel otherwise). The preview notes the hand-over where the other resource is already known.
 */
async function offerReleased(ctx: CallContext, olds: State<Kind>, news: Inputs): Promise<void> {
  const recorded = originalsByRule(olds.originals);
  const owner = ctx.owner;
  if (!recorded.size || !owner || !known(news.deploymentId, news.policyId, news.modes ?? {}, news.select ?? {}, news.mode ?? "")) return;
  if (String(olds.deploymentId) !== news.deploymentId || String(olds.policyId) !== news.policyId) return; // a replacement's delete puts back
  // With the same selector, only an entry dropped from modes can leave (a read only then).
  const sameSelector =
    isDeepStrictEqual(olds.select ?? undefined, news.select ?? undefined) && (olds.mode ?? undefined) === (news.mode ?? undefined);
  let released = [...recorded.keys()].filter(
    (path) => !(path in (news.modes ?? {})) && (!sameSelector || !olds.select || path in (olds.modes ?? {})),
  );
  if (released.length && news.select) {
    const after = wantedModes(news, await policyRules(news.deploymentId, news.policyId));
    released = released.filter((path) => !after.has(path));
  }
  const leftAsIs: string[] = [];
  for (const path of released) {
    const claim = claimOn(ctx, news, path, undefined);
    offer(claim, recorded.get(path), owner, secretModes(ctx, true));
    // A taker settled already (its diff came first and found nothing to change) will not take
    // the offer: this resource's update then warns instead.
    const taker = declarersOf(claim).find((holder) => !sameOwner(holder.owner, owner));
    if (taker && !taker.settled) await noteHandOver(claim, offered(claim)!, taker.owner);
    else if (!taker && news.restoreOnDelete === false) leftAsIs.push(path);
  }
  await noteLeftAsIs(ctx, news, leftAsIs, recorded, secretModes(ctx, true));
}

/**
 * Notes, for rules an update stops managing under `restoreOnDelete: false`, that it leaves them
 * as they are and where their originals go: to the resource of the run that declares the rule
 * and `dependsOn` this one (its check comes later and says so), else nowhere.
 */
async function noteLeftAsIs(
  ctx: CallContext,
  news: Inputs,
  paths: readonly string[],
  recorded: ReadonlyMap<string, string>,
  secret: boolean,
) {
  if (!paths.length) return;
  const originals = secret
    ? `the modes it found (${someOf(paths)})`
    : Object.entries(groupedOriginals(new Map(paths.map((path) => [path, recorded.get(path)!]))))
        .map(([mode, rules]) => `${mode} for ${someOf(rules)}`)
        .join("; ");
  const self = ctx.name;
  await notifyOnce(
    `${self}:left-as-is`,
    "info",
    redactor(
      ctx,
      news,
    )(
      `${self} no longer manages ${paths.length} rule${paths.length === 1 ? "" : "s"} and, as restoreOnDelete is false, leaves ` +
        `${paths.length === 1 ? "it" : "them"} as ${paths.length === 1 ? "it is" : "they are"}, without putting back what this stack ` +
        `found: ${originals}. A resource of this run that declares such a rule and \`dependsOn\` ${self} records that mode as its ` +
        `original (its preview says so); for any other, no destroy will put it back.`,
    ),
  );
}

/**
 * Whether another resource of the run hands this one a rule its `modes` declare (ownership.ts
 * offer): its update then records the giver's original, older than any it recorded itself, and
 * sets the mode again (the giver may have put its original back before this resource's turn).
 */
function takesOffer(ctx: CallContext, news: Inputs): boolean {
  return Object.keys(news.modes ?? {}).some((path) => ctx.claims.offered(claimOn(ctx, news, path, undefined)) !== undefined);
}

/**
 * Of the rules this update stops managing that another resource of the run declares (`paths`),
 * those that resource now holds. A taker checked already runs beside this update (it does not
 * `dependsOn` this resource): whether it holds the rule is known once it has settled or failed,
 * so this waits for it (until the call's one deadline). A rule whose takers all failed is put
 * back like any other: nobody else will.
 */
async function heldElsewhere(ctx: CallContext, props: Props, paths: readonly string[]): Promise<Set<string>> {
  const self = ctx.owner;
  if (!self || !paths.length) return new Set();
  await ctx.claims.othersSettled(paths.map((path) => claimOn(ctx, props, path, undefined)));
  // A selector's rules are claims only once it has listed the policy: with no claim yet, it is left the rule as before.
  const failedAll = (path: string) => {
    const others = declarersOf(claimOn(ctx, props, path, undefined)).filter((holder) => !sameOwner(holder.owner, self));
    return others.length > 0 && others.every((holder) => holder.failed);
  };
  return new Set(paths.filter((path) => !failedAll(path)));
}

/**
 * Warns, for the rules this update leaves to another resource of the run, where that resource
 * took the rule without the original this resource offered (it was created before this
 * resource's diff: it does not `dependsOn` this resource), with both values and that remedy.
 */
async function warnHandedOverRules(ctx: CallContext, props: Props, rules: ReadonlyArray<readonly [string, string]>): Promise<void> {
  if (!ctx.owner) return;
  const self = ctx.name;
  for (const [path, original] of rules) {
    const claim = claimOn(ctx, props, path, undefined);
    const holder = holderOf(claim);
    const given = ctx.claims.offeredBySelf(claim);
    if (!holder?.settled || given?.acceptedBy) continue;
    const was = secretModes(ctx) || secretModes(ctx, true) ? "[secret]" : original;
    const recorded =
      holder.recorded === undefined || holder.recorded === null ? "no original for it" : `${String(holder.recorded)} as its original`;
    await notify(
      "warning",
      `${self} no longer manages ${claim.object} and left it to ${ownerName(holder.owner)}, which took it ` +
        `before the original this resource had recorded reached it: before this stack managed it, it was ${was}, and ` +
        `${ownerName(holder.owner)} recorded ${recorded}, so destroying it will not put ${was} back. Make ${ownerName(holder.owner)} ` +
        `\`dependsOn\` ${self} when moving rules between them, so that it takes the original with the rule.`,
    );
  }
}

/** A rule as the journal names it: its path, or a digest of it when `modes` is secret (its keys are part of the secret). */
const journalObject = (ctx: CallContext, path: string) =>
  ctx.secret("modes") ? `sha256:${createHash("sha256").update(path).digest("hex")}` : path;

/** Sets one rule of the resource's policy to `mode`. */
const setMode = (props: Props, rulePath: string, mode: string) =>
  writeRuleMode({ deploymentId: String(props.deploymentId), policyId: String(props.policyId), rulePath }, mode as PolicyMode);

/**
 * Sets every managed rule to its declared mode, recording what it changes, and puts back the
 * rules it managed before and no longer does. Refuses, before any write, a rule another resource
 * of the stack declares (a selector's rules are known only now, from the listing). When some
 * writes fail after others landed, the outputs so far go to the engine (partial.ts).
 */
async function converge(ctx: CallContext, id: string, declared: Inputs, previous?: State<Kind>) {
  const redact = redactor(ctx, declared);
  const rules = await policyRules(declared.deploymentId, declared.policyId);
  const wanted = wantedModes(declared, rules);
  await warnIfSelectsNothing(ctx, declared, rules, previous);
  const missing = Object.keys(declared.modes ?? {}).filter((path) => !rules.has(path));
  if (missing.length) {
    throw new Error(
      redact(
        `modes names rules that are not in policy ${declared.policyId} of deployment ${declared.deploymentId}: ${someOf(missing, 5)}` +
          ` (the policy has ${rules.size} rules)`,
      ),
    );
  }
  const owner = ctx.owner;
  if (owner) {
    const conflicts = ctx.claims.declare([...wanted].map(([path, mode]) => claimOn(ctx, declared, path, mode)));
    // Another resource's selector (its rules are not claims until it lists the policy).
    for (const path of wanted.keys()) {
      const other = selectorTaking(declared.deploymentId, declared.policyId, rules.get(path)!, owner);
      if (other) conflicts.push({ claim: claimOn(ctx, declared, path, undefined), other });
    }
    if (conflicts.length) {
      const first = conflicts.slice(0, 5).map(({ claim, other }) => `${claim.object} (declared by ${ownerName(other)})`);
      throw new Error(
        redact(
          `${ctx.name} would set the mode of ${conflicts.length} rule${conflicts.length === 1 ? "" : "s"} another resource declares: ` +
            `${first.join("; ")}${conflicts.length > 5 ? "; ..." : ""}. Leave them out with select.exclude, or declare each rule in one resource only.`,
        ),
      );
    }
  }
  const recorded = originalsByRule(previous?.originals);
  // The modes as listed (each landed write updates the shared listing: rule-index.ts).
  const found = new Map([...rules].map(([path, rule]) => [path, rule.policyMode as string]));
  const sets = [...wanted].filter(([path, mode]) => found.get(path) !== mode);
  // Rules it changed and no longer manages go back to what it found, unless another resource of
  // the run declares them now: that one takes them with the original (offerReleased). With
  // `restoreOnDelete: false` they stay as they are (it only stops managing them): the taker's
  // check comes after this update when it `dependsOn` this resource, and a put-back here would
  // leave the rule in its original mode until the taker sets it again.
  const putBacks = [...recorded].filter(([path]) => !wanted.has(path));
  const handedOver = await heldElsewhere(
    ctx,
    declared,
    putBacks.filter(([path]) => owner && declaredElsewhere(ctx, declared, owner, rules.get(path))).map(([path]) => path),
  );
  const restoring = declared.restoreOnDelete !== false;
  const writes = [
    ...sets,
    ...putBacks.filter(([path, mode]) => restoring && !handedOver.has(path) && found.has(path) && found.get(path) !== mode),
  ];
  // Rules another resource of the run stops declaring, with the original it recorded: that is
  // the value before this stack changed them, not the value found (the stack's own).
  const takenOver = new Map(
    [...wanted.keys()].flatMap((path) => {
      // The giver managed the rule before this resource did: its original is the older, truer one.
      const taken = ctx.claims.offered(claimOn(ctx, declared, path, undefined));
      return taken ? [[path, taken] as const] : [];
    }),
  );
  // What a run of this resource killed on this machine wrote before (its journal): the rules it
  // set are found as declared, and their originals are the journal's, not the values found.
  const journal = callJournal();
  const setByKilledRun = new Map(
    [...wanted].flatMap(([path, mode]) => {
      const entry = journal?.journaled.get(journalObject(ctx, path));
      return entry && found.get(path) === mode && !recorded.has(path) && !("original" in entry && entry.original === mode)
        ? [[path, entry] as const]
        : [];
    }),
  );
  const landed = new Map<string, string>();
  const failure = await eachLimited(writes, async ([path, mode]) => {
    // Journaled before the write: after a SIGKILL, nothing else says what it replaced.
    if (!recorded.has(path) && wanted.has(path)) journal?.before(journalObject(ctx, path), secretModes(ctx) ? undefined : found.get(path));
    const rule = await setMode(declared, path, mode).catch((error: unknown) => {
      const to = secretModes(ctx) ? "[secret]" : mode;
      throw new Error(`setting rule ${path} to ${to}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    landed.set(path, rule.policyMode);
  }).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  // The originals as far as the writes went: a rule's first change records what it found, a rule
  // put back is forgotten; a write that did not land changes nothing.
  const unwritten = new Set(writes.filter(([path]) => !landed.has(path)).map(([path]) => path));
  const originals = new Map(recorded);
  for (const [path] of sets) if (landed.has(path) && !originals.has(path)) originals.set(path, found.get(path)!);
  for (const [path, entry] of setByKilledRun) if ("original" in entry) originals.set(path, entry.original);
  for (const [path, taken] of takenOver) {
    if (!landed.has(path) && found.get(path) !== wanted.get(path)) continue;
    originals.set(path, String(taken.original));
    ctx.claims.accept(claimOn(ctx, declared, path, undefined));
  }
  for (const [path] of putBacks) if (!unwritten.has(path)) originals.delete(path);
  // A rule the state holds at another declared mode and already at the new one needs no write, but
  // this update replaces the state's mode all the same: an earlier update of this stack that was
  // killed after writing it leaves exactly this. Recorded, so that destroy puts that mode back.
  const stated = previous ? wantedModes(previous, rules) : new Map<string, string>();
  for (const [path, mode] of wanted) {
    const was = stated.get(path);
    if (was !== undefined && was !== mode && found.get(path) === mode && !originals.has(path)) originals.set(path, was);
  }
  await warnHandedOverRules(
    ctx,
    declared,
    [...handedOver].map((path) => [path, recorded.get(path)!] as const),
  );
  if (failure && !landed.size) throw redactedError(failure.error, redact); // nothing changed: the state stays as it was
  await noteSetByKilledRun(ctx, declared, setByKilledRun);
  await noteNewlyManagedAsDeclared(
    ctx,
    declared,
    wanted,
    found,
    previous ? wantedModes(previous, rules) : new Map(),
    new Map([
      ...recorded,
      ...[...takenOver].map(([path, t]) => [path, String(t.original)] as const),
      ...[...setByKilledRun.keys()].map((path) => [path, "journaled"] as const),
    ]),
  );
  const summary = liveSummary(wanted, originals, (path) => landed.get(path) ?? found.get(path));
  const outs = outputs({ ...declared, ...summary, originals: groupedOriginals(originals) });
  if (!failure) return outs;
  const setsLanded = sets.filter(([path]) => landed.has(path)).length;
  const putBacksLanded = landed.size - setsLanded;
  const message =
    `${String(failure.error instanceof Error ? failure.error.message : failure.error)}. Of ${writes.length} rule writes, ` +
    `${setsLanded} of ${sets.length} setting a declared mode landed and are recorded in the stack with the modes they replaced ` +
    `(for destroy)${putBacksLanded ? `, and ${putBacksLanded} putting back a rule it no longer manages` : ""}; ` +
    `the next \`pulumi up\` makes the ${unwritten.size} left`;
  const stopped = failure.error instanceof Interrupted ? "interrupted" : "failed";
  throw new PartiallyApplied(id, { ...outs, [STOPPED]: stopped }, redact(message), { cause: failure.error });
}

/**
 * Says which rules a run of this resource that was killed (SIGKILL: nothing reached the state)
 * had set, as this machine's journal tells: their originals are recorded from it, so destroy
 * puts them back; a secret one it cannot restore (the journal keeps no secret), and says so.
 */
async function noteSetByKilledRun(
  ctx: CallContext,
  declared: Inputs,
  killed: ReadonlyMap<string, { original: string } | { secret: true }>,
): Promise<void> {
  if (!killed.size) return;
  const restored = new Map([...killed].flatMap(([path, entry]) => ("original" in entry ? [[path, entry.original] as const] : [])));
  const secret = [...killed.keys()].filter((path) => !restored.has(path));
  const self = ctx.name;
  const parts = [
    ...(restored.size
      ? [
          `recorded from this machine's journal the modes ${restored.size} rule${restored.size === 1 ? "" : "s"} had before an interrupted run of it set ` +
            `${restored.size === 1 ? "it" : "them"} (destroy puts them back): ` +
            Object.entries(groupedOriginals(restored))
              .map(([mode, paths]) => `${mode}: ${paths.join(", ")}`)
              .join("; "),
        ]
      : []),
    ...(secret.length
      ? [
          `cannot restore ${secret.length} rule${secret.length === 1 ? "" : "s"} an interrupted run of it set to a secret mode (the journal keeps no secret), ` +
            `and destroy will leave ${secret.length === 1 ? "it" : "them"}: [secret]`,
        ]
      : []),
  ];
  // Restored is a note; a secret one left is a warning (destroy will not put it back).
  await notify(secret.length ? "warning" : "info", redactor(ctx, declared)(`${self} ${parts.join("; it ")}.`));
}

/**
 * Notes the rules it starts managing that it found already as declared: nothing to put back for
 * them (the value found may be one an earlier, interrupted run of this stack set).
 */
async function noteNewlyManagedAsDeclared(
  ctx: CallContext,
  declared: Inputs,
  wanted: ReadonlyMap<string, PolicyMode>,
  found: ReadonlyMap<string, string>,
  managedBefore: ReadonlyMap<string, PolicyMode>,
  recorded: ReadonlyMap<string, string>,
): Promise<void> {
  const paths = [...wanted]
    .filter(([path, mode]) => found.get(path) === mode && !managedBefore.has(path) && !recorded.has(path))
    .map(([path]) => path);
  if (!paths.length) return;
  // Every rule, one a line under its mode (a selector may find thousands: one line naming them all is unreadable).
  const byMode = Object.entries(groupedOriginals(new Map(paths.map((path) => [path, wanted.get(path)!]))));
  const list = groupedLines(
    "rule",
    byMode.map(([mode, items]) => ({ heading: mode, items })),
  );
  await noteFoundAsDeclared(ctx, {
    what: `the mode${paths.length === 1 ? "" : "s"} of ${paths.length} rule${paths.length === 1 ? "" : "s"} it now manages (listed below by mode)`,
    plural: paths.length > 1,
    unset: `${paths.length === 1 ? "it is" : "they are"} not in originals`,
    list: redactor(ctx, declared)(list),
  });
}

/** The inputs as declared, for `read`'s `inputs` (the next diff compares them with the program). */
function declaredInputs(props: Props): Props {
  const keys = ["deploymentId", "policyId", "modes", "select", "mode", "restoreOnDelete"] as const;
  return Object.fromEntries(keys.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
}

/**
 * Inputs only (a no-change `up` reads nothing), plus the drift a refresh recorded in `deviations`
 * (a mode changed elsewhere, a new rule the selector matches), which the next `up` converges. The
 * engine shows the input diff itself: a change of `modes` lists only the rules whose mode changes.
 */
function diffModes(olds: State<Kind>, news: Inputs): DiffResult {
  const replaces = (["deploymentId", "policyId"] as const).filter((k) => String(olds[k]) !== String(news[k]));
  const changed =
    !isDeepStrictEqual(olds.modes ?? {}, news.modes ?? {}) ||
    !isDeepStrictEqual(olds.select ?? undefined, news.select ?? undefined) ||
    (olds.mode ?? undefined) !== (news.mode ?? undefined) ||
    (olds.restoreOnDelete ?? true) !== (news.restoreOnDelete ?? true) ||
    Object.keys(olds.deviations ?? {}).length > 0;
  const stables = (["deploymentId", "policyId"] as const).filter((k) => !replaces.includes(k));
  return { changes: replaces.length > 0 || changed, replaces, stables, deleteBeforeReplace: false };
}

/**
 * Whether `olds` are a PolicyRuleMode's outputs: the program now declares that resource as a
 * PolicyRuleModes, through an alias that changes its type
 * (`aliases: [{ type: "pulumi-nodejs:dynamic/semgrep:PolicyRuleMode" }]`), and the engine gives
 * the PolicyRuleModes' diff and update the old resource's state.
 */
const isRuleModeState = (olds: Props) => typeof olds.rulePath === "string" && olds.modes === undefined;

/**
 * A PolicyRuleMode's state read as a PolicyRuleModes': its rule the one entry of `modes` (in the
 * mode it last set), the original it recorded the one entry of `originals`. Read as they are, the
 * rule and its original would be lost: the update would find the rule in the mode the stack set
 * and record nothing, so destroy would not put the original back. With them, the PolicyRuleModes
 * keeps the original, or offers it to the resource that now declares the rule (offerReleased).
 */
function asModesState(olds: State<Kind>): State<Kind> {
  if (!isRuleModeState(olds)) return olds;
  const { rulePath, mode, originalMode, ruleId: _id, severity: _s, confidence: _c, category: _g, url: _u, ...rest } = olds as Props;
  const path = String(rulePath);
  const original = typeof originalMode === "string" ? { [originalMode]: [path] } : {};
  return { ...rest, modes: { [path]: mode as PolicyMode }, originals: original, deviations: {} };
}

/** The outputs of `olds`, under the declared inputs, when `diffModes` finds nothing to do but the metadata. */
const sameRules = (olds: State<Kind>, declared: Inputs) =>
  outputs({
    ...declared,
    modeCounts: olds.modeCounts ?? {},
    managedRules: olds.managedRules ?? 0,
    deviations: olds.deviations ?? {},
    originals: olds.originals ?? {},
  });

/**
 * What a change of `select` or `mode` will do, rule by rule, as a note in the preview: the engine
 * shows only the input diff (a dynamic provider returns no detailed diff), where a selector
 * change is one line that names no rule. The same for an entry dropped from `modes` beside a
 * selector, which the input diff shows as removed though the selector may then set the rule.
 * Lists the policy (a read) only then: a no-change `up`, or any other change of explicit
 * `modes` (which the input diff shows rule by rule), reads nothing.
 */
async function noteSelectorChange(ctx: CallContext, olds: State<Kind>, news: Inputs): Promise<void> {
  const same =
    isDeepStrictEqual(olds.select ?? undefined, news.select ?? undefined) && (olds.mode ?? undefined) === (news.mode ?? undefined);
  const dropped = Object.keys(olds.modes ?? {}).filter((path) => !(path in (news.modes ?? {})));
  if (same && !(dropped.length && news.select)) return;
  if (!known(news.deploymentId, news.policyId, news.select ?? {}, news.mode ?? "", news.modes ?? {})) return;
  if (String(olds.deploymentId) !== news.deploymentId || String(olds.policyId) !== news.policyId) return; // a replacement
  const rules = await policyRules(news.deploymentId, news.policyId);
  await warnIfSelectsNothing(ctx, news, rules, olds);
  const before = wantedModes(olds, rules);
  const after = wantedModes(news, rules);
  const sets = [...after].filter(([path, mode]) => rules.get(path)!.policyMode !== mode).map(([path]) => path);
  const recorded = originalsByRule(olds.originals);
  const releases = [...before.keys()].filter((path) => !after.has(path) && recorded.has(path));
  const leaves = [...before.keys()].filter((path) => !after.has(path) && !recorded.has(path));
  const parts = [
    `sets ${sets.length} rule${sets.length === 1 ? "" : "s"} to their declared mode${sets.length ? ` (${someOf(sets)})` : ""}`,
    `${news.restoreOnDelete === false ? "leaves as they are (restoreOnDelete: false)" : "puts back"} ${releases.length} it no longer manages${releases.length ? ` (${someOf(releases)})` : ""}`,
    ...(leaves.length ? [`leaves ${leaves.length} it found as declared (${someOf(leaves)})`] : []),
  ];
  await notifyOnce(
    `${ctx.name}:selector`,
    "info",
    redactor(
      ctx,
      news,
    )(`${ctx.name}: the change of ${same ? "modes" : "select/mode"} ${parts.join(", ")}; it will manage ${after.size} rules.`),
  );
}

/**
 * The rules an update will converge because they are not as this resource left them (drift a
 * refresh found, a rule that newly matches, a put-back still to do), as a note in the preview:
 * the input diff shows nothing for them (a dynamic provider returns no detailed diff). After a
 * run that stopped part-way (its partial state says so: STOPPED), they are the writes it did not
 * reach, and the note says that instead.
 */
async function noteDeviations(ctx: CallContext, olds: State<Kind>, news: Inputs): Promise<void> {
  const deviations = Object.entries(olds.deviations ?? {});
  if (!deviations.length) return;
  const listed = someOf(deviations.map(([path, live]) => (secretModes(ctx) ? path : `${path} (now ${live})`)));
  const one = deviations.length === 1;
  const stopped = olds[STOPPED];
  const what =
    stopped === "interrupted" || stopped === "failed"
      ? `${deviations.length} rule${one ? " is" : "s are"} not yet written: the last run of it ` +
        `${stopped === "interrupted" ? "was interrupted" : "stopped at a failed write"} before it reached ${one ? "it" : "them"}`
      : `${deviations.length} rule${one ? " is" : "s are"} not as it left ${one ? "it" : "them"} (found by refresh, or left by a failed or interrupted run)`;
  await notifyOnce(
    `${ctx.name}:deviations`,
    "info",
    redactor(
      ctx,
      news,
    )(
      `${ctx.name}: ${what}: ${listed}; the update sets ${one ? "it" : "them"} to the declared mode, or back to the original for a ` +
        "rule it no longer manages.",
    ),
  );
}

export const policyRuleModes: Handler<Kind> = {
  claims: (declared, secrecy) => claimsOf(secrecy, declared),
  rules: rulesOf,

  check: async (_olds, news, ctx) => {
    let registered: Inputs | undefined;
    const result = checkOwned(KIND, ctx, news, (declared) => {
      const rules = rulesOf(declared);
      if (!rules) return [];
      const owner = ctx.owner;
      if (owner) {
        declareRules(owner, rules.deploymentId, rules.policyId, rules.select, rules.explicit);
        registered = declared;
      }
      return claimsOf(ctx, declared);
    });
    if (result.failures?.length || !registered) return result;
    const self = ctx.owner!;
    for (const path of Object.keys(registered.modes ?? {})) {
      const claim = claimOn(ctx, registered, path, undefined);
      const taken = ctx.claims.offered(claim);
      if (taken) await noteHandOver(claim, taken, self);
    }
    const failures = await overlapFailures(self, registered.deploymentId, registered.policyId, {
      property: registered.select ? "select" : "modes",
      secret: ctx.secret("select") || ctx.secret("modes"),
      object: (path) => ruleObject({ ...registered, rulePath: path }),
    });
    return failures.length ? { inputs: result.inputs, failures } : result;
  },

  // Inputs only: a no-change `up` reads nothing.
  diff: async (_id, stored, news, ctx) => {
    const olds = asModesState(stored);
    // The note is for the reviewer; a failed listing fails the update that needs it, not the diff.
    await noteSelectorChange(ctx, olds, news).catch((error: unknown) =>
      notifyOnce(
        `${ctx.name}:selector`,
        "info",
        `${ctx.name}: could not list the rules the change of select/mode affects (${String(error)})`,
      ),
    );
    await noteDeviations(ctx, olds, news);
    await offerReleased(ctx, olds, news);
    // A PolicyRuleMode becoming this resource is an update whatever the inputs: its state must take
    // this kind's shape. A rule another resource hands over is one too (takesOffer).
    const result = diffModes(olds, news);
    return { ...result, changes: result.changes || olds !== stored || takesOffer(ctx, news) };
  },

  create: (declared, ctx) =>
    about(subject(ctx, declared), async () => {
      if (!ctx.owner) throw new Error("PolicyRuleModes needs its resource name: construct it with the PolicyRuleModes class");
      const id = `${declared.deploymentId}/${declared.policyId}/${ctx.owner.name}`;
      const outs = await converge(ctx, id, declared);
      return { id, outs };
    }),

  read: (id, props, ctx) =>
    about(subject(ctx, props), async () => {
      const deploymentId = String(props.deploymentId);
      const policyId = String(props.policyId);
      const rules = await policyRules(deploymentId, policyId);
      const wanted = wantedModes(props, rules);
      const summary = liveSummary(wanted, originalsByRule(props.originals), (path) => rules.get(path)?.policyMode);
      const { [STOPPED]: _stopped, ...kept } = props; // the deviations read now may hold drift too
      const live = { ...kept, ...summary, originals: props.originals ?? {} };
      return { id, props: live, inputs: declaredInputs(props) };
    }),

  update: (id, stored, declared, ctx) =>
    about(subject(ctx, declared), async () => {
      const olds = asModesState(stored);
      // The inputs are the same and nothing is left to do (no deviation): only the name, parent or
      // secrecy changed (a rename with an alias), so nothing is read or written. A PolicyRuleMode
      // becoming this resource converges, to record this kind's outputs (one listing, no write).
      const same = !diffModes(olds, declared).changes && olds === stored;
      const outs = same ? sameRules(olds, declared) : await converge(ctx, id, declared, olds);
      return { outs };
    }),

  delete: (_id, props, ctx) =>
    about(subject(ctx, props), async () => {
      if (props.restoreOnDelete === false) return;
      const originals = originalsByRule(props.originals);
      // Nothing to put back: it still names the rules it leaves (a killed run may have set them).
      if (!originals.size) return unlessMigrated(ctx.name, props, "it recorded no original", () => noteLeftUnrecorded(ctx, props));
      const changed = secretModes(ctx)
        ? `the modes of ${originals.size} rules it had changed`
        : Object.entries(groupedOriginals(originals))
            .map(([mode, paths]) => `${mode} for ${someOf(paths)}`)
            .join("; ");
      await unlessMigrated(ctx.name, props, redactor(ctx, props)(changed), () => restore(ctx, props, originals));
    }),
};

/**
 * Names, at delete, each managed rule it leaves as it is because it recorded no original for
 * it: found as declared when it took the rule over, which may be a mode an interrupted run of
 * this stack set (a SIGKILL records nothing), with the remedy (left-by-delete.ts). `managed`: the
 * rules it manages that the policy still has, with their declared modes.
 */
async function noteLeftByDelete(
  ctx: CallContext,
  props: State<Kind>,
  originals: ReadonlyMap<string, string>,
  managed: ReadonlyMap<string, PolicyMode>,
): Promise<void> {
  const left = new Map([...managed].filter(([path]) => !originals.has(path)));
  // A secret mode is not shown: the rules are then one group.
  const groups = secretModes(ctx)
    ? [{ heading: "[secret]", items: [...left.keys()].sort((a, b) => a.localeCompare(b)) }]
    : Object.entries(groupedOriginals(left)).map(([mode, items]) => ({ heading: mode, items }));
  await noteLeftWithoutOriginal(ctx, "rule", groups, redactor(ctx, props));
}

/**
 * The rules a delete that recorded no original leaves, named from what the state holds: the
 * explicit `modes` (less a rule a refresh found gone), with no request. A selector's rules are
 * known only from the policy's listing: read (one listing) only when the state says it manages
 * some rule (`managedRules`), since nothing else is to be put back.
 */
async function noteLeftUnrecorded(ctx: CallContext, props: State<Kind>): Promise<void> {
  const none = new Map<string, string>();
  if (!props.select) {
    const explicit = Object.entries(props.modes ?? {}).filter(([path]) => props.deviations?.[path] !== "absent");
    return noteLeftByDelete(ctx, props, none, new Map(explicit));
  }
  if (props.managedRules === 0) return;
  const rules = await policyRules(String(props.deploymentId), String(props.policyId));
  await noteLeftByDelete(ctx, props, none, presentRules(props, rules));
}

/** The rules a state manages that the policy still has, with their declared modes. */
const presentRules = (props: State<Kind>, rules: ReadonlyMap<string, Rule>) =>
  new Map([...wantedModes(props, rules)].filter(([path]) => rules.has(path)));

/** Puts back the originals of a deleted PolicyRuleModes, leaving to another resource of the run what it now holds. */
async function restore(ctx: CallContext, props: State<Kind>, originals: ReadonlyMap<string, string>): Promise<void> {
  const rules = await policyRules(String(props.deploymentId), String(props.policyId));
  await noteLeftByDelete(ctx, props, originals, presentRules(props, rules));
  const fields = [...originals].map(([path, original]) => ({
    name: path,
    claim: claimOn(ctx, props, path, undefined),
    original,
    last: rules.get(path)?.policyMode,
    same: Object.is,
    show: String,
    secret: secretModes(ctx),
    what: `the mode of ${ruleObject({ ...props, rulePath: path })}`,
  }));
  const handedOver: HandOver[] = [];
  const back = await planUndo(ctx, fields, async (handOver) => void handedOver.push(handOver));
  const policy = `policy ${String(props.policyId)} (deployment ${String(props.deploymentId)})`;
  const redact = redactor(ctx, props);
  await warnAllHandedOver(
    handedOver.map((h) => ({ ...h, name: redact(h.name), what: redact(h.what) })),
    (count) => `the modes of ${count} rules of ${policy}`,
  );
  await eachLimited(Object.entries(back), async ([path, mode]) => {
    if (rules.has(path)) await setMode(props, path, String(mode));
  });
}

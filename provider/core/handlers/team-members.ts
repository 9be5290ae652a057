/**
 * TeamMembers in the provider process: additive. It adds its members and sets their roles, and on
 * delete removes only the members it added and puts back only the roles it changed, so several can
 * share a team with a Team and with each other (each user declared by one of them only).
 */
import type { TeamRole } from "../../client";
import type { teamMembersKind } from "../kinds";
import { fieldRules } from "../kinds";
import { ABSENT } from "../kinds/declare";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { known, noteFoundAsDeclared } from "../runtime/owned";
import { type Claim, holderOf, offer, release, wasReleased } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";
import {
  checkTeamResource,
  declaredByOther,
  journaledTeamOriginal,
  journalTeamOriginals,
  memberChanges,
  memberClaim,
  teamApi,
  teamObject,
  takingTurns,
} from "./team-access";

const KIND = "TeamMembers";
type Kind = typeof teamMembersKind;
type Inputs = Checked<Kind>;
const checked = declaredOutputs<Kind>();

const declaredOf = (props: Props): Record<string, TeamRole> =>
  props.members && typeof props.members === "object" ? (props.members as Record<string, TeamRole>) : {};

/** What a TeamMembers declares: each of its members, exclusively. */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentId, declared.teamId, declared.members)) return [];
  return Object.entries(declaredOf(declared)).map(([userId, role]) => memberClaim(declared, declared.teamId, userId, secrecy, role));
}

/** What a TeamMembers in this state recorded of each member: ABSENT for one it added, the role it changed, or nothing. */
function recorded(state: Props): Record<string, unknown> {
  const added = (state.addedMembers as string[] | undefined) ?? [];
  const roles = (state.originalRoles as Record<string, TeamRole> | undefined) ?? {};
  return Object.fromEntries(
    Object.keys(declaredOf(state)).map((userId) => [`member ${userId}`, added.includes(userId) ? ABSENT : (roles[userId] ?? null)]),
  );
}

const subject = (props: Props) => `TeamMembers of ${teamObject(props.deploymentId, props.teamId)}`;

/** Outputs: the declared members' live roles, and what it added and changed (of those still declared). */
function outputs(declared: Inputs, live: ReadonlyMap<string, TeamRole>, added: string[], roles: Record<string, TeamRole>): Outputs<Kind> {
  const names = Object.keys(declared.members);
  return checked({
    ...declared,
    members: Object.fromEntries(names.filter((u) => live.has(u)).map((u) => [u, live.get(u)!])),
    addedMembers: added.filter((u) => names.includes(u) && live.has(u)),
    originalRoles: Object.fromEntries(Object.entries(roles).filter(([u]) => names.includes(u) && live.has(u))),
  });
}

/**
 * Applies the declared members over `live`: adds those it lacks (recorded as added), sets the
 * roles that differ (the role found recorded, unless one is recorded already), and leaves the
 * others; `drop` are members no longer declared, removed if it added them or re-roled if it
 * changed them, unless another resource of the run declares them.
 */
async function apply(ctx: CallContext, declared: Inputs, before: { added: string[]; roles: Record<string, TeamRole> }, drop: string[]) {
  const team = teamApi(declared.deploymentId, declared.teamId);
  const live = await team.members();
  const wanted = new Map(Object.entries(declared.members));
  const added = [...before.added];
  const roles = { ...before.roles };
  const found: string[] = [];
  for (const [userId, role] of wanted) {
    const claim = memberClaim(declared, declared.teamId, userId, ctx);
    if (!live.has(userId) || wasReleased(claim)) {
      if (!added.includes(userId)) added.push(userId);
    } else if (live.get(userId) !== role) roles[userId] ??= live.get(userId)!;
    else if (!added.includes(userId) && roles[userId] === undefined) {
      // Found as declared: a run of this resource killed after its write may have left it so, and journaled what it replaced.
      const journaled = journaledTeamOriginal(ctx, "member", userId);
      if (journaled === ABSENT) added.push(userId);
      else if (journaled !== undefined) roles[userId] = journaled as TeamRole;
      else found.push(userId);
    }
  }
  const putBack = new Map<string, TeamRole>();
  const removed: string[] = [];
  for (const userId of drop) {
    const claim = memberClaim(declared, declared.teamId, userId, ctx);
    if (declaredByOther(ctx, claim)) continue;
    if (added.includes(userId)) removed.push(userId);
    else if (roles[userId]) putBack.set(userId, roles[userId]);
    release(claim);
  }
  const users = [...memberChanges(live, new Map([...wanted, ...putBack]), removed)];
  // A member another resource of the run removed (its claim released) is added back even where the read still shows it.
  for (const [userId, role] of wanted)
    if (live.has(userId) && wasReleased(memberClaim(declared, declared.teamId, userId, ctx)) && !users.some((u) => u.userId === userId))
      users.push({ userId, action: "UPDATE_ACTION_UPDATE", role });
  if (users.length) {
    // Before the write: killed after it, nothing else says what it replaced.
    const firsts = [
      ...added.filter((u) => !before.added.includes(u)).map((u): [string, string] => [u, ABSENT]),
      ...Object.entries(roles).filter(([u]) => before.roles[u] === undefined),
    ];
    journalTeamOriginals(ctx, "member", firsts);
    await team.update({ users });
  }
  if (found.length)
    await noteFoundAsDeclared(ctx, {
      what: `the member${found.length > 1 ? "s" : ""} ${found.join(", ")} of ${teamObject(declared.deploymentId, declared.teamId)}`,
      plural: found.length > 1,
      unset: "not in addedMembers or originalRoles",
    });
  const after = await team.members();
  return outputs(
    declared,
    after,
    added.filter((u) => !drop.includes(u)),
    Object.fromEntries(Object.entries(roles).filter(([u]) => !drop.includes(u))),
  );
}

const calls: Handler<Kind> = {
  recorded,

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: (_olds, news, ctx) => checkTeamResource(ctx, news, (declared) => claimsOf(ctx, declared)),

  diff: async (_id, olds, news, ctx) => {
    const result = diffDeclared(olds, news, fieldRules(KIND));
    // A member it stops declaring goes with what it recorded (ABSENT: it added it), for a Team of the run that takes it (team.ts beforeTheStack).
    if (ctx.owner)
      for (const [claim, original] of Object.entries(recorded(olds)))
        if (!(claim.slice("member ".length) in news.members))
          offer(memberClaim(olds, olds.teamId, claim.slice("member ".length), ctx), original, ctx.owner, ctx.secret("members"));
    const dropped = Object.keys(declaredOf(olds)).some((u) => !(u in news.members));
    const released = Object.keys(news.members).some((u) => wasReleased(memberClaim(news, news.teamId, u, ctx)));
    return { ...result, changes: result.changes === true || dropped || released };
  },

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared, { added: [], roles: {} }, []);
      return { id: `${declared.deploymentId}/${declared.teamId}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const live = await unlessGone(() => teamApi(String(props.deploymentId), String(props.teamId)).members());
      if (!live) return { id: "" };
      // Read by id alone (`TeamMembers.get`), it declares no members: it shows them all.
      const declared = props.members ? (props as Inputs) : ({ ...props, members: Object.fromEntries(live) } as Inputs);
      const outs = outputs(declared, live, props.addedMembers ?? [], props.originalRoles ?? {});
      return {
        id,
        props: outs,
        inputs: { deploymentId: props.deploymentId, teamId: props.teamId, members: outs.members, restoreOnDelete: props.restoreOnDelete },
      };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      const drop = Object.keys(declaredOf(olds)).filter((u) => !(u in declared.members));
      const outs = await apply(ctx, declared, { added: olds.addedMembers ?? [], roles: olds.originalRoles ?? {} }, drop);
      return { outs };
    }),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const team = teamApi(String(props.deploymentId), String(props.teamId));
      const live = await unlessGone(() => team.members());
      if (!live) return;
      const added = props.addedMembers ?? [];
      const roles = props.originalRoles ?? {};
      const free = (userId: string) => !holderOf(memberClaim(props, props.teamId, userId, ctx));
      const removed = added.filter(free);
      const putBack = new Map(Object.entries(roles).filter(([u]) => free(u) && live.has(u)) as Array<[string, TeamRole]>);
      const users = memberChanges(live, putBack, removed);
      if (users.length) await unlessGone(() => team.update({ users }));
    }),
};

/** Its writing calls on one team take turns with those of the other team kinds (team-access.ts takingTurns). */
export const teamMembers = takingTurns(calls);

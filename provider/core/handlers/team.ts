/**
 * Team in the provider process: creates the team, or adopts the one of its name (recording its
 * name, members and projects, put back on delete), and holds its members and projects
 * authoritatively when declared: after a write the team has the declared ones, plus those another
 * resource of the run declares (a TeamMembers, a TeamProjects), plus those it recorded as theirs
 * (`otherMembers`, `otherProjects`); any other is removed.
 */
import { APIError, type TeamEntry as Team, type TeamRole, type TeamUpdate } from "../../client";
import type { teamKind } from "../kinds";
import { fieldRules } from "../kinds";
import { ABSENT } from "../kinds/declare";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs, type State } from "../runtime/handler";
import { journalBefore, journaledOriginal, journalWithdraw } from "../runtime/journal";
import { about, unlessGone } from "../runtime/lookup";
import { known, noteDroppedFields } from "../runtime/owned";
import { type Claim, declarersOf, holderOf, release, sameOwner } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";
import { apiClient } from "../runtime/credentials";
import {
  checkTeamResource,
  declaredByOther,
  forgetTeamNames,
  memberChanges,
  memberClaim,
  projectClaim,
  projectNames,
  repositoryChanges,
  repositoryIds,
  teamApi,
  teamsByName,
  journalObject,
  takingTurns,
  teamObject,
} from "./team-access";

const KIND = "Team";
type Kind = typeof teamKind;
type Inputs = Checked<Kind>;
const checked = declaredOutputs<Kind>();

const subject = (props: Props) => `Team ${JSON.stringify(String(props.name))} of deployment ${String(props.deploymentId)}`;

/** The optional fields a resource declaring `props` manages. */
const managedOf = (props: Props) => (["members", "projects"] as const).filter((field) => props[field] !== undefined);

/** What a Team declares of team `teamId`: each member and each project, exclusively. */
function claimsOn(secrecy: Secrecy, declared: Props, teamId: unknown): Claim[] {
  // One Team per team: a second would adopt the team the first creates or manages, and destroy would delete or change it
  // under the other. The team by its id where it exists (two names may resolve to it: one renamed away, one new), else by name.
  const team: Claim[] =
    teamId !== undefined
      ? [{ object: teamObject(declared.deploymentId, teamId), field: "the Team", property: "name" }]
      : known(declared.deploymentId, declared.name)
        ? [
            {
              object: `the team named ${JSON.stringify(declared.name)} (deployment ${String(declared.deploymentId)})`,
              field: "the Team",
              property: "name",
            },
          ]
        : [];
  if (teamId === undefined || !known(declared.members ?? {}, declared.projects ?? [])) return team;
  return [
    ...team,
    ...Object.entries((declared.members as Record<string, TeamRole> | undefined) ?? {}).map(([userId, role]) =>
      memberClaim(declared, teamId, userId, secrecy, role),
    ),
    ...((declared.projects as string[] | undefined) ?? []).map((name) => projectClaim(declared, teamId, name, secrecy, false)),
  ];
}

/** The id of the team a Team declaring `declared` manages, if the team exists: found by name, or its earlier name. */
async function existingTeamId(declared: Props, olds: Props): Promise<string | undefined> {
  if (!known(declared.deploymentId, declared.name)) return undefined;
  const byName = await teamsByName(String(declared.deploymentId));
  const sameDeployment = String(olds.deploymentId) === String(declared.deploymentId);
  return byName.get(String(declared.name))?.id ?? (sameDeployment && olds.name ? byName.get(String(olds.name))?.id : undefined);
}

/** What a Team recorded of each claim: the adopted team's member role or project (ABSENT-free: null for none). */
function recorded(state: Props): Record<string, unknown> {
  const members = (state.originalMembers as Record<string, TeamRole> | undefined) ?? {};
  const projects = (state.originalProjects as string[] | undefined) ?? [];
  return {
    ...Object.fromEntries(Object.keys((state.members as object | undefined) ?? {}).map((u) => [`member ${u}`, members[u] ?? null])),
    ...Object.fromEntries(((state.projects as string[] | undefined) ?? []).map((n) => [`project ${n}`, projects.includes(n) ? n : null])),
  };
}

/**
 * What a Team records first of an adopted team, journaled by field: its members and projects. (Its
 * name needs no journal: a create finds the team by the declared name and never renames it.)
 */
type Found = {
  members?: Record<string, TeamRole>;
  projects?: string[];
};

/**
 * The team's members and projects as found (those about to be recorded first), each replaced by
 * what a run of this resource killed after its write journaled, if one did.
 */
function killedRunOriginal(found: Found): Found {
  const original: Found = { ...found };
  for (const field of ["members", "projects"] as const) {
    const journaled = found[field] !== undefined ? journaledOriginal(field, `the ${field}`) : undefined;
    if (journaled) Object.assign(original, { [field]: journaled.original });
  }
  return original;
}

/**
 * How the journal names the team a create makes (`absent` before it): by the declared name, so that
 * a create of another name (the program renamed it) never takes a team of that name for its own.
 */
const createdJournalName = (name: string) => journalObject("team", name);

/**
 * The team before the stack, from what an adoption finds (`found`): a member or project another
 * resource of the run recorded as its own addition (a TeamMembers or TeamProjects that added it)
 * was not there before the stack, and a role another resource changed was the one it recorded.
 * What a resource recorded is known once it settles: with `wait` (a create, which takes no turn on
 * the team), the others that declare a member or project found are waited for (the call's one
 * deadline); an update, which holds the team's turn that their writes need, takes what has settled.
 */
async function beforeTheStack(ctx: CallContext, declared: Props, teamId: string, found: Found, wait: boolean): Promise<Found> {
  const members = Object.keys(found.members ?? {}).map((userId) => [userId, memberClaim(declared, teamId, userId, ctx)] as const);
  const projects = (found.projects ?? []).map((name) => [name, projectClaim(declared, teamId, name, ctx, false)] as const);
  if (wait && ctx.owner) await ctx.claims.othersSettled([...members, ...projects].map(([, claim]) => claim));
  // What another resource recorded: one that still declares it (once settled), or one that let it go in this run (its offer).
  const recordedByOther = (claim: Claim) => {
    const offer = ctx.claims.offered(claim);
    if (offer && offer.original != null) {
      ctx.claims.accept(claim);
      return offer.original;
    }
    return declarersOf(claim).find((h) => h.settled && !h.failed && !(ctx.owner && sameOwner(h.owner, ctx.owner)) && h.recorded != null)
      ?.recorded;
  };
  const before: Found = {};
  if (found.members)
    before.members = Object.fromEntries(
      members.flatMap(([userId, claim]) => {
        const recorded = recordedByOther(claim);
        return recorded === ABSENT ? [] : [[userId, typeof recorded === "string" ? (recorded as TeamRole) : found.members![userId]!]];
      }),
    );
  if (found.projects) before.projects = projects.filter(([, claim]) => recordedByOther(claim) !== ABSENT).map(([name]) => name);
  return before;
}

interface Live {
  team: Team;
  members?: Map<string, TeamRole>;
  repositories?: Set<string>;
}

/** The live team, with its members and repositories where `fields` needs them. */
async function readLive(deploymentId: string, teamId: string, fields: readonly string[], team?: Team): Promise<Live> {
  const api = teamApi(deploymentId, teamId);
  return {
    team: team ?? (await apiClient().teams.get(deploymentId, teamId)),
    ...(fields.includes("members") ? { members: await api.members() } : {}),
    ...(fields.includes("projects") ? { repositories: await api.repositories() } : {}),
  };
}

/** Members of the team that another resource of the stack declares: in this run, or recorded so before and still there. */
function otherMembersOf(ctx: CallContext, declared: Props, teamId: string, live: ReadonlyMap<string, TeamRole>, before: string[]) {
  const mine = (declared.members as Record<string, TeamRole> | undefined) ?? {};
  return [...live.keys()].filter(
    (u) => !(u in mine) && (before.includes(u) || declaredByOther(ctx, memberClaim(declared, teamId, u, ctx))),
  );
}

async function otherProjectsOf(ctx: CallContext, declared: Props, teamId: string, live: ReadonlySet<string>, before: string[]) {
  const mine = (declared.projects as string[] | undefined) ?? [];
  const names = await projectNames(String(declared.deploymentId), live);
  return names.filter(
    (n) => !mine.includes(n) && (before.includes(n) || declaredByOther(ctx, projectClaim(declared, teamId, n, ctx, false))),
  );
}

/**
 * Writes what `declared` says over the live team: its name, and where declared its members and
 * projects (those another resource holds left alone, every other removed). Returns the outputs.
 */
async function apply(
  ctx: CallContext,
  declared: Inputs,
  teamId: string,
  live: Live,
  record: Pick<Outputs<Kind>, "created" | "originalName" | "originalMembers" | "originalProjects">,
  before: { otherMembers: string[]; otherProjects: string[] },
  firsts: Record<string, unknown> = {},
): Promise<Outputs<Kind>> {
  const api = teamApi(declared.deploymentId, teamId);
  const changes: TeamUpdate = {};
  if (live.team.name !== declared.name) changes.name = declared.name;
  let otherMembers: string[] = [];
  if (declared.members && live.members) {
    otherMembers = otherMembersOf(ctx, declared, teamId, live.members, before.otherMembers);
    const extra = [...live.members.keys()].filter((u) => !(u in declared.members!) && !otherMembers.includes(u));
    for (const u of extra) release(memberClaim(declared, teamId, u, ctx));
    const users = memberChanges(live.members, new Map(Object.entries(declared.members)), extra);
    if (users.length) changes.users = users;
  }
  let otherProjects: string[] = [];
  if (declared.projects && live.repositories) {
    otherProjects = await otherProjectsOf(ctx, declared, teamId, live.repositories, before.otherProjects);
    const names = await projectNames(declared.deploymentId, live.repositories);
    const extra = names.filter((n) => !declared.projects!.includes(n) && !otherProjects.includes(n));
    for (const n of extra) release(projectClaim(declared, teamId, n, ctx, false));
    const repositories = repositoryChanges(
      live.repositories,
      await repositoryIds(declared.deploymentId, declared.projects),
      await repositoryIds(declared.deploymentId, extra),
    );
    if (repositories.length) changes.repositories = repositories;
  }
  // Before the write (one request per 500 users or repositories): killed after any of them, nothing else says what they replaced.
  if (Object.keys(changes).length) journalBefore(firsts);
  const team = Object.keys(changes).length ? await api.update(changes) : live.team;
  const after = await readLive(declared.deploymentId, teamId, managedOf(declared), team);
  // Another resource of the run may have added a member or project it declares while this write was under way.
  if (declared.members && after.members) otherMembers = otherMembersOf(ctx, declared, teamId, after.members, otherMembers);
  if (declared.projects && after.repositories)
    otherProjects = await otherProjectsOf(ctx, declared, teamId, after.repositories, otherProjects);
  return outputsOf(declared, teamId, after, record, { otherMembers, otherProjects });
}

async function outputsOf(
  declared: Inputs,
  teamId: string,
  live: Live,
  record: Pick<Outputs<Kind>, "created" | "originalName" | "originalMembers" | "originalProjects">,
  others: { otherMembers: string[]; otherProjects: string[] },
): Promise<Outputs<Kind>> {
  const members = live.members ?? (await teamApi(declared.deploymentId, teamId).members());
  const repositories = live.repositories ?? (await teamApi(declared.deploymentId, teamId).repositories());
  const names = await projectNames(declared.deploymentId, repositories);
  return checked({
    ...declared,
    name: live.team.name,
    teamId,
    slug: live.team.slug,
    ...(live.team.parentTeamId ? { parentTeamId: live.team.parentTeamId } : {}),
    members: Object.fromEntries([...members].filter(([u]) => !others.otherMembers.includes(u))),
    projects: names.filter((n) => !others.otherProjects.includes(n)),
    otherMembers: others.otherMembers.filter((u) => members.has(u)),
    otherProjects: others.otherProjects.filter((n) => names.includes(n)),
    ...record,
    managedFields: managedOf(declared),
  });
}

const calls: Handler<Kind> = {
  recorded,

  // An import is checked against the stack's Teams with the `teamId` their state records (stack-claims.ts).
  claims: (declared, secrecy) => claimsOn(secrecy, declared, declared.teamId),

  check: (olds, news, ctx) =>
    checkTeamResource(ctx, news, async (declared) => claimsOn(ctx, declared, await existingTeamId(declared, olds))),

  diff: async (_id, olds, news, ctx) => {
    const result = diffDeclared(olds, news, fieldRules(KIND));
    // `members` or `projects` no longer declared: no longer managed, its original dropped from the state by the update (said at preview).
    const dropped = (olds.managedFields ?? []).filter(
      (field) => (field === "members" || field === "projects") && news[field] === undefined,
    );
    if (!dropped.length) return result;
    await noteDroppedFields(
      ctx,
      `the team ${JSON.stringify(olds.name)} (${teamObject(olds.deploymentId, olds.teamId)})`,
      dropped.map((field) => ({
        name: field,
        original: field === "members" ? olds.originalMembers : olds.originalProjects,
        last: olds[field],
      })),
    );
    return { ...result, changes: true };
  },

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const existing = (await teamsByName(declared.deploymentId)).get(declared.name);
      if (!existing) {
        const ids = declared.projects ? await repositoryIds(declared.deploymentId, declared.projects) : [];
        journalBefore({ [createdJournalName(declared.name)]: ABSENT });
        const created = await apiClient()
          .teams.create(declared.deploymentId, {
            name: declared.name,
            ...(declared.members ? { users: Object.entries(declared.members).map(([userId, role]) => ({ userId, role })) } : {}),
            ...(ids.length ? { repositoryIds: ids } : {}),
            ...(declared.parentTeamId ? { parentTeamId: declared.parentTeamId } : {}),
          })
          .catch((error: unknown) => {
            // Refused (a 409: the name taken since the listing): no team of this resource; a later create must not adopt one as its own.
            if (error instanceof APIError && error.status < 500) journalWithdraw(createdJournalName(declared.name));
            throw error;
          });
        forgetTeamNames(declared.deploymentId);
        teamApi(declared.deploymentId, created.id).created({
          members: new Map(Object.entries(declared.members ?? {})),
          repositories: new Set(ids),
        });
        ctx.claims.declare(claimsOn(ctx, declared, created.id));
        const live = await readLive(declared.deploymentId, created.id, managedOf(declared), created);
        const outs = await outputsOf(declared, created.id, live, { created: true }, { otherMembers: [], otherProjects: [] });
        return { id: `${declared.deploymentId}/${created.id}`, outs };
      }
      if ((existing.parentTeamId ?? undefined) !== declared.parentTeamId)
        throw new Error(
          `a team named ${JSON.stringify(declared.name)} exists in deployment ${declared.deploymentId} (team ${existing.id}) under ` +
            `${existing.parentTeamId ? `parent team ${existing.parentTeamId}` : "no parent"}, not ${declared.parentTeamId ? `parent team ${declared.parentTeamId}` : "at the organization level"} as declared; ` +
            "the API cannot move a team: declare its parent as it is, or choose another name",
        );
      ctx.claims.declare(claimsOn(ctx, declared, existing.id));
      const live = await readLive(declared.deploymentId, existing.id, ["members", "projects"], existing);
      const found = await beforeTheStack(
        ctx,
        declared,
        existing.id,
        {
          ...(declared.members ? { members: Object.fromEntries(live.members!) } : {}),
          ...(declared.projects ? { projects: await projectNames(declared.deploymentId, live.repositories!) } : {}),
        },
        true,
      );
      // A run of this resource killed after its write (after one request of several, or all) journaled what it found:
      // no team (it created this one), or the team it adopted.
      const created = journaledOriginal(createdJournalName(declared.name), "the team")?.original === ABSENT;
      const original: Found = created ? {} : killedRunOriginal(found);
      const record = created
        ? { created: true }
        : {
            created: false,
            originalName: existing.name,
            ...(original.members ? { originalMembers: original.members } : {}),
            ...(original.projects ? { originalProjects: original.projects } : {}),
          };
      const firsts = created ? {} : found;
      const outs = await apply(ctx, declared, existing.id, live, record, { otherMembers: [], otherProjects: [] }, firsts);
      return { id: `${declared.deploymentId}/${existing.id}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const teamId = id.split("/")[1] ?? String(props.teamId);
      const deploymentId = String(props.deploymentId);
      const found = await unlessGone(() => apiClient().teams.get(deploymentId, teamId));
      if (!found) return { id: "" };
      const live = await readLive(deploymentId, teamId, ["members", "projects"], found);
      const others = { otherMembers: props.otherMembers ?? [], otherProjects: props.otherProjects ?? [] };
      const declared = { ...props, deploymentId, name: found.name } as Inputs;
      const record = {
        created: props.created ?? false,
        originalName: props.originalName,
        originalMembers: props.originalMembers,
        originalProjects: props.originalProjects,
      };
      const outs = await outputsOf(declared, teamId, live, record, others);
      // Read by id alone (`Team.get`) it manages neither field; a refresh gives the live values of those it manages.
      const managed = props.managedFields ?? [];
      const inputs = {
        deploymentId,
        restoreOnDelete: props.restoreOnDelete,
        name: outs.name,
        ...(props.parentTeamId !== undefined ? { parentTeamId: props.parentTeamId } : {}),
        ...(managed.includes("members") ? { members: outs.members } : {}),
        ...(managed.includes("projects") ? { projects: outs.projects } : {}),
      };
      return { id, props: { ...outs, managedFields: managed }, inputs };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      const teamId = String(olds.teamId);
      const live = await readLive(declared.deploymentId, teamId, managedOf(declared));
      // A field managed for the first time on an adopted team: its original is what this update finds
      // (or, found so after a killed update of it, what that update journaled).
      const adopted = olds.created === false;
      const firsts = await beforeTheStack(
        ctx,
        declared,
        teamId,
        {
          ...(adopted && declared.members && !olds.originalMembers ? { members: Object.fromEntries(live.members!) } : {}),
          ...(adopted && declared.projects && !olds.originalProjects
            ? { projects: await projectNames(declared.deploymentId, live.repositories!) }
            : {}),
        },
        false,
      );
      const original = killedRunOriginal(firsts);
      const record = {
        created: olds.created ?? false,
        originalName: olds.originalName,
        ...(declared.members ? { originalMembers: olds.originalMembers ?? original.members } : {}),
        ...(declared.projects ? { originalProjects: olds.originalProjects ?? original.projects } : {}),
      };
      const before = { otherMembers: olds.otherMembers ?? [], otherProjects: olds.otherProjects ?? [] };
      return { outs: await apply(ctx, declared, teamId, live, record, before, firsts) };
    }),

  delete: (_id, props: State<Kind>, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const deploymentId = String(props.deploymentId);
      const teamId = String(props.teamId);
      if (props.created) {
        await unlessGone(() => apiClient().teams.delete(deploymentId, teamId));
        teamApi(deploymentId, teamId).forget();
        forgetTeamNames(deploymentId);
        return;
      }
      const found = await unlessGone(() => apiClient().teams.get(deploymentId, teamId));
      if (!found) return;
      const api = teamApi(deploymentId, teamId);
      const changes: TeamUpdate = {};
      if (props.originalName && found.name !== props.originalName) changes.name = props.originalName;
      if (props.originalMembers) {
        const live = await api.members();
        const original = props.originalMembers;
        const free = (u: string) => !holderOf(memberClaim(props, teamId, u, ctx));
        // The original records the team before the stack (less what another resource of the run added, beforeTheStack):
        // each member in it that no resource holds now gets its role back, and one not in it that nothing holds was added
        // since the adoption (by this Team, or moved from it to a TeamMembers that found it there): removed.
        const wanted = new Map(Object.entries(original).filter(([u]) => free(u)));
        const removed = [...live.keys()].filter((u) => !(u in original) && free(u));
        const users = memberChanges(live, wanted, removed);
        if (users.length) changes.users = users;
      }
      if (props.originalProjects) {
        const live = await api.repositories();
        const names = await projectNames(deploymentId, live);
        const free = (n: string) => !holderOf(projectClaim(props, teamId, n, ctx, false));
        const add = props.originalProjects.filter((n) => free(n) && !names.includes(n));
        const remove = names.filter((n) => !props.originalProjects!.includes(n) && free(n));
        const repositories = repositoryChanges(live, await repositoryIds(deploymentId, add), await repositoryIds(deploymentId, remove));
        if (repositories.length) changes.repositories = repositories;
      }
      if (Object.keys(changes).length) await unlessGone(() => api.update(changes));
    }),
};

/** Its writing calls on one team take turns with those of the other team kinds (team-access.ts takingTurns). */
export const team = takingTurns(calls);

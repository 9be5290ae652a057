/**
 * What the team kinds (Team, TeamMembers, TeamProjects) share in the provider process:
 *  - one read of a team's members and one of its repositories per process, replaced by what each
 *    write to the team changes, and writes to one team leaving in the order they are made (as
 *    project-index.ts does for projects), so that a member one resource removes and another then
 *    adds back ends present;
 *  - the deployment's teams by name (one listing per process), its users (to refuse an unknown
 *    user id before any write) and its projects by name (the project listing the project kinds
 *    share: a repository id is the project's id);
 *  - the claims: one per member of a team (exclusive: a user is declared by one resource only)
 *    and one per project of a team (shared among TeamProjects, exclusive against a Team);
 *  - the journal's names of a member and a project (runtime/journal.ts), for the originals a
 *    killed run replaced;
 *  - turns: the writing calls of the resources of one team run one at a time (takingTurns).
 */
import { createHash } from "node:crypto";
import { ExperimentalEndpointError, type Project, type TeamEntry as Team, type TeamRole, type TeamUpdate } from "../../client";
import { apiAddress, apiClient } from "../runtime/credentials";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { tokenDeployments } from "../runtime/lookup";
import { onForget } from "../runtime/process-memory";
import { sharedReads } from "../runtime/shared-reads";
import type { CheckFailure, CheckResult, Handler } from "../runtime/handler";
import { checkKindInputs, known } from "../runtime/owned";
import { type Claim, declarersOf, ownerName, sameOwner } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import { ABSENT, type KindDeclaration } from "../kinds/declare";
import { projectListing } from "./project-listing";
import { users as listedUsers } from "./user-role";

// ---- The team's members and repositories ------------------------------------------------------

const members = sharedReads<Map<string, TeamRole>>();
const repositories = sharedReads<Set<string>>();
const lastWrites = new Map<string, Promise<unknown>>();
onForget(() => lastWrites.clear());

const teamKey = (deploymentId: string, teamId: string) => `${apiAddress()}|${deploymentId}|${teamId}`;

/** Reads and writes of one team's members and repositories, through the shared reads. */
export function teamApi(deploymentId: string, teamId: string) {
  const key = teamKey(deploymentId, teamId);
  const client = apiClient().teams;
  const afterWrites = () => (lastWrites.get(key) ?? Promise.resolve()).catch(() => undefined);
  return {
    /** The team's members and their roles (a NotFoundError when the team does not exist). */
    members: () =>
      afterWrites().then(() =>
        members.get(key, async () => {
          const found = new Map<string, TeamRole>();
          for await (const user of client.members(deploymentId, teamId)) found.set(user.userId, user.role as TeamRole);
          return found;
        }),
      ),
    /** The ids of the team's repositories (project ids). */
    repositories: () =>
      afterWrites().then(() => repositories.get(key, async () => new Set(await client.repositories(deploymentId, teamId).toArray()))),
    /** Writes changes to the team (requests of at most 500 users or repositories), then keeps the reads in step with them. */
    update: (changes: TeamUpdate): Promise<Team> => {
      const written = afterWrites()
        .then(() => client.update(deploymentId, teamId, changes))
        .then(async (team) => {
          const known = await members.peek(key)?.catch(() => undefined);
          if (known)
            for (const user of changes.users ?? []) {
              if (user.action === "UPDATE_ACTION_REMOVE") known.delete(String(user.userId));
              else known.set(String(user.userId), user.role!);
            }
          const repos = await repositories.peek(key)?.catch(() => undefined);
          if (repos)
            for (const repo of changes.repositories ?? []) {
              if (repo.action === "UPDATE_ACTION_REMOVE") repos.delete(String(repo.repositoryId));
              else repos.add(String(repo.repositoryId));
            }
          if (changes.name !== undefined) forgetTeamNames(deploymentId);
          return team;
        });
      lastWrites.set(key, written);
      return written;
    },
    /** Records what a create answered: the team has these members and repositories (so no read follows it). */
    created: (with_: { members: Map<string, TeamRole>; repositories: Set<string> }) => {
      members.set(key, with_.members);
      repositories.set(key, with_.repositories);
    },
    /** Forgets the reads (the team was deleted). */
    forget: () => {
      members.delete(key);
      repositories.delete(key);
    },
  };
}

// ---- Turns --------------------------------------------------------------------------------------

/** The tail of each team's queue of writing calls. */
const turns = new Map<string, Promise<unknown>>();
onForget(() => turns.clear());

/**
 * The handler with its writing calls (create, update, delete) on one team taking turns in this
 * process, each after the one before it has ended. Each computes its changes from a read of the
 * team; the engine runs the calls of resources with no dependency between them at once (a destroy's
 * deletes, most of all), and a change computed from a read another call's write has since made stale
 * fails (a role put back on a member the other removed: 400) or undoes that write. The team is the
 * call's `teamId` (an input of TeamMembers and TeamProjects, an output of Team); a call whose team
 * is not known yet (a Team's create) takes no turn.
 */
export function takingTurns<D extends KindDeclaration>(handler: Handler<D>): Handler<D> {
  const inTurn = <T>(props: Props, work: () => Promise<T>): Promise<T> => {
    if (props.teamId === undefined) return work();
    const key = teamKey(String(props.deploymentId), String(props.teamId));
    const run = (turns.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    turns.set(key, run);
    void run.finally(() => turns.get(key) === run && turns.delete(key)).catch(() => undefined);
    return run;
  };
  return {
    ...handler,
    create: (inputs, ctx) => inTurn(inputs, () => handler.create(inputs, ctx)),
    update: (id, olds, news, ctx) => inTurn(olds, () => handler.update(id, olds, news, ctx)),
    delete: (id, props, ctx) => inTurn(props, () => handler.delete(id, props, ctx)),
  };
}

/** Member changes that make `live` hold `wanted`: each user added, re-roled or removed. */
export function memberChanges(live: ReadonlyMap<string, TeamRole>, wanted: ReadonlyMap<string, TeamRole>, removed: Iterable<string>) {
  const users: NonNullable<TeamUpdate["users"]> = [];
  for (const [userId, role] of wanted) {
    if (!live.has(userId)) users.push({ userId, action: "UPDATE_ACTION_ADD", role });
    else if (live.get(userId) !== role) users.push({ userId, action: "UPDATE_ACTION_UPDATE", role });
  }
  for (const userId of removed) if (live.has(userId)) users.push({ userId, action: "UPDATE_ACTION_REMOVE" });
  return users;
}

/** Repository changes: the ids to add (those the team lacks) and to remove (those it has). */
export function repositoryChanges(live: ReadonlySet<string>, add: Iterable<string>, remove: Iterable<string>) {
  const repos: NonNullable<TeamUpdate["repositories"]> = [];
  for (const id of add) if (!live.has(id)) repos.push({ repositoryId: id, action: "UPDATE_ACTION_ADD" });
  for (const id of remove) if (live.has(id)) repos.push({ repositoryId: id, action: "UPDATE_ACTION_REMOVE" });
  return repos;
}

// ---- The deployment: its teams, users and projects ----------------------------------------------

const teamNames = sharedReads<Map<string, Team>>();

/** The deployment's teams by name, listed once per process. */
export function teamsByName(deploymentId: string): Promise<Map<string, Team>> {
  return teamNames.get(`${apiAddress()}|${deploymentId}`, async () => {
    const byName = new Map<string, Team>();
    for await (const team of apiClient().teams.list(deploymentId)) byName.set(team.name, team);
    return byName;
  });
}

/** Forgets the deployment's team listing (a team was created, renamed or deleted). */
export function forgetTeamNames(deploymentId: string): void {
  teamNames.delete(`${apiAddress()}|${deploymentId}`);
}

/**
 * The ids of the deployment's users, from the one listing per process the UserRoles read too (a
 * stack with teams and org roles lists its users once); undefined when the service does not serve
 * the (experimental) user listing: the Teams API then refuses an unknown user itself.
 */
async function deploymentUsers(deploymentId: string): Promise<Set<string> | undefined> {
  try {
    return new Set((await listedUsers(deploymentId)).keys());
  } catch (error) {
    if (error instanceof ExperimentalEndpointError) return undefined;
    throw error;
  }
}

/** The deployment's slug, from the token's deployments (the project listing is by slug). */
async function deploymentSlug(deploymentId: string): Promise<string> {
  const deployment = (await tokenDeployments()).find((d) => String(d.id) === deploymentId);
  if (!deployment) throw new Error(`deployment ${deploymentId} is not one of this token's deployments`);
  return deployment.slug;
}

/** The deployment's projects by name (the listing the project kinds share). */
export async function projectsByName(deploymentId: string): Promise<Map<string, Project>> {
  return projectListing(await deploymentSlug(deploymentId));
}

/** Project names by repository id; an id the listing lacks (an archived repository) as `#<id>`. */
export async function projectNames(deploymentId: string, ids: Iterable<string>): Promise<string[]> {
  const byId = new Map([...(await projectsByName(deploymentId)).values()].map((p) => [String(p.id), p.name]));
  return [...ids].map((id) => byId.get(id) ?? `#${id}`);
}

/** Repository ids of project names (each known: check refused unknown ones); `#<id>` stands for itself. */
export async function repositoryIds(deploymentId: string, names: Iterable<string>): Promise<string[]> {
  const byName = await projectsByName(deploymentId);
  return [...names].map((name) => (name.startsWith("#") ? name.slice(1) : String(byName.get(name)?.id ?? name)));
}

/**
 * The declared user ids and project names the deployment lacks, as check failures naming the
 * field and the value (`[secret]` for a secret one), before any write.
 */
export async function unknownReferences(ctx: CallContext, declared: Props): Promise<CheckFailure[]> {
  const deploymentId = String(declared.deploymentId);
  const failures: CheckFailure[] = [];
  const memberIds = declared.members && known(declared.members) ? Object.keys(declared.members as object) : [];
  if (memberIds.length) {
    const userIds = await deploymentUsers(deploymentId);
    const missing = memberIds.filter((id) => userIds && !userIds.has(id));
    if (missing.length)
      failures.push(unknownFailure(ctx, "members", missing, `a user of deployment ${deploymentId} (getUsers lists its users)`));
  }
  const names = Array.isArray(declared.projects) && known(declared.projects) ? (declared.projects as string[]) : [];
  if (names.length) {
    const byName = await projectsByName(deploymentId);
    const missing = names.filter((n) => !byName.has(n));
    if (missing.length) failures.push(unknownFailure(ctx, "projects", missing, `a project of deployment ${deploymentId}`));
  }
  return failures;
}

/** One failure naming `input` and its unknown values (the first five, and how many more), `[secret]` for a secret input. */
function unknownFailure(ctx: CallContext, input: string, values: string[], what: string): CheckFailure {
  const shown = values.slice(0, 5).map((v) => ctx.shown(input, JSON.stringify(v)));
  const more = values.length > 5 ? ` and ${values.length - 5} more` : "";
  const verb = values.length === 1 ? "is not" : "are not each";
  return { property: ctx.secret(input) ? "" : input, reason: `${input}: ${shown.join(", ")}${more} ${verb} ${what}` };
}

// ---- Claims ---------------------------------------------------------------------------------------

/** A team as claims and messages name it. */
export const teamObject = (deploymentId: unknown, teamId: unknown) => `team ${String(teamId)} of deployment ${String(deploymentId)}`;

/** The claim on one member of a team: one resource only declares a user. */
export function memberClaim(props: Props, teamId: unknown, userId: string, secrecy: Secrecy, role?: unknown): Claim {
  return {
    object: teamObject(props.deploymentId, teamId),
    field: `member ${userId}`,
    property: "members",
    secret: secrecy.secret("members"),
    ...(role !== undefined ? { value: role } : {}),
  };
}

/** The claim on one project of a team: shared among TeamProjects (`shared`), exclusive against a Team. */
export function projectClaim(props: Props, teamId: unknown, name: string, secrecy: Secrecy, shared: boolean): Claim {
  return {
    object: teamObject(props.deploymentId, teamId),
    field: `project ${name}`,
    property: "projects",
    shared,
    secret: secrecy.secret("projects"),
  };
}

/** Whether a resource other than the call's own declares `claim` in this run. */
export const declaredByOther = (ctx: CallContext, claim: Claim) =>
  declarersOf(claim).some((holder) => !ctx.owner || !sameOwner(holder.owner, ctx.owner));

/**
 * `check` of a team resource: its inputs, then the user ids and project names it names (each must
 * exist), then its claims (`claimsOf`, which may read: a Team finds its team's id by name). A
 * claim another resource of the run already holds fails the check, naming both.
 */
export async function checkTeamResource(
  ctx: CallContext,
  news: Props,
  claimsOf: (declared: Props) => Claim[] | Promise<Claim[]>,
): Promise<CheckResult> {
  const result = checkKindInputs(ctx, news);
  if (result.failures) return result;
  const declared = result.inputs as Props;
  if (!known(declared.deploymentId)) return result;
  const unknown = await unknownReferences(ctx, declared);
  if (unknown.length) return { inputs: declared, failures: unknown };
  if (!ctx.owner) return result;
  const conflicts = ctx.claims.declare(await claimsOf(declared));
  if (!conflicts.length) return result;
  return {
    inputs: declared,
    failures: conflicts.map(({ claim, other }) => ({
      property: claim.secret ? "" : (claim.property ?? claim.field),
      reason:
        `${ctx.name} declares ${claim.field} of ${claim.object}, which ${ownerName(other)} declares too. ` +
        (claim.field === "the Team"
          ? "Declare each team in one Team only: the second would adopt the team the first creates, and destroying one would delete " +
            "or change the team the other still declares."
          : "Declare each member of a team in one resource only (a Team's members or one TeamMembers), and a team's project either in " +
            "its Team or in TeamProjects: two would overwrite each other's value, and destroying either would put back the wrong original."),
    })),
  };
}

// ---- The journal of originals ---------------------------------------------------------------------

/**
 * A member's, project's or (created) team's object in the journal: a digest, since a user id,
 * project name or team name given as a secret must not reach the disk.
 */
export const journalObject = (what: "member" | "project" | "team", id: string) =>
  `${what}:${createHash("sha256").update(id).digest("hex")}`;

/** How the recovery's note names a member or project (`[secret]` for a secret input). */
const shownAs = (ctx: CallContext, what: "member" | "project", id: string) =>
  `the ${what} ${ctx.shown(what === "member" ? "members" : "projects", JSON.stringify(id))}`;

/**
 * Journals, before the write that replaces them, the originals an additive resource is about to
 * record of members or projects: ABSENT for one it adds (no secret text), the role it changes (kept
 * only as written when the members are a secret).
 */
export function journalTeamOriginals(ctx: CallContext, what: "member" | "project", originals: Iterable<[string, string]>): void {
  const entries = [...originals];
  const absent = entries.filter(([, original]) => original === ABSENT);
  const values = entries.filter(([, original]) => original !== ABSENT);
  journalBefore(Object.fromEntries(absent.map(([id]) => [journalObject(what, id), ABSENT])), false);
  journalBefore(Object.fromEntries(values.map(([id, original]) => [journalObject(what, id), original])), ctx.secret(`${what}s`));
}

/**
 * The original a killed run of this resource journaled for a member or project found as declared
 * (ABSENT: that run added it), undefined when none did: the member or project was so already.
 */
export function journaledTeamOriginal(ctx: CallContext, what: "member" | "project", id: string): string | undefined {
  return journaledOriginal(journalObject(what, id), shownAs(ctx, what, id))?.original as string | undefined;
}

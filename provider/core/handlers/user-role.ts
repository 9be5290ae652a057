/**
 * UserRole in the provider process: one user's org role in a deployment. The deployment's users
 * are listed once per deployment and phase, shared by every UserRole of it and kept right by this
 * process's own writes, so that the preview's guards (no deployment left without an org admin, the
 * token's own user kept admin) count what the run's other UserRoles declare and write.
 */
import { APIError, type DeploymentUser, type OrgRole } from "../../client";
import type { userRoleKind } from "../kinds";
import { ADMIN_ROLE } from "../kinds/user-role";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import { apiAddress, apiClient } from "../runtime/credentials";
import { planApply, planUndo } from "../runtime/fields";
import { type Checked, type CheckFailure, type CheckResult, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { notify, notifyOnce, someOf } from "../runtime/notices";
import { checkOwned, diffManaged, known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import { type Claim, declarersOf, type Holder, ownerName, sameOwner } from "../runtime/ownership";
import { onForget } from "../runtime/process-memory";
import { sharedReads } from "../runtime/shared-reads";

const KIND = "UserRole";
type Kind = typeof userRoleKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();
/** Its role, as the declaration gives it (runtime/managed.ts): its original, the output that holds it, the refreshed inputs. */
const MANAGED = managedFields(KIND);

// ---- The deployment's users, shared ---------------------------------------------------------

/** Kept for the whole phase: this process's own writes keep it right, and every UserRole of a run counts admins on it. */
const listings = sharedReads<Map<string, DeploymentUser>>({ ttlMs: Infinity });
const listingKey = (deploymentId: string) => `${apiAddress()}|${deploymentId}`;

/** Every user of the deployment, by id: one listing per deployment and phase (shared with the team kinds' check of member ids). */
export function users(deploymentId: string): Promise<Map<string, DeploymentUser>> {
  return listings.get(listingKey(deploymentId), async () => {
    const byId = new Map<string, DeploymentUser>();
    for await (const user of apiClient().users.list(deploymentId)) byId.set(String(user.id), user);
    return byId;
  });
}

/** The last role write to each deployment, which the next one waits for: each decides on what the one before left. */
const lastWrites = new Map<string, Promise<unknown>>();
onForget(() => lastWrites.clear());

/** Runs `work` (which may write a role) after the deployment's earlier role writes of this process. */
function inTurn<T>(deploymentId: string, work: () => Promise<T>): Promise<T> {
  const key = listingKey(deploymentId);
  const turn = (lastWrites.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
  lastWrites.set(key, turn);
  return turn;
}

/** Sets a user's role, and keeps it in the shared listing. */
async function writeRole(deploymentId: string, userId: string, role: OrgRole): Promise<void> {
  await apiClient().users.setRole(deploymentId, userId, role);
  const user = (await listings.peek(listingKey(deploymentId))?.catch(() => undefined))?.get(userId);
  if (user) user.orgRole = role;
}

/** The id of the user the token belongs to, or why it cannot be known: one request per phase. */
const tokenUsers = sharedReads<{ id: string } | { unknown: string }>({ ttlMs: Infinity });

/** Statuses a service answers `GET /api/auth/users/current` with when it does not serve it for this token. */
const UNANSWERED = [401, 403, 404, 501];

function tokenUser(): Promise<{ id: string } | { unknown: string }> {
  return tokenUsers.get(apiAddress(), async () => {
    try {
      return { id: String((await apiClient().users.current()).id) };
    } catch (error) {
      if (error instanceof APIError && UNANSWERED.includes(error.status))
        return {
          unknown: `it answered ${error.status}, ${error.status === 404 || error.status === 501 ? "not serving it" : "refusing it for this token"}`,
        };
      throw error;
    }
  });
}

// ---- Claims and the preview's guards --------------------------------------------------------

const userObject = (props: Props) => `user ${String(props.userId)} of deployment ${String(props.deploymentId)}`;
const subject = (props: Props) => `UserRole of user ${String(props.userId)} in deployment ${String(props.deploymentId)}`;
const userName = (user: DeploymentUser) => `${user.login || user.name || user.email} (${String(user.id)})`;

/** The one field a UserRole declares: its user's org role. */
function roleClaim(secrecy: Secrecy, props: Props): Claim {
  return { object: userObject(props), field: "role", value: props.role, secret: secrecy.secret("role") };
}

const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentId, declared.userId, declared.role) ? [roleClaim(secrecy, declared)] : [];

/** The UserRoles of this run that declare a role for `user`, but those refused. */
const declarers = (deploymentId: string, user: DeploymentUser): Holder[] =>
  declarersOf({ object: userObject({ deploymentId, userId: user.id }), field: "role" }).filter((holder) => !holder.failed);

/** Each user's role once every UserRole of the run checked so far has applied its declaration. */
function rolesAfterRun(deploymentId: string, byId: ReadonlyMap<string, DeploymentUser>): Map<DeploymentUser, string> {
  return new Map([...byId.values()].map((user) => [user, String(declarers(deploymentId, user)[0]?.value ?? user.orgRole)]));
}

/** `alice (101), bob (102)` */
const listed = (names: readonly string[]) => someOf([...names], 10) || "none";

/** The preview's refusals of a known declaration: an unknown user, no admin left, the token's user demoted. */
async function guardFailures(ctx: CallContext, declared: Inputs): Promise<CheckFailure[]> {
  const byId = await users(declared.deploymentId);
  const user = byId.get(declared.userId);
  if (!user) {
    return [
      {
        property: ctx.secret("userId") ? "" : "userId",
        reason:
          `userId: ${ctx.shown("userId", JSON.stringify(declared.userId))} is not a user of deployment ${declared.deploymentId} ` +
          `(it has ${byId.size}; getUsers lists them with their ids, found by email, login or name)`,
      },
    ];
  }
  if (declared.role === ADMIN_ROLE || user.orgRole !== ADMIN_ROLE) return [];
  const failures: CheckFailure[] = [];
  const after = rolesAfterRun(declared.deploymentId, byId);
  const admins = [...after].filter(([, role]) => role === ADMIN_ROLE).map(([u]) => u);
  if (!admins.length) {
    const demoted = [...byId.values()].filter((u) => u.orgRole === ADMIN_ROLE);
    const by = demoted.flatMap((u) => declarers(declared.deploymentId, u).map((h) => `${ownerName(h.owner)} for ${userName(u)}`));
    failures.push({
      property: "role",
      reason:
        `${ctx.name} would leave deployment ${declared.deploymentId} without an org admin: its admins now are ${listed(demoted.map(userName))}, ` +
        `and the UserRoles of this stack declare another role for each (${listed(by)}). Keep one org admin: declare ${ADMIN_ROLE} ` +
        "for one of them, or for another user in a UserRole this one dependsOn (the run checks resources with no dependency between " +
        "them in any order, so a promotion it does not depend on may not be counted yet).",
    });
  }
  const token = await tokenUser();
  if ("unknown" in token) {
    await notifyOnce(
      "user-role-token-user",
      "warning",
      `UserRole: cannot tell which user the provider's token belongs to, so no UserRole is checked for removing that user's own ` +
        `org admin role: GET /api/auth/users/current, which Semgrep documents (as experimental) for a user's JWT only, was not answered ` +
        `for this token (${token.unknown}). Make sure the token's user keeps ${ADMIN_ROLE}, or the token may lose the rights this stack needs.`,
    );
  } else if (token.id === declared.userId) {
    failures.push({
      property: "role",
      reason:
        `${ctx.name} would remove the org admin role of ${userName(user)}, the user the provider's token belongs to: the token would ` +
        `lose the rights it manages this deployment with. Declare ${ADMIN_ROLE} for this user, or manage the roles with another user's token.`,
    });
  }
  return failures;
}

// ---- Writes ---------------------------------------------------------------------------------

/** The user as the kind's outputs show it. */
function liveOf(user: DeploymentUser): Pick<Outputs<Kind>, "role" | "userName" | "login" | "email"> {
  return { role: user.orgRole, userName: user.name, login: user.login, email: user.email };
}

/** The user, or an error naming the field and the value (a user removed since the preview). */
async function requireUser(declared: Inputs): Promise<DeploymentUser> {
  const user = (await users(declared.deploymentId)).get(declared.userId);
  if (!user) throw new Error(`userId: "${declared.userId}" is not a user of deployment ${declared.deploymentId}`);
  return user;
}

/**
 * Claims of the other UserRoles of the run that make a user of the deployment an org admin: a
 * demotion waits for them to settle, so that the service never sees the deployment without one.
 */
function promotions(ctx: CallContext, deploymentId: string, byId: ReadonlyMap<string, DeploymentUser>): Claim[] {
  return [...byId.values()]
    .filter((user) => user.orgRole !== ADMIN_ROLE)
    .filter((user) =>
      declarers(deploymentId, user).some((h) => h.value === ADMIN_ROLE && !h.settled && !(ctx.owner && sameOwner(h.owner, ctx.owner))),
    )
    .map((user) => roleClaim(ctx, { deploymentId, userId: user.id, role: ADMIN_ROLE }));
}

/**
 * Applies the declared role to the user as listed; the first write that changes it records the
 * role it replaces (fields.ts planApply). A user found in the declared role records nothing.
 */
async function apply(ctx: CallContext, declared: Inputs, before: { managed: string[]; originals: Props }): Promise<Outputs<Kind>> {
  const byId = await users(declared.deploymentId);
  const demotesAdmin = declared.role !== ADMIN_ROLE && byId.get(declared.userId)?.orgRole === ADMIN_ROLE;
  const waitFor = demotesAdmin ? promotions(ctx, declared.deploymentId, byId) : [];
  if (waitFor.length) await ctx.claims.othersSettled(waitFor);
  return inTurn(declared.deploymentId, async () => {
    const user = await requireUser(declared);
    const plan = planApply([{ name: "role", wanted: declared.role, have: user.orgRole, differs: user.orgRole !== declared.role }], before);
    await noteFieldsFoundAsDeclared(ctx, userObject(declared), plan.foundAsDeclared);
    if (plan.changes.role !== undefined) await writeRole(declared.deploymentId, declared.userId, declared.role);
    return outputs({ ...declared, ...liveOf(user), ...MANAGED.originalOutputs(plan.originals) });
  });
}

/**
 * Puts back `role` unless that would leave the deployment without an org admin (the user is its
 * last one, as the users listed now say): then it leaves the role, and says so. Only a put-back
 * that removes the admin role the state last knew lists the users (a role changed to admin out of
 * band since the last refresh is left to the service, which refuses to demote its last admin).
 */
async function putBack(ctx: CallContext, props: Props, role: OrgRole): Promise<void> {
  const deploymentId = String(props.deploymentId);
  const userId = String(props.userId);
  await inTurn(deploymentId, async () => {
    if (role !== ADMIN_ROLE && props.role === ADMIN_ROLE) {
      const byId = await users(deploymentId);
      const user = byId.get(userId);
      if (!user) return; // gone from the deployment: nothing to put back
      const others = [...byId.values()].filter((u) => u !== user && u.orgRole === ADMIN_ROLE);
      if (user.orgRole === ADMIN_ROLE && !others.length) {
        await notify(
          "warning",
          `${ctx.name} was deleted and left ${userName(user)} ${ADMIN_ROLE}: putting back ${role}, the role it found, would leave ` +
            `deployment ${deploymentId} without an org admin. Make another user an org admin, then set this user's role yourself.`,
        );
        return;
      }
      if (user.orgRole === role) return;
    }
    await unlessGone(() => writeRole(deploymentId, userId, role));
  });
}

export const userRole: Handler<Kind> = {
  /** What a UserRole in this state recorded as the role's original (`null` for none). */
  recorded: (outputs) => MANAGED.recorded(outputs),

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: async (_olds, news, ctx): Promise<CheckResult> => {
    const result = checkOwned(KIND, ctx, news, (declared) => claimsOf(ctx, declared));
    const declared = result.inputs as Inputs | undefined;
    if (result.failures?.length || !declared || !known(declared.deploymentId, declared.userId, declared.role)) return result;
    const failures = await guardFailures(ctx, declared);
    return failures.length ? { inputs: result.inputs, failures } : result;
  },

  diff: (_id, olds, news, ctx) => diffManaged(ctx, olds, news, userObject(news)),

  create: (declared, ctx) =>
    about(subject(declared), async () => ({
      id: `${declared.deploymentId}/${declared.userId}`,
      outs: await apply(ctx, declared, { managed: [], originals: {} }),
    })),

  read: (id, props) =>
    about(subject(props), async () => {
      const byId = await unlessGone(() => users(String(props.deploymentId)));
      const user = byId?.get(String(props.userId));
      if (!user) return { id: "" };
      const live = { ...props, ...liveOf(user) };
      return { id, props: live, inputs: MANAGED.refreshedInputs(props, live) };
    }),

  update: (_id, olds, declared, ctx) => about(subject(declared), async () => ({ outs: await apply(ctx, declared, MANAGED.before(olds)) })),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const field = {
        name: "role",
        claim: roleClaim(ctx, props),
        original: MANAGED.originals(props).role,
        last: props.role,
        same: Object.is,
        show: String,
      };
      const { role } = await planUndo(ctx, [field]);
      if (role !== undefined) await putBack(ctx, props, role as OrgRole);
    }),
};

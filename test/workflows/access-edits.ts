/**
 * The edits of a program that involve the access kinds (issue 36): a new resource of each kind
 * (preferring members, projects, users, names no other resource declares); a member moved between
 * a Team's `members` and a TeamMembers of its team, either way, in one step or in two (the giver
 * lets go in one step, the taker declares it in a later one); a project moved from a Team's
 * `projects` to another team's Team or to a TeamProjects, or back; and a resource declaring what
 * another declares (a member, a Team's project, a user's org role, the product configuration, a
 * notification rule's name): a conflict, refused at preview.
 */
import { chance, pick, type Random, subset } from "./choices";
import type { Context, Edited } from "./edits";
import { claimedKeys } from "./edits";
import {
  type AccessKind,
  ORG_ROLES,
  PRESET_TEAMS,
  ROLE_USERS,
  RULE_NAMES,
  RULE_SLUGS,
  SETTINGS,
  TEAM_PROJECTS,
  TEAM_ROLES,
  teamNameOf,
  USERS,
} from "./access-model";
import { choiceAllowed } from "./known-defects";
import { type Decl, identity, type Program } from "./model";

const TEAM_IDS = Object.keys(PRESET_TEAMS);

/** Whether a new Team adopting `team` would sit beside a TeamMembers of it, left out while known-defects.ts lists it. */
const adoptsBesideMembers = (program: Program, team: string) =>
  !choiceAllowed("team-adopted-beside-team-members") && program.some((d) => d.kind === "TeamMembers" && teamNameOf(d) === team);
const teamIdOf = (name: string) => TEAM_IDS.find((id) => PRESET_TEAMS[id] === name);
const say = (value: unknown) => JSON.stringify(value);

/** Members of `team` no resource of the program declares. */
const freeUsers = (team: string, taken: Set<string>) => USERS.filter((u) => !taken.has(`team:${team}:member:${u}`));

/** A member map of one to `max` users of `users`, with drawn roles. */
const memberMap = (r: Random, users: readonly string[], max = 2) =>
  Object.fromEntries(subset(r, users, max).map((u) => [u, pick(r, TEAM_ROLES)]));

/** The product settings drawn: one to three leaves, as the program nests them. */
function settingsProps(r: Random): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const path of subset(r, Object.keys(SETTINGS), 3)) {
    const value = pick(r, SETTINGS[path]!.values);
    const [section, field] = path.split(".");
    if (field === undefined) props[section!] = value;
    else props[section!] = { ...((props[section!] as object | undefined) ?? {}), [field]: value };
  }
  return props;
}

/** New inputs of an access resource of `kind` (identity included), preferring what `program` does not declare yet. */
export function newAccessProps(kind: AccessKind, r: Random, program: Program, ctx: Context): Record<string, unknown> {
  const taken = claimedKeys(program, ctx);
  const base = identity(kind);
  switch (kind) {
    case "Team": {
      // A preset team no Team of the program declares (adopted), or a new one.
      const adoptable = Object.values(PRESET_TEAMS).filter(
        (n) => !program.some((d) => d.kind === "Team" && d.props.name === n) && !adoptsBesideMembers(program, n),
      );
      const name = adoptable.length && chance(r, 0.7) ? pick(r, adoptable) : `wf-${ctx.name("Team")}`;
      const props: Record<string, unknown> = { ...base, name };
      const users = freeUsers(name, taken);
      if (users.length && chance(r, 0.7)) props.members = memberMap(r, users);
      const projects = TEAM_PROJECTS.filter((n) => !taken.has(`team:${name}:project:${n}`));
      if (projects.length && (chance(r, 0.5) || !props.members)) props.projects = subset(r, projects, 2);
      return props;
    }
    case "TeamMembers": {
      const teamId = pick(r, TEAM_IDS);
      const users = freeUsers(PRESET_TEAMS[teamId]!, taken);
      return { ...base, teamId, members: memberMap(r, users.length ? users : USERS) };
    }
    case "TeamProjects": {
      const teamId = pick(r, TEAM_IDS);
      // Shared among TeamProjects, exclusive against a Team: a project no Team of the team declares.
      const teamClaims = program.filter((d) => d.kind === "Team" && d.props.name === PRESET_TEAMS[teamId]);
      const projects = TEAM_PROJECTS.filter((n) => !teamClaims.some((d) => ((d.props.projects ?? []) as string[]).includes(n)));
      return { ...base, teamId, projects: subset(r, projects.length ? projects : TEAM_PROJECTS, 2) };
    }
    case "DeploymentSettings":
      return { ...base, ...settingsProps(r) };
    case "NotificationRule": {
      const names = RULE_NAMES.filter((n) => !taken.has(`notification:${n}`));
      const props: Record<string, unknown> = {
        ...base,
        name: pick(r, names.length ? names : RULE_NAMES),
        channel: pick(r, ["CHANNEL_WEBHOOK", "CHANNEL_SLACK_WEBHOOK"]),
      };
      // A webhook's URL carries its credential: a secret even in clear, unless `plainConfigKeys` says it is a public one.
      if (chance(r, 0.2)) Object.assign(props, { config: { url: "https://hooks.acme.example/public-test" }, plainConfigKeys: ["url"] });
      else props.config = { url: `https://hooks.acme.example/SECRET-hook-${Math.floor(r() * 1000)}` };
      if (chance(r, 0.6)) props.policySlugs = subset(r, RULE_SLUGS, 2);
      if (chance(r, 0.5)) props.enabled = chance(r);
      if (chance(r, 0.3)) props.sendScanCompletion = chance(r);
      return props;
    }
    case "UserRole": {
      const users = ROLE_USERS.filter((u) => !taken.has(`user:${u}:role`));
      return { ...base, userId: pick(r, users.length ? users : ROLE_USERS), role: pick(r, ORG_ROLES) };
    }
  }
}

const replaceAt = (program: Program, index: number, decl: Decl | undefined): Program =>
  decl ? program.map((d, i) => (i === index ? decl : d)) : program.filter((_, i) => i !== index);

/** A member of a preset team declared by a Team (adopting it) or a TeamMembers: what a move can move. */
interface Held {
  at: number;
  team: string;
  user: string;
  role: string;
}

function heldMembers(program: Program): Held[] {
  return program.flatMap((d, at) =>
    (d.kind === "Team" && d.props.members && teamIdOf(String(d.props.name))) || d.kind === "TeamMembers"
      ? Object.entries(d.props.members as Record<string, string>).map(([user, role]) => ({ at, team: teamNameOf(d), user, role }))
      : [],
  );
}

/** `decl` without member `user`: undefined for a TeamMembers left without members (it needs one). */
function without(decl: Decl, user: string): Decl | undefined {
  const members = { ...(decl.props.members as Record<string, string>) };
  delete members[user];
  if (decl.kind === "TeamMembers" && !Object.keys(members).length) return undefined;
  return { ...decl, props: { ...decl.props, members } };
}

/** `program` with `user` (in `role`) declared on `team` by a resource of kind `to`: an existing one of the team, or a new one. */
function declareMember(
  r: Random,
  program: Program,
  ctx: Context,
  team: string,
  user: string,
  role: string,
  to: "Team" | "TeamMembers",
): { program: Program; taker: string } {
  const takers = program.flatMap((d, i) =>
    d.kind === to && teamNameOf(d) === team && (to === "TeamMembers" || d.props.members !== undefined) ? [i] : [],
  );
  if (takers.length && chance(r, 0.6)) {
    const i = pick(r, takers);
    const taker = program[i]!;
    const members = { ...(taker.props.members as Record<string, string>), [user]: role };
    return { program: replaceAt(program, i, { ...taker, props: { ...taker.props, members } }), taker: `${to} "${taker.name}"` };
  }
  // While a Team starting to manage the members of a team beside its TeamMembers is a known defect, a TeamMembers takes the member instead.
  if (
    to === "Team" &&
    adoptsBesideMembers(program, team) &&
    !program.some((d) => d.kind === "Team" && d.props.name === team && d.props.members)
  )
    to = "TeamMembers";
  // A new Team of a team another Team already declares would adopt it twice: an existing Team without members takes them instead.
  const sameTeam = program.findIndex((d) => d.kind === "Team" && d.props.name === team);
  if (to === "Team" && sameTeam >= 0) {
    const taker = program[sameTeam]!;
    const members = { ...((taker.props.members ?? {}) as Record<string, string>), [user]: role };
    return { program: replaceAt(program, sameTeam, { ...taker, props: { ...taker.props, members } }), taker: `Team "${taker.name}"` };
  }
  const props =
    to === "Team"
      ? { ...identity("Team"), name: team, members: { [user]: role } }
      : { ...identity(to), teamId: teamIdOf(team), members: { [user]: role } };
  const decl: Decl = { kind: to, name: ctx.name(to), props, secret: [] };
  return { program: [...program, decl], taker: `new ${to} "${decl.name}"` };
}

/**
 * Moves one member of a preset team between a Team's `members` and a TeamMembers of the team,
 * either way: in one step, or in two (the giver lets go now; the next move declares it in the taker).
 */
export function moveMember(r: Random, program: Program, ctx: Context): Edited {
  // The second half of a move in two steps.
  const pending = program.findIndex((d) => d.handOff);
  if (pending >= 0) {
    const { team, user, role, to } = program[pending]!.handOff!;
    const cleared = program.map((d, i) => (i === pending ? { ...d, handOff: undefined } : d));
    if (!claimedKeys(cleared, ctx).has(`team:${team}:member:${user}`)) {
      const { program: next, taker } = declareMember(r, cleared, ctx, team, user, role, to);
      return { program: next, said: `declare member ${user} of team ${team} (${role}) in ${taker} (second step of a move)` };
    }
  }
  const held = heldMembers(program);
  if (!held.length) {
    const teamId = pick(r, TEAM_IDS);
    const decl: Decl = {
      kind: "TeamMembers",
      name: ctx.name("TeamMembers"),
      props: { ...identity("TeamMembers"), teamId, members: memberMap(r, freeUsers(PRESET_TEAMS[teamId]!, claimedKeys(program, ctx))) },
      secret: [],
    };
    return { program: [...program, decl], said: `add TeamMembers "${decl.name}" ${say(decl.props.members)} (members to move later)` };
  }
  const { at, team, user, role } = pick(r, held);
  const from = program[at]!;
  const to = from.kind === "Team" ? "TeamMembers" : "Team";
  const newRole = chance(r)
    ? role
    : pick(
        r,
        TEAM_ROLES.filter((x) => x !== role),
      );
  const giver = without(from, user);
  // In two steps while a move in one is a known defect (known-defects.ts); drawn alike either way, so that a seed draws the same.
  const twoSteps = chance(r, 0.3) || !choiceAllowed("team-member-one-step-move");
  if (twoSteps) {
    const next = giver
      ? replaceAt(program, at, { ...giver, handOff: { team, user, role: newRole, to } })
      : replaceAt(program, at, undefined);
    // A giver removed whole cannot carry the hand-off: the second half is then an ordinary add.
    return {
      program: next,
      said: `move member ${user} of team ${team} out of ${from.kind} "${from.name}"${giver ? "" : " (removed, nothing left)"} (first step of a move to a ${to})`,
    };
  }
  const { program: next, taker } = declareMember(r, replaceAt(program, at, giver), ctx, team, user, newRole, to);
  return {
    program: next,
    said: `move member ${user} of team ${team} from ${from.kind} "${from.name}"${giver ? "" : " (removed, nothing left)"} to ${taker} (${newRole}) in one step`,
  };
}

/** A project of a team declared by a Team or a TeamProjects. */
interface HeldProject {
  at: number;
  team: string;
  project: string;
}

/**
 * Moves one project between teams: from a Team's `projects` to another team's Team or to a
 * TeamProjects (of this team or another), or from a TeamProjects to its team's Team.
 */
export function moveProject(r: Random, program: Program, ctx: Context): Edited | undefined {
  const held: HeldProject[] = program.flatMap((d, at) =>
    (d.kind === "Team" && d.props.projects) || d.kind === "TeamProjects"
      ? (d.props.projects as string[]).map((project) => ({ at, team: teamNameOf(d), project }))
      : [],
  );
  if (!held.length) {
    const team = pick(
      r,
      Object.values(PRESET_TEAMS).filter((n) => !program.some((d) => d.kind === "Team" && d.props.name === n)),
    );
    const decl: Decl = {
      kind: "Team",
      name: ctx.name("Team"),
      props: { ...identity("Team"), name: team ?? `wf-${ctx.name("Team")}`, projects: subset(r, TEAM_PROJECTS, 2) },
      secret: [],
    };
    return { program: [...program, decl], said: `add Team "${decl.name}" seeing ${say(decl.props.projects)} (projects to move later)` };
  }
  const { at, team, project } = pick(r, held);
  const from = program[at]!;
  const rest = (from.props.projects as string[]).filter((p) => p !== project);
  // A TeamProjects needs a project; a Team keeps `projects: []` (the team then sees none but those of a TeamProjects).
  const giver: Decl | undefined =
    from.kind === "TeamProjects" && !rest.length ? undefined : { ...from, props: { ...from.props, projects: rest } };
  let next = replaceAt(program, at, giver);
  const others = Object.values(PRESET_TEAMS).filter((n) => n !== team);
  const target = from.kind === "TeamProjects" || chance(r, 0.4) ? team : pick(r, [...others, `wf-${ctx.name("Team")}`]);
  const toTeamKind = from.kind === "TeamProjects" || (target !== team && chance(r, 0.6)) || !teamIdOf(target);
  const claimedByTeam = (n: string) =>
    next.some((d) => d.kind === "Team" && d.props.name === n && ((d.props.projects ?? []) as string[]).includes(project));
  let taker: string;
  if (toTeamKind) {
    const i = next.findIndex((d) => d.kind === "Team" && d.props.name === target);
    const shared = next.some(
      (d) => d.kind === "TeamProjects" && teamNameOf(d) === target && (d.props.projects as string[]).includes(project),
    );
    if (shared) return undefined; // the Team would conflict with a TeamProjects of its team: no move (the step adds instead)
    if (i >= 0) {
      const t = next[i]!;
      next = replaceAt(next, i, { ...t, props: { ...t.props, projects: [...((t.props.projects ?? []) as string[]), project] } });
      taker = `Team "${t.name}"`;
    } else {
      const decl: Decl = {
        kind: "Team",
        name: ctx.name("Team"),
        props: { ...identity("Team"), name: target, projects: [project] },
        secret: [],
      };
      next = [...next, decl];
      taker = `new Team "${decl.name}"`;
    }
  } else {
    if (claimedByTeam(target)) return undefined;
    const i = next.findIndex((d) => d.kind === "TeamProjects" && teamNameOf(d) === target);
    if (i >= 0 && chance(r)) {
      const t = next[i]!;
      const projects = [...new Set([...(t.props.projects as string[]), project])];
      next = replaceAt(next, i, { ...t, props: { ...t.props, projects } });
      taker = `TeamProjects "${t.name}"`;
    } else {
      const decl: Decl = {
        kind: "TeamProjects",
        name: ctx.name("TeamProjects"),
        props: { ...identity("TeamProjects"), teamId: teamIdOf(target), projects: [project] },
        secret: [],
      };
      next = [...next, decl];
      taker = `new TeamProjects "${decl.name}"`;
    }
  }
  return {
    program: next,
    said: `move project ${project} from ${from.kind} "${from.name}" (team ${team})${giver ? "" : " (removed, nothing left)"} to ${taker} (team ${target})`,
  };
}

/**
 * Adds a resource declaring what another declares: a member of a team (a TeamMembers beside a
 * Team, or a Team adopting a team beside its TeamMembers), a Team's project (a TeamProjects), a
 * user's org role, the product configuration, a notification rule's name. Refused at preview.
 */
export function accessOverlap(r: Random, program: Program, ctx: Context): Edited {
  const options: Array<() => Edited | undefined> = [];
  const members = heldMembers(program);
  if (members.length)
    options.push(() => {
      const { at, team, user } = pick(r, members);
      const owner = program[at]!;
      const teamId = teamIdOf(team)!;
      const decl: Decl =
        owner.kind === "Team" || program.some((d) => d.kind === "Team" && d.props.name === team) || adoptsBesideMembers(program, team)
          ? {
              kind: "TeamMembers",
              name: ctx.name("TeamMembers"),
              props: { ...identity("TeamMembers"), teamId, members: { [user]: pick(r, TEAM_ROLES) } },
              secret: [],
            }
          : {
              kind: "Team",
              name: ctx.name("Team"),
              props: { ...identity("Team"), name: team, members: { [user]: pick(r, TEAM_ROLES) } },
              secret: [],
            };
      return {
        program: [...program, decl],
        said: `add ${decl.kind} "${decl.name}" also declaring member ${user} of team ${team} (declared by ${owner.kind} "${owner.name}")`,
      };
    });
  const teamProjects = program.filter(
    (d) => d.kind === "Team" && teamIdOf(String(d.props.name)) && ((d.props.projects ?? []) as string[]).length,
  );
  if (teamProjects.length)
    options.push(() => {
      const owner = pick(r, teamProjects);
      const project = pick(r, owner.props.projects as string[]);
      const decl: Decl = {
        kind: "TeamProjects",
        name: ctx.name("TeamProjects"),
        props: { ...identity("TeamProjects"), teamId: teamIdOf(String(owner.props.name)), projects: [project] },
        secret: [],
      };
      return {
        program: [...program, decl],
        said: `add TeamProjects "${decl.name}" also declaring project ${project} of team ${String(owner.props.name)} (declared by Team "${owner.name}")`,
      };
    });
  const singles = program.filter((d) => ["UserRole", "DeploymentSettings", "NotificationRule"].includes(d.kind));
  if (singles.length)
    options.push(() => {
      const owner = pick(r, singles);
      const props =
        owner.kind === "UserRole"
          ? { ...owner.props, role: pick(r, ORG_ROLES) }
          : owner.kind === "DeploymentSettings"
            ? { ...identity("DeploymentSettings"), ...settingsProps(r) }
            : { ...newAccessProps("NotificationRule", r, [], ctx), name: owner.props.name };
      const decl: Decl = { kind: owner.kind, name: ctx.name(owner.kind), props, secret: [] };
      return {
        program: [...program, decl],
        said: `add ${decl.kind} "${decl.name}" beside ${owner.kind} "${owner.name}", declaring the same ${owner.kind === "UserRole" ? `user ${String(owner.props.userId)}` : owner.kind === "DeploymentSettings" ? "product configuration" : `rule ${say(owner.props.name)}`}`,
      };
    });
  const chosen = options.length ? pick(r, options)() : undefined;
  if (chosen) return chosen;
  // Nothing to overlap yet: a Team adopting a preset team with members, for a later overlap to declare one of.
  const name = pick(r, Object.values(PRESET_TEAMS));
  const decl: Decl = {
    kind: "Team",
    name: ctx.name("Team"),
    props: { ...identity("Team"), name, members: memberMap(r, freeUsers(name, claimedKeys(program, ctx))) },
    secret: [],
  };
  if (program.some((d) => d.kind === "Team" && d.props.name === name)) {
    const decl2: Decl = { kind: "UserRole", name: ctx.name("UserRole"), props: newAccessProps("UserRole", r, program, ctx), secret: [] };
    return { program: [...program, decl2], said: `add UserRole "${decl2.name}" (to overlap later)` };
  }
  return {
    program: [...program, decl],
    said: `add Team "${decl.name}" adopting team ${name} with members ${say(decl.props.members)} (to overlap later)`,
  };
}

/**
 * TeamProjects in the provider process: additive. It adds its projects to the team, and removes
 * only those it added that no other resource of the stack still declares, so several can share a
 * team, and a project of it, as ProjectTags share a project's tags.
 */
import type { teamProjectsKind } from "../kinds";
import { fieldRules } from "../kinds";
import { ABSENT } from "../kinds/declare";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { known, noteFoundAsDeclared } from "../runtime/owned";
import { type Claim, holderOf, offer, release, take, wasReleased, wasTaken } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";
import {
  checkTeamResource,
  declaredByOther,
  journaledTeamOriginal,
  journalTeamOriginals,
  projectClaim,
  projectNames,
  repositoryChanges,
  repositoryIds,
  teamApi,
  teamObject,
  takingTurns,
} from "./team-access";

const KIND = "TeamProjects";
type Kind = typeof teamProjectsKind;
type Inputs = Checked<Kind>;
const checked = declaredOutputs<Kind>();

const namesOf = (props: Props): string[] => (Array.isArray(props.projects) ? (props.projects as string[]) : []);

/** What a TeamProjects declares: each of its projects of the team, shared with other TeamProjects. */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentId, declared.teamId, declared.projects)) return [];
  return namesOf(declared).map((name) => projectClaim(declared, declared.teamId, name, secrecy, true));
}

/** What it recorded of each project: ABSENT for one it added, else nothing. */
function recorded(state: Props): Record<string, unknown> {
  const added = (state.addedProjects as string[] | undefined) ?? [];
  return Object.fromEntries(namesOf(state).map((name) => [`project ${name}`, added.includes(name) ? ABSENT : null]));
}

const subject = (props: Props) => `TeamProjects of ${teamObject(props.deploymentId, props.teamId)}`;

async function outputs(declared: Inputs, live: ReadonlySet<string>, added: string[]): Promise<Outputs<Kind>> {
  const present = new Set(await projectNames(declared.deploymentId, live));
  return checked({
    ...declared,
    projects: declared.projects.filter((n) => present.has(n)),
    addedProjects: added.filter((n) => declared.projects.includes(n) && present.has(n)),
  });
}

async function apply(ctx: CallContext, declared: Inputs, before: string[], drop: string[]) {
  const team = teamApi(declared.deploymentId, declared.teamId);
  const live = await team.repositories();
  const claim = (name: string) => projectClaim(declared, declared.teamId, name, ctx, true);
  const ids = new Map((await repositoryIds(declared.deploymentId, declared.projects)).map((id, i) => [declared.projects[i]!, id]));
  const added = [...before];
  const found: string[] = [];
  const add: string[] = [];
  const adding: string[] = [];
  for (const [name, id] of ids) {
    const missing = !live.has(id) || wasReleased(claim(name));
    // One another resource of this run added is the stack's own too: counted as added.
    if (missing || (wasTaken(claim(name)) && !added.includes(name))) {
      if (!added.includes(name)) added.push(name);
      if (missing) {
        add.push(id);
        adding.push(name);
        take(claim(name));
      }
    } else if (!added.includes(name)) {
      // Found as declared: a run of this resource killed after its write may have added it (its journal says).
      if (journaledTeamOriginal(ctx, "project", name) === ABSENT) added.push(name);
      else found.push(name);
    }
  }
  const gone = drop.filter((name) => added.includes(name) && !declaredByOther(ctx, claim(name)));
  for (const name of gone) release(claim(name));
  const goneIds = await repositoryIds(declared.deploymentId, gone);
  const repositories = repositoryChanges(new Set([...live].filter((id) => !add.includes(id))), add, goneIds);
  if (repositories.length) {
    // Before the write: killed after it, nothing else says these projects were absent.
    journalTeamOriginals(
      ctx,
      "project",
      adding.map((name): [string, string] => [name, ABSENT]),
    );
    await team.update({ repositories });
  }
  if (found.length)
    await noteFoundAsDeclared(ctx, {
      what: `the project${found.length > 1 ? "s" : ""} ${found.join(", ")} of ${teamObject(declared.deploymentId, declared.teamId)}`,
      plural: found.length > 1,
      unset: "not in addedProjects",
    });
  return outputs(
    declared,
    await team.repositories(),
    added.filter((n) => !drop.includes(n)),
  );
}

const calls: Handler<Kind> = {
  recorded,

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: (_olds, news, ctx) => checkTeamResource(ctx, news, (declared) => claimsOf(ctx, declared)),

  diff: async (_id, olds, news, ctx) => {
    const result = diffDeclared(olds, news, fieldRules(KIND));
    // A project it stops declaring goes with what it recorded (ABSENT: it added it), for a Team of the run that takes it (team.ts beforeTheStack).
    if (ctx.owner)
      for (const [claim, original] of Object.entries(recorded(olds)))
        if (!news.projects.includes(claim.slice("project ".length)))
          offer(projectClaim(olds, olds.teamId, claim.slice("project ".length), ctx, true), original, ctx.owner, ctx.secret("projects"));
    const dropped = namesOf(olds).some((n) => !news.projects.includes(n));
    const released = news.projects.some((n) => wasReleased(projectClaim(news, news.teamId, n, ctx, true)));
    return { ...result, changes: result.changes === true || dropped || released };
  },

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared, [], []);
      return { id: `${declared.deploymentId}/${declared.teamId}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const live = await unlessGone(() => teamApi(String(props.deploymentId), String(props.teamId)).repositories());
      if (!live) return { id: "" };
      // Read by id alone (`TeamProjects.get`), it declares no projects: it shows them all.
      const declared = props.projects
        ? (props as Inputs)
        : ({ ...props, projects: await projectNames(String(props.deploymentId), live) } as Inputs);
      const outs = await outputs(declared, live, props.addedProjects ?? []);
      return {
        id,
        props: outs,
        inputs: { deploymentId: props.deploymentId, teamId: props.teamId, projects: outs.projects, restoreOnDelete: props.restoreOnDelete },
      };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      const drop = namesOf(olds).filter((n) => !declared.projects.includes(n));
      return { outs: await apply(ctx, declared, olds.addedProjects ?? [], drop) };
    }),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const team = teamApi(String(props.deploymentId), String(props.teamId));
      const live = await unlessGone(() => team.repositories());
      if (!live) return;
      const gone = (props.addedProjects ?? []).filter((name) => !holderOf(projectClaim(props, props.teamId, name, ctx, true)));
      const repositories = repositoryChanges(live, [], await repositoryIds(String(props.deploymentId), gone));
      if (repositories.length) await unlessGone(() => team.update({ repositories }));
    }),
};

/** Its writing calls on one team take turns with those of the other team kinds (team-access.ts takingTurns). */
export const teamProjects = takingTurns(calls);

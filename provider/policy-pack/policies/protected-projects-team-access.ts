/**
 * `protected-projects-team-access` (mandatory): a project tagged with one of `protectedProjectTags`
 * (e.g. `pci`) may be seen only by the teams of `allowedTeams` (names or slugs). A change may not
 * widen who sees one: a Team or TeamProjects of another team may not add such a project, and a
 * ProjectTags or ProjectSettings may not give a protected tag to a project another team already
 * sees through the stack. A project a team already had in the stack's last state is not added.
 * A project's tags are the live ones (read with Semgrep credentials, once per deployment and run)
 * and those the program declares; without credentials the policy cannot tell and says so. A
 * TeamProjects whose `teamId` is not known at preview (the output of a Team the same run creates)
 * is judged by the name that Team declares, found through the engine's property dependencies.
 */
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { SemgrepClient } from "../../client";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { type ProgramResource, programResources, recordInputs } from "../program";
import { kindOf } from "../resources";
import { credentialsFrom, type Credentials } from "../severities";
import { stackState, type StateResource, stateResourceName } from "../stack-state";

export const NAME = "protected-projects-team-access";

const configSchema = schemaOf({
  protectedProjectTags: stringList('Project tags whose projects only the allowed teams may see, e.g. "pci".'),
  allowedTeams: stringList("Teams (names or slugs) that may see the projects of a protected tag."),
  token: {
    type: "string",
    description: "Semgrep API token, to read projects' tags and teams' names; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN.",
  },
  url: { type: "string", description: "Semgrep's address; default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev." },
});

interface Config {
  protectedProjectTags: string[];
  allowedTeams: string[];
  token?: string;
  url?: string;
}

/** The kinds whose inputs this policy reads in its stack half. */
const READ_KINDS = new Set(["Team", "TeamProjects", "ProjectTags", "ProjectSettings"]);

function validate(args: ResourceValidationArgs): void {
  if (READ_KINDS.has(kindOf(args.type) ?? "")) recordInputs(args.urn, args.type, args.props, args.opts?.aliases);
}

/** The service's view, read once per run: each deployment's project tags, and teams' names by id. */
class LiveView {
  readonly #client: SemgrepClient;
  readonly #tags = new Map<string, Promise<Map<string, string[]>>>();

  constructor(credentials: Credentials) {
    this.#client = new SemgrepClient({ token: credentials.token, baseUrl: credentials.url, tokenSource: credentials.tokenSource, env: {} });
  }

  /** Every project's tags in deployment `deploymentId` (the project listing names deployments by slug). */
  tagsOf(deploymentId: string): Promise<Map<string, string[]>> {
    let tags = this.#tags.get(deploymentId);
    if (!tags) {
      tags = (async () => {
        const deployment = (await this.#client.deployments.list()).find((d) => String(d.id) === deploymentId);
        if (!deployment) throw new Error(`the token has no deployment ${deploymentId}`);
        const byName = new Map<string, string[]>();
        for await (const project of this.#client.projects.list(deployment.slug)) byName.set(project.name, project.tags);
        return byName;
      })();
      this.#tags.set(deploymentId, tags);
    }
    return tags;
  }

  async teamNames(deploymentId: string, teamId: string): Promise<string[]> {
    const team = await this.#client.teams.get(deploymentId, teamId);
    return [team.name, team.slug];
  }

  close = () => this.#client.close();
}

/** One team's grant of projects in the new program: the resource, the team's names, and the projects it had in the last state. */
interface Grant {
  resource: ProgramResource;
  deploymentId: string;
  teamNames: (live: LiveView | undefined) => Promise<string[]>;
  projects: string[];
  before: string[];
}

const stringsOf = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * The name a Team of the program declares, when `teamId` of the resource `urn` is that Team's
 * output (not known at preview: the Team is created in this run).
 */
function teamOfThisRun(resources: readonly PolicyResource[], urn: string): string | undefined {
  const from = resources.find((r) => r.urn === urn)?.propertyDependencies?.teamId ?? [];
  const team = programResources(from.map((r) => r.urn)).find((r) => kindOf(r.type) === "Team");
  const name = (team?.inputs ?? team?.knownInputs)?.name;
  return typeof name === "string" ? name : undefined;
}

/** The Team and TeamProjects of the program, each with the team it grants to and what it granted before. */
function grantsOf(program: ProgramResource[], state: StateResource[], resources: readonly PolicyResource[]): Grant[] {
  const previous = new Map(state.map((r) => [r.urn, r]));
  const stateTeamNames = (teamId: string) =>
    state.flatMap((r) =>
      kindOf(r.type) === "Team" && String(r.outputs?.teamId) === teamId ? [String(r.inputs?.name), String(r.outputs?.slug)] : [],
    );
  return program.flatMap((resource): Grant[] => {
    const kind = kindOf(resource.type);
    const inputs = resource.inputs ?? resource.knownInputs;
    if (!inputs || (kind !== "Team" && kind !== "TeamProjects")) return [];
    const old = [resource.urn, ...(resource.aliases ?? [])].map((urn) => previous.get(urn)).find(Boolean);
    const deploymentId = String(inputs.deploymentId);
    const teamId = String(inputs.teamId);
    if (kind === "TeamProjects" && inputs.teamId === undefined) {
      // Not known at preview: the team is one a Team of this run creates, judged by the name it declares.
      const name = teamOfThisRun(resources, resource.urn);
      return name === undefined
        ? []
        : [{ resource, deploymentId, teamNames: async () => [name], projects: stringsOf(inputs.projects), before: [] }];
    }
    return [
      {
        resource,
        deploymentId,
        teamNames:
          kind === "Team"
            ? async () => [String(inputs.name), ...(old?.outputs?.slug ? [String(old.outputs.slug)] : [])]
            : async (live) => {
                const known = stateTeamNames(teamId);
                return known.length || !live ? known : live.teamNames(deploymentId, teamId);
              },
        projects: stringsOf(inputs.projects),
        before: stringsOf(old?.outputs?.projects),
      },
    ];
  });
}

/** The tags the program declares for each project (ProjectTags, ProjectSettings), by project name. */
function declaredTags(program: ProgramResource[]): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const resource of program) {
    const kind = kindOf(resource.type);
    if ((kind !== "ProjectTags" && kind !== "ProjectSettings") || !resource.inputs) continue;
    const name = String(resource.inputs.projectName);
    tags.set(name, [...(tags.get(name) ?? []), ...stringsOf(resource.inputs.tags)]);
  }
  return tags;
}

async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const config = withDefaults<Config>(configSchema, given);
  if (!config.protectedProjectTags.length) return;
  const program = programResources(args.resources.map((r) => r.urn));
  const state = await stackState();
  const grants = grantsOf(program, "error" in state ? [] : state.resources, args.resources);
  if (!grants.length) return;
  const declared = declaredTags(program);
  const credentials = credentialsFrom(config);
  const live = credentials && new LiveView(credentials);
  try {
    for (const grant of grants) {
      const names = await grant.teamNames(live);
      if (names.some((n) => config.allowedTeams.includes(n))) continue;
      const resource = stateResourceName(grant.resource);
      if (!live) {
        report(
          `${resource} gives team ${names[0] ?? "(unknown)"} projects, and without Semgrep credentials this policy cannot read their tags ` +
            "to tell whether one is protected (protectedProjectTags): set SEMGREP_APP_TOKEN (and SEMGREP_APP_URL) for the Pulumi run, or token and url in its config.",
          grant.resource.urn,
        );
        continue;
      }
      const liveTags = await live.tagsOf(grant.deploymentId);
      for (const project of grant.projects) {
        const had = liveTags.get(project) ?? [];
        const newTags = (declared.get(project) ?? []).filter((t) => !had.includes(t));
        const protectedNow = [...had, ...newTags].filter((t) => config.protectedProjectTags.includes(t));
        const widened = !grant.before.includes(project) || newTags.some((t) => config.protectedProjectTags.includes(t));
        if (protectedNow.length && widened)
          report(
            `${resource} lets team ${names[0]} see ${project}, tagged ${protectedNow.join(", ")}: projects of a protected tag ` +
              `(protectedProjectTags) may be seen only by ${config.allowedTeams.length ? config.allowedTeams.join(", ") : "no team"} (allowedTeams).`,
            grant.resource.urn,
          );
      }
    }
  } finally {
    await live?.close();
  }
}

export const protectedProjectsTeamAccess: ResourceAndStackPolicy = {
  name: NAME,
  description: "Projects of a protected tag are seen only by the allowed teams.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

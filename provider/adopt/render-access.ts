/**
 * The access settings in the generated TypeScript program: the teams in `teams.ts` (one member
 * and one project per line), the org roles in `user-roles.ts`, the product configuration and the
 * notification rules in `index.ts` itself (a handful of values each). A notification rule's
 * secret config value is read with `config.requireSecret`, never written.
 */
import type { AdoptionPlan } from "./plan";
import type { DeclaredTeam } from "./plan-access";
import { source, wrap } from "./render";

/** The placeholders plan-access.ts leaves in a value, as the JSON (and YAML) string literal that holds one. */
export const PLACEHOLDER = /"\\u0000(secret|team):([^"\\]*)"/g;

/** A team's parent as a placeholder: the renderers write a reference to that Team's `teamId`. */
export const parentPlaceholder = (resource: string) => `\u0000team:${resource}`;

/** Source text with each placeholder as TypeScript: `config.requireSecret("key")`, or the parent Team's `teamId`. */
const typescriptReferences = (text: string) =>
  text.replace(PLACEHOLDER, (_, kind: string, value: string) =>
    kind === "secret" ? `config.requireSecret(${JSON.stringify(value)})` : `teamResources[${JSON.stringify(value)}]!.teamId`,
  );

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What the access settings add to the TypeScript program. */
export interface AccessSource {
  /** Classes and types imported from pulumi-semgrep. */
  imports: string[];
  /** Whether the program reads secret config (imports @pulumi/pulumi). */
  readsConfig: boolean;
  /** Imports of the data files. */
  dataImports: string[];
  /** Lines of index.ts. */
  body: string[];
  files: Record<string, string>;
  holds: Record<string, string>;
}

export function renderAccess(plan: AdoptionPlan, header: (what: string) => string): AccessSource {
  const out: AccessSource = { imports: [], readsConfig: false, dataImports: [], body: [], files: {}, holds: {} };
  if (plan.teams.length) {
    const nested = plan.teams.some((team) => team.parent !== undefined);
    out.imports.push("Team");
    out.files["teams.ts"] = renderTeams(plan.teams, header);
    out.holds["teams.ts"] = `${plural(plan.teams.length, "Team")} (members and their roles, projects${nested ? ", parents" : ""})`;
    out.dataImports.push(`import { teams } from "./teams";`);
    out.body.push(
      "// Teams: each team's members (user id → team role) and projects are the whole lists, as live",
      "// (teams.ts): a member or project added here is added by up, one removed is removed.",
      ...(nested
        ? [
            "// Parents come first: a child names its parent's teamId.",
            "const teamResources: Record<string, Team> = {};",
            "for (const [name, { parent, ...team }] of Object.entries(teams)) {",
            "  teamResources[name] = new Team(name, {",
            "    deploymentId,",
            "    ...team,",
            "    ...(parent === undefined ? {} : { parentTeamId: teamResources[parent]!.teamId }),",
            "  });",
            "}",
          ]
        : ["for (const [name, team] of Object.entries(teams)) {", "  new Team(name, { deploymentId, ...team });", "}"]),
      "",
    );
  }
  if (plan.deploymentSettings) {
    out.imports.push("DeploymentSettings");
    out.body.push(
      "// The product configuration (experimental API), every field as live: each field given is managed,",
      "// one left out is not.",
      ...plan.deploymentSettings.notes.flatMap((note) => wrap(note, 97).map((line) => `// ${line}`)),
      `new DeploymentSettings(${JSON.stringify(plan.deploymentSettings.name)}, ${call(plan.deploymentSettings.args)});`,
      "",
    );
  }
  for (const rule of plan.notificationRules) {
    out.imports.push("NotificationRule");
    if (rule.secrets.length) out.readsConfig = true;
    out.body.push(
      `// Notification rule ${JSON.stringify(rule.args.name)} (experimental API).`,
      ...[
        ...rule.secrets.map((s) => `config.${s.field} is a secret, read from the stack's config ${s.configKey} (README.md).`),
        ...rule.notes,
      ].flatMap((note) => wrap(note, 97).map((line) => `// ${line}`)),
      `new NotificationRule(${JSON.stringify(rule.name)}, ${typescriptReferences(call(rule.args))});`,
      "",
    );
  }
  if (plan.userRoles.length) {
    out.imports.push("UserRole");
    out.files["user-roles.ts"] = renderUserRoles(plan, header);
    out.holds["user-roles.ts"] = `${plural(plan.userRoles.length, "UserRole")} (org roles, by user id)`;
    out.dataImports.push(`import { userRoles } from "./user-roles";`);
    out.body.push(
      "// Org roles (experimental API), by user (user-roles.ts).",
      "for (const [name, role] of Object.entries(userRoles)) {",
      "  new UserRole(name, { deploymentId, ...role });",
      "}",
      "",
    );
  }
  return out;
}

/** `{ deploymentId, ...args }` as a constructor's argument: one field a line. */
function call(args: Record<string, unknown>): string {
  const fields = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => `  ${key}: ${source(value, "  ")},`);
  return `{\n  deploymentId,\n${fields.join("\n")}\n}`;
}

function renderTeams(teams: readonly DeclaredTeam[], header: (what: string) => string): string {
  const nested = teams.some((team) => team.parent !== undefined);
  const entries = teams.map((team) => {
    const { name, members, projects, ...rest } = team.args as { name: string; members: Record<string, string>; projects: string[] };
    const memberLines = Object.entries(members).map(([userId, role]) => `      ${JSON.stringify(userId)}: ${JSON.stringify(role)},`);
    const lines = [
      `    name: ${JSON.stringify(name)},`,
      ...(team.parent === undefined ? [] : [`    parent: ${JSON.stringify(team.parent)},`]),
      ...Object.entries(rest).map(([key, value]) => `    ${key}: ${source(value, "    ")},`),
      ...team.notes.map((note) => `    // ${note}`),
      memberLines.length ? `    members: {\n${memberLines.join("\n")}\n    },` : "    members: {},",
      projects.length ? `    projects: [\n${projects.map((p) => `      ${JSON.stringify(p)},`).join("\n")}\n    ],` : "    projects: [],",
    ];
    return `  ${JSON.stringify(team.name)}: {\n${lines.join("\n")}\n  },`;
  });
  return (
    header("The deployment's teams: one Team each, by resource name, parents before their children.") +
    "// Each team's members (user id → TEAM_ROLE_MANAGER, TEAM_ROLE_MEMBER or TEAM_ROLE_READONLY) and\n" +
    "// projects are the whole lists: getUsers gives a user's id.\n" +
    'import type { TeamArgs } from "pulumi-semgrep";\n\n' +
    `export const teams: Record<string, Omit<TeamArgs, "deploymentId">${nested ? " & { parent?: string }" : ""}> = {\n` +
    entries.join("\n") +
    (entries.length ? "\n" : "") +
    "};\n"
  );
}

function renderUserRoles(plan: AdoptionPlan, header: (what: string) => string): string {
  const entries = plan.userRoles.map(
    (user) =>
      `  // ${user.label.replace(/[\r\n\u2028\u2029]/g, " ")}\n  ${JSON.stringify(user.name)}: { userId: ${JSON.stringify(user.args.userId)}, role: ${JSON.stringify(user.args.role)} },`,
  );
  return (
    header("The org roles: one UserRole each, by resource name.") +
    "// A user not listed keeps the role they have; destroy puts back the role a UserRole changed.\n" +
    'import type { UserRoleArgs } from "pulumi-semgrep";\n\n' +
    'export const userRoles: Record<string, Omit<UserRoleArgs, "deploymentId">> = {\n' +
    entries.join("\n") +
    (entries.length ? "\n" : "") +
    "};\n"
  );
}

/**
 * The README's steps that put each secret config value into the stack (from the file adopt wrote
 * it to, so that it is never on a command line or in a terminal), then remove those files.
 */
export function secretSteps(plan: AdoptionPlan): string[] {
  const secrets = plan.notificationRules.flatMap((rule) => rule.secrets);
  if (!secrets.length) return [];
  return [
    ...secrets.map((s) => `pulumi config set --secret ${s.configKey} < ${SECRETS_DIR}/${s.configKey}`),
    `rm -r ${SECRETS_DIR}                          # the values are now encrypted in the stack's config`,
  ];
}

/** The directory (git-ignored, each file readable by its owner only) adopt writes the secret config values into. */
export const SECRETS_DIR = "secrets";

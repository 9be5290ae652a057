/**
 * The access settings in the generated Pulumi YAML program: a `semgrep:index:Team` per team (a
 * child's `parentTeamId` the parent's `${<name>.teamId}`), the DeploymentSettings, a
 * NotificationRule per rule (a secret config value `${<configKey>}`, declared in Main.yaml's
 * `config:` as a `secret: true` string the stack's config holds) and a UserRole per user.
 */
import type { AdoptionPlan } from "./plan";
import { PLACEHOLDER } from "./render-access";
import { comments, resource, yamlKey } from "./render-yaml";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** Program lines with each placeholder as a Pulumi YAML interpolation: quoted, as a flow mapping (`{ url: … }`) needs. */
const interpolated = (lines: string[]) =>
  lines.map((line) =>
    line.replace(PLACEHOLDER, (_, kind: string, value: string) => (kind === "secret" ? `"\${${value}}"` : `"\${${value}.teamId}"`)),
  );

/** Main.yaml's `config:` entries: each secret config key the notification rules read. */
export function accessConfig(plan: AdoptionPlan): string[] {
  return plan.notificationRules.flatMap((rule) =>
    rule.secrets.flatMap((s) => [
      ...comments(
        [`Notification rule ${JSON.stringify(rule.args.name)}'s config.${s.field}: set with pulumi config set --secret ${s.configKey}.`],
        "  ",
      ),
      `  ${yamlKey(s.configKey)}:`,
      "    type: string",
      "    secret: true",
    ]),
  );
}

export function accessResources(plan: AdoptionPlan): string[][] {
  const deploymentId = { deploymentId: plan.deployment.id };
  const teams = plan.teams.map((team, index) =>
    interpolated(
      resource(
        team.name,
        "Team",
        deploymentId,
        { ...team.args, ...(team.parent === undefined ? {} : { parentTeamId: `\u0000team:${team.parent}` }) },
        {
          before:
            index === 0
              ? ["Teams, parents before children: each team's members (user id: team role) and projects are the whole lists, as live."]
              : [],
          notes: team.notes,
        },
      ),
    ),
  );
  const settings = plan.deploymentSettings
    ? [
        resource(plan.deploymentSettings.name, "DeploymentSettings", deploymentId, plan.deploymentSettings.args, {
          before: [
            "The product configuration (experimental API), every field as live: each field given is managed, one left out is not.",
            ...plan.deploymentSettings.notes,
          ],
        }),
      ]
    : [];
  const rules = plan.notificationRules.map((rule) =>
    interpolated(
      resource(rule.name, "NotificationRule", deploymentId, rule.args, {
        before: [`Notification rule ${JSON.stringify(rule.args.name)} (experimental API).`, ...rule.notes],
      }),
    ),
  );
  const roles = plan.userRoles.map((user, index) =>
    resource(user.name, "UserRole", deploymentId, user.args, {
      before: [...(index === 0 ? ["Org roles (experimental API)."] : []), user.label, ...user.notes],
    }),
  );
  return [...teams, ...settings, ...rules, ...roles];
}

/** The access settings' resources counted, for the summary. */
export const accessCounts = (plan: AdoptionPlan): string[] =>
  [
    plan.teams.length ? plural(plan.teams.length, "Team") : "",
    plan.deploymentSettings ? "1 DeploymentSettings" : "",
    plan.notificationRules.length ? plural(plan.notificationRules.length, "NotificationRule") : "",
    plan.userRoles.length ? plural(plan.userRoles.length, "UserRole") : "",
  ].filter(Boolean);

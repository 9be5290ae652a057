/**
 * The access settings' part of the plan: one Team per team (its members and projects as live,
 * parents before children), the product configuration as one DeploymentSettings, one
 * NotificationRule per rule (the config values the kind holds as secrets kept out of the program:
 * each becomes a secret config key the program reads), and a UserRole per org admin (every user
 * with `allUsers`), each exactly as live, so that the first `up` writes nothing.
 */
import type { DeploymentUser, NotificationRuleEntry, ProductConfig } from "../client";
import { secretConfigKeys } from "../core/kinds/notification-rule";
import { ADMIN_ROLE } from "../core/kinds/user-role";
import type { LiveDeployment, LiveTeam } from "./read";
import { resourceName } from "./names";
import { codePointOrder, declarable, type Declared } from "./plan";

/** A team: `parent` is the resource name of the Team it is nested under (declared before it). */
export interface DeclaredTeam extends Declared {
  parent?: string;
}

/** A config value of a notification rule held as a secret: read by the program from a secret config key. */
export interface SecretConfig {
  /** The key in the rule's `config` (`url`). */
  field: string;
  /** The stack's config key that holds it (`criticalFindingsToTheSocUrl`). */
  configKey: string;
  /** The live value: written only where adopt puts secrets (never into the program). */
  value: string;
}

/** A notification rule: its `config` holds, for each secret field, a placeholder the renderers replace by the config key's value. */
export interface DeclaredNotificationRule extends Declared {
  secrets: SecretConfig[];
}

/** A user's org role, with who the user is (a comment beside it: ids alone are unreadable). */
export interface DeclaredUserRole extends Declared {
  label: string;
}

export interface AccessPlan {
  teams: DeclaredTeam[];
  deploymentSettings?: Declared;
  notificationRules: DeclaredNotificationRule[];
  userRoles: DeclaredUserRole[];
  /** Lines for the summary and the program's header about the access settings (areas the service does not serve, roles left to their default). */
  accessNotes: string[];
}

/** The resource name of the one DeploymentSettings. */
export const DEPLOYMENT_SETTINGS_NAME = "deployment-settings";

/** `critical-findings` → `criticalFindings`: a rule's resource name as the start of a config key that reads well in both languages. */
const camel = (text: string) =>
  resourceName(text)
    .split("-")
    .map((word, i) => (i ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join("");

/** `apiToken` → `ApiToken`, `x-api-key` → `XApiKey`: a config field's name appended to a camel-case key, its own capitals kept. */
const upperCamel = (text: string) =>
  text.replace(/[^A-Za-z0-9]+(.?)/g, (_, next: string) => next.toUpperCase()).replace(/^./, (c) => c.toUpperCase()) || "Value";

/** Names unique against `taken` (which they join): `name`, else `name--2`, `name--3`, … */
function claim(taken: Set<string>, base: string, separator = "--"): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${separator}${n}`;
  taken.add(name);
  return name;
}

export function planAccess(live: LiveDeployment, taken: Set<string>, leftOut: string[], options: { allUsers: boolean }): AccessPlan {
  const deploymentId = live.deployment.id;
  const teams = live.teams ? planTeams(deploymentId, live.teams, taken, leftOut) : [];
  const deploymentSettings = live.settings ? planSettings(deploymentId, live.settings, taken, leftOut) : undefined;
  const notificationRules = live.notificationRules ? planRules(deploymentId, live.notificationRules, taken, leftOut) : [];
  const accessNotes = [...(live.unserved ?? [])];
  const userRoles = live.users ? planUsers(deploymentId, live.users, taken, leftOut, options.allUsers, accessNotes) : [];
  return { teams, ...(deploymentSettings ? { deploymentSettings } : {}), notificationRules, userRoles, accessNotes };
}

/** Teams by depth (organization-level teams first, then their children, …), by name within a depth: each parent before its children. */
function planTeams(deploymentId: string, live: readonly LiveTeam[], taken: Set<string>, leftOut: string[]): DeclaredTeam[] {
  const byId = new Map(live.map((t) => [String(t.team.id), t]));
  const depth = (t: LiveTeam, seen = new Set<string>()): number => {
    const parent = t.team.parentTeamId ? byId.get(String(t.team.parentTeamId)) : undefined;
    if (!parent || seen.has(String(t.team.id))) return 0;
    return 1 + depth(parent, seen.add(String(t.team.id)));
  };
  const ordered = [...live].sort((a, b) => depth(a) - depth(b) || codePointOrder(a.team.name, b.team.name));
  const names = new Map<string, string>();
  const declared: DeclaredTeam[] = [];
  for (const { team, members, projects } of ordered) {
    const notes: string[] = [];
    const parentId = team.parentTeamId ? String(team.parentTeamId) : undefined;
    const wanted = {
      members: Object.fromEntries(
        [...members].sort((a, b) => Number(a.userId) - Number(b.userId)).map((m) => [String(m.userId), m.role] as const),
      ),
      projects: [...projects].sort(codePointOrder),
    };
    const identity = { deploymentId, name: team.name, ...(parentId ? { parentTeamId: parentId } : {}) };
    const args = declarable("Team", identity, wanted, notes, leftOut, `team ${team.name}`);
    if (!args) continue;
    // A field left out would be unmanaged; a member or project left out of a managed list would be removed by the first up.
    if (!("members" in args) || !("projects" in args)) {
      leftOut.push(`team ${team.name}: ${notes.join("; ")} (declared without them, the first up would change the team)`);
      continue;
    }
    const name = claim(taken, resourceName(team.name));
    names.set(String(team.id), name);
    const parent = parentId ? names.get(parentId) : undefined;
    declared.push({
      name,
      args: { name: team.name, ...(parentId && !parent ? { parentTeamId: parentId } : {}), ...args },
      notes,
      ...(parent ? { parent } : {}),
    });
  }
  return declared;
}

function planSettings(deploymentId: string, live: ProductConfig, taken: Set<string>, leftOut: string[]): Declared | undefined {
  const notes: string[] = [];
  const { sast, sca, secrets, ai, hasDeveloperTriage, approversTag } = live;
  const wanted = {
    sast: { enabled: sast.enabled, triagePermission: sast.triagePermission, humanAutofixEnabled: sast.humanAutofixEnabled },
    sca: {
      enabled: sca.enabled,
      blockPrEnabled: sca.blockPrEnabled,
      prCommentsEnabled: sca.prCommentsEnabled,
      maliciousDependencyAdvisoriesEnabled: sca.maliciousDependencyAdvisoriesEnabled,
      malwareFirewallEnabled: sca.malwareFirewallEnabled,
      upgradeGuidanceEnabled: sca.upgradeGuidanceEnabled,
      triagePermission: sca.triagePermission,
    },
    secrets: { enabled: secrets.enabled, triagePermission: secrets.triagePermission },
    ai: {
      enabled: ai.enabled,
      legacyAllowOpenaiCodeSharing: ai.legacyAllowOpenaiCodeSharing,
      allowedProviders: [...ai.allowedProviders].sort(codePointOrder),
    },
    hasDeveloperTriage,
    approversTag,
  };
  const args = declarable("DeploymentSettings", { deploymentId }, wanted, notes, leftOut, "the product configuration");
  return args ? { name: claim(taken, DEPLOYMENT_SETTINGS_NAME), args, notes } : undefined;
}

/** The placeholder a secret config value stands as in a rule's `config` (never a live value). */
export const secretPlaceholder = (configKey: string) => `\u0000secret:${configKey}`;

function planRules(
  deploymentId: string,
  live: readonly NotificationRuleEntry[],
  taken: Set<string>,
  leftOut: string[],
): DeclaredNotificationRule[] {
  const rules = [...live].sort((a, b) => codePointOrder(a.name, b.name) || a.id - b.id);
  const configKeys = new Set<string>();
  return rules.flatMap((rule): DeclaredNotificationRule[] => {
    const notes: string[] = [];
    const config = Object.fromEntries(Object.entries(rule.config).sort(([a], [b]) => codePointOrder(a, b)));
    const wanted = {
      channel: rule.channel,
      config,
      policySlugs: [...rule.policySlugs].sort(codePointOrder),
      enabled: rule.enabled,
      sendScanCompletion: rule.sendScanCompletion,
      useNetworkBroker: rule.useNetworkBroker,
    };
    const args = declarable(
      "NotificationRule",
      { deploymentId, name: rule.name },
      wanted,
      notes,
      leftOut,
      `notification rule ${rule.name}`,
    );
    if (!args) return [];
    const name = claim(taken, resourceName(rule.name));
    // The values the kind holds as secrets (a URL, a token): each read from a secret config key, never written in the program.
    const secrets = secretConfigKeys({ config: args.config }).map((field): SecretConfig => ({
      field,
      configKey: claim(configKeys, camel(name) + upperCamel(field), ""),
      value: config[field]!,
    }));
    const declaredConfig = args.config
      ? Object.fromEntries(
          Object.entries(args.config as Record<string, string>).map(([key, value]) => {
            const secret = secrets.find((s) => s.field === key);
            return [key, secret ? secretPlaceholder(secret.configKey) : value];
          }),
        )
      : undefined;
    return [{ name, args: { name: rule.name, ...args, ...(declaredConfig ? { config: declaredConfig } : {}) }, notes, secrets }];
  });
}

function planUsers(
  deploymentId: string,
  live: readonly DeploymentUser[],
  taken: Set<string>,
  leftOut: string[],
  allUsers: boolean,
  accessNotes: string[],
): DeclaredUserRole[] {
  const users = [...live].sort((a, b) => Number(a.id) - Number(b.id));
  const chosen = allUsers ? users : users.filter((u) => u.orgRole === ADMIN_ROLE);
  const defaults = users.length - chosen.length;
  if (defaults) {
    accessNotes.push(
      `org roles: ${defaults} user${defaults === 1 ? "" : "s"} in ORG_ROLE_MEMBER or ORG_ROLE_READONLY not declared (the roles a user has ` +
        "unless made an admin; only the admin role is declared, one UserRole per org admin): adopt --all-users declares every user's role",
    );
  }
  return chosen.flatMap((user): DeclaredUserRole[] => {
    const notes: string[] = [];
    const login = user.login || user.email.split("@")[0] || `user-${user.id}`;
    const args = declarable(
      "UserRole",
      { deploymentId, userId: String(user.id) },
      { role: user.orgRole },
      notes,
      leftOut,
      `the org role of user ${login} (${user.id})`,
    );
    if (!args || !("role" in args)) {
      if (args) leftOut.push(`the org role of user ${login} (${user.id}): ${notes.join("; ")}`);
      return [];
    }
    const label = [user.name, user.login ? `(${user.login})` : user.email ? `<${user.email}>` : ""].filter(Boolean).join(" ");
    return [
      { name: claim(taken, resourceName(login)), args: { userId: String(user.id), ...args }, notes, label: label || `user ${user.id}` },
    ];
  });
}

/** Whether any area of the access settings is declared (the program then needs them in its header). */
export const declaresAccess = (plan: AccessPlan) =>
  plan.teams.length > 0 || plan.deploymentSettings !== undefined || plan.notificationRules.length > 0 || plan.userRoles.length > 0;

/** Every secret config key of the plan, with its value, in the program's order. */
export const secretConfigs = (plan: AccessPlan): SecretConfig[] => plan.notificationRules.flatMap((r) => r.secrets);

/**
 * The model of the access kinds (issue 36): Team, TeamMembers, TeamProjects, DeploymentSettings,
 * NotificationRule, UserRole. What each declares of the service (its expectations, checked live
 * after `up`), what it claims (two exclusive claims on one key are a conflict, refused at
 * preview: every side's team is known there, by name or by id), the texts that are secrets
 * whatever the program says (a notification rule's URL), and the live values of the deployment's
 * teams, users, product settings and notification rules, by key:
 *   `team:<name>:members` (user id → role, as JSON with sorted keys), `team:<name>:projects`
 *   (sorted names), `user:<id>:role`, `settings:<path>` (a declared leaf of the product
 *   configuration), `notification:<name>` (the rule's channel, config, flags and slugs).
 * The claims' keys: `team:<name>:member:<id>`, `team:<name>:project:<name>`, `user:<id>:role`,
 * `settings:deployment`, `notification:<name>`.
 */
import type { EmulatorState } from "../../provider/emulator";
import { DEMO_DEPLOYMENT } from "../../provider/emulator";

export const ACCESS_KINDS = ["Team", "TeamMembers", "TeamProjects", "DeploymentSettings", "NotificationRule", "UserRole"] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** The demo preset's teams, by id: TeamMembers and TeamProjects name them by id, a Team by name. */
export const PRESET_TEAMS: Record<string, string> = { "201": "appsec", "202": "payments" };
/** The users the programs declare (the demo's six). "101" is the token's user: a UserRole never names it (refused at preview). */
export const USERS = ["101", "102", "103", "104", "105", "106"] as const;
export const ROLE_USERS = ["102", "103", "104", "105", "106"] as const;
export const TEAM_ROLES = ["TEAM_ROLE_MEMBER", "TEAM_ROLE_MANAGER", "TEAM_ROLE_READONLY"] as const;
export const ORG_ROLES = ["ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"] as const;
/** The projects teams see in the programs. */
export const TEAM_PROJECTS = ["acme/web-app", "acme/mobile-app", "acme/payments-api", "acme/infra", "acme/auth-service"] as const;
/** Remediation policies of the preset no program removes: a notification rule's slugs. */
export const RULE_SLUGS = ["block-critical-high-confidence", "secrets-to-slack", "pci-findings-to-jira"] as const;
/** The preset's rule (adopted under its name), and the names of rules the stack creates. */
export const PRESET_RULE = "Critical findings to the SOC";
export const RULE_NAMES = [PRESET_RULE, "wf-rule-a", "wf-rule-b"] as const;

/** The product settings the programs declare: the path in the program, and where the emulator keeps it. */
export const SETTINGS: Record<string, { wire: string; values: readonly unknown[] }> = {
  "sast.enabled": { wire: "sast.enabled", values: [true, false] },
  "sast.triagePermission": {
    wire: "sast.triagePermission",
    values: ["TRIAGE_PERMISSION_IGNORE", "TRIAGE_PERMISSION_REQUEST", "TRIAGE_PERMISSION_NONE"],
  },
  "sca.enabled": { wire: "sca.enabled", values: [true, false] },
  "sca.blockPrEnabled": { wire: "sca.blockPrEnabled", values: [true, false] },
  "sca.malwareFirewallEnabled": { wire: "sca.malwareFirewallEnabled", values: [true, false] },
  "secrets.enabled": { wire: "secrets.enabled", values: [true, false] },
  "secrets.triagePermission": {
    wire: "secrets.triagePermission",
    values: ["TRIAGE_PERMISSION_IGNORE", "TRIAGE_PERMISSION_REQUEST", "TRIAGE_PERMISSION_NONE"],
  },
  "ai.legacyAllowOpenaiCodeSharing": { wire: "ai.legacy_allow_openai_code_sharing", values: [true, false] },
  hasDeveloperTriage: { wire: "hasDeveloperTriage", values: [true, false] },
  approversTag: { wire: "approversTag", values: ["", "appsec-approvers", "wf-approvers"] },
};

const json = (value: unknown) => JSON.stringify(value);
const sortedMap = (map: Record<string, string>) => json(Object.fromEntries(Object.entries(map).sort(([a], [b]) => a.localeCompare(b))));

/** The program's resources, as model.ts's Decl (only what this file reads). */
interface AccessDecl {
  kind: string;
  name: string;
  props: Record<string, unknown>;
  secret: string[];
}

/** The team a resource of the program declares things of, by name. */
export const teamNameOf = (decl: AccessDecl): string =>
  decl.kind === "Team" ? String(decl.props.name) : (PRESET_TEAMS[String(decl.props.teamId)] ?? `#${String(decl.props.teamId)}`);

/** A declared settings leaf's value, by its path. */
function leaves(props: Record<string, unknown>): Array<[string, unknown]> {
  return Object.keys(SETTINGS).flatMap((path) => {
    const [section, field] = path.split(".");
    const value = field === undefined ? props[section!] : (props[section!] as Record<string, unknown> | undefined)?.[field];
    return value === undefined ? [] : [[path, value] as [string, unknown]];
  });
}

export interface AccessExpectation {
  key: string;
  owner: string;
  declared: string;
  holds(live: string | undefined): boolean;
}
export interface AccessClaim {
  key: string;
  owner: string;
  exclusive: boolean;
}

/** What the access resources of `program` declare (expectations) and claim. */
export function accessDeclarations(program: readonly AccessDecl[]): { expectations: AccessExpectation[]; claims: AccessClaim[] } {
  const expectations: AccessExpectation[] = [];
  const claims: AccessClaim[] = [];
  const ownerOf = (decl: AccessDecl) => `${decl.kind} "${decl.name}"`;
  /** Members (or projects) of `team` that the additive resources of the program declare: an authoritative Team leaves them. */
  const othersOn = (team: string, kind: "TeamMembers" | "TeamProjects") =>
    program
      .filter((d) => d.kind === kind && teamNameOf(d) === team)
      .flatMap((d) => (kind === "TeamMembers" ? Object.keys(d.props.members as object) : (d.props.projects as string[])));
  for (const decl of program) {
    const p = decl.props;
    const owner = ownerOf(decl);
    switch (decl.kind) {
      case "Team": {
        const team = String(p.name);
        if (p.members !== undefined) {
          const members = p.members as Record<string, string>;
          const others = othersOn(team, "TeamMembers");
          expectations.push({
            key: `team:${team}:members`,
            owner,
            declared: `${sortedMap(members)} (and any of ${json(others)})`,
            holds: (live) => {
              const found = JSON.parse(live ?? "{}") as Record<string, string>;
              return (
                Object.entries(members).every(([u, role]) => found[u] === role) &&
                Object.keys(found).every((u) => u in members || others.includes(u))
              );
            },
          });
          for (const u of Object.keys(members)) claims.push({ key: `team:${team}:member:${u}`, owner, exclusive: true });
        }
        if (p.projects !== undefined) {
          const projects = p.projects as string[];
          const others = othersOn(team, "TeamProjects");
          expectations.push({
            key: `team:${team}:projects`,
            owner,
            declared: `${json([...projects].sort())} (and any of ${json(others)})`,
            holds: (live) => {
              const found = JSON.parse(live ?? "[]") as string[];
              return projects.every((n) => found.includes(n)) && found.every((n) => projects.includes(n) || others.includes(n));
            },
          });
          for (const n of projects) claims.push({ key: `team:${team}:project:${n}`, owner, exclusive: true });
        }
        if (p.members === undefined && p.projects === undefined)
          expectations.push({ key: `team:${team}:members`, owner, declared: "the team exists", holds: (live) => live !== undefined });
        break;
      }
      case "TeamMembers": {
        const team = teamNameOf(decl);
        const members = p.members as Record<string, string>;
        expectations.push({
          key: `team:${team}:members`,
          owner,
          declared: `⊇ ${sortedMap(members)}`,
          holds: (live) => {
            const found = JSON.parse(live ?? "{}") as Record<string, string>;
            return Object.entries(members).every(([u, role]) => found[u] === role);
          },
        });
        for (const u of Object.keys(members)) claims.push({ key: `team:${team}:member:${u}`, owner, exclusive: true });
        break;
      }
      case "TeamProjects": {
        const team = teamNameOf(decl);
        const projects = p.projects as string[];
        expectations.push({
          key: `team:${team}:projects`,
          owner,
          declared: `⊇ ${json(projects)}`,
          holds: (live) => projects.every((n) => (JSON.parse(live ?? "[]") as string[]).includes(n)),
        });
        for (const n of projects) claims.push({ key: `team:${team}:project:${n}`, owner, exclusive: false });
        break;
      }
      case "DeploymentSettings":
        for (const [path, value] of leaves(p))
          expectations.push({ key: `settings:${path}`, owner, declared: json(value), holds: (live) => live === json(value) });
        claims.push({ key: "settings:deployment", owner, exclusive: true });
        break;
      case "NotificationRule": {
        const name = String(p.name);
        const fields: Array<[string, unknown]> = [
          ["channel", p.channel],
          ["config", p.config],
          ["policySlugs", p.policySlugs === undefined ? undefined : [...(p.policySlugs as string[])].sort()],
          ["isEnabled", p.enabled],
          ["sendScanCompletion", p.sendScanCompletion],
          ["useNetworkBroker", p.useNetworkBroker],
        ];
        const declared = fields.filter(([, v]) => v !== undefined);
        expectations.push({
          key: `notification:${name}`,
          owner,
          // The config is never printed: it holds a URL.
          declared: json(Object.fromEntries(declared.map(([k, v]) => [k, k === "config" ? "[config]" : v]))),
          holds: (live) => {
            if (live === undefined) return false;
            const rule = JSON.parse(live) as Record<string, unknown>;
            return declared.every(([k, v]) => sortedJson(rule[k]) === sortedJson(v));
          },
        });
        claims.push({ key: `notification:${name}`, owner, exclusive: true });
        break;
      }
      case "UserRole": {
        const key = `user:${String(p.userId)}:role`;
        const role = String(p.role);
        expectations.push({ key, owner, declared: role, holds: (live) => live === role });
        claims.push({ key, owner, exclusive: true });
        break;
      }
    }
  }
  return { expectations, claims };
}

const sortedJson = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/**
 * The texts of `decl` that are secrets although the program may give them in clear: a
 * notification rule's config values that hold a URL (or sit under a key that says so), unless
 * `plainConfigKeys` names their key.
 */
export function alwaysSecret(decl: AccessDecl): string[] {
  if (decl.kind !== "NotificationRule" || !decl.props.config) return [];
  const plain = (decl.props.plainConfigKeys as string[] | undefined) ?? [];
  return Object.entries(decl.props.config as Record<string, string>)
    .filter(([key, value]) => !plain.includes(key) && (/url|token|secret|webhook/i.test(key) || /^[a-z]+:\/\//i.test(value)))
    .map(([, value]) => value);
}

/** The live values of the deployment's teams, users, product settings and notification rules (keys: the file's comment). */
export function accessLiveValues(state: EmulatorState): Map<string, string> {
  const values = new Map<string, string>();
  const deploymentId = DEMO_DEPLOYMENT.id;
  const projectName = new Map(state.projects.map((p) => [p.id, p.name]));
  for (const team of state.teams.filter((t) => t.deploymentId === deploymentId)) {
    values.set(`team:${team.name}:members`, sortedMap(Object.fromEntries(team.members.map((m) => [m.userId, m.role]))));
    values.set(`team:${team.name}:projects`, json(team.repositoryIds.map((id) => projectName.get(id) ?? `#${id}`).sort()));
  }
  for (const user of state.users.filter((u) => u.deploymentId === deploymentId)) values.set(`user:${user.id}:role`, user.orgRole);
  const config = state.productConfigs.find((c) => c.deploymentId === deploymentId);
  if (config)
    for (const [path, { wire }] of Object.entries(SETTINGS))
      values.set(`settings:${path}`, json(wire.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], config)));
  for (const rule of state.notificationRules.filter((r) => r.deploymentId === deploymentId)) {
    const { channel, config: ruleConfig, isEnabled, sendScanCompletion, useNetworkBroker } = rule;
    values.set(
      `notification:${rule.name}`,
      sortedJson({
        channel,
        config: ruleConfig,
        isEnabled,
        policySlugs: [...rule.policySlugs].sort(),
        sendScanCompletion,
        useNetworkBroker,
      }),
    );
  }
  return values;
}

/**
 * Changes, on the service, the value of access key `key` (a declared one), as a person in the web
 * UI would: a member's team role raised or the member removed, a user's org role changed, a
 * product switched off (or a setting flipped), a notification rule disabled. Returns what it did.
 */
export function accessOutOfBand(state: EmulatorState, key: string, declaredBy: AccessDecl | undefined, n: number): string {
  const [kind, ...rest] = key.split(":");
  if (kind === "team") {
    const team = state.teams.find((t) => t.name === rest[0])!;
    if (rest[1] === "projects") {
      // A project the resource declares, so that the next `up` puts it back.
      const declared = (declaredBy?.props.projects ?? []) as string[];
      const ids = state.projects.filter((p) => declared.includes(p.name)).map((p) => p.id);
      const removed = team.repositoryIds.find((id) => ids.includes(id));
      if (removed === undefined) return `nothing on team ${team.name}`;
      team.repositoryIds = team.repositoryIds.filter((id) => id !== removed);
      return `project ${state.projects.find((p) => p.id === removed)!.name} removed from team ${team.name}`;
    }
    const declared = Object.keys((declaredBy?.props.members ?? {}) as object);
    const member = team.members.find((m) => declared.includes(m.userId));
    if (!member) return `nothing on team ${team.name}`;
    if (n % 2 === 0) {
      team.members = team.members.filter((m) => m !== member);
      return `member ${member.userId} removed from team ${team.name}`;
    }
    member.role = member.role === "TEAM_ROLE_MANAGER" ? "TEAM_ROLE_READONLY" : "TEAM_ROLE_MANAGER";
    return `the team role of member ${member.userId} of team ${team.name} set to ${member.role}`;
  }
  if (kind === "user") {
    const user = state.users.find((u) => u.id === rest[0])!;
    user.orgRole = user.orgRole === "ORG_ROLE_ADMIN" ? "ORG_ROLE_MEMBER" : "ORG_ROLE_ADMIN";
    return `the org role of user ${user.id} set to ${user.orgRole}`;
  }
  if (kind === "settings") {
    const config = state.productConfigs.find((c) => c.deploymentId === DEMO_DEPLOYMENT.id)!;
    const path = rest.join(":");
    // A product switched off (or on) in the UI where the resource declares whether it runs; the declared field otherwise.
    const enabled = `${path.split(".")[0]}.enabled`;
    const target = declaredBy && leaves(declaredBy.props).some(([p]) => p === enabled) ? enabled : path;
    const wire = SETTINGS[target]!.wire.split(".");
    const holder = wire.slice(0, -1).reduce<Record<string, unknown>>((v, k) => v[k] as Record<string, unknown>, config as never);
    const field = wire.at(-1)!;
    // The next of the setting's values (a flag flipped, a triage permission loosened or tightened, another approvers tag).
    const values = SETTINGS[target]!.values;
    holder[field] = values[(values.indexOf(holder[field]) + 1) % values.length];
    return `${target} of the product configuration set to ${json(holder[field])}`;
  }
  const rule = state.notificationRules.find((r) => r.name === rest.join(":"))!;
  rule.isEnabled = !rule.isEnabled;
  rule.sendScanCompletion = !rule.sendScanCompletion;
  return `notification rule ${JSON.stringify(rule.name)} ${rule.isEnabled ? "enabled" : "disabled"}, its scan-completion events flipped`;
}

/** The texts a message must name for a value it says it leaves (promise 2's exception). */
export function accessNamesOfValue(key: string): string[] | undefined {
  const [kind, ...rest] = key.split(":");
  if (kind === "team") return [rest[0]!];
  if (kind === "user") return [rest[0]!];
  if (kind === "settings") return [rest.join(":").split(".").at(-1)!];
  if (kind === "notification") return [rest.join(":")];
  return undefined;
}

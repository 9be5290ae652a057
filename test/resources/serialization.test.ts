/**
 * Serialization as users get it: the packed package installed into a project, resources built
 * with plain `node` under Pulumi's mocks, and each `__provider` loaded as the engine loads it.
 */
import { execFile } from "node:child_process";
import { copyFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { useEmulator } from "../support/emulator";

// Every kind, v1 and Policies V2, against one deployment: both policy APIs answer.
const env = useEmulator({
  preset: "demo",
  policiesV2: "both",
  resetEachTest: false,
  token: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
});
const KINDS = [
  "ProjectSettings",
  "ProjectTags",
  "ProjectSettingsSet",
  "ManagedScan",
  "PolicyRuleMode",
  "SbomExport",
  "PolicyRuleModes",
  "DetectionPolicy",
  "DetectionPolicyException",
  "RemediationPolicy",
  "UserRole",
  "DeploymentSettings",
  "NotificationRule",
  "Team",
  "TeamMembers",
  "TeamProjects",
] as const;

interface KindReport {
  type: string;
  bytes: number;
  text: string;
  failures: unknown[];
  id: string;
  outs: Record<string, unknown>;
  read: { id: string; props: Record<string, unknown> };
  diff: { changes: boolean; replaces: string[] };
  updated?: { outs: Record<string, unknown> };
}

describe("the installed package's __provider", () => {
  let report: Record<(typeof KINDS)[number], KindReport>;
  let before: unknown;
  const dir = inject("installedPackageDir");

  beforeAll(async () => {
    before = structuredClone(env.emulator.state());
    copyFileSync(join(__dirname, "../fixtures/serialize-resources.js"), join(dir, "serialize-resources.js"));
    const { stdout } = await promisify(execFile)(process.execPath, ["serialize-resources.js"], {
      cwd: dir,
      env: {
        ...process.env,
        EMULATOR_URL: env.emulator.url,
        EMULATOR_TOKEN: env.emulator.token,
        SEMGREP_APP_TOKEN: "",
        SEMGREP_APP_URL: "",
      },
      maxBuffer: 16 << 20,
    });
    report = JSON.parse(stdout);
  }, 120_000);

  it.each(KINDS)("%s: is at most 1 KB, requires the installed package by name, holds no path and no token", (kind) => {
    const { type, bytes, text } = report[kind];
    expect(type).toBe(`pulumi-nodejs:dynamic/semgrep:${kind}`);
    expect(bytes).toBeLessThanOrEqual(1024);
    expect(text).toContain(`require("pulumi-semgrep/shims/${kind}")`);
    for (const forbidden of [dir, homedir(), "/tmp/", "/work/", "node_modules", env.emulator.token, env.emulator.url])
      expect(text).not.toContain(forbidden);
  });

  /** What each kind's update (test/fixtures/serialize-resources.js, `changed`) must report. */
  const UPDATED: Record<(typeof KINDS)[number], Record<string, unknown> | undefined> = {
    ProjectSettings: { tags: ["team:web", "managed-scan"] }, // the whole set: the service keeps its system tag
    ProjectTags: { tags: ["owner:appsec", "reviewed"] },
    ProjectSettingsSet: { originals: { "acme/infra": { tags: [] } } }, // what it found, put back on delete
    ManagedScan: { diffScan: { enabled: false } },
    PolicyRuleMode: { mode: "MODE_COMMENT" },
    SbomExport: undefined, // nothing changed: no update
    PolicyRuleModes: { modes: { "python.lang.security.audit.exec-detected.exec-detected": "MODE_COMMENT" }, deviations: {} },
    DetectionPolicy: {
      disabled: [
        "python.lang.best-practice.open-never-closed.open-never-closed",
        "javascript.lang.best-practice.assigned-undefined.assigned-undefined",
      ],
    },
    DetectionPolicyException: { exceptionType: "include" },
    RemediationPolicy: { active: false },
    UserRole: { role: "ORG_ROLE_ADMIN", originalRole: "ORG_ROLE_MEMBER" },
    DeploymentSettings: { sca: expect.objectContaining({ malwareFirewallEnabled: false, blockPrEnabled: false }) },
    NotificationRule: { enabled: false },
    Team: { members: { "105": "TEAM_ROLE_MEMBER" } },
    TeamMembers: { members: { "106": "TEAM_ROLE_MANAGER" }, originalRoles: {}, addedMembers: ["106"] },
    TeamProjects: { projects: ["acme/docs-site", "acme/search"], addedProjects: ["acme/docs-site", "acme/search"] },
  };

  it.each(KINDS)("%s: create, read, update and delete work through the loaded shim", (kind) => {
    const { failures, outs, read, diff, updated } = report[kind];
    expect(failures).toEqual([]);
    expect(read.id).toBeTruthy();
    expect(JSON.stringify(outs)).not.toContain(env.emulator.token);
    if (kind === "SbomExport") expect(diff).toMatchObject({ changes: false });
    else expect(diff).toMatchObject({ changes: true, replaces: [] });
    if (UPDATED[kind]) expect(updated?.outs).toMatchObject(UPDATED[kind]);
    else expect(updated).toBeUndefined();
  });

  it("leaves the service as it found it after delete", () => {
    const after = env.emulator.state();
    const previous = before as typeof after;
    expect(after.projects).toEqual(previous.projects);
    const modes = (state: typeof after) => state.policies.flatMap((p) => p.rules.map((r) => `${p.id}/${r.path}=${r.policyMode}`));
    expect(modes(after)).toEqual(modes(previous));
    expect(after.sbomExports).toHaveLength(1);
    expect(after.detectionPolicies).toEqual(previous.detectionPolicies);
    expect(after.remediationPolicies).toEqual(previous.remediationPolicies);
    expect(after.users).toEqual(previous.users);
    expect(after.productConfigs).toEqual(previous.productConfigs);
    expect(after.notificationRules).toEqual(previous.notificationRules);
    expect(after.teams).toEqual(previous.teams);
  });
});

/**
 * `pulumi import` of the access kinds (Team, TeamMembers, TeamProjects, DeploymentSettings,
 * NotificationRule, UserRole) through the native plugin of the installed package, with `--out`
 * writing YAML, on the demo deployment (teams `appsec` 201 and `payments` 202, the product
 * configuration, the webhook rule 5001 whose URL carries a token). The import writes nothing; the
 * generated code, as the program, previews with no change and no write; the rule's webhook URL
 * is in the generated code, the state and the output nowhere in clear; the imported resources
 * record no original (`destroy` leaves each object as it found it, the rule included), and values a
 * later `up` changed are put back. The steps share one emulator and one stack.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type EmulatorState, type RunningEmulator, startEmulator } from "../../provider/emulator";
import { snapshotOf, writesSince as requestsSince } from "../support/emulator";
import { printedWithoutPathWarnings, TYPE_PREFIX, type YamlWorkspace, yamlWorkspace } from "../support/yaml-program";

const TOKEN = "yaml-import-access-token-7c1d";

/** One object of each access kind, by the name it gets in the program: its type and id (docs/resources). */
const IMPORTS = {
  appsec: ["Team", "1/201"],
  "payments-members": ["TeamMembers", "1/202"],
  "payments-projects": ["TeamProjects", "1/202"],
  products: ["DeploymentSettings", "1"],
  soc: ["NotificationRule", "1/5001"],
} as const;

/** The requests since `mark` that change something: the listings of teams, users and rules are POSTs that only read. */
const writesSince = (emulator: RunningEmulator, mark: number) => requestsSince(emulator, mark).filter((r) => !/\.list /.test(r));

interface Generated {
  resources: Record<string, { type: string; properties: Record<string, unknown>; options: Record<string, unknown> }>;
}

describe("pulumi import of each access kind, with --out YAML", { timeout: 180_000 }, () => {
  let emulator: RunningEmulator;
  let before: EmulatorState;
  let workspace: YamlWorkspace;
  let code: string;
  let generated: Generated;
  /** The demo rule's webhook URL, and its last part, the credential. */
  let webhookUrl: string;
  let urlToken: string;

  beforeAll(async () => {
    emulator = await startEmulator({ preset: "demo", policiesV2: true, token: TOKEN, retryAfterSeconds: 0 });
    before = snapshotOf(emulator);
    webhookUrl = before.notificationRules.find((r) => r.id === 5001)!.config.url!;
    urlToken = webhookUrl.split("/").at(-1)!;
    workspace = await yamlWorkspace("", { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": TOKEN } });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("1. import reads each object, writes nothing, and generates YAML declaring what it holds, the webhook URL left out", async () => {
    const mark = emulator.requests().length;
    const file = join(workspace.dir, "import.json");
    const resources = Object.entries(IMPORTS).map(([name, [kind, id]]) => ({ type: `${TYPE_PREFIX}${kind}`, name, id }));
    writeFileSync(file, JSON.stringify({ resources }));
    const bulk = await workspace.run(["import", "--file", file, "--yes", "--out", "imported.yaml"]);
    // The form a user types, one resource.
    const single = await workspace.run(["import", `${TYPE_PREFIX}UserRole`, "dan", "1/104", "--yes", "--out", "dan.yaml"]);
    expect(printedWithoutPathWarnings(single)).not.toMatch(/warning:|error:/i);
    expect(writesSince(emulator, mark)).toEqual([]);

    code = readFileSync(join(workspace.dir, "imported.yaml"), "utf8");
    const dan = readFileSync(join(workspace.dir, "dan.yaml"), "utf8");
    // Pulumi would write a secret in clear (only wrapped in fn::secret): the rule's config is left
    // out, with a warning that names it and says how to declare it.
    expect(code + dan).not.toContain(urlToken);
    expect(printedWithoutPathWarnings(bulk)).toContain(
      "config left out: its live value holds a secret, which the generated code would show in clear; declare it from a secret",
    );
    generated = { resources: { ...(parse(code) as Generated).resources, ...(parse(dan) as Generated).resources } };
    for (const [name, r] of Object.entries(generated.resources)) expect(r.options, name).toEqual({ protect: true });
    expect(Object.fromEntries(Object.entries(generated.resources).map(([name, r]) => [name, r.type]))).toEqual({
      ...Object.fromEntries(Object.entries(IMPORTS).map(([name, [kind]]) => [name, `semgrep:${kind}`])),
      dan: "semgrep:UserRole",
    });
    // Pulumi's code generator writes a value equal to another imported resource's id as a reference
    // to it: the deployment id "1" is the DeploymentSettings' id.
    const properties = (name: string) => {
      const { deploymentId, ...rest } = generated.resources[name]!.properties;
      expect(deploymentId, name).toBe(name === "products" || name === "dan" ? "1" : "${products.id}");
      return rest;
    };
    expect(properties("appsec")).toEqual({
      name: "appsec",
      members: { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" },
      projects: ["acme/web-app", "acme/payments-api"],
    });
    expect(properties("payments-members")).toEqual({ teamId: "202", members: { "103": "TEAM_ROLE_MANAGER", "104": "TEAM_ROLE_MEMBER" } });
    expect(properties("payments-projects")).toEqual({ teamId: "202", projects: ["acme/payments-api"] });
    expect(properties("products")).toEqual({
      sast: { enabled: true, humanAutofixEnabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST" },
      sca: {
        enabled: true,
        blockPrEnabled: true,
        prCommentsEnabled: true,
        maliciousDependencyAdvisoriesEnabled: true,
        malwareFirewallEnabled: true,
        upgradeGuidanceEnabled: false,
        triagePermission: "TRIAGE_PERMISSION_REQUEST",
      },
      secrets: { enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" },
      ai: { enabled: true, legacyAllowOpenaiCodeSharing: false, allowedProviders: ["anthropic"] },
      hasDeveloperTriage: true,
      approversTag: "appsec-approvers",
    });
    expect(properties("soc")).toEqual({
      name: "Critical findings to the SOC",
      channel: "CHANNEL_WEBHOOK",
      policySlugs: ["block-critical-high-confidence"],
      enabled: true,
      sendScanCompletion: false,
      useNetworkBroker: false,
    });
    expect(properties("dan")).toEqual({ userId: "104", role: "ORG_ROLE_MEMBER" });

    // The URL is in the state as a secret: encrypted in the export, readable with --show-secrets.
    expect(await workspace.exported()).not.toContain(urlToken);
    expect(JSON.stringify((await workspace.resources({ showSecrets: true })).soc?.outputs)).toContain(webhookUrl);
  });

  it("2. the generated YAML, as the program, previews with no change and no write", async () => {
    workspace.write(code + readFileSync(join(workspace.dir, "dan.yaml"), "utf8").replace(/^resources:\n/, ""));
    const mark = emulator.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(writesSince(emulator, mark)).toEqual([]);
  });

  it("3. destroy leaves every imported object as it was, the rule included, and puts back values a later up changed", async () => {
    const edited = structuredClone(generated);
    const props = (name: string) => edited.resources[name]!.properties;
    props("appsec").members = { ...(props("appsec").members as object), "105": "TEAM_ROLE_READONLY" };
    props("dan").role = "ORG_ROLE_READONLY";
    props("soc").enabled = false;
    workspace.write(stringify(edited));
    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark).sort()).toEqual(["notificationRules.replace 200", "teams.update 200", "users.setRole 200"]);
    expect(emulator.state().notificationRules.find((r) => r.id === 5001)!.isEnabled).toBe(false);

    await workspace.run(["state", "unprotect", "--all", "--yes"]);
    mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(writesSince(emulator, mark).sort()).toEqual(["notificationRules.replace 200", "teams.update 200", "users.setRole 200"]);
    expect(snapshotOf(emulator)).toEqual(before);
    expect(workspace.printed()).not.toContain(urlToken);
  });
});

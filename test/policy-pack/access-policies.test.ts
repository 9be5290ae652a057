/**
 * The pack's access policies (issue 36), called as @pulumi/policy calls them (each resource's
 * validation, then the stack's), against the emulator's demo deployment for the live values they
 * read: who sees protected projects, protected products' switches, legacy AI code sharing,
 * protected notification rules and https webhooks, new org admins. Each must flag the weakening
 * change and pass the one that does not weaken.
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResourceKind } from "../../provider/core/kinds";
import { aiCodeSharingOff } from "../../provider/policy-pack/policies/ai-code-sharing-off";
import { orgAdminsAllowed } from "../../provider/policy-pack/policies/org-admins-allowed";
import { protectedNotificationsKept } from "../../provider/policy-pack/policies/protected-notifications-kept";
import { protectedProductsNotWeakened } from "../../provider/policy-pack/policies/protected-products-not-weakened";
import { protectedProjectsTeamAccess } from "../../provider/policy-pack/policies/protected-projects-team-access";
import { forgetLiveReads } from "../../provider/policy-pack/live-reads";
import { forgetProgram } from "../../provider/policy-pack/program";
import { typeToken } from "../../provider/policy-pack/resources";
import { setStackState, type StateResource } from "../../provider/policy-pack/stack-state";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
afterEach(() => {
  setStackState(undefined);
  forgetProgram();
  forgetLiveReads();
});

type Policy = { validateResource?: unknown; validateStack?: unknown };
type Validate<A> = (a: A, r: ReportViolation) => Promise<void> | void;
interface Declared {
  kind: ResourceKind;
  name: string;
  props: Record<string, unknown>;
}
const urnOf = (d: { kind: string; name: string }) => `urn:pulumi:dev::p::${typeToken(d.kind as ResourceKind)}::${d.name}`;

/** A preview of `program` over `state` (the stack's last state): every violation, as text (advisory ones marked). */
async function preview(policy: Policy, program: Declared[], config: object = {}, state: StateResource[] = []): Promise<string[]> {
  forgetProgram();
  setStackState({ resources: state });
  const reported: string[] = [];
  const report = ((v: string | { message: string; enforcementLevel?: string }) =>
    reported.push(typeof v === "string" ? v : `[${v.enforcementLevel}] ${v.message}`)) as ReportViolation;
  const getConfig = () => config;
  for (const d of program) {
    const args = { type: typeToken(d.kind), name: d.name, urn: urnOf(d), props: d.props, getConfig, opts: {} };
    await (policy.validateResource as Validate<ResourceValidationArgs> | undefined)?.(args as unknown as ResourceValidationArgs, report);
  }
  const resources = program.map((d) => ({ urn: urnOf(d), type: typeToken(d.kind), props: d.props, opts: {} }));
  await (policy.validateStack as Validate<StackValidationArgs> | undefined)?.(
    { resources, getConfig } as unknown as StackValidationArgs,
    report,
  );
  return reported;
}

const credentials = () => ({ token: env.emulator.token, url: env.emulator.url });
const stateOf = (kind: ResourceKind, name: string, inputs: Record<string, unknown>, outputs: Record<string, unknown>): StateResource => ({
  urn: urnOf({ kind, name }),
  type: typeToken(kind),
  inputs,
  outputs: { ...inputs, ...outputs },
});

describe("protected-products-not-weakened", () => {
  let config: Record<string, unknown>;
  beforeEach(() => {
    config = { protectedProducts: ["sast", "sca", "secrets"], ...credentials() };
  });
  const settings = (props: Record<string, unknown>): Declared[] => [
    { kind: "DeploymentSettings", name: "products", props: { deploymentId: "1", ...props } },
  ];

  it("flags a protected product turned off, SCA's PR blocking or malware firewall switched off", async () => {
    expect(await preview(protectedProductsNotWeakened, settings({ sast: { enabled: false } }), config)).toEqual([
      expect.stringMatching(/^DeploymentSettings "products" turns sast off: protected products/),
    ]);
    const sca = await preview(
      protectedProductsNotWeakened,
      settings({ sca: { blockPrEnabled: false, malwareFirewallEnabled: false } }),
      config,
    );
    expect(sca).toEqual([
      expect.stringContaining("switches off pull-request blocking (sca.blockPrEnabled)"),
      expect.stringContaining("switches off the malware firewall (sca.malwareFirewallEnabled)"),
    ]);
    expect(
      await preview(protectedProductsNotWeakened, settings({ sast: { enabled: false } }), { ...config, protectedProducts: ["sca"] }),
    ).toEqual([]);
    expect(
      await preview(protectedProductsNotWeakened, settings({ sca: { blockPrEnabled: true }, sast: { enabled: true } }), config),
    ).toEqual([]);
  });

  it("flags a triage permission loosened from the live value (read once), and passes one kept or tightened", async () => {
    // The demo's secrets triage is NONE, SAST's REQUEST.
    expect(
      await preview(protectedProductsNotWeakened, settings({ secrets: { triagePermission: "TRIAGE_PERMISSION_REQUEST" } }), config),
    ).toEqual([expect.stringContaining("loosens secrets.triagePermission to TRIAGE_PERMISSION_REQUEST (from TRIAGE_PERMISSION_NONE)")]);
    expect(
      await preview(protectedProductsNotWeakened, settings({ sast: { triagePermission: "TRIAGE_PERMISSION_REQUEST" } }), config),
    ).toEqual([]);
    expect(await preview(protectedProductsNotWeakened, settings({ sast: { triagePermission: "TRIAGE_PERMISSION_NONE" } }), config)).toEqual(
      [],
    );
    expect(env.requests().map((r) => r.operation)).toEqual(["products.get"]);
  });

  it("judges against the stack's last state of the resource, and without it nor credentials only IGNORE", async () => {
    const state = [
      stateOf(
        "DeploymentSettings",
        "products",
        { deploymentId: "1" },
        { secrets: { enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST" } },
      ),
    ];
    expect(
      await preview(protectedProductsNotWeakened, settings({ secrets: { triagePermission: "TRIAGE_PERMISSION_REQUEST" } }), config, state),
    ).toEqual([]);
    expect(env.requests()).toEqual([]);
    const bare = { protectedProducts: ["secrets"] };
    expect(
      await preview(protectedProductsNotWeakened, settings({ secrets: { triagePermission: "TRIAGE_PERMISSION_REQUEST" } }), bare),
    ).toEqual([]);
    expect(
      await preview(protectedProductsNotWeakened, settings({ secrets: { triagePermission: "TRIAGE_PERMISSION_IGNORE" } }), bare),
    ).toEqual([expect.stringContaining("(the loosest: no one reviews an ignore)")]);
  });

  it("flags a DeploymentSettings removed whose delete puts back a product it had turned on", async () => {
    const state = [
      stateOf(
        "DeploymentSettings",
        "products",
        { deploymentId: "1", sca: { enabled: true } },
        { sca: { enabled: true }, original: { sca: { enabled: false } } },
      ),
    ];
    expect(await preview(protectedProductsNotWeakened, [], config, state)).toEqual([
      expect.stringContaining(
        'DeploymentSettings "products" is removed from the program: its delete puts back what it found, which turns sca off',
      ),
    ]);
    const kept = [{ ...state[0]!, inputs: { ...state[0]!.inputs, restoreOnDelete: false } }];
    expect(await preview(protectedProductsNotWeakened, [], config, kept)).toEqual([]);
  });
});

describe("ai-code-sharing-off", () => {
  const settings = (on: boolean): Declared[] => [
    { kind: "DeploymentSettings", name: "products", props: { deploymentId: "1", ai: { legacyAllowOpenaiCodeSharing: on } } },
  ];

  it("flags turning legacy OpenAI code sharing on, advises where it is on already, passes turning it off", async () => {
    expect(await preview(aiCodeSharingOff, settings(true), credentials())).toEqual([
      expect.stringContaining("turns ai.legacyAllowOpenaiCodeSharing on"),
    ]);
    const on = [stateOf("DeploymentSettings", "products", { deploymentId: "1" }, { ai: { legacyAllowOpenaiCodeSharing: true } })];
    expect(await preview(aiCodeSharingOff, settings(true), credentials(), on)).toEqual([
      expect.stringMatching(/^\[advisory\] .*keeps ai\.legacyAllowOpenaiCodeSharing on/),
    ]);
    expect(await preview(aiCodeSharingOff, settings(false), credentials())).toEqual([]);
  });
});

describe("protected-notifications-kept", () => {
  const config = { protectedPolicySlugs: ["block-critical-high-confidence"] };
  const rule = (props: Record<string, unknown>): Declared => ({
    kind: "NotificationRule",
    name: "soc",
    props: {
      deploymentId: "1",
      name: "SOC",
      channel: "CHANNEL_WEBHOOK",
      config: { url: "https://soc.example/hook" },
      policySlugs: ["block-critical-high-confidence"],
      ...props,
    },
  });

  it("flags a protected policy's rule disabled, and passes it enabled or another policy's rule disabled", async () => {
    expect(await preview(protectedNotificationsKept, [rule({ enabled: false })], config)).toEqual([
      expect.stringContaining("disables the notifications of block-critical-high-confidence"),
    ]);
    expect(await preview(protectedNotificationsKept, [rule({ enabled: true })], config)).toEqual([]);
    expect(await preview(protectedNotificationsKept, [rule({ enabled: false, policySlugs: ["comment-high-severity"] })], config)).toEqual(
      [],
    );
  });

  it("flags a webhook that is not https:// without printing it", async () => {
    const [violation, ...rest] = await preview(
      protectedNotificationsKept,
      [rule({ config: { url: "http://soc.example/hook?token=s3cr3t" } })],
      config,
    );
    expect(rest).toEqual([]);
    expect(violation).toContain("config.url that is not https://");
    expect(violation).not.toContain("s3cr3t");
  });

  it("passes a removed rule whose delete leaves it notifying: restoreOnDelete false, or an adopted rule put back with the protected policy", async () => {
    const props = rule({}).props;
    const kept = [stateOf("NotificationRule", "soc", { ...props, restoreOnDelete: false }, { ruleId: 7, created: true })];
    expect(await preview(protectedNotificationsKept, [], config, kept)).toEqual([]);
    const adopted = [stateOf("NotificationRule", "soc", props, { ruleId: 5001, created: false, original: { ...props, enabled: true } })];
    expect(await preview(protectedNotificationsKept, [], config, adopted)).toEqual([]);
    const foundAsDeclared = [stateOf("NotificationRule", "soc", props, { ruleId: 5001, created: false })];
    expect(await preview(protectedNotificationsKept, [], config, foundAsDeclared)).toEqual([]);
    // An adopted rule put back disabled, or without the protected policy, does stop its notifications.
    const putBackOff = [
      stateOf("NotificationRule", "soc", props, { ruleId: 5001, created: false, original: { ...props, enabled: false } }),
    ];
    expect(await preview(protectedNotificationsKept, [], config, putBackOff)).toEqual([
      expect.stringContaining("is removed from the program"),
    ]);
  });

  it("flags a protected policy dropped from a rule's policySlugs (the rule stops notifying about it), and passes one kept", async () => {
    const state = [stateOf("NotificationRule", "soc", rule({}).props, { ruleId: 7 })];
    expect(await preview(protectedNotificationsKept, [rule({ policySlugs: ["comment-high-severity"] })], config, state)).toEqual([
      expect.stringContaining("no longer notifies about block-critical-high-confidence"),
    ]);
    expect(await preview(protectedNotificationsKept, [rule({ policySlugs: [] })], config, state)).toEqual([
      expect.stringContaining("no longer notifies about block-critical-high-confidence"),
    ]);
    expect(
      await preview(
        protectedNotificationsKept,
        [rule({ policySlugs: ["block-critical-high-confidence", "comment-high-severity"] })],
        config,
        state,
      ),
    ).toEqual([]);
  });

  it("flags a protected policy's rule removed from the program", async () => {
    const state = [stateOf("NotificationRule", "soc", rule({}).props, { ruleId: 7 })];
    expect(await preview(protectedNotificationsKept, [], config, state)).toEqual([
      expect.stringContaining('NotificationRule "soc" is removed from the program'),
    ]);
    expect(await preview(protectedNotificationsKept, [rule({})], config, state)).toEqual([]);
  });
});

describe("org-admins-allowed", () => {
  const admin = (userId: string): Declared[] => [
    { kind: "UserRole", name: `u${userId}`, props: { deploymentId: "1", userId, role: "ORG_ROLE_ADMIN" } },
  ];

  it("flags a new org admin not in allowedAdmins, and passes one named by id, login or email, or an admin already", async () => {
    const config = { allowedAdmins: ["alice@acme.example"], ...credentials() };
    expect(await preview(orgAdminsAllowed, admin("103"), config)).toEqual([
      expect.stringContaining("makes user 103 an org admin: carol is not in allowedAdmins"),
    ]);
    expect(await preview(orgAdminsAllowed, admin("103"), { ...config, allowedAdmins: ["carol@acme.example"] })).toEqual([]);
    expect(await preview(orgAdminsAllowed, admin("103"), { ...config, allowedAdmins: ["103"] })).toEqual([]);
    expect(await preview(orgAdminsAllowed, admin("102"), config)).toEqual([]); // bob is an admin already
    expect(
      await preview(
        orgAdminsAllowed,
        [{ ...admin("103")[0]!, props: { deploymentId: "1", userId: "103", role: "ORG_ROLE_MEMBER" } }],
        config,
      ),
    ).toEqual([]);
  });

  it("flags a UserRole removed from the program whose delete puts back an org admin not in allowedAdmins", async () => {
    const config = { allowedAdmins: ["alice@acme.example"], ...credentials() };
    const demoted = (userId: string, login: string, extra: Record<string, unknown> = {}) =>
      stateOf(
        "UserRole",
        `u${userId}`,
        { deploymentId: "1", userId, role: "ORG_ROLE_MEMBER", ...extra },
        {
          originalRole: "ORG_ROLE_ADMIN",
          login,
          email: `${login}@acme.example`,
        },
      );
    expect(await preview(orgAdminsAllowed, [], config, [demoted("102", "bob")])).toEqual([
      expect.stringContaining('UserRole "u102" is removed from the program: its delete makes user 102 (bob) an org admin again'),
    ]);
    expect(await preview(orgAdminsAllowed, [], config, [demoted("101", "alice")])).toEqual([]); // allowed by email
    expect(await preview(orgAdminsAllowed, [], config, [demoted("102", "bob", { restoreOnDelete: false })])).toEqual([]);
    const kept = { kind: "UserRole" as const, name: "u102", props: { deploymentId: "1", userId: "102", role: "ORG_ROLE_MEMBER" } };
    expect(await preview(orgAdminsAllowed, [kept], config, [demoted("102", "bob")])).toEqual([]);
  });

  it("without credentials, refuses a user not named by id (fail closed)", async () => {
    expect(await preview(orgAdminsAllowed, admin("103"), { allowedAdmins: ["carol@acme.example"] })).toEqual([
      expect.stringContaining("without Semgrep credentials this policy cannot look up its login or email"),
    ]);
  });
});

describe("protected-projects-team-access", () => {
  let config: Record<string, unknown>;
  beforeEach(() => {
    config = { protectedProjectTags: ["pci"], allowedTeams: ["payments"], ...credentials() };
  });
  const team = (name: string, projects: string[]): Declared => ({ kind: "Team", name, props: { deploymentId: "1", name, projects } });

  it("flags another team given a pci project, and passes the allowed team or an unprotected project", async () => {
    expect(await preview(protectedProjectsTeamAccess, [team("web", ["acme/web-app", "acme/payments-api"])], config)).toEqual([
      expect.stringContaining("lets team web see acme/payments-api, tagged pci"),
    ]);
    expect(await preview(protectedProjectsTeamAccess, [team("payments", ["acme/payments-api"])], config)).toEqual([]);
    expect(await preview(protectedProjectsTeamAccess, [team("web", ["acme/web-app"])], config)).toEqual([]);
  });

  it("names a TeamProjects' team through the API, and passes a project the team had in the last state", async () => {
    const grant: Declared = {
      kind: "TeamProjects",
      name: "appsec-pci",
      props: { deploymentId: "1", teamId: "201", projects: ["acme/payments-api"] },
    };
    expect(await preview(protectedProjectsTeamAccess, [grant], config)).toEqual([
      expect.stringContaining("lets team appsec see acme/payments-api"),
    ]);
    const had = [stateOf("TeamProjects", "appsec-pci", grant.props, { projects: ["acme/payments-api"] })];
    expect(await preview(protectedProjectsTeamAccess, [grant], config, had)).toEqual([]);
  });

  it("flags a protected tag given to a project another team already sees", async () => {
    const state = [stateOf("Team", "web", team("web", ["acme/web-app"]).props, { teamId: "300", slug: "web", projects: ["acme/web-app"] })];
    const tagged: Declared = {
      kind: "ProjectTags",
      name: "web-pci",
      props: { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["pci"] },
    };
    expect(await preview(protectedProjectsTeamAccess, [team("web", ["acme/web-app"]), tagged], config, state)).toEqual([
      expect.stringContaining("lets team web see acme/web-app, tagged pci"),
    ]);
    expect(await preview(protectedProjectsTeamAccess, [team("web", ["acme/web-app"])], config, state)).toEqual([]);
  });
});

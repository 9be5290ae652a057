/**
 * What `adopt` declares of what it read (provider/adopt/plan.ts) and the names it gives
 * (names.ts), from hand-made live deployments: every live value the program cannot declare is
 * left out with a note naming it, and the plan does not depend on the order of the service's answers.
 */
import { describe, expect, it } from "vitest";
import { resourceName, uniqueNames } from "../../provider/adopt/names";
import { type AdoptionPlan, DEFAULT_SET_THRESHOLD, planAdoption, projectEntries } from "../../provider/adopt/plan";
import { inputSchema } from "../../provider/core/kinds";
import type { LiveDeployment, LivePolicy } from "../../provider/adopt/read";
import {
  deploymentUser as deploymentUserSchema,
  detectionPolicySummary,
  notificationRuleOf,
  notificationRuleWire,
  productConfigOf,
  productConfigWire,
  team as teamSchema,
  teamUser as teamUserSchema,
  policy as policySchema,
  project as projectSchema,
  remediationPoliciesState,
  rule as ruleSchema,
} from "../../provider/client/schemas";

const DEPLOYMENT = { id: "1", slug: "acme" };

/** A project as the service answers it: on its default branch `refs/heads/main`, no tags, no managed scans. */
const project = (name: string, fields: Record<string, unknown> = {}) =>
  projectSchema.parse({
    id: 100,
    name,
    tags: [],
    default_branch: "refs/heads/main",
    primary_branch: "refs/heads/main",
    managed_scan_config: { diff_scan: { enabled: false }, full_scan: { enabled: false } },
    ...fields,
  });

/** A v1 policy and its rules, `[path, mode]` each. */
const policy = (id: string, slug: string, rules: [string, string][]): LivePolicy => ({
  policy: policySchema.parse({ id, name: `Policy ${slug}`, slug }),
  rules: rules.map(([path, policyMode], index) => ruleSchema.parse({ id: `${id}-${index}`, path, policyMode })),
});

const detection = (bundles: { code?: Record<string, unknown>; secrets?: Record<string, unknown> }) =>
  detectionPolicySummary.parse({
    deployment_slug: "acme",
    ...Object.fromEntries(
      Object.entries(bundles).map(([product, bundle]) => [
        product,
        {
          bundle: { deployment_slug: "acme", product, rulesets: [], rules: [], disabled: [], exceptions: [], ...bundle },
          state_version: "v1",
        },
      ]),
    ),
  });

const remediation = (policies: Record<string, unknown>[]) =>
  remediationPoliciesState.parse({ bundle: { deployment_slug: "acme", policies }, state_version: "r1" });

const plan = (live: Omit<LiveDeployment, "deployment">) => planAdoption({ deployment: DEPLOYMENT, ...live });
const onlyProject = (p: AdoptionPlan) => {
  expect(p.projects).toHaveLength(1);
  return p.projects[0]!;
};

describe("planAdoption: projects", () => {
  it("declares the tags (sorted, system tags left out) and the managed scans as live", () => {
    const declared = onlyProject(
      plan({
        projects: [
          project("acme/web", { tags: ["tier:1", "managed-scan", "team:web"], managed_scan_config: { diff_scan: { enabled: true } } }),
        ],
      }),
    );
    expect(declared.name).toBe("acme-web");
    expect(declared.args).toEqual({
      projectName: "acme/web",
      tags: ["team:web", "tier:1"],
      managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: false } },
    });
  });

  it("leaves out the primary branch equal to the default branch, with a note; declares one that differs", () => {
    const [same, other] = plan({
      projects: [project("acme/a"), project("acme/b", { primary_branch: "refs/heads/release" })],
    }).projects;
    expect(same!.args).not.toHaveProperty("primaryBranch");
    expect(same!.notes).toEqual([expect.stringMatching(/^primaryBranch left out: refs\/heads\/main is also the default branch/)]);
    expect(other!.args.primaryBranch).toBe("refs/heads/release");
    expect(other!.notes).toEqual([]);
  });

  it("does not declare a bare branch name (main) in another form (refs/heads/main): left out with a note naming it", () => {
    for (const [primary, defaultBranch] of [
      ["main", "refs/heads/main"],
      ["develop", "refs/heads/main"],
    ]) {
      const declared = onlyProject(plan({ projects: [project("acme/a", { primary_branch: primary, default_branch: defaultBranch })] }));
      expect(declared.args).not.toHaveProperty("primaryBranch");
      expect(declared.notes).toEqual([
        `primaryBranch left out: the live value "${primary}" cannot be declared (the resource would write it in another form)`,
      ]);
    }
  });

  it("says so when the service gives no branch at all", () => {
    const declared = onlyProject(plan({ projects: [project("acme/a", { primary_branch: null, default_branch: null })] }));
    expect(declared.args).not.toHaveProperty("primaryBranch");
    expect(declared.notes).toEqual(["primaryBranch left out: the service gives none"]);
  });

  it.each([
    { case: "leading white space", tag: " padded", why: "a tag must not start or end with white space" },
    { case: "longer than 256 characters", tag: "x".repeat(257), why: "a tag must be at most 256 characters" },
  ])("a tag the resource refuses ($case): the whole tag set left out, with a note naming the value", ({ tag, why }) => {
    const declared = onlyProject(plan({ projects: [project("acme/a", { tags: ["team:web", tag] })] }));
    expect(declared.args).not.toHaveProperty("tags");
    expect(declared.args.managedScanConfig).toBeDefined(); // the other fields still declared
    const note = declared.notes.find((n) => n.startsWith("tags left out: "));
    expect(note).toBe(`tags left out: the live value ${JSON.stringify(["team:web", tag].sort())} cannot be declared (${why})`);
  });

  it("a project whose name the resource refuses is not declared at all, and said so", () => {
    const result = plan({ projects: [project("acme/has space"), project("acme/fine")] });
    expect(result.projects.map((p) => p.args.projectName)).toEqual(["acme/fine"]);
    expect(result.leftOut).toEqual([expect.stringMatching(/^project acme\/has space: .*projectName: must not contain white space/)]);
  });

  it("names colliding projects --2 (the project whose name maps exactly keeps the plain name), the same whatever order the service lists them in", () => {
    const projects = [project("acme/web-app"), project("acme/Web_App"), project("acme/web-app-2"), project("acme/api")];
    const names = (list: typeof projects) => Object.fromEntries(plan({ projects: list }).projects.map((p) => [p.args.projectName, p.name]));
    const expected = {
      "acme/api": "acme-api",
      "acme/Web_App": "acme-web-app--2",
      "acme/web-app": "acme-web-app",
      "acme/web-app-2": "acme-web-app-2",
    };
    expect(names(projects)).toEqual(expected);
    for (const order of permutations(projects)) expect(names(order)).toEqual(expected);
    expect(new Set(Object.values(expected)).size).toBe(4);
  });
});

describe("planAdoption: one ProjectSettingsSet above the set threshold", () => {
  /** `count` projects, `acme/p-000` …, one tagged, one on another branch, one with a tag the resources refuse. */
  const many = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      project(`acme/p-${String(i).padStart(3, "0")}`, {
        ...(i === 1 ? { tags: ["team:web", "managed-scan"] } : {}),
        ...(i === 2 ? { primary_branch: "refs/heads/trunk" } : {}),
        ...(i === 3 ? { tags: [" padded"] } : {}),
      }),
    );

  it.each([
    { count: DEFAULT_SET_THRESHOLD + 1, form: {}, set: true },
    { count: DEFAULT_SET_THRESHOLD, form: {}, set: false },
    { count: 6, form: { setThreshold: 5 }, set: true },
    { count: 5, form: { setThreshold: 5 }, set: false },
    { count: 1, form: { setThreshold: 0 }, set: true },
    { count: 0, form: { setThreshold: 0 }, set: false },
    { count: 6, form: { setThreshold: 5, onePerProject: true }, set: false },
  ])("$count projects, $form: a set $set", ({ count, form, set }) => {
    const planned = planAdoption({ deployment: DEPLOYMENT, projects: many(count) }, form);
    expect(planned.projectSet).toEqual(set ? { name: "projects" } : undefined);
    expect(planned.projects).toHaveLength(count);
  });

  it("the set's entries are the ProjectSettings' fields and notes, by project name, and pass the set's own check", () => {
    const single = planAdoption({ deployment: DEPLOYMENT, projects: many(6) }, { setThreshold: 6 });
    const set = planAdoption({ deployment: DEPLOYMENT, projects: many(6) }, { setThreshold: 5 });
    expect(set.projects).toEqual(single.projects); // the same fields, left-out fields and notes in both forms
    const entries = projectEntries(set.projects);
    expect(Object.keys(entries)).toEqual(set.projects.map((p) => p.args.projectName));
    expect(entries["acme/p-001"]).toEqual({
      tags: ["team:web"],
      managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } },
    });
    expect(entries["acme/p-002"]).toMatchObject({ primaryBranch: "refs/heads/trunk" });
    expect(entries["acme/p-003"]).not.toHaveProperty("tags"); // left out with a note, as for its ProjectSettings
    expect(set.projects[3]!.notes.join()).toContain("tags left out");
    const checked = inputSchema("ProjectSettingsSet").safeParse({ deploymentSlug: "acme", projects: entries });
    expect(checked.success && checked.data.projects).toEqual(entries);
  });

  it("only the projects declared count (after --projects, without those left out), and the set's name is not a policy's", () => {
    const refused = project("not a project name");
    const planned = planAdoption(
      { deployment: DEPLOYMENT, projects: [...many(2), refused], policies: [policy("10", "projects", [])] },
      { setThreshold: 2 },
    );
    expect(planned.projects).toHaveLength(2);
    expect(planned.projectSet).toBeUndefined();
    const above = planAdoption(
      { deployment: DEPLOYMENT, projects: many(3), policies: [policy("10", "projects", [])] },
      { setThreshold: 2 },
    );
    expect(above.ruleModes[0]!.name).toBe("projects");
    expect(above.projectSet).toEqual({ name: "projects--2" });
  });
});

describe("planAdoption: v1 policies", () => {
  it("declares every rule's mode, sorted by path; a rule whose path is not a rule path or whose mode is unknown is left out with a note", () => {
    const [declared] = plan({
      policies: [
        policy("10", "default-sast-policy", [
          ["python.b.rule", "MODE_BLOCK"],
          ["python.a.rule", "MODE_MONITOR"],
          ["not a rule path", "MODE_BLOCK"],
          ["python.c.rule", "MODE_SHOUT"],
          ["python.d.rule", "MODE_DISABLED"],
        ]),
      ],
    }).ruleModes;
    expect(declared!.name).toBe("default-sast-policy");
    expect(declared!.args).toEqual({ policyId: "10" });
    expect(Object.entries(declared!.modes)).toEqual([
      ["python.a.rule", "MODE_MONITOR"],
      ["python.b.rule", "MODE_BLOCK"],
      ["python.d.rule", "MODE_DISABLED"],
    ]);
    expect(declared!.notes).toEqual([
      'rule "not a rule path" left out: not a rule path PolicyRuleModes takes',
      "rule python.c.rule left out: its mode MODE_SHOUT is not one PolicyRuleModes sets",
    ]);
  });

  it("a rule listed twice with two modes is left out with a note, whatever the listing's order; listed twice with one mode, declared once", () => {
    const rules: [string, string][] = [
      ["python.twice.rule", "MODE_BLOCK"],
      ["python.same.rule", "MODE_COMMENT"],
      ["python.twice.rule", "MODE_MONITOR"],
      ["python.same.rule", "MODE_COMMENT"],
    ];
    for (const order of [rules, [...rules].reverse()]) {
      const [declared] = plan({ policies: [policy("10", "sast", order)] }).ruleModes;
      expect(declared!.modes).toEqual({ "python.same.rule": "MODE_COMMENT" });
      expect(declared!.notes).toEqual([
        "rule python.twice.rule left out: listed with 2 modes (MODE_BLOCK, MODE_MONITOR), so none is the live one",
      ]);
    }
  });

  it("orders policies by numeric id and names them by slug, --2 on a collision", () => {
    const policies = [policy("12", "sast", []), policy("9", "Sast", []), policy("10", "secrets", [])];
    const expected = [
      ["9", "sast--2"],
      ["10", "secrets"],
      ["12", "sast"],
    ];
    for (const order of permutations(policies))
      expect(plan({ policies: order }).ruleModes.map((p) => [p.policyId, p.name])).toEqual(expected);
  });
});

describe("planAdoption: unified policies", () => {
  const unified = (bundles: Parameters<typeof detection>[0], policies: Record<string, unknown>[] = []) => ({
    detection: detection(bundles),
    remediation: remediation(policies),
  });

  it("declares each product's lists sorted; a secrets bundle without rulesets declares none", () => {
    const result = plan({
      unified: unified({
        code: { rulesets: ["p/owasp-top-ten", "p/default"], rules: ["b.rule", "a.rule"], disabled: ["z.rule", "y.rule"] },
        secrets: { disabled: ["s.rule"] },
      }),
    });
    expect(result.detectionPolicies.map((p) => [p.name, p.args])).toEqual([
      [
        "detection-code",
        {
          product: "code",
          rulesets: ["p/default", "p/owasp-top-ten"],
          rules: ["a.rule", "b.rule"],
          disabled: ["y.rule", "z.rule"],
          exceptions: [],
        },
      ],
      ["detection-secrets", { product: "secrets", rules: [], disabled: ["s.rule"], exceptions: [] }],
    ]);
    expect(result.detectionPolicies.flatMap((p) => p.notes)).toEqual([]);
    expect(result.absent).toEqual(["v1 policies (the deployment uses unified policies)"]);
  });

  it("a secrets bundle with rulesets: the rulesets left out with a note naming them (the resource takes none)", () => {
    const [secrets] = plan({ unified: unified({ secrets: { rulesets: ["p/secrets"], disabled: ["s.rule"] } }) }).detectionPolicies;
    expect(secrets!.args).toEqual({ product: "secrets", rules: [], disabled: ["s.rule"], exceptions: [] });
    expect(secrets!.notes).toEqual([
      'rulesets left out: the live value ["p/secrets"] cannot be declared (must be left out or empty for product secrets: a secrets detection policy takes no rulesets)',
    ]);
  });

  it("declares remediation policies by slug; one the resource cannot declare is left out and said so", () => {
    const filters = { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] };
    const result = plan({
      unified: unified({}, [
        { slug: "zeta", name: "Zeta", active: true, filters, actions: [{ type: "pr_comment" }, { type: "block" }] },
        { slug: "alpha", name: "Alpha", description: "d", active: false, filters, actions: [{ type: "pr_comment" }] },
        { slug: "faxed", name: "Faxed", active: true, filters, actions: [{ type: "fax" }] },
      ]),
    });
    expect(result.remediationPolicies.map((p) => [p.name, p.args.slug, p.args.active])).toEqual([
      ["alpha", "alpha", false],
      ["zeta", "zeta", true],
    ]);
    expect(result.leftOut).toEqual([
      expect.stringMatching(
        /^remediation policy faxed: actions left out: the live value \[\{"type":"fax"\}\] cannot be declared \(must be one of /,
      ),
    ]);
  });
});

describe("planAdoption: order of the service's answers", () => {
  it("the same plan whatever order projects, policies, rules and remediation policies come in", () => {
    const filters = { mode: "any", conditions: [{ type: "product", values: ["secrets"] }] };
    const live = {
      projects: [
        project("acme/web-app", { tags: ["b", "a"] }),
        project("acme/Web_App", { primary_branch: "refs/heads/dev" }),
        project("acme/api"),
        project("acme/docs", { tags: [" bad"] }),
      ],
      policies: [
        policy("11", "secrets", [
          ["s.two", "MODE_BLOCK"],
          ["s.one", "MODE_MONITOR"],
        ]),
        policy("10", "sast", [
          ["p.c", "MODE_COMMENT"],
          ["p.a", "MODE_BLOCK"],
          ["bad", "MODE_BLOCK"],
        ]),
      ],
      unified: {
        detection: detection({ code: { rulesets: ["p/b", "p/a"] } }),
        remediation: remediation([
          { slug: "b", name: "B", active: true, filters, actions: [{ type: "pr_comment" }] },
          { slug: "a", name: "A", active: true, filters, actions: [{ type: "pr_comment" }] },
        ]),
      },
    };
    const expected = plan(live);
    expect([
      expected.projects.length,
      expected.ruleModes.length,
      expected.detectionPolicies.length,
      expected.remediationPolicies.length,
    ]).toEqual([4, 2, 1, 2]);
    expect(expected.projects.map((p) => p.name)).toEqual(["acme-web-app--2", "acme-api", "acme-docs", "acme-web-app"]);
    // The shuffles do change the order.
    expect(
      new Set(
        [1, 2, 3, 4, 5, 6, 7, 8].map((seed) =>
          shuffle(live.projects, seed)
            .map((p) => p.name)
            .join(),
        ),
      ),
    ).not.toEqual(new Set([live.projects.map((p) => p.name).join()]));
    for (let seed = 1; seed <= 8; seed++) {
      const shuffled = {
        projects: shuffle(live.projects, seed),
        policies: shuffle(live.policies, seed).map((p) => ({ ...p, rules: shuffle(p.rules, seed + 1) })),
        unified: {
          detection: live.unified.detection,
          remediation: {
            ...live.unified.remediation,
            bundle: { ...live.unified.remediation.bundle, policies: shuffle(live.unified.remediation.bundle.policies, seed) },
          },
        },
      };
      expect(plan(shuffled)).toEqual(expected);
    }
  });
});

describe("names", () => {
  it("resourceName: lower-case letters, digits and single dashes", () => {
    expect(resourceName("acme/Web_App")).toBe("acme-web-app");
    expect(resourceName("--Acme//API..v2--")).toBe("acme-api-v2");
    expect(resourceName("///")).toBe("unnamed");
  });

  it("uniqueNames: the exact name keeps it, look-alikes --2, --3 in order, never another project's own name", () => {
    expect(uniqueNames(["acme/Web_App", "acme/web-app", "ACME/web app", "other"])).toEqual([
      "acme-web-app--2",
      "acme-web-app",
      "acme-web-app--3",
      "other",
    ]);
    // The cold trial's set: a later look-alike no longer renames the project that maps exactly.
    expect(uniqueNames(["ACME/Infra", "acme-infra", "acme/infra", "acme/infra-2"])).toEqual([
      "acme-infra--3",
      "acme-infra--2",
      "acme-infra",
      "acme-infra-2",
    ]);
    // An org/repo project keeps its name when a project spelt with a dash appears later.
    expect(uniqueNames(["a/b"])).toEqual(["a-b"]);
    expect(uniqueNames(["a-b", "a/b"])).toEqual(["a-b--2", "a-b"]);
    expect(uniqueNames(["acme/infra", "acme/infra-2"])).toEqual(["acme-infra", "acme-infra-2"]);
  });
});

/** Every order of `items` (a few items only). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

/** `items` in an order fixed by `seed` (a small linear congruential generator). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

// ---- The access settings ---------------------------------------------------------------------

const team = (id: number, name: string, members: [string, string][], projects: string[], parentTeamId?: number) => ({
  team: teamSchema.parse({ id, name, slug: name, ...(parentTeamId ? { parentTeamId } : {}) }),
  members: members.map(([userId, role]) => teamUserSchema.parse({ userId, role })),
  projects,
});
const user = (id: string, login: string, orgRole: string) =>
  deploymentUserSchema.parse({ id, login, name: login.toUpperCase(), email: `${login}@acme.example`, orgRole });
const rule = (id: number, name: string, config: Record<string, string>) =>
  notificationRuleOf(
    notificationRuleWire.parse({ id, name, channel: "CHANNEL_WEBHOOK", config, is_enabled: true, policy_slugs: ["b", "a"] }),
  );

describe("planAdoption: the access settings", () => {
  it("teams: parents before children (each naming its parent's resource), members and projects as live, sorted", () => {
    // Listed child first, grandchild before both: the plan orders them by depth.
    const p = plan({
      teams: [
        team(3, "leads", [["101", "TEAM_ROLE_MANAGER"]], [], 2),
        team(
          2,
          "appsec",
          [
            ["102", "TEAM_ROLE_MEMBER"],
            ["101", "TEAM_ROLE_MANAGER"],
          ],
          ["acme/web", "acme/api"],
          1,
        ),
        team(1, "security", [], []),
      ],
    });
    expect(p.teams.map((t) => [t.name, t.parent])).toEqual([
      ["security", undefined],
      ["appsec", "security"],
      ["leads", "appsec"],
    ]);
    expect(p.teams[1]!.args).toEqual({
      name: "appsec",
      members: { "101": "TEAM_ROLE_MANAGER", "102": "TEAM_ROLE_MEMBER" },
      projects: ["acme/api", "acme/web"],
    });
    // The parent is a reference to the parent Team, not its id: no parentTeamId in the arguments.
    expect(p.teams.every((t) => !("parentTeamId" in t.args))).toBe(true);
  });

  it("a team with a member role the kind does not take is left out whole, with a note (declared without the member, up would remove it)", () => {
    const p = plan({ teams: [team(1, "odd", [["101", "TEAM_ROLE_SUPERVISOR"]], [])] });
    expect(p.teams).toEqual([]);
    expect(p.leftOut.join("\n")).toMatch(/^team odd: members left out: the live value .*TEAM_ROLE_SUPERVISOR/);
  });

  it("resource names: a team, a rule or a user never takes a name of a project or of an earlier access resource", () => {
    const p = plan({
      projects: [project("web")],
      teams: [team(1, "web", [], [])],
      notificationRules: [rule(1, "web", { channel: "#alerts" })],
      users: [user("101", "web", "ORG_ROLE_ADMIN")],
    });
    expect([p.projects[0]!.name, p.teams[0]!.name, p.notificationRules[0]!.name, p.userRoles[0]!.name]).toEqual([
      "web",
      "web--2",
      "web--3",
      "web--4",
    ]);
  });

  it("the product configuration: every field the kind manages, as live (the provider list sorted)", () => {
    const settings = productConfigOf(
      productConfigWire.parse({
        sast: { enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST" },
        sca: { enabled: true, blockPrEnabled: true },
        ai: { enabled: true, allowed_providers: ["openai", "anthropic"], mdr_enabled: true },
        approversTag: "appsec",
      }),
    );
    const p = plan({ settings });
    expect(p.deploymentSettings).toEqual({
      name: "deployment-settings",
      notes: [],
      args: {
        sast: { enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST", humanAutofixEnabled: false },
        sca: {
          enabled: true,
          blockPrEnabled: true,
          prCommentsEnabled: false,
          maliciousDependencyAdvisoriesEnabled: false,
          malwareFirewallEnabled: false,
          upgradeGuidanceEnabled: false,
          triagePermission: "TRIAGE_PERMISSION_IGNORE",
        },
        secrets: { enabled: false, triagePermission: "TRIAGE_PERMISSION_IGNORE" },
        ai: { enabled: true, legacyAllowOpenaiCodeSharing: false, allowedProviders: ["anthropic", "openai"] },
        hasDeveloperTriage: false,
        approversTag: "appsec",
      },
    });
    expect(inputSchema("DeploymentSettings").safeParse({ deploymentId: "1", ...p.deploymentSettings!.args }).success).toBe(true);
  });

  it("a notification rule: each config value the kind holds as a secret becomes a secret config key (a placeholder in the plan), the rest as live", () => {
    const p = plan({
      notificationRules: [rule(7, "Critical to SOC", { url: "https://hooks.example/T0KEN", channel: "#soc", apiToken: "abc" })],
    });
    const [declared] = p.notificationRules;
    expect(declared!.secrets).toEqual([
      { field: "apiToken", configKey: "criticalToSocApiToken", value: "abc" },
      { field: "url", configKey: "criticalToSocUrl", value: "https://hooks.example/T0KEN" },
    ]);
    expect(declared!.args.config).toEqual({
      apiToken: "\u0000secret:criticalToSocApiToken",
      channel: "#soc",
      url: "\u0000secret:criticalToSocUrl",
    });
    expect(JSON.stringify(declared!.args)).not.toContain("T0KEN");
    expect(declared!.args.policySlugs).toEqual(["a", "b"]);
  });

  it("org roles: a UserRole per org admin by default, the others counted in one note; every user with allUsers; a role the kind does not take left out", () => {
    const users = [
      user("103", "carol", "ORG_ROLE_MEMBER"),
      user("101", "alice", "ORG_ROLE_ADMIN"),
      user("104", "erin", "ORG_ROLE_READONLY"),
      user("105", "support", "ORG_ROLE_IMPERSONATOR"),
    ];
    const admins = plan({ users });
    expect(admins.userRoles.map((u) => [u.name, u.args])).toEqual([["alice", { userId: "101", role: "ORG_ROLE_ADMIN" }]]);
    expect(admins.accessNotes).toEqual([expect.stringMatching(/^org roles: 3 users in ORG_ROLE_MEMBER or ORG_ROLE_READONLY not declared/)]);
    const all = planAdoption({ deployment: DEPLOYMENT, users }, { allUsers: true });
    expect(all.userRoles.map((u) => [u.name, u.args.role])).toEqual([
      ["alice", "ORG_ROLE_ADMIN"],
      ["carol", "ORG_ROLE_MEMBER"],
      ["erin", "ORG_ROLE_READONLY"],
    ]);
    expect(all.leftOut).toEqual([
      expect.stringMatching(/^the org role of user support \(105\): role left out: the live value "ORG_ROLE_IMPERSONATOR"/),
    ]);
    expect(all.accessNotes).toEqual([]);
  });

  it("an area the service does not serve is a note, not an error", () => {
    const p = plan({
      unserved: ["the users' org roles (DeploymentService users, experimental): the service does not serve users.list (HTTP 404)"],
    });
    expect(p.userRoles).toEqual([]);
    expect(p.accessNotes).toEqual([expect.stringContaining("does not serve users.list")]);
  });
});

/**
 * The generated files as text (provider/adopt/render.ts), for a small plan: one rule per line in
 * the policies' data files (a one-rule change is a one-line diff), notes as wrapped comments,
 * and the same bytes for the same plan.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type AdoptionPlan, planAdoption, projectEntries } from "../../provider/adopt/plan";
import type { LiveDeployment } from "../../provider/adopt/read";
import { type RenderContext, renderProject } from "../../provider/adopt/render";
import { PROJECT_SETTINGS_CONFIG, renderYamlProject, yamlEntries } from "../../provider/adopt/render-yaml";
import {
  deploymentUser,
  notificationRuleOf,
  notificationRuleWire,
  policy,
  productConfigOf,
  productConfigWire,
  project,
  rule,
  team,
  teamUser,
} from "../../provider/client/schemas";

const CONTEXT: RenderContext = { version: "1.2.3", pulumiRange: "^3.200.0", command: "pulumi-semgrep adopt --deployment acme" };

const RULES: [string, string][] = [
  ["python.lang.security.audit.eval-detected.eval-detected", "MODE_BLOCK"],
  ["javascript.browser.security.insecure-document-method.insecure-document-method", "MODE_COMMENT"],
  ["go.lang.security.audit.net.use-tls.use-tls", "MODE_MONITOR"],
  ["not-a-rule-path", "MODE_BLOCK"],
];

/** A deployment of two projects (one with a tag the resource refuses) and one v1 policy of four rules (one not declarable). */
function live(order: "as-listed" | "reversed" = "as-listed"): LiveDeployment {
  const arrange = <T>(items: T[]) => (order === "reversed" ? [...items].reverse() : items);
  const projects = arrange([
    project.parse({
      id: 1,
      name: "acme/web-app",
      tags: ["tier:1", "team:web"],
      default_branch: "refs/heads/main",
      primary_branch: "refs/heads/main",
    }),
    project.parse({ id: 2, name: "acme/legacy", tags: [" padded"], default_branch: "refs/heads/main", primary_branch: "refs/heads/trunk" }),
  ]);
  const rules = arrange(RULES.map(([path, policyMode], index) => rule.parse({ id: String(index), path, policyMode })));
  return {
    deployment: { id: "1", slug: "acme" },
    projects,
    policies: [{ policy: policy.parse({ id: "10", name: "Default SAST Policy", slug: "default-sast-policy" }), rules }],
  };
}

const render = (order?: "as-listed" | "reversed") => renderProject(planAdoption(live(order)), CONTEXT).files;

describe("renderProject", () => {
  it("writes the project's files, and nothing outside them", () => {
    expect(Object.keys(render())).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "index.ts",
      "package.json",
      "policies/default-sast-policy.ts",
      "projects.ts",
      "tsconfig.json",
    ]);
    const packageJson = JSON.parse(render()["package.json"]!) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies).toEqual({ "@pulumi/pulumi": "^3.200.0", "pulumi-semgrep": "1.2.3" });
  });

  it("the README says how to install the package when it is not on the npm registry: npm pack in a clone, a tarball's path", () => {
    const readme = render()["README.md"]!.replace(/\s+/g, " ");
    expect(readme).toContain("## Installing pulumi-semgrep");
    expect(readme).toContain("`package.json` depends on `pulumi-semgrep` 1.2.3, from the npm registry.");
    expect(readme).toContain("in a clone of pulumi-semgrep, `npm ci && npm pack` writes `pulumi-semgrep-<version>.tgz`");
    expect(readme).toContain(
      'Set `"pulumi-semgrep": "file:<path to the tarball, from this directory>"` in `package.json`, then `npm install`',
    );
    expect(readme).toContain("`pulumi-semgrep adopt --package <path to the tarball>` writes it so from the start");
  });

  it("with --package: package.json depends on the spec given, and the README names it", () => {
    const files = renderProject(planAdoption(live()), { ...CONTEXT, package: "file:../pulumi-semgrep-1.2.3.tgz" }).files;
    const packageJson = JSON.parse(files["package.json"]!) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies).toEqual({ "@pulumi/pulumi": "^3.200.0", "pulumi-semgrep": "file:../pulumi-semgrep-1.2.3.tgz" });
    const readme = files["README.md"]!.replace(/\s+/g, " ");
    expect(readme).toContain(
      "`package.json` installs `pulumi-semgrep` from `file:../pulumi-semgrep-1.2.3.tgz`, as adopt's `--package` said",
    );
    expect(readme).toContain('set `"pulumi-semgrep": "1.2.3"` there and run `npm install` again');
    // Only package.json and the README differ from a run without it.
    const plain = render();
    expect(Object.keys(files).filter((path) => files[path] !== plain[path])).toEqual(["README.md", "package.json"]);
  });

  it("a policy's data file holds one rule per line, sorted by path; the rule left out is a comment", () => {
    const text = render()["policies/default-sast-policy.ts"]!;
    const body = text.slice(text.indexOf("export const modes: Record<string, PolicyMode> = {\n"));
    const lines = body.split("\n").slice(1, -2);
    expect(body.split("\n").at(-2)).toBe("};");
    expect(lines).toEqual([
      '  "go.lang.security.audit.net.use-tls.use-tls": "MODE_MONITOR",',
      '  "javascript.browser.security.insecure-document-method.insecure-document-method": "MODE_COMMENT",',
      '  "python.lang.security.audit.eval-detected.eval-detected": "MODE_BLOCK",',
    ]);
    expect(text).toContain('// rule "not-a-rule-path" left out: not a rule path PolicyRuleModes takes\n');
    // index.ts reads the map from the data file.
    expect(render()["index.ts"]).toContain(
      'new PolicyRuleModes("default-sast-policy", { deploymentId, policyId: "10", modes: policy10.modes });',
    );
  });

  it("notes become comments wrapped at 100 columns, words whole, saying the whole note", () => {
    const text = render()["projects.ts"]!;
    const comments = text.split("\n").filter((line) => line.trimStart().startsWith("//") && line.startsWith("    "));
    expect(comments.length).toBeGreaterThan(2);
    for (const line of comments) expect(line.length).toBeLessThanOrEqual(100);
    const said = comments.map((line) => line.trim().slice(3)).join(" ");
    expect(said).toContain("primaryBranch left out: refs/heads/main is also the default branch, and the service does not say whether");
    expect(said).toContain('tags left out: the live value [" padded"] cannot be declared (a tag must not start or end with white space)');
    // The project pinned to another branch declares it; the refused tags are not declared.
    expect(text).toContain('primaryBranch: "refs/heads/trunk",');
    expect(text).toContain('tags: ["team:web", "tier:1"],');
    expect(text.match(/^\s+tags:/gm)).toHaveLength(1);
  });

  it("a quoted value stays whole in a wrapped comment: a tag's leading white space is not lost at a line break", () => {
    const long = `team:${"x".repeat(80)}`;
    const plan = planAdoption({
      deployment: { id: "1", slug: "acme" },
      projects: [
        project.parse({
          id: 1,
          name: "acme/a",
          tags: [" padded", long],
          default_branch: "refs/heads/main",
          primary_branch: "refs/heads/x",
        }),
      ],
    });
    const text = renderProject(plan, CONTEXT).files["projects.ts"]!;
    expect(text).toContain(`    // ${JSON.stringify([" padded", long])}\n`);
  });

  it("the same bytes for the same plan, whatever order the service listed things in", () => {
    const first = render();
    expect(render()).toEqual(first);
    expect(render("reversed")).toEqual(first);
    expect(Object.values(first).join("")).not.toMatch(/undefined|NaN|\[object Object\]/);
  });
});

// ---- Above --set-threshold: the projects as one ProjectSettingsSet, its map in a data file. ----

/** The live deployment with its two projects declared as one set (threshold 1). */
const setPlan = (change?: (live: LiveDeployment) => void) => {
  const deployment = live();
  change?.(deployment);
  return planAdoption(deployment, { setThreshold: 1 });
};

/** The lines of `after` that differ from `before`'s, as a line-by-line comparison of two texts of as many lines. */
function changedLines(before: string, after: string): string[] {
  const [a, b] = [before.split("\n"), after.split("\n")];
  expect(b).toHaveLength(a.length);
  return b.filter((line, i) => line !== a[i]);
}

/** A tag added to acme/web-app. */
const addTag = (deployment: LiveDeployment) => {
  deployment.projects!.find((p) => p.name === "acme/web-app")!.tags.push("tier:2");
};

describe("renderProject: the projects as one ProjectSettingsSet (above --set-threshold)", () => {
  it("index.ts declares one ProjectSettingsSet reading projects.ts, and no ProjectSettings", () => {
    const files = renderProject(setPlan(), CONTEXT).files;
    expect(files["index.ts"]).toContain('import { PolicyRuleModes, ProjectSettingsSet } from "pulumi-semgrep";');
    expect(files["index.ts"]).toContain('import { projects } from "./projects";');
    expect(files["index.ts"]).toContain('new ProjectSettingsSet("projects", { deploymentSlug, projects });');
    expect(files["index.ts"]).not.toContain("new ProjectSettings(");
    expect(files["index.ts"]).toContain("//   projects.ts: the fields of 2 projects for one ProjectSettingsSet");
    expect(files["README.md"]).toContain("The 2 projects are one `ProjectSettingsSet`");
  });

  it("projects.ts maps each project's name to its fields, one project per line group, sorted, its notes as comments", () => {
    const plan = setPlan();
    const text = renderProject(plan, CONTEXT).files["projects.ts"]!;
    expect(text).toContain('import type { ProjectEntryArgs } from "pulumi-semgrep";');
    expect(text).toContain("export const projects: Record<string, ProjectEntryArgs> = {\n");
    const body = text.slice(text.indexOf("= {\n") + 4);
    expect(body).toBe(
      [
        '  "acme/legacy": {',
        '    // tags left out: the live value [" padded"] cannot be declared (a tag must not start or end',
        "    // with white space)",
        '    primaryBranch: "refs/heads/trunk",',
        "    managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } },",
        "  },",
        '  "acme/web-app": {',
        "    // primaryBranch left out: refs/heads/main is also the default branch, and the service does not",
        '    // say whether the project follows it ("None") or is pinned to it ("refs/heads/main")',
        '    tags: ["team:web", "tier:1"],',
        "    managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } },",
        "  },",
        "};",
        "",
      ].join("\n"),
    );
    // The same values the ProjectSettings form declares, in an object TypeScript would evaluate to projectEntries.
    const evaluated = new Function(`return {\n${body.replace(/\/\/.*\n/g, "").replace(/;\n$/, "")}`)() as unknown;
    expect(evaluated).toEqual(projectEntries(plan.projects));
  });

  it("a tag added to one project changes one line of projects.ts, and nothing else", () => {
    const [before, after] = [setPlan(), setPlan(addTag)].map((plan) => renderProject(plan, CONTEXT).files);
    expect(changedLines(before!["projects.ts"]!, after!["projects.ts"]!)).toEqual(['    tags: ["team:web", "tier:1", "tier:2"],']);
    expect(after!["index.ts"]).toBe(before!["index.ts"]);
  });

  it("--one-per-project and at the threshold: one ProjectSettings each, as before", () => {
    const onePer = planAdoption(live(), { setThreshold: 1, onePerProject: true });
    const atThreshold = planAdoption(live(), { setThreshold: 2 });
    for (const plan of [onePer, atThreshold]) {
      const files = renderProject(plan, CONTEXT).files;
      expect(files).toEqual(render());
      expect(files["index.ts"]).toContain("new ProjectSettings(name, { deploymentSlug, ...project });");
    }
  });
});

// ---- --language yaml: the same plan as a Pulumi YAML program. ----

/** Pulumi YAML reads `$$` as `$` (and `${…}` as an interpolation): the program's strings as Pulumi YAML reads them. */
function asPulumiReads(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\$\$/g, "$");
  if (Array.isArray(value)) return value.map(asPulumiReads);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [asPulumiReads(k) as string, asPulumiReads(v)]));
  return value;
}

type YamlResource = { type: string; properties: Record<string, unknown> };
const mainOf = (files: Record<string, string>) => parse(files["Main.yaml"]!) as { resources: Record<string, YamlResource> };
const renderYaml = (plan: AdoptionPlan) => renderYamlProject(plan, { ...CONTEXT, command: `${CONTEXT.command} --language yaml` }).files;

/** Texts a hand-written emitter gets wrong: spaces, unicode, quotes, backslashes, colons, `#`, leading dashes, YAML words, `$`. */
const AWKWARD = [
  " padded ",
  "ünïcødé ✓ 🚀",
  'say "hi"',
  "back\\slash",
  "key: value",
  "a # not a comment",
  "- leading dash",
  "? question",
  "true",
  "null",
  "123",
  "${resource.output} and $$ and $",
  "tab\there\nnew line",
  "\u0085\u2028\u007f\ufeff",
  "@at `tick` | pipe > gt % pct & amp * star ! bang",
  "",
];

/** A plan with every kind, its strings the awkward ones. */
function awkwardPlan(): AdoptionPlan {
  return {
    teams: [],
    notificationRules: [],
    userRoles: [],
    accessNotes: [],
    deployment: { id: "1", slug: "acme" },
    projects: [
      {
        name: "acme-web-app",
        args: { projectName: "acme/web app: #1", tags: AWKWARD.filter(Boolean), managedScanConfig: { diffScan: { enabled: true } } },
        notes: ['primaryBranch left out: "main" # and a\nline break'],
      },
      { name: "true", args: { projectName: "- dash/project", primaryBranch: "refs/heads/ü" }, notes: [] },
    ],
    ruleModes: [
      {
        name: "default-sast-policy",
        policyId: "10",
        policyName: 'Default "SAST": #1',
        args: { policyId: "10" },
        modes: { "a.b-c": "MODE_BLOCK", "python.x_y.z": "MODE_MONITOR" },
        notes: ['rule "bad path" left out: not a rule path PolicyRuleModes takes'],
      },
    ],
    detectionPolicies: [
      {
        name: "detection-code",
        args: {
          product: "code",
          rulesets: ["p/default", "p/owasp-top-ten"],
          rules: [],
          disabled: ["a.b"],
          exceptions: [{ exceptionType: "exclude", projectName: "acme/web app: #1", rule: "a.b", ruleType: "rule" }],
        },
        notes: [],
      },
    ],
    remediationPolicies: AWKWARD.map((text, i) => ({
      name: `policy-${i}`,
      args: {
        slug: `policy-${i}`,
        policyName: text,
        description: text,
        active: i % 2 === 0,
        filters: { mode: "all", conditions: [] },
        actions: [{ type: "block" }],
      },
      notes: [],
    })),
    absent: [],
    leftOut: ["project acme/gone: listed, then gone when adopt read it (deleted meanwhile)"],
  };
}

describe("renderYamlProject (adopt --language yaml)", () => {
  it("writes Pulumi.yaml, Main.yaml, README.md and .gitignore: no package.json, tsconfig.json or .ts file", () => {
    const files = renderYaml(planAdoption(live()));
    expect(Object.keys(files)).toEqual([".gitignore", "Main.yaml", "Pulumi.yaml", "README.md"]);
    expect(parse(files["Pulumi.yaml"]!)).toEqual({
      name: "semgrep-acme",
      runtime: "yaml",
      description: "Semgrep deployment acme, adopted by pulumi-semgrep adopt",
    });
    expect(files["README.md"]).toContain(
      "pulumi plugin install resource semgrep 1.2.3 --file pulumi-resource-semgrep-v1.2.3-<os>-<arch>.tar.gz",
    );
    expect(files["README.md"]).toContain("pulumi config set --secret semgrep:token");
    // The plugin from the registry's package, or from a tarball of a build that is not published there.
    expect(files["README.md"]).toContain("npm install -g pulumi-semgrep@1.2.3 (puts pulumi-resource-semgrep on the PATH)");
    expect(files["README.md"]!.replace(/\s+/g, " ")).toContain(
      "in a clone of pulumi-semgrep, `npm ci && npm pack` writes `pulumi-semgrep-<version>.tgz`; `npm install -g <path to the tarball>` installs it",
    );
    expect(files["README.md"]).toMatch(/pulumi up +# records the resources: it finds everything as declared and writes nothing/);
  });

  it("with --package: the README installs the plugin from the spec given", () => {
    const readme = renderYamlProject(planAdoption(live()), { ...CONTEXT, package: "file:../pulumi-semgrep-1.2.3.tgz" }).files["README.md"]!;
    expect(readme).toContain("npm install -g file:../pulumi-semgrep-1.2.3.tgz (puts pulumi-resource-semgrep on the PATH)");
    expect(readme.replace(/\s+/g, " ")).toContain("`file:../pulumi-semgrep-1.2.3.tgz` is adopt's `--package`");
  });

  it("declares the TypeScript program's resources, by the same names, as semgrep:index:<Kind> with the plan's values", () => {
    const plan = planAdoption(live());
    const { resources } = mainOf(renderYaml(plan));
    expect(resources).toEqual({
      "acme-legacy": {
        type: "semgrep:index:ProjectSettings",
        properties: { deploymentSlug: "acme", ...plan.projects[0]!.args },
      },
      "acme-web-app": {
        type: "semgrep:index:ProjectSettings",
        properties: { deploymentSlug: "acme", ...plan.projects[1]!.args },
      },
      "default-sast-policy": {
        type: "semgrep:index:PolicyRuleModes",
        properties: { deploymentId: "1", policyId: "10", modes: plan.ruleModes[0]!.modes },
      },
    });
    // The TypeScript program's names for the same plan.
    const ts = render();
    for (const name of ["acme-legacy", "acme-web-app"]) expect(ts["projects.ts"]).toContain(`  "${name}": {`);
    expect(ts["index.ts"]).toContain('new PolicyRuleModes("default-sast-policy"');
  });

  it("one rule per line in modes, sorted; the notes are # comments where the TypeScript program has them", () => {
    const text = renderYaml(planAdoption(live()))["Main.yaml"]!;
    const lines = text.split("\n");
    const at = lines.indexOf("      modes:");
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '        "go.lang.security.audit.net.use-tls.use-tls": "MODE_MONITOR"',
      '        "javascript.browser.security.insecure-document-method.insecure-document-method": "MODE_COMMENT"',
      '        "python.lang.security.audit.eval-detected.eval-detected": "MODE_BLOCK"',
    ]);
    expect(text).toContain('  # rule "not-a-rule-path" left out: not a rule path PolicyRuleModes takes\n');
    expect(text).toContain(
      '\n      # tags left out: the live value [" padded"] cannot be declared (a tag must not start or end\n      # with white space)\n',
    );
    // The notes' comments are wrapped at 100 columns (the header names the command as given).
    expect(lines.filter((line) => /^ +#/.test(line) && line.length > 100)).toEqual([]);
  });

  it("the same bytes for the same plan, whatever order the service listed things in", () => {
    expect(renderYaml(planAdoption(live("reversed")))).toEqual(renderYaml(planAdoption(live())));
    expect(renderYaml(planAdoption(live()))).toEqual(renderYaml(planAdoption(live())));
  });

  it("awkward strings in keys and values parse back to exactly the plan's values, `$` as Pulumi YAML reads it", () => {
    const plan = awkwardPlan();
    const files = renderYaml(plan);
    const parsed = mainOf(files);
    const { resources } = asPulumiReads(parsed) as { resources: Record<string, YamlResource> };
    expect(Object.keys(resources)).toEqual([
      "acme-web-app",
      "true",
      "default-sast-policy",
      "detection-code",
      ...AWKWARD.map((_, i) => `policy-${i}`),
    ]);
    expect(resources["acme-web-app"]!.properties).toEqual({ deploymentSlug: "acme", ...plan.projects[0]!.args });
    expect(resources["true"]!.properties).toEqual({ deploymentSlug: "acme", ...plan.projects[1]!.args });
    expect(resources["detection-code"]!.properties).toEqual({ deploymentId: "1", ...plan.detectionPolicies[0]!.args });
    plan.remediationPolicies.forEach((policy) =>
      expect(resources[policy.name]).toEqual({
        type: "semgrep:index:RemediationPolicy",
        properties: { deploymentId: "1", ...policy.args },
      }),
    );
    // Each `$` doubled in the file: no string becomes an interpolation.
    expect(files["Main.yaml"]).toContain('"$${resource.output} and $$$$ and $$"');
    // The notes' line breaks never end a comment early (the file parsed), and they are in it.
    expect(files["Main.yaml"]).toContain('# primaryBranch left out: "main" # and a\\u000aline break');
    // The exceptions, one per line like the rule lists.
    expect(files["Main.yaml"]).toContain(
      '      exceptions:\n        - { exceptionType: "exclude", projectName: "acme/web app: #1", rule: "a.b", ruleType: "rule" }\n',
    );
  });

  it("any JSON value and key round-trips through the emitter (generated)", () => {
    const key = fc.string({ unit: "binary", maxLength: 12 });
    const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), fc.integer({ min: 20, max: 120 }), (object, width) => {
        const text = `${yamlEntries(object, "", new Set(), width).join("\n")}\n`;
        const back = Object.keys(object).length ? asPulumiReads(parse(text)) : {};
        expect(back).toEqual(object);
      }),
      { numRuns: 300 },
    );
  });
});

describe("renderYamlProject: the projects as one ProjectSettingsSet (above --set-threshold)", () => {
  type PulumiYaml = { config: Record<string, { type: string; value?: Record<string, unknown> }> };
  type MainYaml = { config: Record<string, { type: string }>; resources: Record<string, YamlResource> };

  it("Main.yaml declares one ProjectSettingsSet whose projects is the config value Pulumi.yaml holds, typed object", () => {
    const plan = setPlan();
    const files = renderYaml(plan);
    const main = parse(files["Main.yaml"]!) as MainYaml;
    expect(main.config).toEqual({ [PROJECT_SETTINGS_CONFIG]: { type: "object" } });
    expect(main.resources).toEqual({
      projects: {
        type: "semgrep:index:ProjectSettingsSet",
        properties: { deploymentSlug: "acme", projects: `\${${PROJECT_SETTINGS_CONFIG}}` },
      },
      "default-sast-policy": expect.objectContaining({ type: "semgrep:index:PolicyRuleModes" }) as unknown,
    });
    const project = parse(files["Pulumi.yaml"]!) as PulumiYaml;
    // The value as Pulumi passes it to the program: no `$` doubled, the same entries as the TypeScript program's.
    expect(project.config).toEqual({ [PROJECT_SETTINGS_CONFIG]: { type: "object", value: projectEntries(plan.projects) } });
    expect(files["README.md"]!.replace(/\s+/g, " ")).toContain("Pulumi YAML reads its program from `Main.yaml` alone");
  });

  it("a `$` in a tag is written as it is in Pulumi.yaml (a config value is not interpolated)", () => {
    const plan = setPlan(
      (deployment) => void deployment.projects!.find((p) => p.name === "acme/web-app")!.tags.push("price: $5 ${not.an.interpolation}"),
    );
    const text = renderYaml(plan)["Pulumi.yaml"]!;
    expect(text).toContain('"price: $5 ${not.an.interpolation}"');
    const value = (parse(text) as PulumiYaml).config[PROJECT_SETTINGS_CONFIG]!.value!;
    expect(value["acme/web-app"]).toMatchObject({ tags: ["price: $5 ${not.an.interpolation}", "team:web", "tier:1"] });
  });

  it("one project per line group with its notes as # comments; a tag added to one project changes one line of Pulumi.yaml", () => {
    const [before, after] = [setPlan(), setPlan(addTag)].map(renderYaml);
    expect(before!["Pulumi.yaml"]).toContain(
      [
        '      "acme/legacy":',
        '        # tags left out: the live value [" padded"] cannot be declared (a tag must not start or end',
        "        # with white space)",
        '        primaryBranch: "refs/heads/trunk"',
        "        managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: false } }",
        '      "acme/web-app":',
      ].join("\n"),
    );
    expect(changedLines(before!["Pulumi.yaml"]!, after!["Pulumi.yaml"]!)).toEqual(['        tags: ["team:web", "tier:1", "tier:2"]']);
    expect(after!["Main.yaml"]).toBe(before!["Main.yaml"]);
  });

  it("--one-per-project: one ProjectSettings each, Pulumi.yaml without config, as before", () => {
    expect(renderYaml(planAdoption(live(), { setThreshold: 1, onePerProject: true }))).toEqual(renderYaml(planAdoption(live())));
  });
});

// ---- The access settings ---------------------------------------------------------------------

const WEBHOOK = "https://hooks.example/T0KEN-abc";

/** Teams (one nested), the product configuration, a webhook rule and two users, listed in the given order. */
function accessLive(order: "as-listed" | "reversed" = "as-listed"): LiveDeployment {
  const arrange = <T>(items: T[]) => (order === "reversed" ? [...items].reverse() : items);
  return {
    deployment: { id: "1", slug: "acme" },
    teams: arrange([
      {
        team: team.parse({ id: 2, name: "appsec", slug: "appsec" }),
        members: arrange([
          teamUser.parse({ userId: "101", role: "TEAM_ROLE_MANAGER" }),
          teamUser.parse({ userId: "102", role: "TEAM_ROLE_MEMBER" }),
        ]),
        projects: arrange(["acme/web", "acme/api"]),
      },
      { team: team.parse({ id: 3, name: "appsec leads", slug: "appsec-leads", parentTeamId: 2 }), members: [], projects: [] },
    ]),
    settings: productConfigOf(productConfigWire.parse({ sast: { enabled: true }, ai: { allowed_providers: ["anthropic"] } })),
    notificationRules: [
      notificationRuleOf(
        notificationRuleWire.parse({ id: 9, name: "SOC", channel: "CHANNEL_WEBHOOK", config: { url: WEBHOOK }, is_enabled: true }),
      ),
    ],
    users: arrange([
      deploymentUser.parse({ id: "101", name: "Alice", login: "alice", orgRole: "ORG_ROLE_ADMIN" }),
      deploymentUser.parse({ id: "102", name: "Bob", login: "bob", orgRole: "ORG_ROLE_MEMBER" }),
    ]),
  };
}

describe("the access settings, rendered", () => {
  const ts = (order?: "as-listed" | "reversed") => renderProject(planAdoption(accessLive(order)), CONTEXT).files;
  const yaml = (order?: "as-listed" | "reversed") => renderYamlProject(planAdoption(accessLive(order)), CONTEXT).files;

  it("teams.ts: one member and one project a line, the child naming its parent's resource after it", () => {
    expect(ts()["teams.ts"]).toBe(
      [
        "// The deployment's teams: one Team each, by resource name, parents before their children.",
        "// Generated by `pulumi-semgrep adopt --deployment acme` (pulumi-semgrep 1.2.3) from what was live.",
        "// Each team's members (user id → TEAM_ROLE_MANAGER, TEAM_ROLE_MEMBER or TEAM_ROLE_READONLY) and",
        "// projects are the whole lists: getUsers gives a user's id.",
        'import type { TeamArgs } from "pulumi-semgrep";',
        "",
        'export const teams: Record<string, Omit<TeamArgs, "deploymentId"> & { parent?: string }> = {',
        '  "appsec": {',
        '    name: "appsec",',
        "    members: {",
        '      "101": "TEAM_ROLE_MANAGER",',
        '      "102": "TEAM_ROLE_MEMBER",',
        "    },",
        "    projects: [",
        '      "acme/api",',
        '      "acme/web",',
        "    ],",
        "  },",
        '  "appsec-leads": {',
        '    name: "appsec leads",',
        '    parent: "appsec",',
        "    members: {},",
        "    projects: [],",
        "  },",
        "};",
        "",
      ].join("\n"),
    );
    expect(ts()["index.ts"]).toContain("    ...(parent === undefined ? {} : { parentTeamId: teamResources[parent]!.teamId }),\n");
  });

  it("index.ts: the rule's URL read with config.requireSecret, never written; the admins in user-roles.ts, the others counted", () => {
    const files = ts();
    expect(files["index.ts"]).toContain(
      [
        'new NotificationRule("soc", {',
        "  deploymentId,",
        '  name: "SOC",',
        '  channel: "CHANNEL_WEBHOOK",',
        '  config: { url: config.requireSecret("socUrl") },',
        "  policySlugs: [],",
        "  enabled: true,",
        "  sendScanCompletion: false,",
        "  useNetworkBroker: false,",
        "});",
      ].join("\n"),
    );
    expect(files["index.ts"]).toContain('import * as pulumi from "@pulumi/pulumi";\n');
    expect(files["index.ts"]).toContain("const config = new pulumi.Config();\n");
    expect(files["user-roles.ts"]).toContain('  // Alice (alice)\n  "alice": { userId: "101", role: "ORG_ROLE_ADMIN" },\n};\n');
    expect(files["index.ts"]).toContain("// org roles: 1 user in ORG_ROLE_MEMBER or ORG_ROLE_READONLY not declared");
    expect(files["README.md"]).toContain("pulumi config set --secret socUrl < secrets/socUrl\nrm -r secrets");
    expect(files[".gitignore"]).toBe("node_modules/\nbin/\nsecrets/\n");
    for (const [path, text] of Object.entries({ ...files, ...yaml() })) expect(text, path).not.toContain("T0KEN");
  });

  it("Main.yaml: the secret a `secret: true` config key, the rule reading it, the child's parentTeamId the parent's teamId", () => {
    const files = yaml();
    const main = parse(files["Main.yaml"]!) as {
      config: Record<string, unknown>;
      resources: Record<string, { type: string; properties: Record<string, unknown> }>;
    };
    expect(main.config).toEqual({ socUrl: { type: "string", secret: true } });
    expect(main.resources.soc!.properties.config).toEqual({ url: "${socUrl}" });
    expect(main.resources["appsec-leads"]!.properties).toEqual({
      deploymentId: "1",
      name: "appsec leads",
      parentTeamId: "${appsec.teamId}",
      members: {},
      projects: [],
    });
    expect(Object.keys(main.resources)).toEqual(["appsec", "appsec-leads", "deployment-settings", "soc", "alice"]);
    expect(main.resources.alice).toEqual({
      type: "semgrep:index:UserRole",
      properties: { deploymentId: "1", userId: "101", role: "ORG_ROLE_ADMIN" },
    });
  });

  it("the same bytes whatever the order of the service's answers", () => {
    expect(ts("reversed")).toEqual(ts());
    expect(yaml("reversed")).toEqual(yaml());
  });
});

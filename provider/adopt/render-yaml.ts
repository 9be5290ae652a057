/**
 * The generated project as a Pulumi YAML program (`adopt --language yaml`), for the native plugin
 * `pulumi-resource-semgrep`: the same plan, resource names and notes as the TypeScript program,
 * each resource `semgrep:index:<Kind>` with its properties. The project (name, runtime,
 * description) is `Pulumi.yaml` and the program `Main.yaml` beside it, as Pulumi's own converter
 * writes a YAML program (`pulumi convert --language yaml`): the project file stays a few lines that
 * stack settings are added to, and a one-rule change is a one-line diff of the program. Above the
 * set threshold the projects are one ProjectSettingsSet whose map is Pulumi.yaml's config value
 * `projectSettings`: the one data file a Pulumi YAML program can read (it has no function that
 * parses a file), typed, and never rewritten by `pulumi config set` (which writes the stack's file).
 *
 * No YAML library at run time: every string is written double-quoted in JSON's escapes (valid
 * YAML), with the characters YAML does not print escaped too, and in the program each `$` doubled
 * (Pulumi YAML reads `${…}` in a string as an interpolation and `$$` as `$`; a config value is
 * passed as it is, so there it stays one `$`). Same plan, same bytes.
 */
import { type AdoptionPlan, codePointOrder, type Declared, DEFAULT_SET_THRESHOLD, projectEntries } from "./plan";
import { installArgument } from "./package-spec";
import { type RenderContext, type RenderedProject, RULE_LISTS, wrap } from "./render";
import { accessConfig, accessCounts, accessResources } from "./render-yaml-access";
import { SECRETS_DIR, secretSteps } from "./render-access";

/** Characters JSON leaves raw that YAML does not allow unescaped (DEL, C1 controls, BOM, non-characters), and the line separators. */
const NOT_PRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/** `\u0085`: a character written as its escape. */
const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A string as a YAML double-quoted scalar that a YAML reader reads back as exactly `text`. */
export const yamlQuoted = (text: string) => JSON.stringify(text).replace(NOT_PRINTABLE, escape);

/** A string of the program (a value or a key) that Pulumi YAML reads back as exactly `text`: quoted, each `$` doubled. */
export const yamlString = (text: string) => yamlQuoted(text.replace(/\$/g, "$$$$"));

/** A comment's text on one line: control and line-break characters (YAML 1.1 readers break at NEL and LS) as escapes. */
const commentText = (text: string) =>
  [...text]
    .map((c) => (c.charCodeAt(0) < 0x20 ? escape(c) : c))
    .join("")
    .replace(NOT_PRINTABLE, escape);

/** Words a YAML reader may take for a boolean or null when bare (YAML 1.1 readers included). */
const RESERVED = new Set(["true", "false", "null", "yes", "no", "on", "off", "y", "n"]);

/**
 * How a string is quoted: {@link yamlString} in the program (Pulumi YAML reads `${…}` there), or
 * {@link yamlQuoted} in a config value, which Pulumi passes to the program as it is.
 */
type Quote = (text: string) => string;

/** A mapping key: bare when it is a plain word (a property name, a resource name), quoted otherwise. */
export const yamlKey = (key: string, quote: Quote = yamlString) =>
  /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) && !RESERVED.has(key.toLowerCase()) ? key : quote(key);

/** A scalar: strings quoted, numbers, booleans and null as JSON writes them. */
const scalar = (value: unknown, quote: Quote) => (typeof value === "string" ? quote(value) : JSON.stringify(value));

/** A value on one line, in YAML's flow style: `{ enabled: true }`, `["a", "b"]`. */
function flow(value: unknown, quote: Quote = yamlString): string {
  if (typeof value !== "object" || value === null) return scalar(value, quote);
  if (Array.isArray(value)) return `[${value.map((item) => flow(item, quote)).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? `{ ${entries.map(([k, v]) => `${yamlKey(k, quote)}: ${flow(v, quote)}`).join(", ")} }` : "{}";
}

/**
 * `key: value` lines at `indent`: a value that fits in `width` on one line stays there in flow
 * style, otherwise a block, one entry per line. Lists named in `longLists` always go one element
 * per line (each element whole on its line): a one-rule change is then a one-line diff. Strings
 * are quoted by `quote`: for the program unless said.
 */
export function yamlEntries(
  value: Record<string, unknown>,
  indent: string,
  longLists: ReadonlySet<string> = new Set(),
  width = 100,
  quote: Quote = yamlString,
): string[] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .flatMap(([key, item]) => {
      const head = `${indent}${yamlKey(key, quote)}:`;
      const inner = `${indent}  `;
      if (Array.isArray(item) && item.length && longLists.has(key))
        return [head, ...item.map((element) => `${inner}- ${flow(element, quote)}`)];
      const inline = `${head} ${flow(item, quote)}`;
      if (
        typeof item !== "object" ||
        item === null ||
        inline.length <= width ||
        (Array.isArray(item) ? !item.length : !Object.keys(item).length)
      )
        return [inline];
      if (Array.isArray(item)) return [head, ...item.map((element) => `${inner}- ${flow(element, quote)}`)];
      return [head, ...yamlEntries(item as Record<string, unknown>, inner, longLists, width, quote)];
    });
}

/** Each note as `#` comment lines at `indent`, wrapped at 100 columns. */
export const comments = (notes: readonly string[], indent: string) =>
  notes.flatMap((note) => wrap(commentText(note), 100 - indent.length - 2).map((line) => `${indent}# ${line}`));

/**
 * One resource of Main.yaml: comments before it, its name, type token and properties: the
 * deployment first, then the project's name and the notes about its fields, then the fields.
 */
export function resource(
  name: string,
  kind: string,
  deployment: Record<string, unknown>,
  args: Record<string, unknown>,
  options: { before?: string[]; notes?: string[]; longLists?: ReadonlySet<string> } = {},
) {
  const { projectName, ...rest } = args;
  return [
    ...comments(options.before ?? [], "  "),
    `  ${yamlKey(name)}:`,
    `    type: semgrep:index:${kind}`,
    "    properties:",
    ...yamlEntries({ ...deployment, ...(projectName === undefined ? {} : { projectName }) }, "      "),
    ...comments(options.notes ?? [], "      "),
    ...yamlEntries(rest, "      ", options.longLists),
  ];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The resources of the plan, as Main.yaml's `resources:` entries, in the TypeScript program's order. */
function resources(plan: AdoptionPlan): string[][] {
  const { deployment } = plan;
  const projects = plan.projectSet
    ? [projectSetResource(plan, plan.projectSet.name)]
    : plan.projects.map((project: Declared, index) =>
        resource(project.name, "ProjectSettings", { deploymentSlug: deployment.slug }, project.args, {
          before:
            index === 0
              ? [
                  "One ProjectSettings per project: each field given is managed (tags are the whole set, the system tags such as managed-scan aside); a field left out is not.",
                ]
              : [],
          notes: project.notes,
        }),
      );
  const ruleModes = plan.ruleModes.map((policy) => {
    const modes = Object.entries(policy.modes).map(([path, mode]) => `        ${yamlKey(path)}: ${yamlString(mode)}`);
    return [
      ...comments(
        [
          `v1 policy ${JSON.stringify(policy.policyName)} (id ${policy.policyId}): every rule's mode, one rule per line. Change a mode and \`pulumi up\` sets it; a rule removed from modes is no longer managed.`,
          ...policy.notes,
        ],
        "  ",
      ),
      `  ${yamlKey(policy.name)}:`,
      "    type: semgrep:index:PolicyRuleModes",
      "    properties:",
      ...yamlEntries({ deploymentId: deployment.id, policyId: policy.policyId }, "      "),
      modes.length ? "      modes:" : "      modes: {}",
      ...modes,
    ];
  });
  const detection = plan.detectionPolicies.map((policy) =>
    resource(policy.name, "DetectionPolicy", { deploymentId: deployment.id }, policy.args, {
      before: [`The ${String(policy.args.product)} detection policy: each list is the whole list, as live.`, ...policy.notes],
      longLists: RULE_LISTS,
    }),
  );
  const remediation = plan.remediationPolicies.map((policy, index) =>
    resource(policy.name, "RemediationPolicy", { deploymentId: deployment.id }, policy.args, {
      before: [
        ...(index === 0 ? ["The remediation policies, by slug (the service's system-managed policies are not listed)."] : []),
        ...policy.notes,
      ],
    }),
  );
  return [...projects, ...ruleModes, ...detection, ...remediation, ...accessResources(plan)];
}

/**
 * The config key, declared in Main.yaml and valued in Pulumi.yaml, that holds a ProjectSettingsSet's
 * `projects` map. Camel case: no resource name adopt writes (lower case and dashes) can take it.
 */
export const PROJECT_SETTINGS_CONFIG = "projectSettings";

/** The ProjectSettingsSet of every project, its map read from the config value Pulumi.yaml holds. */
function projectSetResource(plan: AdoptionPlan, name: string): string[] {
  return [
    ...comments(
      [
        `Every project in one ProjectSettingsSet: its projects map, by project name, is Pulumi.yaml's ${PROJECT_SETTINGS_CONFIG} ` +
          "(one project per line group). Each field given is managed (tags are the whole set, the system tags such as managed-scan " +
          "aside); a field left out is not. One resource rather than one per project keeps up and preview fast and the state " +
          "small; adopt --one-per-project writes one ProjectSettings each instead.",
      ],
      "  ",
    ),
    `  ${yamlKey(name)}:`,
    "    type: semgrep:index:ProjectSettingsSet",
    "    properties:",
    ...yamlEntries({ deploymentSlug: plan.deployment.slug }, "      "),
    `      projects: \${${PROJECT_SETTINGS_CONFIG}}`,
  ];
}

/**
 * Pulumi.yaml's `config:` block holding the set's map as a project-level value of type `object`:
 * one project per line group (its notes as comments, then one field a line), sorted. Strings are
 * quoted without doubling `$`: Pulumi passes a config value to the program as it is.
 */
function projectSettingsConfig(plan: AdoptionPlan): string {
  const notes = new Map(plan.projects.map((project) => [String(project.args.projectName), project.notes]));
  const entries = Object.entries(projectEntries(plan.projects)).flatMap(([name, fields]) => [
    `      ${yamlKey(name, yamlQuoted)}:`,
    ...comments(notes.get(name) ?? [], "        "),
    ...yamlEntries(fields, "        ", new Set(), 100, yamlQuoted),
  ]);
  return [
    ...comments(
      [
        `${PROJECT_SETTINGS_CONFIG}: the fields the ProjectSettingsSet in Main.yaml manages, by project name, one project per ` +
          "line group. Edit it here; a project removed from it is no longer managed (it gets back what the set changed on it). " +
          `Do not set ${PROJECT_SETTINGS_CONFIG} with pulumi config set: a stack's value would replace this one whole.`,
      ],
      "",
    ),
    "config:",
    `  ${PROJECT_SETTINGS_CONFIG}:`,
    "    type: object",
    "    value:",
    ...entries,
    "",
  ].join("\n");
}

/** Pulumi.yaml, Main.yaml, README.md and .gitignore of the YAML program. */
export function renderYamlProject(plan: AdoptionPlan, context: RenderContext): RenderedProject {
  const { deployment } = plan;
  const name = `semgrep-${deployment.slug}`;
  const declared = resources(plan);
  const main = [
    `# Semgrep deployment ${JSON.stringify(deployment.slug)} (id ${deployment.id}) as code.`,
    `# Generated by \`${context.command}\` (pulumi-semgrep ${context.version}) from what was live.`,
    "# The first `pulumi up` finds every value as declared: it records the resources and changes",
    "# nothing on Semgrep. From then on this program is the configuration: edit, preview, review, up.",
    ...comments(
      plan.leftOut.map((line) => `Not declared: ${line}`),
      "",
    ),
    ...plan.absent.map((what) => `# Not in this deployment: ${what}.`),
    ...comments(plan.accessNotes, ""),
    "",
    ...(plan.projectSet || accessConfig(plan).length
      ? [
          "config:",
          ...(plan.projectSet
            ? [
                `  # The ProjectSettingsSet's projects map: its value is in Pulumi.yaml.`,
                `  ${PROJECT_SETTINGS_CONFIG}:`,
                "    type: object",
              ]
            : []),
          ...accessConfig(plan),
          "",
        ]
      : []),
    ...(declared.length
      ? ["resources:", ...declared.flatMap((lines, i) => (i ? ["", ...lines] : lines))]
      : ["# Nothing to declare: the areas read hold nothing.", "resources: {}"]),
    "",
  ].join("\n");
  const files: Record<string, string> = {
    "Pulumi.yaml":
      `name: ${yamlQuoted(name)}\n` +
      "runtime: yaml\n" +
      `description: ${yamlQuoted(`Semgrep deployment ${deployment.slug}, adopted by pulumi-semgrep adopt`)}\n` +
      "# The program is Main.yaml beside this file.\n" +
      (plan.projectSet ? projectSettingsConfig(plan) : ""),
    "Main.yaml": main,
    "README.md": readme(plan, context),
    ".gitignore":
      "# a plugin release tarball downloaded here for `pulumi plugin install --file`\npulumi-resource-semgrep-*.tar.gz\n" +
      (secretSteps(plan).length ? `# the secret config values adopt wrote, to be set into the stack and removed\n${SECRETS_DIR}/\n` : ""),
  };
  const counts = [
    plan.projectSet ? `1 ProjectSettingsSet (${plural(plan.projects.length, "project")})` : "",
    plan.projects.length && !plan.projectSet ? plural(plan.projects.length, "ProjectSettings", "ProjectSettings") : "",
    plan.ruleModes.length ? plural(plan.ruleModes.length, "PolicyRuleModes", "PolicyRuleModes") : "",
    plan.detectionPolicies.length ? plural(plan.detectionPolicies.length, "DetectionPolicy", "DetectionPolicy") : "",
    plan.remediationPolicies.length ? plural(plan.remediationPolicies.length, "RemediationPolicy", "RemediationPolicy") : "",
    ...accessCounts(plan),
  ].filter(Boolean);
  return {
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => codePointOrder(a, b))),
    holds: {
      "Main.yaml": `the resources: ${counts.join(", ") || "none"}`,
      "Pulumi.yaml": plan.projectSet
        ? `the project (runtime: yaml) and, as its config ${PROJECT_SETTINGS_CONFIG}, the fields of ${plural(plan.projects.length, "project")} for the ProjectSettingsSet`
        : "the project (runtime: yaml)",
    },
  };
}

function readme(plan: AdoptionPlan, context: RenderContext): string {
  return `# Semgrep deployment \`${plan.deployment.slug}\` as code (Pulumi YAML)

Generated by \`${context.command}\` (pulumi-semgrep ${context.version}) from what was live.
\`Main.yaml\` declares the resources, \`semgrep:index:<Kind>\` of the native plugin
\`pulumi-resource-semgrep\`; \`Pulumi.yaml\` is the project.
${
  plan.projectSet
    ? `
The ${plan.projects.length.toLocaleString("en-US")} projects are one \`ProjectSettingsSet\` (more than adopt's \`--set-threshold\`,
default ${DEFAULT_SET_THRESHOLD}): one resource rather than one per project keeps \`pulumi up\` and \`pulumi preview\`
fast and the state small. Its \`projects\` map, each project's name to the fields it manages, is the
config value \`${PROJECT_SETTINGS_CONFIG}\` in \`Pulumi.yaml\` (typed \`object\`), one project per line group,
sorted, so that a change to one project is a small diff of its group, and \`Main.yaml\` stays the
program. Why there: Pulumi YAML reads its program from \`Main.yaml\` alone and has no function that
parses a data file (\`fn::readFile\` gives text), while a project's config value is typed, passed
to the program as it is (a \`$\` there is a \`$\`, not doubled as in \`Main.yaml\`), and never rewritten
by \`pulumi config set\`, which writes the stack's own file. Edit the map in \`Pulumi.yaml\`; do not
set \`${PROJECT_SETTINGS_CONFIG}\` with \`pulumi config set\` (a stack's value replaces the whole map), and
expect \`pulumi config\` to print it on one line.
`
    : ""
}
## Next commands

\`\`\`sh
# The plugin, one of: npm install -g ${installArgument(context.package ?? context.version)} (puts pulumi-resource-semgrep on the PATH), or
pulumi plugin install resource semgrep ${context.version} --file pulumi-resource-semgrep-v${context.version}-<os>-<arch>.tar.gz
pulumi stack init ${plan.deployment.slug}
pulumi config set --secret semgrep:token    # prompts for a token of the deployment, kept encrypted in the stack's config
${secretSteps(plan)
  .map((line) => `${line}\n`)
  .join(
    "",
  )}pulumi up                                   # records the resources: it finds everything as declared and writes nothing to Semgrep
pulumi preview --expect-no-changes          # from now on, passes until someone changes the program or the web UI
\`\`\`

${
  context.package === undefined
    ? `A build that is not on the npm registry (a clone, a tarball someone sent): in a clone of
pulumi-semgrep, \`npm ci && npm pack\` writes \`pulumi-semgrep-<version>.tgz\`; \`npm install -g <path to
the tarball>\` installs it (\`pulumi-semgrep adopt --language yaml --package <path to the tarball>\`
writes that line so). \`npm run plugin:pack\` in the clone writes the plugin tarballs for
\`pulumi plugin install --file\` into \`dist/plugins/\`.`
    : `\`${context.package}\` is adopt's \`--package\` (a relative path is written as seen from this
directory). \`npm run plugin:pack\` in a clone of pulumi-semgrep writes the plugin tarballs for
\`pulumi plugin install --file\` into \`dist/plugins/\`.`
}

\`semgrep:token\` may be left unset when \`SEMGREP_APP_TOKEN\` is set in the environment of
\`pulumi up\`; \`pulumi config set semgrep:url <address>\` points at another service.

Then change the configuration here, in a pull request: \`pulumi preview\` shows what an edit
changes, \`pulumi up\` applies it. A scheduled \`pulumi preview --refresh --expect-no-changes\`
catches changes made in the web UI.

\`pulumi destroy\` puts back what this program changed since it was adopted (the first \`up\`
that changes a value records the value it replaces) and leaves everything else as it is.
`;
}

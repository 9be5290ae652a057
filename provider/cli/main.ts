#!/usr/bin/env node
/**
 * `pulumi-semgrep`: the package's command line. One subcommand today, `adopt`, which writes the
 * Pulumi program that declares a live deployment. Exit status 2 for a request that cannot be
 * carried out as given (a bad flag, a wrong token, an unknown deployment, a directory in use),
 * always before anything is written; 1 for a failure while reading.
 */
import { parseArgs } from "node:util";
import { argumentProblem, asksForHelp } from "./arguments";
import {
  AdoptRequestError,
  DEFAULT_SET_THRESHOLD,
  PACKAGE_VERSION,
  adopt,
  AREAS,
  type AdoptResult,
  type Area,
  type Language,
  LANGUAGES,
  TargetNotEmptyError,
} from "../adopt";
import {
  APIConnectionError,
  AuthenticationError,
  InvalidBaseUrlError,
  MissingTokenError,
  NotFoundError,
  PermissionDeniedError,
} from "../client/errors";

const USAGE = `Usage: pulumi-semgrep adopt --deployment <slug or id> [options]

Writes a Pulumi project declaring the deployment's configuration exactly as it is live, so that
its first \`pulumi up\` finds everything as declared and changes nothing.

  --deployment D     the deployment, by slug (e.g. acme) or numeric id (required)
  --out DIR          where to write the project (default ./semgrep-<slug>); must be absent or empty
  --projects GLOB    declare only the projects whose name matches (* any characters, / included;
                     ? one character); several times, or comma-separated (default all)
  --policies ID      declare only these v1 policies (id or slug); several times, or comma-separated
                     (default all)
  --skip AREA        do not read or declare one area: ${AREAS.join(" | ")};
                     several times (default none). teams: a Team each, with its members and
                     projects; settings: the product configuration as one DeploymentSettings;
                     notifications: a NotificationRule each (a config value that holds a URL or
                     a token is read from a secret config key, its value written to
                     DIR/secrets/<key>, git-ignored, for \`pulumi config set --secret\`); users: a
                     UserRole for each org admin. An experimental endpoint the service does not
                     serve leaves its area out, with a line in the summary
  --all-users        users: a UserRole for every user, not only the org admins (members and
                     read-only users have the default roles, left undeclared without it)
  --one-per-project  declare one ProjectSettings per project whatever their number (the form
                     adopt writes at or below --set-threshold)
  --set-threshold N  above N projects (those declared, after --projects), declare them as one
                     ProjectSettingsSet whose projects map is a data file, one project per line
                     group: projects.ts, or for yaml Pulumi.yaml's config projectSettings
                     (default ${DEFAULT_SET_THRESHOLD}); at or below N, one ProjectSettings each
  --language L       typescript (default): index.ts and data files using this package's
                     classes; yaml: a Pulumi YAML program (Pulumi.yaml, Main.yaml) of the native
                     plugin's resources (semgrep:index:<Kind>), no package.json
  --force            write into a non-empty DIR: replaces the files adopt writes (package.json
                     too) and removes the program files it no longer writes, the other
                     language's included (any .ts file in policies/ and detection-policies/,
                     projects.ts, remediation-policies.ts, teams.ts, user-roles.ts,
                     secrets/, index.ts, Main.yaml); a yaml run
                     leaves package.json, tsconfig.json and node_modules/ and names them (default
                     off: a non-empty DIR is refused)
  --url URL          the service's address (default SEMGREP_APP_URL, then SEMGREP_URL, then
                     https://semgrep.dev)
  --package SPEC     typescript: what the generated package.json installs pulumi-semgrep from
                     (default this version, ${PACKAGE_VERSION}, from the npm registry): any npm install
                     spec, written as given (a version range, a git URL, a file: path), but a
                     relative path (a tarball from \`npm pack\` in a clone: ./pulumi-semgrep-<v>.tgz),
                     which is written as seen from DIR; yaml: the README's \`npm install -g\` line
  -h, --help         this text (pulumi-semgrep --version prints the package's version)

The token is read from SEMGREP_APP_TOKEN (then SEMGREP_API_TOKEN) and is never written. Progress
goes to stderr, the summary to stdout.`;

/** A request that cannot be carried out as given: one line, exit status 2. */
class UsageError extends Error {}

const listFlag = (values: string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

function parseAdopt(argv: string[]) {
  if (asksForHelp(argv)) return undefined; // help first, whatever else is on the line
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        deployment: { type: "string" },
        out: { type: "string" },
        projects: { type: "string", multiple: true },
        policies: { type: "string", multiple: true },
        skip: { type: "string", multiple: true },
        force: { type: "boolean" },
        language: { type: "string" },
        url: { type: "string" },
        package: { type: "string" },
        "one-per-project": { type: "boolean" },
        "all-users": { type: "boolean" },
        "set-threshold": { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(argumentProblem(error));
  }
  const { values } = parsed;
  if (!values.deployment?.trim()) throw new UsageError("--deployment is required: the deployment's slug (e.g. acme) or numeric id");
  const skip = listFlag(values.skip);
  const unknown = skip.filter((area) => !(AREAS as readonly string[]).includes(area));
  if (unknown.length) throw new UsageError(`--skip ${unknown.join(",")}: not an area; give ${AREAS.join(", ")}`);
  if (values.out !== undefined && !values.out.trim()) throw new UsageError("--out must name a directory");
  const language = values.language ?? "typescript";
  if (!(LANGUAGES as readonly string[]).includes(language))
    throw new UsageError(`--language ${language}: not a language adopt writes; give ${LANGUAGES.join(" or ")}`);
  // An area both chosen from and skipped: which one was meant cannot be told, so neither is guessed.
  const projects = listFlag(values.projects);
  const policies = listFlag(values.policies);
  if (projects.length && skip.includes("projects")) throw new UsageError("--projects and --skip projects contradict: give one of them");
  if (policies.length && skip.includes("policies")) throw new UsageError("--policies and --skip policies contradict: give one of them");
  if (values["all-users"] && skip.includes("users")) throw new UsageError("--all-users and --skip users contradict: give one of them");
  const threshold = values["set-threshold"];
  if (threshold !== undefined && !/^\d+$/.test(threshold.trim()))
    throw new UsageError(`--set-threshold ${JSON.stringify(threshold)}: give a whole number of projects, e.g. ${DEFAULT_SET_THRESHOLD}`);
  return {
    deployment: values.deployment.trim(),
    onePerProject: values["one-per-project"] ?? false,
    allUsers: values["all-users"] ?? false,
    setThreshold: threshold === undefined ? undefined : Number(threshold.trim()),
    out: values.out,
    projects,
    policies,
    skip: skip as Area[],
    force: values.force ?? false,
    language: language as Language,
    url: values.url,
    package: values.package,
  };
}

/** A word as a POSIX shell takes it back: bare when plain, in single quotes otherwise. */
const shellQuoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** `--projects '*'` as the user typed it, for the generated files' header (never a token or an address). */
function commandLine(request: NonNullable<ReturnType<typeof parseAdopt>>): string {
  return [
    "pulumi-semgrep adopt",
    `--deployment ${shellQuoted(request.deployment)}`,
    ...request.projects.map((p) => `--projects ${shellQuoted(p)}`),
    ...request.policies.map((p) => `--policies ${shellQuoted(p)}`),
    ...request.skip.map((s) => `--skip ${s}`),
    ...(request.language === "yaml" ? ["--language yaml"] : []),
    ...(request.onePerProject ? ["--one-per-project"] : []),
    ...(request.allUsers ? ["--all-users"] : []),
    ...(request.setThreshold === undefined ? [] : [`--set-threshold ${request.setThreshold}`]),
    ...(request.package === undefined ? [] : [`--package ${shellQuoted(request.package)}`]),
  ].join(" ");
}

function summary(result: AdoptResult): string {
  const dir = result.dir.replace(/(.)\/+$/, "$1"); // `--out out/` is shown as out/, not out//
  const kinds = Object.entries(result.resources).filter(([, n]) => n > 0);
  const width = Math.max(...result.files.map((f) => f.path.length));
  // A new stack talks to https://semgrep.dev unless told: the address adopt read from, when another
  // (by the variable that holds it, or as the --url given: the output itself prints no address).
  const urlStep =
    result.urlSource === undefined
      ? ""
      : ` && pulumi config set semgrep:url ${/^[A-Z_]+$/.test(result.urlSource) ? `"$${result.urlSource}"` : "<the --url address>"}`;
  // The secret config values adopt wrote beside the program (never printed): into the stack, then gone.
  const secretStep = result.secretConfig.length
    ? `${result.secretConfig.map((key) => ` && pulumi config set --secret ${key} < secrets/${key}`).join("")} && rm -r secrets`
    : "";
  return [
    `Wrote ${dir}/ for deployment ${result.deployment.slug} (${result.deployment.id}):`,
    `  ${
      kinds
        .map(
          ([kind, n]) =>
            `${n} ${kind}${kind === "ProjectSettingsSet" ? ` (${result.projects.toLocaleString("en-US")} projects)` : ""}` +
            (kind === "PolicyRuleModes" && result.rules ? ` (${result.rules.toLocaleString("en-US")} rule modes)` : ""),
        )
        .join(", ") || "no resources"
    }`,
    ...result.files.map((f) => `  ${f.path.padEnd(width)}  ${String(f.bytes).padStart(9)} B${f.holds ? `  ${f.holds}` : ""}`),
    ...(result.notes.length
      ? [`Not declared (${result.notes.length}; each is a comment in the files):`, ...result.notes.map((n) => `  ${n}`)]
      : []),
    ...(result.leftOver.length
      ? [
          `Left as they were: ${result.leftOver.join(", ")} (a TypeScript project's; Pulumi.yaml now runs Main.yaml, runtime yaml): remove them if nothing else uses them`,
        ]
      : []),
    "Next:",
    result.language === "yaml"
      ? `  install the plugin pulumi-resource-semgrep (README.md), then: cd ${shellQuoted(dir)} && pulumi stack init ${result.deployment.slug} && pulumi config set --secret semgrep:token${urlStep}${secretStep} && pulumi up   # writes nothing to Semgrep`
      : `  cd ${shellQuoted(dir)} && npm install && pulumi stack init ${result.deployment.slug}${urlStep}${secretStep} && pulumi up   # writes nothing to Semgrep`,
  ].join("\n");
}

/** Errors about the request itself (exit 2), as opposed to a failure of the service while reading (AdoptReadError, exit 1). */
const isRequestError = (error: unknown) =>
  [
    UsageError,
    AdoptRequestError,
    TargetNotEmptyError,
    MissingTokenError,
    InvalidBaseUrlError,
    AuthenticationError,
    PermissionDeniedError,
    NotFoundError,
    APIConnectionError,
  ].some((kind) => error instanceof kind);

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

/**
 * The error as the command line says it. The client's MissingTokenError speaks to a Pulumi
 * program (`pulumi config set --secret semgrep:token`), which a command line has no use for: here
 * the token can only come from the environment.
 */
const messageOf = (error: unknown): string =>
  error instanceof MissingTokenError
    ? "no Semgrep API token: set SEMGREP_APP_TOKEN (or SEMGREP_API_TOKEN) to a token of the deployment"
    : oneLine((error as Error).message);

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    // Asked for, the usage is the output (stdout, status 0); without a command it is the error (stderr, status 2).
    (command === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  try {
    if (command.startsWith("-")) throw new UsageError(`unknown option ${command}`);
    if (command !== "adopt") throw new UsageError(`unknown command ${JSON.stringify(command)}: the one command is adopt`);
    const request = parseAdopt(rest);
    if (!request) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const seen = new Map<string, string>();
    const result = await adopt({
      ...request,
      command: commandLine(request),
      progress: (area, read, known) => {
        const line = known === undefined ? `${area}: ${read} read` : `${area}: ${read}/${known} read`;
        if (seen.get(area) === line) return;
        seen.set(area, line);
        process.stderr.write(`${line}\n`);
      },
    });
    process.stdout.write(`${summary(result)}\n`);
    return 0;
  } catch (error) {
    const where = command === "adopt" ? "pulumi-semgrep adopt" : "pulumi-semgrep";
    const hint = error instanceof UsageError ? ` (${where} --help lists the options)` : "";
    process.stderr.write(`${where}: ${messageOf(error)}${hint}\n`);
    return isRequestError(error) ? 2 : 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}

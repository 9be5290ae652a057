/**
 * `pulumi-semgrep adopt`: reads a live deployment and writes the Pulumi program that declares it,
 * so that the program's first `up` finds everything as declared and writes nothing.
 * read.ts reads, plan.ts decides what to declare, render.ts writes it as text, write.ts puts it on disk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SemgrepClient } from "../client";
import { DEFAULT_BASE_URL, resolveCredentials } from "../client/config";
import { type AdoptionPlan, DEFAULT_SET_THRESHOLD, planAdoption } from "./plan";
import { checkPackageSpec, dependencySpec } from "./package-spec";
import { AdoptRequestError, type Area, findDeployment, type Progress, readDeployment } from "./read";
import { renderProject } from "./render";
import { renderYamlProject } from "./render-yaml";
import { prepareDirectory, typescriptLeftovers, writeProject, writeSecrets } from "./write";
import { secretConfigs } from "./plan-access";

export { AREAS, type Area, AdoptRequestError, projectPattern } from "./read";

/** The service failed while adopt read the deployment (after the token and the deployment answered): exit status 1. */
export class AdoptReadError extends Error {}
export { TargetNotEmptyError } from "./write";

export interface AdoptOptions {
  /** The deployment's slug or numeric id. */
  deployment: string;
  /** Where to write the project; default `./semgrep-<slug>`. */
  out?: string;
  /** Project-name patterns (`*`, `?`): only matching projects are declared. */
  projects?: readonly string[];
  /** v1 policies (ids or slugs) to declare; default all. */
  policies?: readonly string[];
  /** Areas not to read or declare. */
  skip?: readonly Area[];
  /** Write into a non-empty directory (replacing the files adopt writes). */
  force?: boolean;
  /**
   * The program's language: `typescript` (the default: the classes of this package) or `yaml`
   * (a Pulumi YAML program of the native plugin's resources, `semgrep:index:<Kind>`).
   */
  language?: Language;
  /** The service's address; else `SEMGREP_APP_URL`, `SEMGREP_URL`, https://semgrep.dev. */
  url?: string;
  /** Where `url` came from, named in errors about it. Default `--url`. */
  urlSource?: string;
  /** The environment the token (and address) are read from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Receives progress while reading. */
  progress?: Progress;
  /** The command line shown in the generated files' headers. */
  command?: string;
  /**
   * What the generated project installs `pulumi-semgrep` from instead of this version from the
   * npm registry: any npm install spec (a version range, a tarball from `npm pack`, a `file:` path,
   * a git URL), written into package.json as given, but a relative path, which is written as seen
   * from the project's directory (package-spec.ts). The YAML program's README names it too.
   */
  package?: string;
  /**
   * Projects above which the deployment's projects (those declared, after `projects`) are declared
   * as one ProjectSettingsSet, its `projects` map in a data file (`projects.ts`, or `Pulumi.yaml`'s
   * `projectSettings` for a YAML program), instead of one ProjectSettings each (`--set-threshold`);
   * default {@link DEFAULT_SET_THRESHOLD}. Each project's fields and notes are the same in both forms.
   */
  setThreshold?: number;
  /** One ProjectSettings per project whatever their number (`--one-per-project`): the form at or below {@link AdoptOptions.setThreshold}. */
  onePerProject?: boolean;
  /**
   * A UserRole for every user (`--all-users`); by default only the org admins get one (members and
   * read-only users have the roles a user has unless made an admin).
   */
  allUsers?: boolean;
}

export { DEFAULT_SET_THRESHOLD };

/** The languages adopt writes a program in. */
export const LANGUAGES = ["typescript", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface AdoptResult {
  dir: string;
  language: Language;
  /** Files of a TypeScript project a YAML run found in the directory and left as they are (with --force). */
  leftOver: string[];
  deployment: { id: string; slug: string };
  /** Resources declared, by kind. */
  resources: Record<string, number>;
  /** Projects declared, as ProjectSettings or as the entries of one ProjectSettingsSet. */
  projects: number;
  /** Rules declared across the PolicyRuleModes. */
  rules: number;
  /** Every file written (relative path), its size and what it holds. */
  files: { path: string; bytes: number; holds?: string }[];
  /**
   * The secret config keys the program reads (a notification rule's webhook URL, a token), each
   * written to `secrets/<key>` (git-ignored, owner-only) for `pulumi config set --secret <key> < secrets/<key>`.
   */
  secretConfig: string[];
  /** Values and objects not declared, and why. */
  notes: string[];
  /**
   * Where the address came from (`--url`, `SEMGREP_APP_URL`, `SEMGREP_URL`) when not the default: a new
   * stack would talk to https://semgrep.dev, so the next commands set `semgrep:url` (named, not
   * printed: the output holds no address).
   */
  urlSource?: string;
}

/** This package's own package.json (two levels up from both provider/adopt and dist/adopt): the version the project depends on. */
const PACKAGE = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
};

/** The version of this package, which a generated project depends on. */
export const PACKAGE_VERSION = PACKAGE.version;

/**
 * The primary branches left out because they are ambiguous, as one line of the summary rather
 * than one per project (most projects are on their default branch); a primary branch left out
 * for another reason (a bare branch name the resource would write in another form) keeps its own line.
 */
function ambiguousBranches(projects: AdoptionPlan["projects"], file: string): string[] {
  const count = projects.filter((p) => p.commonNote !== undefined).length;
  if (!count) return [];
  return [
    `primaryBranch of ${count} project${count === 1 ? "" : "s"}: left out, being the default branch or none (the service does not ` +
      `say whether a project follows its default branch or is pinned to it: declare "None" or the branch yourself; see ${file})`,
  ];
}

export async function adopt(options: AdoptOptions): Promise<AdoptResult> {
  const progress = options.progress ?? (() => {});
  if (options.package !== undefined) checkPackageSpec(options.package); // a mistyped path: said before any request
  const credentials = resolveCredentials([{ url: options.url, urlSource: options.urlSource ?? "--url" }], options.env);
  // A control character inside the token (a token pasted with its line break) makes the HTTP
  // library refuse the header, which the client reports as a failed connection to the address:
  // said here, naming where the token came from (never its value).
  if (credentials.token !== undefined && [...credentials.token].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new AdoptRequestError(`${credentials.tokenSource} holds a control character: set it to the token alone`);
  }
  const client = new SemgrepClient({
    token: credentials.token,
    tokenSource: credentials.tokenSource,
    baseUrl: credentials.baseUrl,
    baseUrlSource: credentials.baseUrlSource,
    env: options.env,
  });
  try {
    // The deployment first (it checks the token), then the directory: nothing is read at length, or written, before both are right.
    const deployment = await findDeployment(client, options.deployment);
    const dir = options.out ?? `semgrep-${deployment.slug}`;
    prepareDirectory(dir, options.force ?? false);
    const request = { deployment, skip: options.skip ?? [], projects: options.projects ?? [], policies: options.policies ?? [] };
    const live = await readDeployment(client, request, progress).catch((error: unknown) => {
      // The request was right (the token and the deployment answered): what fails now is the reading.
      if (error instanceof AdoptRequestError) throw error;
      throw new AdoptReadError(`reading deployment ${deployment.slug}: ${(error as Error).message}`, { cause: error });
    });
    const plan = planAdoption(live, {
      setThreshold: options.setThreshold,
      onePerProject: options.onePerProject,
      allUsers: options.allUsers,
    });
    const urlSource = credentials.baseUrl === undefined || credentials.baseUrl === DEFAULT_BASE_URL ? undefined : credentials.baseUrlSource;
    const language = options.language ?? "typescript";
    const render = language === "yaml" ? renderYamlProject : renderProject;
    const rendered = render(plan, {
      version: PACKAGE.version,
      ...(options.package === undefined ? {} : { package: dependencySpec(options.package, { version: PACKAGE.version, projectDir: dir }) }),
      pulumiRange: PACKAGE.dependencies["@pulumi/pulumi"] ?? "^3.0.0",
      command: options.command ?? `pulumi-semgrep adopt --deployment ${deployment.slug}${language === "yaml" ? " --language yaml" : ""}`,
    });
    const written = writeProject(dir, rendered.files, options.force ?? false);
    const secrets = secretConfigs(plan);
    writeSecrets(dir, Object.fromEntries(secrets.map((s) => [s.configKey, s.value])));
    return {
      dir,
      language,
      ...(urlSource === undefined ? {} : { urlSource }),
      leftOver: language === "yaml" ? typescriptLeftovers(dir, rendered.files) : [],
      deployment,
      resources: {
        ProjectSettings: plan.projectSet ? 0 : plan.projects.length,
        ProjectSettingsSet: plan.projectSet ? 1 : 0,
        PolicyRuleModes: plan.ruleModes.length,
        DetectionPolicy: plan.detectionPolicies.length,
        RemediationPolicy: plan.remediationPolicies.length,
        Team: plan.teams.length,
        DeploymentSettings: plan.deploymentSettings ? 1 : 0,
        NotificationRule: plan.notificationRules.length,
        UserRole: plan.userRoles.length,
      },
      secretConfig: secrets.map((s) => s.configKey),
      projects: plan.projects.length,
      rules: plan.ruleModes.reduce((sum, p) => sum + Object.keys(p.modes).length, 0),
      files: [
        ...written.map((file) => ({ ...file, ...(rendered.holds[file.path] ? { holds: rendered.holds[file.path] } : {}) })),
        ...secrets.map((s) => ({
          path: `secrets/${s.configKey}`,
          bytes: Buffer.byteLength(s.value),
          holds: `the secret config value ${s.configKey} (owner-only, git-ignored): set it into the stack, then remove secrets/`,
        })),
      ],
      notes: [
        ...plan.leftOut.map((line) => `not declared: ${line}`),
        ...ambiguousBranches(plan.projects, language === "typescript" ? "projects.ts" : plan.projectSet ? "Pulumi.yaml" : "Main.yaml"),
        ...plan.projects.flatMap((p) =>
          p.notes.filter((n) => n !== p.commonNote).map((n) => `project ${String(p.args.projectName)}: ${n}`),
        ),
        ...plan.ruleModes.flatMap((p) => p.notes.map((n) => `policy ${p.policyName}: ${n}`)),
        ...[...plan.detectionPolicies, ...plan.remediationPolicies].flatMap((p) => p.notes.map((n) => `${p.name}: ${n}`)),
        ...plan.teams.flatMap((t) => t.notes.map((n) => `team ${String(t.args.name)}: ${n}`)),
        ...(plan.deploymentSettings?.notes ?? []).map((n) => `the product configuration: ${n}`),
        ...plan.notificationRules.flatMap((r) => r.notes.map((n) => `notification rule ${String(r.args.name)}: ${n}`)),
        ...plan.accessNotes,
      ],
    };
  } finally {
    await client.close();
  }
}

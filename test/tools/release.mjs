#!/usr/bin/env node
// The release, one step at a time: what `.github/workflows/release.yml` runs on a pushed tag
// `v<version>`, each of its `run:` steps being `node test/tools/release.mjs <step>`.
//
//   node test/tools/release.mjs <step> [--dry-run] [--tag v<version>] [--out DIR]
//
// Each step builds its artifacts, checks them, then publishes them. `--dry-run` does every build
// this machine can do and prints, without running, each publish command and each build whose
// tool is missing here (naming the tool). The tag is `--tag`, else `GITHUB_REF_NAME` when
// `GITHUB_REF_TYPE` is `tag` (as in a workflow run on a tag); a tag other than `v` + package.json's
// version is refused by every step. Artifacts go under DIR (default `dist`): the plugin tarballs
// into DIR/plugins (as `npm run plugin:pack`), the others into DIR/release/<step>.
//
// Steps (STEPS below): install, verify, plugins, npm, nodejs-sdk, python-sdk, dotnet-sdk, go-tag.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine, usageError } from "./command-line.mjs";
import { isBuildOutput } from "./sdk.mjs";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** Where the Pulumi CLI looks for the plugin: schema.json's pluginDownloadURL names this repository. */
const GITHUB_REPOSITORY = "pulumi-semgrep/pulumi-semgrep";
const NODE_SDK = { dir: "sdk/nodejs", name: "@pulumi-semgrep/semgrep" };
const PYTHON_SDK = { dir: "sdk/python", name: "pulumi_semgrep" };
const DOTNET_SDK = { dir: "sdk/dotnet", name: "PulumiSemgrep.Semgrep" };
const GO_SDK = { dir: "sdk/go/semgrep", module: "github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep" };
const NUGET_SOURCE = "https://api.nuget.org/v3/index.json";
/**
 * The Python build tools CI installs (this machine has neither): the newest, as the isolated build
 * takes the newest setuptools (pyproject's `setuptools>=61`) and twine must read its metadata.
 */
const PYTHON_TOOLS = ["--upgrade", "build", "twine"];

/** A refusal with a message meant for the release's log; the CLI prints it without a stack. */
export class ReleaseError extends Error {}

/** A path as the log shows it: relative inside the repository, else absolute. */
const display = (path) => (relative(REPO, path).startsWith("..") ? path : relative(REPO, path) || ".");

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** An environment variable a publish needs, and the repository secret the workflow fills it from. */
const secretEnv = (name, secret) => ({ env: name, secret });

/** The text of a command as the log shows it: secrets by the name of their variable. */
const shown = (command, args) => [command, ...args.map((a) => (typeof a === "object" ? `$${a.env}` : a))].join(" ");

/** Whether `command` runs here (`command args` exits 0). */
export function hasTool(command, args = ["--version"]) {
  const result = spawnSync(command, args, { stdio: "ignore" });
  return !result.error && result.status === 0;
}

/** Runs a command, its output to ours; throws naming it when it fails. */
function exec(command, args, { cwd = REPO, env = {}, capture = false } = {}) {
  const resolved = args.map((a) => (typeof a === "object" ? (process.env[a.env] ?? "") : a));
  const result = spawnSync(command, resolved, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 << 20,
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
  });
  if (result.error) throw new ReleaseError(`${shown(command, args)}: ${result.error.message}`);
  if (result.status !== 0) throw new ReleaseError(`${shown(command, args)} failed (exit ${result.status})`);
  return result.stdout ?? "";
}

/** A publish command: run, or in a dry run printed. */
function publish(ctx, command, args, options = {}) {
  if (ctx.dryRun) {
    ctx.log(`dry run: would run: ${shown(command, args)}`);
    return;
  }
  ctx.log(`$ ${shown(command, args)}`);
  exec(command, args, options);
}

/** Refuses (outside a dry run) when a secret a publish needs is empty. */
function requireSecrets(ctx, ...secrets) {
  if (ctx.dryRun) return;
  const missing = secrets.filter((s) => !process.env[s.env]);
  if (missing.length) {
    throw new ReleaseError(
      missing
        .map((s) => `the ${s.secret} secret is empty (${s.env} in the job's environment): set it in the repository's Actions secrets`)
        .join("; "),
    );
  }
}

/**
 * A build that needs a tool this machine may lack: run it when the tool is here; in a dry run
 * without it, say so plainly and print the commands; outside a dry run, refuse.
 */
function withTool(ctx, tool, what, commands, build) {
  if (hasTool(tool.command, tool.probe)) return build();
  if (!ctx.dryRun) throw new ReleaseError(`${tool.name} is not installed: cannot ${what}`);
  ctx.log(`${tool.name} is not installed here: skipped ${what}`);
  for (const [command, args] of commands) ctx.log(`dry run: would run: ${shown(command, args)}`);
  ctx.skipped.push(tool.name);
  return undefined;
}

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

/**
 * A fresh copy of an SDK directory to build in, so that sdk/ itself stays as generated; without
 * what an earlier build in place left there (sdk.mjs's isBuildOutput: bin/, obj/, build/, …).
 */
function stage(sdkDir, to) {
  const from = join(REPO, sdkDir);
  if (!existsSync(from)) throw new ReleaseError(`${sdkDir} is missing: run \`npm run sdk\` (the SDKs are generated from schema.json)`);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (src) => !relative(from, src).split(/[\\/]/).some(isBuildOutput) });
  return to;
}

/** Refuses a package whose name or version is not the release's, naming both. */
function expectPackage(label, found, wanted) {
  for (const key of ["name", "version"]) {
    if (found[key] !== wanted[key]) {
      throw new ReleaseError(
        `${label}: ${key} is ${JSON.stringify(found[key])}, the release wants ${JSON.stringify(wanted[key])} (run \`npm run sdk\` after changing package.json's version)`,
      );
    }
  }
}

/**
 * Refuses an SDK whose plugin reference (pulumi-plugin.json, or package.json's `pulumi` field) is
 * not this release's plugin: its program would ask the CLI for another version or another server.
 */
export function expectPluginReference(label, reference, version) {
  const schema = readJson(join(REPO, "schema.json"));
  const wanted = { resource: true, name: schema.name, version, server: schema.pluginDownloadURL };
  for (const [key, value] of Object.entries(wanted)) {
    if (reference?.[key] !== value) {
      throw new ReleaseError(
        `${label}: the plugin's ${key} is ${JSON.stringify(reference?.[key])}, the release wants ${JSON.stringify(value)} (run \`npm run sdk\`)`,
      );
    }
  }
}

/** `npm pack --json` of a directory into `dest`: the packed tarball's path, name, version and files. */
function npmPack(dir, dest) {
  mkdirSync(dest, { recursive: true });
  const out = exec("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dest], { cwd: dir, capture: true });
  const [packed] = JSON.parse(out);
  return {
    tarball: join(dest, packed.filename),
    name: packed.name,
    version: packed.version,
    files: packed.files.map((f) => f.path).sort(),
  };
}

/** Publishes an npm tarball unless that version is on the registry already (a re-run of the workflow). */
function npmPublish(ctx, { tarball, name, version }) {
  if (!ctx.dryRun) {
    const found = spawnSync("npm", ["view", `${name}@${version}`, "version"], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() === version) {
      ctx.log(`${name}@${version} is on npm already: skipped npm publish`);
      return;
    }
  }
  publish(ctx, "npm", ["publish", tarball, "--access", "public"]);
}

// ---------------------------------------------------------------------------------------------
// The version

/** package.json's version. */
export const packageVersion = () => readJson(join(REPO, "package.json")).version;

/** The tag being released: `--tag`, else the workflow's tag (GITHUB_REF_NAME on a tag push). */
function tagOf(option) {
  if (option) return option;
  return process.env.GITHUB_REF_TYPE === "tag" ? process.env.GITHUB_REF_NAME : undefined;
}

/**
 * The version being released: package.json's, which the tag must name as `v<version>`. Without a
 * tag only a dry run goes on (a release is a tag push).
 */
export function releaseVersion({ tag, dryRun }) {
  const version = packageVersion();
  if (tag === undefined) {
    if (!dryRun) throw new ReleaseError(`no tag: a release runs on a pushed tag v${version} (GITHUB_REF_NAME), or pass --tag v${version}`);
    return version;
  }
  if (tag === version) throw new ReleaseError(`the tag ${tag} lacks the v: a release's tag is v${version} (the workflow runs on tags v*)`);
  if (tag !== `v${version}`) {
    throw new ReleaseError(
      `the tag ${tag} does not match package.json's version ${version}: push the tag v${version}, or set package.json's version to ${tag.replace(/^v/, "")} (then \`npm run schema\` and \`npm run sdk\`), commit, and tag that commit`,
    );
  }
  return version;
}

// ---------------------------------------------------------------------------------------------
// The steps

/** Dependencies and the compiled package (`prepare`), from package-lock.json. */
function install(ctx) {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) throw new ReleaseError(`Node.js ${process.version} is too old: the package needs 22 or newer`);
  if (ctx.dryRun) {
    ctx.log(`dry run: would run: npm ci --no-audit --no-fund (node_modules is used as it is here)`);
    return { node: process.version };
  }
  exec("npm", ["ci", "--no-audit", "--no-fund"]);
  return { node: process.version };
}

/** The committed schema.json and SDKs are what the sources generate (a stale one is not released). */
function verify(ctx) {
  const checks = [
    ["npm", ["run", "-s", "schema:check"]],
    ["npm", ["run", "-s", "sdk:check"]],
  ];
  for (const [command, args] of checks) {
    ctx.log(`$ ${shown(command, args)}`);
    exec(command, args);
  }
  return { checks: checks.map(([command, args]) => shown(command, args)) };
}

/**
 * What the Pulumi CLI downloads for `semgrep` at `version` from schema.json's pluginDownloadURL
 * `github://api.github.com/<owner>/<repo>`: GET api.github.com/repos/<owner>/<repo>/releases/tags/v<version>,
 * then the asset named `pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz`, kind `resource`,
 * os/arch as Go names them (standardAssetName and githubSource.downloadViaAPI in pulumi's
 * sdk/go/common/workspace/plugins.go, v3.259.0). Drafts are not served by that API: the release
 * must be published.
 */
export function pluginAssets(version) {
  const schema = readJson(join(REPO, "schema.json"));
  const match = /^github:\/\/api\.github\.com\/([^/]+)\/([^/]+)$/.exec(schema.pluginDownloadURL ?? "");
  if (!match)
    throw new ReleaseError(`schema.json's pluginDownloadURL ${schema.pluginDownloadURL} is not github://api.github.com/<owner>/<repo>`);
  if (schema.version !== version)
    throw new ReleaseError(`schema.json's version is ${schema.version}, the release's ${version}: run \`npm run schema\``);
  const repository = `${match[1]}/${match[2]}`;
  const names = ["linux", "darwin", "windows"].flatMap((os) =>
    ["amd64", "arm64"].map((arch) => `pulumi-resource-${schema.name}-v${version}-${os}-${arch}.tar.gz`),
  );
  return { repository, tag: `v${version}`, names };
}

/** The plugin tarballs, attached to the GitHub release of the tag (created when missing). */
async function plugins(ctx) {
  const { repository, tag, names } = pluginAssets(ctx.version);
  const here = process.env.GITHUB_REPOSITORY;
  if (here && here !== repository) {
    throw new ReleaseError(
      `schema.json's pluginDownloadURL names ${repository} but this runs in ${here}: the Pulumi CLI would not find the tarballs`,
    );
  }
  if (repository !== GITHUB_REPOSITORY) ctx.log(`note: schema.json's pluginDownloadURL names ${repository}`);
  const { pack } = await import("./plugin-pack.mjs");
  const tarballs = await pack(join(ctx.out, "plugins"));
  const built = tarballs.map((p) => p.split(/[\\/]/).pop()).sort();
  const missing = names.filter((n) => !built.includes(n));
  if (missing.length) throw new ReleaseError(`plugin:pack did not write ${missing.join(", ")}, the names the Pulumi CLI downloads`);
  ctx.log(`built ${built.length} plugin tarballs in ${display(join(ctx.out, "plugins"))}`);
  requireSecrets(ctx, secretEnv("GH_TOKEN", "GITHUB_TOKEN (github.token)"));
  const exists = !ctx.dryRun && spawnSync("gh", ["release", "view", tag], { stdio: "ignore" }).status === 0;
  if (!exists) publish(ctx, "gh", ["release", "create", tag, "--verify-tag", "--title", tag, "--generate-notes"]);
  publish(ctx, "gh", ["release", "upload", tag, ...tarballs, "--clobber"]);
  return { repository, tag, tarballs, names: built };
}

/** The root package `pulumi-semgrep`, packed from the compiled dist/ (npm ci's `prepare` built it). */
function npm(ctx) {
  if (!existsSync(join(REPO, "dist/index.js"))) throw new ReleaseError("dist/ is not built: run `npm run build` (npm ci's `prepare` does)");
  requireSecrets(ctx, secretEnv("NODE_AUTH_TOKEN", "NPM_TOKEN"));
  const packed = npmPack(REPO, join(ctx.out, "release/npm"));
  expectPackage("package.json", packed, { name: "pulumi-semgrep", version: ctx.version });
  const stray = packed.files.filter((f) => /^dist\/(plugins|release)\//.test(f));
  if (stray.length) throw new ReleaseError(`the npm package would ship release artifacts: ${stray.join(", ")}`);
  for (const needed of ["dist/index.js", "dist/native/main.js", "schema.json"]) {
    if (!packed.files.includes(needed)) throw new ReleaseError(`the npm package lacks ${needed}`);
  }
  ctx.log(`packed ${packed.name}@${packed.version}: ${packed.files.length} files`);
  npmPublish(ctx, packed);
  return packed;
}

/**
 * The Node.js SDK `@pulumi-semgrep/semgrep`: installed, compiled by tsc into bin/, and published
 * from bin/ with its package.json and README (as Pulumi's own providers publish theirs). A dry
 * run links the repository's node_modules (@pulumi/pulumi, typescript, @types/node) in place of
 * `npm install`, which may need the network. Both compile with the repository's TypeScript (the
 * one the dry run can use; the SDK's own devDependency, ^4.7, may not parse today's @types/node).
 */
function nodejsSdk(ctx) {
  requireSecrets(ctx, secretEnv("NODE_AUTH_TOKEN", "NPM_TOKEN"));
  const work = join(ctx.out, "release/nodejs-sdk");
  const src = stage(NODE_SDK.dir, join(work, "src"));
  const manifest = readJson(join(src, "package.json"));
  expectPackage(`${NODE_SDK.dir}/package.json`, manifest, { name: NODE_SDK.name, version: ctx.version });
  expectPluginReference(`${NODE_SDK.dir}/package.json`, manifest.pulumi, ctx.version);
  if (ctx.dryRun) {
    symlinkSync(join(REPO, "node_modules"), join(src, "node_modules"), "junction");
    ctx.log(`dry run: linked the repository's node_modules in place of npm install (would run: npm install --no-audit --no-fund)`);
  } else {
    exec("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: src });
  }
  ctx.log(`$ tsc -p ${NODE_SDK.dir}`);
  const tsc = spawnSync(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", src], { encoding: "utf8" });
  if (tsc.error || tsc.status !== 0) {
    throw new ReleaseError(
      `tsc -p ${NODE_SDK.dir} failed (exit ${tsc.status}):\n${tsc.stdout ?? ""}${tsc.stderr ?? ""}${tsc.error?.message ?? ""}`,
    );
  }
  const bin = join(src, "bin");
  for (const file of ["package.json", "README.md"]) cpSync(join(src, file), join(bin, file));
  cpSync(join(REPO, "LICENSE"), join(bin, "LICENSE"));
  const packed = npmPack(bin, work);
  expectPackage(`the packed ${NODE_SDK.dir}`, packed, { name: NODE_SDK.name, version: ctx.version });
  ctx.log(`packed ${packed.name}@${packed.version}: ${packed.files.length} files`);
  npmPublish(ctx, packed);
  return packed;
}

/** `[project]`'s string fields of a pyproject.toml (name, version, readme): the generator writes them one a line. */
export function pyprojectFields(text) {
  const project = /^\[project\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  return Object.fromEntries([...project.matchAll(/^\s*(\w+)\s*=\s*"([^"]*)"\s*$/gm)].map((m) => [m[1], m[2]]));
}

/**
 * The Python SDK `pulumi_semgrep`: byte-compiled, then built as an sdist and a wheel
 * (`python -m build`), checked and uploaded to PyPI by twine with the PYPI_API_TOKEN secret.
 * The README pyproject.toml names must be beside it (else the build fails in CI: checked here).
 */
function pythonSdk(ctx) {
  requireSecrets(ctx, secretEnv("PYPI_API_TOKEN", "PYPI_API_TOKEN"));
  const work = join(ctx.out, "release/python-sdk");
  const src = stage(PYTHON_SDK.dir, join(work, "src"));
  const project = pyprojectFields(readFileSync(join(src, "pyproject.toml"), "utf8"));
  expectPackage(`${PYTHON_SDK.dir}/pyproject.toml`, project, { name: PYTHON_SDK.name, version: ctx.version });
  expectPluginReference(
    `${PYTHON_SDK.dir}/${PYTHON_SDK.name}/pulumi-plugin.json`,
    readJson(join(src, PYTHON_SDK.name, "pulumi-plugin.json")),
    ctx.version,
  );
  if (project.readme && !existsSync(join(src, project.readme))) {
    throw new ReleaseError(
      `${PYTHON_SDK.dir}/pyproject.toml names the readme ${project.readme}, which is not in ${PYTHON_SDK.dir}: run \`npm run sdk\``,
    );
  }
  const python = hasTool("python3") ? "python3" : "python";
  ctx.log(`$ ${python} -m compileall -q ${PYTHON_SDK.dir}`);
  exec(python, ["-m", "compileall", "-q", join(src, PYTHON_SDK.name)], { env: { PYTHONPYCACHEPREFIX: join(work, "pycache") } });
  if (!ctx.dryRun) exec(python, ["-m", "pip", "install", "--quiet", ...PYTHON_TOOLS]);
  const dist = join(work, "dist");
  const build = [python, ["-m", "build", "--sdist", "--wheel", "--outdir", dist, src]];
  const upload = [python, ["-m", "twine", "upload", "--non-interactive", "--skip-existing", join(dist, "*")]];
  const files = withTool(
    ctx,
    { name: "python -m build", command: python, probe: ["-m", "build", "--version"] },
    "the sdist and wheel (CI installs build and twine with pip)",
    [build, upload],
    () => {
      exec(...build);
      const built = readdirSync(dist).map((f) => join(dist, f));
      exec(python, ["-m", "twine", "check", "--strict", ...built]);
      publish(ctx, python, ["-m", "twine", "upload", "--non-interactive", "--skip-existing", ...built], {
        env: { TWINE_USERNAME: "__token__", TWINE_PASSWORD: process.env.PYPI_API_TOKEN ?? "" },
      });
      return built;
    },
  );
  ctx.log(`${PYTHON_SDK.name} ${project.version}: byte-compiled`);
  return { name: project.name, version: project.version, files };
}

/** The first `<Tag>text</Tag>` of an MSBuild project. */
const msbuildProperty = (xml, tag) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];

/**
 * The .NET SDK `PulumiSemgrep.Semgrep` (its package id is the project file's name): `dotnet pack`,
 * then `dotnet nuget push` with the NUGET_API_KEY secret.
 */
function dotnetSdk(ctx) {
  requireSecrets(ctx, secretEnv("NUGET_API_KEY", "NUGET_API_KEY"));
  const work = join(ctx.out, "release/dotnet-sdk");
  const src = stage(DOTNET_SDK.dir, join(work, "src"));
  const project = join(src, `${DOTNET_SDK.name}.csproj`);
  if (!existsSync(project)) throw new ReleaseError(`${DOTNET_SDK.dir}/${DOTNET_SDK.name}.csproj is missing: run \`npm run sdk\``);
  const xml = readFileSync(project, "utf8");
  const name = msbuildProperty(xml, "PackageId") ?? DOTNET_SDK.name;
  const version = msbuildProperty(xml, "Version");
  expectPackage(`${DOTNET_SDK.dir}/${DOTNET_SDK.name}.csproj`, { name, version }, { name: DOTNET_SDK.name, version: ctx.version });
  const versionTxt = readFileSync(join(src, "version.txt"), "utf8").trim();
  if (versionTxt !== ctx.version)
    throw new ReleaseError(`${DOTNET_SDK.dir}/version.txt says ${versionTxt}, the release ${ctx.version}: run \`npm run sdk\``);
  expectPluginReference(`${DOTNET_SDK.dir}/pulumi-plugin.json`, readJson(join(src, "pulumi-plugin.json")), ctx.version);
  const nupkg = join(work, `${name}.${version}.nupkg`);
  const pack = ["dotnet", ["pack", project, "--configuration", "Release", "--output", work]];
  const push = ["dotnet", ["nuget", "push", nupkg, "--api-key", { env: "NUGET_API_KEY" }, "--source", NUGET_SOURCE, "--skip-duplicate"]];
  const packed = withTool(ctx, { name: "dotnet", command: "dotnet", probe: ["--version"] }, "dotnet pack", [pack, push], () => {
    exec(...pack);
    if (!existsSync(nupkg)) throw new ReleaseError(`dotnet pack did not write ${nupkg}`);
    publish(ctx, ...push);
    return nupkg;
  });
  return { name, version, nupkg: packed };
}

/**
 * The Go SDK is published by a tag: a module in a subdirectory is versioned by tags
 * `<dir>/v<version>` (`go get github.com/…/sdk/go/semgrep@v<version>` then resolves it). The tag
 * is pushed to the repository's origin (the workflow's token); the release's own filter `v*` does
 * not match it (`*` stops at `/`), so it starts no second run.
 */
function goTag(ctx) {
  const goMod = join(REPO, GO_SDK.dir, "go.mod");
  if (!existsSync(goMod)) throw new ReleaseError(`${GO_SDK.dir}/go.mod is missing: run \`npm run sdk\``);
  const module = /^module\s+(\S+)/m.exec(readFileSync(goMod, "utf8"))?.[1];
  if (module !== GO_SDK.module)
    throw new ReleaseError(`${GO_SDK.dir}/go.mod declares module ${module}, the release wants ${GO_SDK.module}`);
  expectPluginReference(`${GO_SDK.dir}/pulumi-plugin.json`, readJson(join(REPO, GO_SDK.dir, "pulumi-plugin.json")), ctx.version);
  const tag = `${GO_SDK.dir}/v${ctx.version}`;
  const head = exec("git", ["rev-parse", "HEAD"], { capture: true }).trim();
  ctx.log(`Go module ${module}: tag ${tag} at ${head.slice(0, 12)}`);
  if (!ctx.dryRun) {
    const remote = exec("git", ["ls-remote", "--tags", "origin", `refs/tags/${tag}`], { capture: true })
      .trim()
      .split(/\s+/)[0];
    if (remote === head) {
      ctx.log(`${tag} is on origin already at ${head.slice(0, 12)}: skipped`);
      return { module, tag };
    }
    if (remote) throw new ReleaseError(`${tag} is on origin at ${remote.slice(0, 12)}, not at this release's commit ${head.slice(0, 12)}`);
  }
  publish(ctx, "git", ["tag", tag, head]);
  publish(ctx, "git", ["push", "origin", `refs/tags/${tag}`]);
  return { module, tag };
}

/** Every step the workflow may call, by the name it calls it. */
export const STEPS = {
  install,
  verify,
  plugins,
  npm,
  "nodejs-sdk": nodejsSdk,
  "python-sdk": pythonSdk,
  "dotnet-sdk": dotnetSdk,
  "go-tag": goTag,
};

/**
 * Runs one step. `log` receives each line the step reports; the result says what it built, and
 * `skipped` names the tools this machine lacked (dry run only).
 *
 * @param {string} step
 * @param {{ dryRun?: boolean, tag?: string, out?: string, log?: (line: string) => void }} [options]
 */
export async function runStep(
  step,
  { dryRun = false, tag, out = join(REPO, "dist"), log = (line) => process.stderr.write(`[release] ${line}\n`) } = {},
) {
  const fn = STEPS[step];
  if (!fn) throw new ReleaseError(`unknown step ${JSON.stringify(step)}: one of ${Object.keys(STEPS).join(", ")}`);
  const version = releaseVersion({ tag: tagOf(tag), dryRun });
  const ctx = { dryRun, version, out: resolve(out), log, skipped: [] };
  if (dryRun) log(`${step}: dry run for ${version}: builds here, publishes nothing`);
  const result = await fn(ctx);
  return { ...result, version, skipped: ctx.skipped };
}

const RELEASE = {
  command: "node test/tools/release.mjs",
  about: `One step of the release, as .github/workflows/release.yml runs it on a pushed tag v<version>:
builds the step's artifacts, checks them, then publishes them. Prints a JSON summary on stdout; the
log goes to stderr.`,
  positionals: { synopsis: "<step>", help: `<step> is one of ${Object.keys(STEPS).join(", ")}.` },
  flags: {
    "dry-run": {
      type: "boolean",
      default: false,
      help: "do every build this machine can do, and print, without running, each publish command and each build whose tool is missing here",
    },
    tag: {
      type: "string",
      value: "v<version>",
      help: "the release's tag; every step refuses one other than v + package.json's version",
      defaultText: "GITHUB_REF_NAME when GITHUB_REF_TYPE is tag, else none",
    },
    out: {
      type: "string",
      value: "DIR",
      help: "where the artifacts go: the plugin tarballs into DIR/plugins, the others into DIR/release/<step>",
      defaultText: "the repository's dist",
    },
  },
};

/** The command line: `<step> [--dry-run] [--tag v<version>] [--out DIR]`; a JSON summary on stdout. */
async function main(argv) {
  const { values, positionals } = readCommandLine(RELEASE, argv);
  if (positionals.length !== 1) usageError(RELEASE, `give one step, not ${positionals.length}: one of ${Object.keys(STEPS).join(", ")}`);
  if (!(positionals[0] in STEPS))
    usageError(RELEASE, `unknown step ${JSON.stringify(positionals[0])}: one of ${Object.keys(STEPS).join(", ")}`);
  const result = await runStep(positionals[0], { dryRun: values["dry-run"], tag: values.tag, out: values.out });
  writeFileSync(1, `${JSON.stringify(result)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    const message = error instanceof ReleaseError ? error.message : (error?.stack ?? String(error));
    process.stderr.write(`[release] error: ${message}\n`);
    process.exit(1);
  });
}

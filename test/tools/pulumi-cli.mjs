#!/usr/bin/env node
// Prints, as its last line, the absolute directory holding `pulumi`, `pulumi-language-nodejs`,
// `pulumi-resource-pulumi-nodejs`, `pulumi-language-yaml` and `pulumi-language-go`: the installed
// CLI when `pulumi` is on PATH, else a build from the Go module proxy, cached outside the repo and
// keyed by version. The CLI finds language hosts beside itself. A cached directory that lacks only
// the YAML or Go host (made before they were added) gets just the missing ones built.
// Progress goes to stderr.
//
// Why a build: the CLI cannot be downloaded from Pulumi's site here, but it is a Go module. Its
// modules carry `replace` directives, so `go install pkg@version` refuses them; a throw-away
// wrapper module that requires them builds fine (go-build.mjs).
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { readCommandLine } from "./command-line.mjs";
import { buildTool as buildGoTool, cacheRoot, download, log as logAs } from "./go-build.mjs";

const YAML_HOST = "pulumi-language-yaml";
const GO_HOST = "pulumi-language-go";
const BINARIES = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", YAML_HOST, GO_HOST];
const CLI_MODULE = "github.com/pulumi/pulumi/pkg/v3";
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";
// The Node.js language host has lived in its own module (sdk/nodejs/cmd/pulumi-language-nodejs/v3)
// since v3.69, and the module proxy reachable here serves no version of that module. v3.68.0 is
// the newest release whose host is a package of sdk/v3; its gRPC protocol is the one today's CLI
// still speaks (it runs `@pulumi/pulumi/cmd/run` from the program's own node_modules).
const LANGUAGE_HOST_SDK_VERSION = "v3.68.0";
// The YAML language host (YAML programs run through the native plugin `pulumi-resource-semgrep`):
// its own module on the proxy, no `replace` lines; its version is set at link time like the CLI's.
const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
const YAML_VERSION = "v1.25.0";
// The Go language host (Go programs, such as examples/go): its own module
// (sdk/go/pulumi-language-go/v3) since v3.67, which the proxy reachable here refuses; v3.66.0 is the
// newest release whose host is a package of sdk/v3. CLI 3.259 runs Go programs with it (it builds
// the program with the `go` on the PATH, then runs the binary).
const GO_HOST_SDK_VERSION = "v3.66.0";
// How far below the wanted release to look for one the proxy has.
const MAX_STEPS_DOWN = 40;

const TAG = "pulumi:cli";
const log = (msg) => logAs(TAG, msg);

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return dir;
  }
  return undefined;
}

function installedSdkVersion() {
  const require = createRequire(join(process.cwd(), "package.json"));
  return JSON.parse(readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")).version;
}

/** The wanted release, or the nearest older one whose CLI module the proxy serves. */
function resolveCliVersion(wanted, cliCache) {
  const memo = join(cliCache, `resolved-${wanted}.txt`);
  if (existsSync(memo)) return readFileSync(memo, "utf8").trim();
  let [major, minor, patch] = wanted.split(".").map(Number);
  for (let step = 0; step <= MAX_STEPS_DOWN; step++) {
    const candidate = `${major}.${minor}.${patch}`;
    log(`looking for ${CLI_MODULE}@v${candidate} on the module proxy`);
    if (download(CLI_MODULE, `v${candidate}`)) {
      writeFileSync(memo, `${candidate}\n`);
      return candidate;
    }
    if (patch > 0) patch -= 1;
    else [minor, patch] = [minor - 1, 0];
  }
  throw new Error(`no release of ${CLI_MODULE} between v${wanted} and ${MAX_STEPS_DOWN} releases below it is on the module proxy`);
}

/** Builds one main package of the set (go-build.mjs), its version set at link time in `versionVar`. */
function buildTool({ ldVersion, versionVar = `${SDK_MODULE}/go/common/version.Version`, ...rest }) {
  buildGoTool({ tag: TAG, ...rest, ldflags: `-s -w -X ${versionVar}=${ldVersion}` });
}

/** The YAML language host from its module on the proxy (cold: about 100 s on 2 cores). */
function buildYamlHost(workDir, output) {
  log(`building the YAML language host (${YAML_MODULE}@${YAML_VERSION})`);
  buildTool({
    workDir,
    module: YAML_MODULE,
    version: YAML_VERSION,
    pkg: `${YAML_MODULE}/cmd/${YAML_HOST}`,
    output,
    ldVersion: YAML_VERSION,
    versionVar: `${YAML_MODULE}/pkg/version.Version`,
  });
}

/** The Go language host from sdk/v3 on the proxy (cold: about 80 s on 2 cores; seconds when the Go caches hold its packages). */
function buildGoHost(workDir, output) {
  log(`building the Go language host (from ${SDK_MODULE}@${GO_HOST_SDK_VERSION})`);
  buildTool({
    workDir,
    module: SDK_MODULE,
    version: GO_HOST_SDK_VERSION,
    pkg: `${SDK_MODULE}/go/${GO_HOST}`,
    output,
    ldVersion: GO_HOST_SDK_VERSION,
  });
}

/** The language hosts added after the first cached builds, each with its build. */
const ADDED_HOSTS = { [YAML_HOST]: buildYamlHost, [GO_HOST]: buildGoHost };

/**
 * Adds the `missing` hosts to a cached directory built before they were part of the set, one at a
 * time. The work directories and files are this process's own, and each final rename is atomic,
 * so test workers that race here waste a build but never see a half-written binary.
 */
function addHosts(binDir, missing) {
  for (const host of missing) {
    const started = Date.now();
    const work = `${binDir}.work-${host}-${process.pid}`;
    const partial = join(binDir, `.${host}.${process.pid}`);
    try {
      ADDED_HOSTS[host](work, partial);
      renameSync(partial, join(binDir, host));
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(partial, { force: true });
    }
    log(`${host} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

function build(version, binDir) {
  const started = Date.now();
  const staging = `${binDir}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const work = `${binDir}.work`;
  log(`building the Pulumi CLI v${version} (cold builds take several minutes on 2 cores)`);
  buildTool({
    workDir: join(work, "cli"),
    module: CLI_MODULE,
    version: `v${version}`,
    pkg: `${CLI_MODULE}/cmd/pulumi`,
    output: join(staging, "pulumi"),
    ldVersion: `v${version}`,
  });
  log(`building the Node.js language host (from ${SDK_MODULE}@${LANGUAGE_HOST_SDK_VERSION})`);
  buildTool({
    workDir: join(work, "language-host"),
    module: SDK_MODULE,
    version: LANGUAGE_HOST_SDK_VERSION,
    pkg: `${SDK_MODULE}/nodejs/cmd/pulumi-language-nodejs`,
    output: join(staging, "pulumi-language-nodejs"),
    ldVersion: LANGUAGE_HOST_SDK_VERSION,
  });
  buildYamlHost(join(work, "yaml-host"), join(staging, YAML_HOST));
  buildGoHost(join(work, "go-host"), join(staging, GO_HOST));
  // The dynamic-provider launcher is a shell script shipped in the SDK module of the same release.
  const sdk = download(SDK_MODULE, `v${version}`);
  if (!sdk) throw new Error(`the module proxy does not serve ${SDK_MODULE}@v${version}`);
  const launcher = join(staging, "pulumi-resource-pulumi-nodejs");
  copyFileSync(join(sdk.Dir, "nodejs", "dist", "pulumi-resource-pulumi-nodejs"), launcher);
  chmodSync(launcher, 0o755);
  rmSync(binDir, { recursive: true, force: true });
  renameSync(staging, binDir);
  rmSync(work, { recursive: true, force: true });
  log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function main() {
  const existing = onPath("pulumi");
  if (existing && !process.env.PULUMI_SEMGREP_BUILD_CLI) {
    const missing = BINARIES.filter((b) => !existsSync(join(existing, b)) && !onPath(b));
    if (missing.length) log(`note: ${missing.join(", ")} not found beside ${existing} nor on PATH`);
    log(`using the Pulumi CLI on PATH (${existing})`);
    return existing;
  }
  const cliCache = join(cacheRoot(), "pulumi-cli");
  mkdirSync(cliCache, { recursive: true });
  const wanted = installedSdkVersion();
  const version = resolveCliVersion(wanted, cliCache);
  if (version !== wanted) log(`@pulumi/pulumi is ${wanted}; the nearest CLI release on the module proxy is ${version}`);
  const binDir = join(cliCache, `v${version}`, "bin");
  const missing = BINARIES.filter((b) => !existsSync(join(binDir, b)));
  if (missing.length === 0) {
    log(`using the cached build in ${binDir}`);
    return binDir;
  }
  if (missing.every((b) => b in ADDED_HOSTS)) {
    addHosts(binDir, missing);
    return binDir;
  }
  mkdirSync(dirname(binDir), { recursive: true });
  build(version, binDir);
  const printed = execFileSync(join(binDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  log(`pulumi version: ${printed}`);
  return binDir;
}

readCommandLine({
  command: "npm run pulumi:cli",
  about: `Prints, as its last line, the directory holding the Pulumi CLI and its language hosts
(${BINARIES.join(", ")}): the installed CLI when \`pulumi\` is on
PATH, else a build from the Go module proxy (once, several minutes; cached in
${join(cacheRoot(), "pulumi-cli")}, keyed by version). Progress goes to stderr.`,
});
try {
  process.stdout.write(`${main()}\n`);
} catch (error) {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

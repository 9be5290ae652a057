// How a copy of one of the SDK examples (examples/nodejs-sdk, python, csharp, go) gets this
// repository's SDK of its language, as a user wires in a build that is not published: no release of
// the SDKs is on a registry for a clone to use, and a clone's changes must be what the example runs.
//   nodejs  the SDK packed by the release's own step (`release.mjs nodejs-sdk --dry-run`), then
//           `npm install <tarball>` in the copy (its other dependencies from the registry);
//   python  a virtualenv where Pulumi.yaml says (`virtualenv`), and requirements.txt's line for
//           pulumi_semgrep pointed at a copy of sdk/python, installed by pip;
//   dotnet  PulumiSemgrep.Semgrep packed by the release's step (`dotnet pack`) into a local
//           source a nuget.config beside the project adds, with a package folder of its own
//           (a NuGet cache of an earlier build of the same version would win otherwise);
//   go      go.mod's `replace` to sdk/go/semgrep, then `go mod tidy` (which writes go.sum);
//   yaml    nothing: a YAML program needs only the plugin (examples/yaml).
// Each returns the environment the example's Pulumi runs need besides the offline one.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { go } from "./go-build.mjs";
import { hasTool, packageVersion, REPO, runStep } from "./release.mjs";
import { GO_MODULE, isBuildOutput } from "./sdk.mjs";

/** A step of preparing or running an example that failed; the message says which and why. */
export class ExampleError extends Error {}

/** The go.mod line that points a program at this repository's generated Go SDK (`npm run sdk` writes it). */
export const GO_SDK_REPLACE = `replace ${GO_MODULE} => ${join(REPO, "sdk/go/semgrep")}`;

/** The language of a Pulumi project (`runtime:` of its Pulumi.yaml, a name or `{ name, options }`), and its options. */
export function runtimeOf(dir) {
  const project = parse(readFileSync(join(dir, "Pulumi.yaml"), "utf8"));
  const runtime = typeof project.runtime === "string" ? { name: project.runtime } : (project.runtime ?? {});
  return { project: project.name, name: runtime.name, options: runtime.options ?? {} };
}

/** Runs a command in `cwd`; throws an ExampleError with its output when it fails or is missing. */
function exec(command, args, { cwd, env = process.env, what }) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.error) throw new ExampleError(`${what}: ${command} ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0)
    throw new ExampleError(`${what}: ${command} ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Refuses, naming what to install, when a language's toolchain is not on the PATH. */
function requireTool(command, probe, message) {
  if (!hasTool(command, probe)) throw new ExampleError(message);
}

/** A copy of an SDK directory without what a build in place left there (bin/, obj/, *.egg-info, …). */
function copySdk(sdkDir, to) {
  const from = join(REPO, sdkDir);
  cpSync(from, to, { recursive: true, filter: (src) => !relative(from, src).split(/[\\/]/).some(isBuildOutput) });
  return to;
}

/** `go version`, or an error saying that Go programs need Go: a missing toolchain fails a run rather than skipping it. */
export function goVersion(env = process.env) {
  let problem;
  try {
    const result = go(["version"], { env });
    if (result.status === 0) return result.stdout.trim();
    problem = result.stderr.trim();
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  throw new ExampleError(
    `Go programs need Go: \`go version\` failed (${problem}). ` +
      "Install Go 1.25.11 or later (the go directive of examples/go and sdk/go/semgrep) and put `go` on the PATH (CI installs it); these tests fail rather than skip without it.",
  );
}

/** The release's nodejs-sdk step, dry run (nothing published), into `out`: the packed tarball. */
export async function packNodeSdk(out) {
  const packed = await runStep("nodejs-sdk", { dryRun: true, tag: `v${packageVersion()}`, out, log: () => undefined });
  return packed.tarball;
}

async function nodejs(dir, { work }) {
  const tarball = await packNodeSdk(join(work, "nodejs-sdk"));
  // As a user installs a package from a file: package.json's dependency becomes `file:<tarball>`.
  exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", tarball], {
    cwd: dir,
    what: "installing the Node.js SDK",
  });
  return {};
}

async function python(dir, { work, options }) {
  const python = ["python3", "python"].find((p) => hasTool(p));
  if (!python) throw new ExampleError("the Python example needs Python 3.9 or later (python3) on the PATH (CI installs it)");
  const venv = join(dir, options.virtualenv ?? "venv");
  exec(python, ["-m", "venv", venv], { cwd: dir, what: "making the virtualenv" });
  const sdk = copySdk("sdk/python", join(work, "python-sdk"));
  const requirements = join(dir, "requirements.txt");
  const lines = readFileSync(requirements, "utf8").split("\n");
  const isSdk = (line) => /^pulumi[_-]semgrep\b/i.test(line.trim());
  if (!lines.some(isSdk)) throw new ExampleError(`${requirements} names no pulumi_semgrep to point at sdk/python`);
  writeFileSync(requirements, lines.map((line) => (isSdk(line) ? sdk : line)).join("\n"));
  const bin = join(venv, process.platform === "win32" ? "Scripts" : "bin");
  exec(join(bin, "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements], {
    cwd: dir,
    what: "installing the Python SDK and the example's requirements",
  });
  return {};
}

async function dotnet(dir, { work }) {
  requireTool("dotnet", ["--version"], "the C# example needs the .NET SDK (dotnet, 8 or later) on the PATH (CI installs it)");
  const packed = await runStep("dotnet-sdk", {
    dryRun: true,
    tag: `v${packageVersion()}`,
    out: join(work, "dotnet-sdk"),
    log: () => undefined,
  });
  if (!packed.nupkg) throw new ExampleError("the release's dotnet-sdk step packed nothing");
  const feed = join(work, "nuget-feed");
  mkdirSync(feed, { recursive: true });
  cpSync(packed.nupkg, join(feed, packed.nupkg.split(/[\\/]/).pop()));
  writeFileSync(
    join(dir, "nuget.config"),
    `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="pulumi-semgrep-local" value="${feed}" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
  </packageSources>
</configuration>
`,
  );
  return { NUGET_PACKAGES: join(work, "nuget-packages"), DOTNET_CLI_TELEMETRY_OPTOUT: "1", DOTNET_NOLOGO: "1" };
}

async function golang(dir) {
  goVersion();
  // GOFLAGS=-mod=mod lets the language host's `go build` and `go list` update go.mod and go.sum as they need.
  const env = { GOFLAGS: "-mod=mod" };
  appendFileSync(join(dir, "go.mod"), `\n${GO_SDK_REPLACE}\n`);
  exec("go", ["mod", "tidy"], { cwd: dir, env: { ...process.env, ...env }, what: "pointing go.mod at sdk/go/semgrep" });
  return env;
}

/** A YAML program has no SDK: the plugin, which every example gets, is all it needs. */
const yaml = async () => ({});

/** The languages an example may be in, by Pulumi.yaml's runtime name. */
export const LANGUAGES = { nodejs, python, dotnet, go: golang, yaml };

/**
 * Wires the SDK of the example in `dir` (a copy: it is changed) by its runtime; `work` is a
 * directory of the run's own for what that builds. Resolves with the environment the Pulumi runs need.
 * @param {string} dir
 * @param {string} work
 * @returns {Promise<Record<string, string>>}
 */
export async function wireSdk(dir, work) {
  const runtime = runtimeOf(dir);
  const wire = LANGUAGES[runtime.name];
  if (!wire) throw new ExampleError(`${dir}: runtime ${JSON.stringify(runtime.name)} is not one of ${Object.keys(LANGUAGES).join(", ")}`);
  mkdirSync(work, { recursive: true });
  return wire(dir, { work, options: runtime.options });
}

/**
 * Every file of the example in `from` copied into `to`, but what a run or a build left there
 * (node_modules, a virtualenv, bin/, obj/): the copy installs its own.
 */
export function copyExample(from, to) {
  const left = new Set(["node_modules", "venv", "bin", "obj"]);
  cpSync(from, to, {
    recursive: true,
    filter: (src) =>
      !relative(from, src)
        .split(/[\\/]/)
        .some((part) => left.has(part)),
  });
}

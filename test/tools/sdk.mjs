#!/usr/bin/env node
// The SDKs in sdk/ (nodejs, python, go/semgrep, dotnet): generated from schema.json by Pulumi's own
// code generators, never written by hand. `npm run sdk` writes them; `npm run sdk:check` (in CI)
// fails, naming the files, when any differs from what schema.json generates.
//
// The generators are Go packages of github.com/pulumi/pulumi/pkg/v3; test/tools/sdkgen is a small
// main over them, built here from the module proxy and cached outside the repo like the CLI
// (pulumi-cli.mjs). Two builds: the .NET generator left pkg/v3 after v3.206.0; the others are
// pinned to v3.259.0, the release of @pulumi/pulumi in package-lock.json and so of the CLI that
// pulumi-cli.mjs builds (it follows @pulumi/pulumi: bump GENERATORS[0] with it).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine } from "./command-line.mjs";
import { buildTool, cacheRoot, go, log as logAs } from "./go-build.mjs";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SOURCES = join(REPO, "test", "tools", "sdkgen");
const log = (msg) => logAs("sdk", msg);

const CODEGEN_MODULE = "github.com/pulumi/pulumi/pkg/v3";
/** The generator builds: which pkg/v3 release, build tags, and the languages each serves. */
const GENERATORS = [
  { name: "sdkgen", version: "v3.259.0", tags: [], languages: ["nodejs", "python", "go"] },
  { name: "sdkgen-dotnet", version: "v3.206.0", tags: ["dotnet"], languages: ["dotnet"] },
];
/** The Go SDK is a module of its own, at the path its import path names (schema.json's importBasePath). */
export const GO_MODULE = "github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep";
/** The Pulumi Go SDK the Go SDK requires: the release its generator comes from. */
const PULUMI_GO_SDK = `github.com/pulumi/pulumi/sdk/v3 ${GENERATORS[0].version}`;
/** sdk/ as generated: the directories `npm run sdk` owns (anything else in sdk/ is left alone). */
export const SDK_DIRS = ["nodejs", "python", join("go", "semgrep"), "dotnet"];

/** The cached generator of one build, built when missing; keyed by release and our sources. */
function generatorBinary({ name, version, tags }) {
  const sources = Object.fromEntries(
    readdirSync(SOURCES)
      .filter((f) => f.endsWith(".go"))
      .map((f) => [f, readFileSync(join(SOURCES, f), "utf8")]),
  );
  const key = createHash("sha256")
    .update(JSON.stringify([version, tags, sources]))
    .digest("hex")
    .slice(0, 12);
  const dir = join(cacheRoot(), "sdkgen", `${name}-${version}-${key}`);
  const binary = join(dir, name);
  if (existsSync(binary)) return binary;
  const started = Date.now();
  log(`building the SDK generator ${name} over ${CODEGEN_MODULE}@${version} (cold: minutes on 2 cores)`);
  mkdirSync(dir, { recursive: true });
  const partial = `${binary}.${process.pid}`;
  const work = `${dir}.work-${process.pid}`;
  try {
    buildTool({ tag: "sdk", workDir: work, module: CODEGEN_MODULE, version, pkg: ".", output: partial, sources, tags });
    renameSync(partial, binary); // atomic: a racing build wastes time, never leaves half a file
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
  log(`built ${name} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return binary;
}

/**
 * Generates every SDK from `schemaFile` into `target` (laid out as sdk/). The SDKs are completed in
 * a temporary directory and copied over `target`'s only then, so a failure leaves them as they
 * were; copied, not renamed, since the temporary directory may be on another filesystem (a tmpfs
 * /tmp: rename fails with EXDEV).
 */
export function generate(target, schemaFile = join(REPO, "schema.json")) {
  const raw = mkdtempSync(join(tmpdir(), "pulumi-semgrep-sdkgen-"));
  try {
    for (const build of GENERATORS) {
      const binary = generatorBinary(build);
      const result = spawnSync(binary, [schemaFile, raw, ...build.languages], {
        encoding: "utf8",
        env: { ...process.env, SDKGEN_LOGO: join(SOURCES, "logo.png") },
      });
      if (result.status !== 0) throw new Error(`${build.name} failed:\n${result.stderr}`);
    }
    // pyproject.toml names README.md beside it (a wheel's long description); the generator writes
    // it inside the package only.
    copyFileSync(join(raw, "python", "pulumi_semgrep", "README.md"), join(raw, "python", "README.md"));
    goModule(join(raw, "go", "semgrep"));
    for (const dir of SDK_DIRS) {
      rmSync(join(target, dir), { recursive: true, force: true });
      mkdirSync(dirname(join(target, dir)), { recursive: true });
      cpSync(join(raw, dir), join(target, dir), { recursive: true });
    }
  } finally {
    rmSync(raw, { recursive: true, force: true });
  }
}

/**
 * Makes the generated Go package a module of its own: a go.mod naming GO_MODULE and the Pulumi Go
 * SDK, completed by `go mod tidy` (its requirements and go.sum, so `go build ./...` works there and
 * consumers get a pruned module graph).
 */
function goModule(dir) {
  writeFileSync(join(dir, "go.mod"), `module ${GO_MODULE}\n\ngo 1.24\n\nrequire ${PULUMI_GO_SDK}\n`);
  const result = go(["mod", "tidy"], { cwd: dir, env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" } });
  if (result.status !== 0) throw new Error(`go mod tidy in the Go SDK failed:\n${result.stderr}`);
}

/**
 * What building an SDK in place leaves beside the generated files (README, "Other languages and
 * import": `pip install ./sdk/python` writes build/ and an .egg-info, `dotnet pack sdk/dotnet` bin/
 * and obj/; `npm install` and `tsc` in sdk/nodejs node_modules/ and bin/). None is generated, so
 * sdk:check neither compares nor reports them, release.mjs does not copy them into its builds
 * (.gitignore ignores them; `npm run sdk` deletes them).
 */
export const isBuildOutput = (name) =>
  ["node_modules", "bin", "obj", "build", "dist", "__pycache__"].includes(name) || name.endsWith(".egg-info");

/** Every generated file under `dir` (build outputs left out), relative to it, sorted. */
function filesUnder(dir, root = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !(entry.isDirectory() && isBuildOutput(entry.name)))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name), root) : [relative(root, join(dir, entry.name))]))
    .sort();
}

/** The files of the generated directories that differ between two sdk/ trees: "path (missing|extra|changed)". */
export function compareTrees(expected, actual) {
  const differences = [];
  for (const dir of SDK_DIRS) {
    const want = new Set(filesUnder(join(expected, dir)));
    const have = new Set(filesUnder(join(actual, dir)));
    for (const file of want) {
      const path = join(dir, file);
      if (!have.has(file)) differences.push(`${path} (missing)`);
      else if (!readFileSync(join(expected, path)).equals(readFileSync(join(actual, path)))) differences.push(`${path} (changed)`);
    }
    for (const file of have) if (!want.has(file)) differences.push(`${join(dir, file)} (extra)`);
  }
  return differences;
}

/** What differs between `sdkDir` and the SDKs `schemaFile` generates (compareTrees' lines). */
export function staleFiles(sdkDir = join(REPO, "sdk"), schemaFile = join(REPO, "schema.json")) {
  const fresh = mkdtempSync(join(tmpdir(), "pulumi-semgrep-sdk-check-"));
  try {
    generate(fresh, schemaFile);
    return compareTrees(fresh, sdkDir);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

function main({ check }) {
  if (!check) {
    generate(join(REPO, "sdk"));
    log(`wrote ${SDK_DIRS.map((d) => join("sdk", d)).join(", ")} from schema.json`);
    return;
  }
  const differences = staleFiles();
  if (differences.length === 0) {
    log("sdk/ matches what schema.json generates");
    return;
  }
  log("sdk/ is stale: run `npm run sdk` and commit the result. These files differ from what schema.json generates:");
  for (const line of differences.slice(0, 40)) log(`  ${line}`);
  if (differences.length > 40) log(`  … and ${differences.length - 40} more`);
  process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = readCommandLine({
    command: "npm run sdk",
    about: `Writes the SDKs in sdk/ (${SDK_DIRS.join(", ")}) from schema.json with Pulumi's own code generators,
built once from the Go module proxy and cached in ${join(cacheRoot(), "sdkgen")} (needs \`go\`);
\`npm run sdk:check\` checks them.`,
    flags: {
      check: {
        type: "boolean",
        default: false,
        help: "write nothing: exit 1 naming the files that differ from what schema.json generates (npm run sdk:check passes it)",
      },
    },
  });
  try {
    main(values);
  } catch (error) {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

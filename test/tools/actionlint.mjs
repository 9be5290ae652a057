#!/usr/bin/env node
// `npm run actionlint [-- FILE...]`: lints the GitHub Actions workflows (every file of
// .github/workflows/, or the FILEs given) with actionlint (https://github.com/rhysd/actionlint):
// its findings on stdout and exit 1 when there are any, nothing and exit 0 otherwise.
// `--path` prints instead, as its last line, the binary's absolute path. The binary is built from
// the Go module proxy and cached outside the repo, keyed by version:
// ~/.cache/pulumi-semgrep/actionlint/<version>/actionlint (root: $PULUMI_SEMGREP_CACHE, else
// $XDG_CACHE_HOME/pulumi-semgrep). Progress goes to stderr.
//
// Why a build: release binaries cannot be downloaded here, but actionlint is a Go module without
// `replace` directives, so `go install pkg@version` builds it (cold: about a minute on 2 cores).
// Test workers that race here waste a build but never see a half-written binary: each builds into
// a directory of its own and renames the result into place.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine } from "./command-line.mjs";
import { cacheRoot, go, log as logAs } from "./go-build.mjs";

const REPO = join(fileURLToPath(import.meta.url), "../../..");

const MODULE = "github.com/rhysd/actionlint";
/** Pinned: a version the module proxy serves (`go list -m -versions github.com/rhysd/actionlint`). */
export const ACTIONLINT_VERSION = "v1.7.12";
const BINARY = process.platform === "win32" ? "actionlint.exe" : "actionlint";

const log = (msg) => logAs("actionlint", msg);

/** Where the binary of `version` is cached. */
export function cachedBinary(version = ACTIONLINT_VERSION) {
  return join(cacheRoot(), "actionlint", version, BINARY);
}

/** `go install` of the pinned version into a private directory, then an atomic rename into place. */
function build(binary, version) {
  const started = Date.now();
  const staging = `${binary}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    log(`building ${MODULE}/cmd/actionlint@${version} from the Go module proxy (once; cached in ${binary})`);
    const env = { ...process.env, GOBIN: staging, CGO_ENABLED: "0", GOFLAGS: "-mod=mod" };
    const result = go(["install", "-trimpath", "-ldflags", "-s -w", `${MODULE}/cmd/actionlint@${version}`], {
      env,
      stdio: ["ignore", "inherit", "pipe"],
    });
    if (result.status !== 0) throw new Error(`go install ${MODULE}/cmd/actionlint@${version} failed:\n${result.stderr}`);
    renameSync(join(staging, BINARY), binary);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** The cached binary, built first when missing. */
export function actionlint(version = ACTIONLINT_VERSION) {
  const binary = cachedBinary(version);
  if (existsSync(binary)) return binary;
  mkdirSync(join(binary, ".."), { recursive: true });
  build(binary, version);
  return binary;
}

/** Every workflow of the repository: .github/workflows/*.yml and *.yaml, sorted. */
export function workflowFiles() {
  const dir = join(REPO, ".github/workflows");
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * actionlint on `files`: its exit status and findings. ShellCheck and pyflakes are left out
 * whatever is installed, so the answer is the same on every machine (each `run:` is one command of
 * this repository's: nothing for them to find). A workflow that calls a local reusable workflow
 * (`uses: ./.github/workflows/…`) is checked against that file too.
 */
export function lint(files, binary = actionlint()) {
  const result = spawnSync(binary, ["-no-color", "-shellcheck=", "-pyflakes=", ...files], { cwd: REPO, encoding: "utf8" });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = readCommandLine({
    command: "npm run actionlint",
    about: `Lints the workflows (every file of .github/workflows/, or the FILEs given) with actionlint
${ACTIONLINT_VERSION} (the GitHub Actions workflow linter), built once from the Go module proxy (needs \`go\`; about a
minute) and cached in ${cachedBinary()}. Exits 1 on any finding. Progress goes to stderr.`,
    flags: { path: { type: "boolean", default: false, help: "print the binary's path instead (building it when missing)" } },
    positionals: { synopsis: "[FILE...]", help: "FILE: a workflow to lint instead of every one of .github/workflows/." },
  });
  try {
    if (values.path) {
      process.stdout.write(`${actionlint()}\n`);
    } else {
      const files = positionals.length ? positionals.map((f) => resolve(f)) : workflowFiles();
      const { status, output } = lint(files);
      process.stdout.write(output);
      if (status !== 0) process.exit(1);
    }
  } catch (error) {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

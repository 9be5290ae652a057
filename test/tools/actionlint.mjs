#!/usr/bin/env node
// Prints, as its last line, the absolute path of an `actionlint` binary (the GitHub Actions
// workflow linter, https://github.com/rhysd/actionlint) built from the Go module proxy and cached
// outside the repo, keyed by version: ~/.cache/pulumi-semgrep/actionlint/<version>/actionlint
// (root: $PULUMI_SEMGREP_CACHE, else $XDG_CACHE_HOME/pulumi-semgrep). Progress goes to stderr.
//
// Why a build: release binaries cannot be downloaded here, but actionlint is a Go module without
// `replace` directives, so `go install pkg@version` builds it (cold: about a minute on 2 cores).
// Test workers that race here waste a build but never see a half-written binary: each builds into
// a directory of its own and renames the result into place.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine } from "./command-line.mjs";
import { cacheRoot, go, log as logAs } from "./go-build.mjs";

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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  readCommandLine({
    command: "npm run actionlint",
    about: `Prints, as its last line, the path of an \`actionlint\` binary (the GitHub Actions workflow
linter) ${ACTIONLINT_VERSION}, built once from the Go module proxy (needs \`go\`; about a minute) and cached in
${cachedBinary()}. Progress goes to stderr.`,
  });
  try {
    process.stdout.write(`${actionlint()}\n`);
  } catch (error) {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

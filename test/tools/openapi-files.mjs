#!/usr/bin/env node
// `node test/tools/openapi-files.mjs --out DIR`: Semgrep's published OpenAPI files, which the
// conformance tier (test/conformance) checks the client and the emulator against and which stay
// outside this repository, downloaded from Semgrep's public docs repository at a pinned commit and
// checked against their SHA-256 (a file the tier was not written against would fail it for reasons
// of its own). Writes DIR/semgrep-public-v1.openapi.yaml and -v2; prints `SEMGREP_OPENAPI_V1=<path>`
// and `SEMGREP_OPENAPI_V2=<path>`, and appends them to $GITHUB_ENV when set (a GitHub Actions job's
// later steps then have them). CI runs it before the unit tier (.github/workflows/ci.yml).
//
// To move to newer files: set COMMIT to a commit of semgrep/semgrep-docs, run this with `--no-verify`
// to download them, run the conformance tier against them, and set each sha256 to the printed one.
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCommandLine, usageError } from "./command-line.mjs";

/** The commit of https://github.com/semgrep/semgrep-docs the files are taken from. */
export const COMMIT = "a900180dba5b46286840644bb740e5e697a315e8";
export const BASE = `https://raw.githubusercontent.com/semgrep/semgrep-docs/${COMMIT}`;

/** Each file: where it is in semgrep-docs, the name and variable the tier reads it by, and its SHA-256. */
export const FILES = [
  {
    path: "docs/public_v1.openapi.yaml",
    name: "semgrep-public-v1.openapi.yaml",
    env: "SEMGREP_OPENAPI_V1",
    sha256: "7c3b7eab9ebda9e721de2b9446f26f131f128e9195290fcc97b1de30cd52a42f",
  },
  {
    path: "docs/public_v2.openapi.yaml",
    name: "semgrep-public-v2.openapi.yaml",
    env: "SEMGREP_OPENAPI_V2",
    sha256: "037afb5582509bd023a1d25c86ce155cb37029109ccc0a9d465b1ba8cbb7faf7",
  },
];

/** A download or a check that failed; the CLI prints the message without a stack. */
export class OpenApiError extends Error {}

/**
 * Downloads each of `files` from `base` into `out`, refusing one whose SHA-256 is not the pinned
 * one (unless `verify` is false). Resolves with `VARIABLE=path` lines, one per file.
 * @param {{ out: string, base?: string, files?: typeof FILES, verify?: boolean }} options
 * @returns {Promise<string[]>}
 */
export async function download({ out, base = BASE, files = FILES, verify = true }) {
  mkdirSync(out, { recursive: true });
  const lines = [];
  for (const file of files) {
    const url = `${base}/${file.path}`;
    let answer;
    try {
      answer = await fetch(url);
    } catch (error) {
      throw new OpenApiError(`GET ${url} failed: ${error instanceof Error ? (error.cause?.message ?? error.message) : String(error)}`);
    }
    if (!answer.ok) throw new OpenApiError(`GET ${url} answered ${answer.status} ${answer.statusText}`);
    const bytes = Buffer.from(await answer.arrayBuffer());
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (verify && sha256 !== file.sha256) {
      throw new OpenApiError(
        `${url} has SHA-256 ${sha256}, not the pinned ${file.sha256}: not the file the conformance tier was checked against (COMMIT and each sha256 in test/tools/openapi-files.mjs go together)`,
      );
    }
    const target = join(out, file.name);
    writeFileSync(target, bytes);
    lines.push(`${file.env}=${target}`);
    if (!verify) process.stderr.write(`[openapi] ${file.name}: sha256 ${sha256}\n`);
  }
  return lines;
}

/** The command line (test/tools/command-line.mjs). */
const TOOL = {
  command: "node test/tools/openapi-files.mjs",
  about: `Downloads Semgrep's published OpenAPI files (v1 and v2, from semgrep/semgrep-docs at commit
${COMMIT.slice(0, 12)}) into DIR, checks their SHA-256, and prints SEMGREP_OPENAPI_V1=… and SEMGREP_OPENAPI_V2=… (also
appended to $GITHUB_ENV when it is set).`,
  flags: {
    out: { type: "string", value: "DIR", defaultText: "none: required", help: "where to write them" },
    "no-verify": { type: "boolean", default: false, help: "skip the SHA-256 check and print each file's (to pin newer files)" },
  },
};

async function main(argv) {
  const { values } = readCommandLine(TOOL, argv);
  if (!values.out) usageError(TOOL, "--out DIR is required");
  const lines = await download({ out: resolve(values.out), verify: !values["no-verify"] });
  if (process.env.GITHUB_ENV) appendFileSync(process.env.GITHUB_ENV, lines.map((l) => `${l}\n`).join(""));
  process.stdout.write(lines.map((l) => `${l}\n`).join(""));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`[openapi] error: ${error instanceof OpenApiError ? error.message : (error?.stack ?? String(error))}\n`);
    process.exit(1);
  });
}

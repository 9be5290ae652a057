/**
 * Everything a contributor needs is in the repository: no file of it cites the notes the design
 * was first worked out in, which a clone does not have (a `../shared/` directory, the design and
 * API notes by name). Their facts live in docs/architecture.md and docs/live-service.md, and the
 * promises in docs/concepts/. The one thing passed in from outside is Semgrep's OpenAPI: the CI
 * lines that hand those files to the conformance tier may name where they are, nothing else.
 *
 * Every file git tracks or would track (untracked files not ignored, so a new file is caught
 * before its first commit) is read, binary files aside.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");
/** This file, which names the patterns it looks for. */
const SELF = "test/repository/outside-notes.test.ts";

/** What cites a note kept outside the repository. */
const OUTSIDE_NOTES: readonly RegExp[] = [
  /\.\.\/shared\//, // the directory beside the checkout
  /\bshared\/(?:notes|spec)\b/,
  /\bdesign\.md\b/,
  /\breal-api-notes\b/,
  /\bnative-plugin-facts\b/,
  /\bapi-v1\.md\b/,
];

/** CI, where the OpenAPI files are handed to the conformance tier, and the test of CI's message when they are missing. */
const CI_FILES = /^(?:\.ci\/|\.github\/workflows\/|test\/release\/ci\.test\.ts$)/;
/** A line about the OpenAPI files (`SEMGREP_OPENAPI_V1`, `semgrep-public-v1.openapi.yaml`, a comment saying where they are kept). */
const ABOUT_OPENAPI = /openapi/i;

/** The lines of `text` (the file `path`) that cite a note outside the repository, as `path:line: text`. */
function outsideNoteReferences(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => {
    if (!OUTSIDE_NOTES.some((pattern) => pattern.test(line))) return [];
    if (CI_FILES.test(path) && ABOUT_OPENAPI.test(line)) return [];
    return [`${path}:${index + 1}: ${line.trim()}`];
  });
}

/** Directories walked past where git cannot list the files: dependencies, build outputs, scratch. */
const NOT_OURS = new Set([".git", "node_modules", "dist", ".tmp", ".pulumi-state"]);

/** The repository's files: tracked, or untracked and not ignored; every file but {@link NOT_OURS} outside a git checkout. */
function repositoryFiles(): string[] {
  const git = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" });
  const listed = git.status === 0 ? git.stdout.split("\0").filter(Boolean) : walk("");
  return [...new Set(listed)].filter((path) => path !== SELF && existsSync(join(REPO, path)));
}

function walk(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_OURS.has(entry.name) ? [] : walk(path);
    return entry.isFile() ? [path] : [];
  });
}

describe("no file refers to a note outside the repository", () => {
  it("finds none in the repository (point the reference at docs/architecture.md, docs/live-service.md or docs/concepts/)", () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => {
      const bytes = readFileSync(join(REPO, path));
      return bytes.includes(0) ? [] : outsideNoteReferences(path, bytes.toString("utf8"));
    });
    expect(found).toEqual([]);
  });

  it("finds each kind of reference, wherever it is, and lets CI name where the OpenAPI files are", () => {
    const cited = [
      "// see ../shared/notes/native-plugin-facts.md",
      " * (design.md, promise 3)",
      "describe(\"codes (real-api-notes.md, 'From real clients')\", () => {",
      "// A status newer than api-v1.md is read",
      "# kept in shared/spec",
    ];
    expect(cited.flatMap((line) => outsideNoteReferences("provider/x.ts", line))).toHaveLength(cited.length);
    expect(outsideNoteReferences("README.md", "the copies in `../shared/spec/` when they exist")).toHaveLength(1);
    expect(outsideNoteReferences(".ci/run", "# Comments cite design.md")).toHaveLength(1);
    expect(outsideNoteReferences(".ci/run", "# OpenAPI, kept in ../shared/spec; without it the tier reports that it did not run.")).toEqual(
      [],
    );
    expect(outsideNoteReferences(".ci/run", '  spec="$(cd .. && pwd)/shared/spec/semgrep-public-${version}.openapi.yaml"')).toEqual([]);
    expect(outsideNoteReferences("docs/architecture.md", "The design is in docs/architecture.md and docs/live-service.md.")).toEqual([]);
  });
});

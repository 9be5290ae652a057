/**
 * `adopt --package <spec>`: what the generated package.json depends on for `pulumi-semgrep`. Any
 * npm install spec is written as given, but a relative path, which npm reads from the project's
 * directory while the user wrote it from where adopt ran: it is written as the same file seen
 * from the project. A path that does not exist, or an empty spec, is refused before any request.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPackageSpec, dependencySpec, installArgument, isLocalPath } from "../../provider/adopt/package-spec";
import { AdoptRequestError } from "../../provider/adopt/read";

/** A working directory holding `pulumi-semgrep-1.2.3.tgz` and a clone directory `clone/`. */
function workDir() {
  const cwd = mkdtempSync(join(tmpdir(), "adopt-package-"));
  writeFileSync(join(cwd, "pulumi-semgrep-1.2.3.tgz"), "");
  mkdirSync(join(cwd, "clone"));
  writeFileSync(join(cwd, "clone", "pulumi-semgrep-1.2.3.tgz"), "");
  return cwd;
}
const VERSION = "1.2.3";

describe("dependencySpec", () => {
  it("without --package: this package's version, from the registry", () => {
    expect(dependencySpec(undefined, { version: VERSION, projectDir: "out" })).toBe(VERSION);
  });

  it.each([
    ["a version", "0.1.0-rc.1"],
    ["a range", "^0.1.0"],
    ["a dist-tag", "next"],
    ["a git URL", "git+https://github.com/pulumi-semgrep/pulumi-semgrep.git#v0.1.0"],
    ["a GitHub shorthand", "github:pulumi-semgrep/pulumi-semgrep#main"],
    ["a tarball URL", "https://example.com/pulumi-semgrep-1.2.3.tgz"],
    ["a home-relative path", "~/builds/pulumi-semgrep-1.2.3.tgz"],
    ["an alias", "npm:pulumi-semgrep@0.1.0"],
  ])("%s is written as given: %s", (_, spec) => {
    const cwd = workDir();
    expect(dependencySpec(spec, { version: VERSION, projectDir: "out", cwd })).toBe(spec);
  });

  it("an absolute path is written as given, once it exists", () => {
    const cwd = workDir();
    const tarball = join(cwd, "pulumi-semgrep-1.2.3.tgz");
    expect(dependencySpec(tarball, { version: VERSION, projectDir: "out", cwd })).toBe(tarball);
    expect(dependencySpec(`file:${tarball}`, { version: VERSION, projectDir: "out", cwd })).toBe(`file:${tarball}`);
  });

  it.each([
    // [given from cwd, project directory (from cwd), written into package.json]
    ["./pulumi-semgrep-1.2.3.tgz", "out", "file:../pulumi-semgrep-1.2.3.tgz"],
    ["pulumi-semgrep-1.2.3.tgz", "out", "file:../pulumi-semgrep-1.2.3.tgz"],
    ["file:pulumi-semgrep-1.2.3.tgz", "deep/er/out", "file:../../../pulumi-semgrep-1.2.3.tgz"],
    ["clone/pulumi-semgrep-1.2.3.tgz", "clone/out", "file:../pulumi-semgrep-1.2.3.tgz"],
    ["./clone", "out", "file:../clone"],
    ["./clone/pulumi-semgrep-1.2.3.tgz", ".", "file:./clone/pulumi-semgrep-1.2.3.tgz"],
  ])("a relative path is rebased onto the project's directory: %s into %s is %s", (spec, projectDir, written) => {
    const cwd = workDir();
    expect(dependencySpec(spec, { version: VERSION, projectDir, cwd })).toBe(written);
  });

  it("a project directory given absolute gives the same relative path", () => {
    const cwd = workDir();
    expect(dependencySpec("./pulumi-semgrep-1.2.3.tgz", { version: VERSION, projectDir: join(cwd, "a", "b"), cwd })).toBe(
      "file:../../pulumi-semgrep-1.2.3.tgz",
    );
  });
});

describe("checkPackageSpec", () => {
  it.each(["", "   "])("refuses an empty spec (%j), naming --package", (spec) => {
    expect(() => checkPackageSpec(spec, workDir())).toThrow(AdoptRequestError);
    expect(() => checkPackageSpec(spec, workDir())).toThrow(/--package needs an npm install spec/);
  });

  it.each(["./missing.tgz", "missing.tgz", "file:../nowhere/x.tgz"])("refuses a path that does not exist: %s", (spec) => {
    const cwd = workDir();
    expect(() => checkPackageSpec(spec, cwd)).toThrow(AdoptRequestError);
    expect(() => checkPackageSpec(spec, cwd)).toThrow(`--package ${spec}: no such file or directory`);
  });

  it("leaves a spec that is not a path on this machine to npm", () => {
    for (const spec of ["0.1.0", "^0.1.0", "git+ssh://git@github.com/x/y.git", "https://example.com/x.tgz", "~/x.tgz"])
      expect(() => checkPackageSpec(spec, workDir())).not.toThrow();
  });
});

describe("how npm tells a path", () => {
  it("a leading . / ~/, a file: prefix or a tarball's extension, without a protocol", () => {
    expect(["./x", "../x", "/x", "~/x", "file:x", "x.tgz", "x.tar.gz", "x.tar"].filter((s) => !isLocalPath(s))).toEqual([]);
    expect(["0.1.0", "^1", "latest", "user/repo", "https://h/x.tgz", "git+https://h/x.git"].filter(isLocalPath)).toEqual([]);
  });

  it("installArgument: a version, range or tag after the name; a path or a URL alone", () => {
    expect(["0.1.0", "^0.1.0", "next", "file:../x.tgz", "../x.tgz", "git+https://h/x.git"].map(installArgument)).toEqual([
      "pulumi-semgrep@0.1.0",
      "pulumi-semgrep@^0.1.0",
      "pulumi-semgrep@next",
      "file:../x.tgz",
      "../x.tgz",
      "git+https://h/x.git",
    ]);
  });
});

/**
 * What a generated TypeScript project's package.json depends on for `pulumi-semgrep`: by default
 * this package's version, from the npm registry; with `adopt --package <spec>`, any npm install
 * spec, for a build that is not published (a tarball from `npm pack` in a clone, a git URL).
 *
 * A local path is the one spec whose meaning depends on where it is read: the user writes it
 * relative to where adopt runs, npm reads it relative to the package.json that holds it. So a
 * relative path (`./x.tgz`, `../clone`, `file:x.tgz`, `x.tgz`) is written as `file:` + the same
 * file seen from the generated project's directory, and must exist; everything else (a version or
 * range, a tag, an absolute or `~/` path, a URL) is written exactly as given.
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { AdoptRequestError } from "./read";

/** How npm tells a path from a name: a leading `.`, `/` or `~/`, a `file:` prefix, or a tarball's extension (npm-package-arg). */
const LOCAL_PATH = /^(?:file:|[.]|\/|~\/)|[.](?:tgz|tar[.]gz|tar)$/i;
/** A spec with a protocol of its own (`https:`, `git+ssh:`, `github:`) is not a path, whatever its end. */
const PROTOCOL = /^[a-z][a-z0-9+.-]*:/i;

/** Whether npm reads `spec` as a path on this machine. */
export const isLocalPath = (spec: string) => LOCAL_PATH.test(spec) && (spec.startsWith("file:") || !PROTOCOL.test(spec));

/** The path a local spec names, as given (`./x.tgz` of `file:./x.tgz`). */
const pathOf = (spec: string) => spec.replace(/^file:(?:\/\/(?=\/))?/, "");

/**
 * Checks `spec` before anything is read: not empty, and a local path that exists (a mistyped path
 * would otherwise show only at the generated project's `npm install`). `cwd`: where it was given from.
 */
export function checkPackageSpec(spec: string, cwd = process.cwd()): void {
  const given = spec.trim();
  if (!given) throw new AdoptRequestError("--package needs an npm install spec: a version, a tarball from npm pack, a path or a git URL");
  if (!isLocalPath(given) || pathOf(given).startsWith("~/")) return;
  const target = resolve(cwd, pathOf(given));
  if (!existsSync(target)) throw new AdoptRequestError(`--package ${given}: no such file or directory (${target})`);
}

/**
 * The dependency spec for a project written into `projectDir`: `version` (this package's) without
 * `spec`; otherwise `spec` (checked by checkPackageSpec), a relative path rebased onto `projectDir`
 * (see above). `cwd` is where `spec` and `projectDir` were given from.
 */
export function dependencySpec(
  spec: string | undefined,
  { version, projectDir, cwd = process.cwd() }: { version: string; projectDir: string; cwd?: string },
): string {
  if (spec === undefined) return version;
  checkPackageSpec(spec, cwd);
  const given = spec.trim();
  const path = pathOf(given);
  if (!isLocalPath(given) || isAbsolute(path) || path.startsWith("~/")) return given;
  const fromProject = relative(resolve(cwd, projectDir), resolve(cwd, path)).split(sep).join("/");
  return `file:${fromProject.startsWith(".") ? fromProject : `./${fromProject}`}`;
}

/** `spec` as an argument of `npm install`: a version, a range or a tag after the package's name; a path or a URL alone. */
export const installArgument = (spec: string) => (isLocalPath(spec) || /[:/]/.test(spec) ? spec : `pulumi-semgrep@${spec}`);

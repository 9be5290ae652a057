/** The generated project on disk: never into a directory holding other things unless asked (`--force`). */
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The directory holds files and `--force` was not given: nothing is written. */
export class TargetNotEmptyError extends Error {}

/** Subdirectories whose every `.ts` file adopt writes: with `--force`, ones it no longer writes are removed. */
const GENERATED_DIRS = ["policies", "detection-policies"];

/**
 * Data files adopt writes beside index.ts for one area: with `--force`, one it no longer writes
 * (that area skipped, or gone from the deployment) is removed, so no file is left that looks
 * managed while index.ts no longer reads it.
 */
const GENERATED_FILES = ["projects.ts", "remediation-policies.ts", "teams.ts", "user-roles.ts", "index.ts", "Main.yaml"];

/**
 * Files of a TypeScript project that a YAML program has no use for, which `--force` leaves as they
 * are (they may hold what the user installed or configured) and the summary names.
 */
const TYPESCRIPT_LEFTOVERS = ["package.json", "package-lock.json", "tsconfig.json", "node_modules"];

/** Checks, before anything is read at length, that `dir` may be written: absent, empty, or `force`. */
export function prepareDirectory(dir: string, force: boolean): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new TargetNotEmptyError(`--out ${dir} is a file, not a directory`);
  const entries = readdirSync(dir);
  if (entries.length && !force) {
    throw new TargetNotEmptyError(
      `--out ${dir} is not empty (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""}): ` +
        "give another directory, or --force to replace the files adopt writes there",
    );
  }
}

/**
 * Writes `files` under `dir`; returns each path and its size in bytes. With `force`, the program
 * files adopt no longer writes are removed first, those of the other language included (a
 * TypeScript run removes a Main.yaml, a YAML run index.ts and the data files), so that one program
 * is left; a directory of data files left empty goes too.
 */
export function writeProject(dir: string, files: Record<string, string>, force: boolean): { path: string; bytes: number }[] {
  prepareDirectory(dir, force);
  if (force) {
    for (const sub of GENERATED_DIRS) {
      const at = join(dir, sub);
      if (!existsSync(at)) continue;
      for (const name of readdirSync(at)) if (name.endsWith(".ts") && !(`${sub}/${name}` in files)) rmSync(join(at, name));
      if (!readdirSync(at).length) rmSync(at, { recursive: true });
    }
    for (const name of GENERATED_FILES) if (!(name in files)) rmSync(join(dir, name), { force: true });
  }
  return Object.entries(files).map(([path, text]) => {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    return { path, bytes: Buffer.byteLength(text) };
  });
}

/** The files of a TypeScript project in `dir` that a YAML program leaves as they are (after {@link writeProject} with `force`). */
export const typescriptLeftovers = (dir: string, files: Record<string, string>): string[] =>
  TYPESCRIPT_LEFTOVERS.filter((name) => !(name in files) && existsSync(join(dir, name))).map((name) =>
    statSync(join(dir, name)).isDirectory() ? `${name}/` : name,
  );

/**
 * Writes each secret config value to `secrets/<key>` under `dir`, readable by its owner only (the
 * directory too), for `pulumi config set --secret <key> < secrets/<key>`: adopt makes no stack (its
 * name and secrets provider are the user's choice), so it cannot encrypt them into one, and printed
 * they would stay in a terminal's scrollback or a CI log. A `secrets/` of an earlier run is replaced whole.
 */
export function writeSecrets(dir: string, values: Record<string, string>): void {
  const at = join(dir, "secrets");
  rmSync(at, { recursive: true, force: true });
  if (!Object.keys(values).length) return;
  mkdirSync(at, { mode: 0o700 });
  chmodSync(at, 0o700);
  for (const [key, value] of Object.entries(values)) writeFileSync(join(at, key), value, { mode: 0o600 });
}

/**
 * The generated Node.js SDK `@pulumi-semgrep/semgrep` (sdk/nodejs, from `npm run sdk`) as a user
 * gets it: compiled with its own tsconfig (`bin/`, as Pulumi's providers publish it: package.json
 * and README copied beside the output, `npm pack` of that directory), and the tarball installed
 * with npm into a project of its own beside the packed `pulumi-semgrep` (the global setup's
 * tarball, for programs moving from the dynamic classes), TypeScript and @types/node, as a
 * TypeScript Pulumi project has them. The compile uses the repository's TypeScript and
 * `@pulumi/pulumi` (a link to its node_modules): the SDK's own `npm install` would fetch them again.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inject } from "vitest";
import { REPO } from "../tools/plugin-pack.mjs";

/** The SDK's npm name (schema.json's `language.nodejs.packageName`). */
export const SDK_PACKAGE = "@pulumi-semgrep/semgrep";

export interface PackedSdk {
  /** What `tsc -p sdk/nodejs` printed: nothing when the SDK compiles. */
  compilerOutput: string;
  /** The exit status of that compile. */
  compilerStatus: number | null;
  /** `@pulumi-semgrep/semgrep`'s tarball. */
  tarball: string;
}

const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

/** Compiles a copy of sdk/nodejs with its own tsconfig and packs its `bin/` as it would be published. */
export function packNodeSdk(): PackedSdk {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-nodejs-sdk-"));
  const source = join(root, "nodejs");
  cpSync(join(REPO, "sdk/nodejs"), source, { recursive: true, filter: (path) => !/[\\/](node_modules|bin)$/.test(path) });
  symlinkSync(join(REPO, "node_modules"), join(source, "node_modules"), "dir");
  const tsc = spawnSync(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: source,
    encoding: "utf8",
  });
  const compilerOutput = `${tsc.stdout}${tsc.stderr}`;
  if (tsc.status !== 0) return { compilerOutput, compilerStatus: tsc.status, tarball: "" };
  const bin = join(source, "bin");
  for (const file of ["package.json", "README.md"]) copyFileSync(join(source, file), join(bin, file));
  copyFileSync(join(REPO, "LICENSE"), join(bin, "LICENSE"));
  npm(["pack", bin, "--pack-destination", root, "--silent"], root);
  const tarball = readdirSync(root).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack of ${bin} wrote no tarball into ${root}`);
  return { compilerOutput, compilerStatus: tsc.status, tarball: join(root, tarball) };
}

/**
 * A project directory whose node_modules holds the SDK installed from `sdkTarball`, the packed
 * pulumi-semgrep, TypeScript and @types/node; a `tsconfig.json` beside them type-checks a program.
 */
export function installSdk(sdkTarball: string): string {
  const installed = dirname(inject("installedPackageDir"));
  const packed = readdirSync(installed).find((f) => /^pulumi-semgrep-.*\.tgz$/.test(f));
  if (!packed) throw new Error(`the global setup left no pulumi-semgrep tarball in ${installed}`);
  const dir = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-sdk-consumer-")), "consumer");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
  npm([...args, sdkTarball, join(installed, packed), "typescript@5", "@types/node@24"], dir);
  return dir;
}

/** The tsconfig of `pulumi new typescript` (test/tools/consumer-types.test.ts), checking only (`tsc --noEmit`). */
export const PROGRAM_TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "es2020",
    module: "nodenext",
    moduleResolution: "nodenext",
    experimentalDecorators: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
});

/** `tsc --noEmit` of the program in `dir` with the TypeScript installed beside it: its status and output. */
export function typeCheck(dir: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The generated Node.js SDK `@pulumi-semgrep/semgrep` (sdk/nodejs, from `npm run sdk`) as a user
 * gets it: packed by the release's own step (`node test/tools/release.mjs nodejs-sdk --dry-run`:
 * compiled with its own tsconfig into `bin/`, package.json and README beside it, `npm pack` of
 * that directory), and the tarball installed with npm into a project of its own beside the packed
 * `pulumi-semgrep` (the global setup's tarball, for programs moving from the dynamic classes),
 * TypeScript and @types/node, as a TypeScript Pulumi project has them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inject } from "vitest";
import { packNodeSdk as packed } from "../tools/example-sdks.mjs";
import { ReleaseError } from "../tools/release.mjs";

/** The SDK's npm name (schema.json's `language.nodejs.packageName`). */
export const SDK_PACKAGE = "@pulumi-semgrep/semgrep";

/** The packed SDK: its tarball, or why the release step refused it (tsc's output when it does not compile). */
export type PackedSdk = { tarball: string; refused?: undefined } | { tarball?: undefined; refused: string };

const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

/** The release's nodejs-sdk step, dry run (nothing published), into a temporary directory. */
export async function packNodeSdk(): Promise<PackedSdk> {
  const out = mkdtempSync(join(tmpdir(), "pulumi-semgrep-nodejs-sdk-"));
  try {
    return { tarball: (await packed(out)) as string };
  } catch (error) {
    if (error instanceof ReleaseError) return { refused: error.message };
    throw error;
  }
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

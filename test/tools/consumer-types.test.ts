/**
 * The packed package type-checks in a user's project as `pulumi new typescript` makes it: under
 * the template's tsconfig of today (`module`/`moduleResolution: nodenext`) and under the one it
 * wrote until March 2026 (`commonjs` / `node`, which many stacks still have), where the subpath
 * imports `pulumi-semgrep/client` and `pulumi-semgrep/emulator` resolve only through
 * `typesVersions` (that resolution ignores `exports`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

/** The compiler options of the template's tsconfig.json, before and after it moved to nodenext. */
const templateOptions = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};
const current = { ...templateOptions, module: "nodenext", moduleResolution: "nodenext" };
const older = { ...templateOptions, module: "commonjs", moduleResolution: "node" };

/** Every entry point a user imports, used as the README shows. */
const consumer = `
import * as pulumi from "@pulumi/pulumi";
import * as semgrep from "pulumi-semgrep";
import { NotFoundError, SemgrepClient } from "pulumi-semgrep/client";
import { startEmulator } from "pulumi-semgrep/emulator";

const rule = new semgrep.PolicyRuleMode("eval", {
  deploymentId: "1",
  policyId: "policy-1",
  rulePath: "python.lang.security.audit.eval-detected.eval-detected",
  mode: "MODE_BLOCK",
});
export const mode: pulumi.Output<string> = rule.mode;
export const policy = semgrep.getPolicyOutput({ deploymentId: "1", isDefault: true, productType: "PRODUCT_TYPE_SAST" }).name;

export async function missingProjectMessage(): Promise<string> {
  const emulator = await startEmulator({ preset: "demo" });
  const client = new SemgrepClient({ token: emulator.token, baseUrl: emulator.url });
  const error = await client.projects.get("acme", "acme/none").catch((e: unknown) => e);
  await emulator.close();
  return error instanceof NotFoundError ? error.message : "";
}
`;

/** The diagnostics of `tsc --noEmit` on the consumer under `options`, one line each, paths as tsc prints them. */
function compile(options: Record<string, unknown>): string[] {
  const dir = mkdtempSync(join(inject("installedPackageDir"), "tsc-"));
  writeFileSync(join(dir, "index.ts"), consumer);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...options, pretty: false }, files: ["index.ts"] }));
  const tsc = join(inject("installedPackageDir"), "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "--noEmit", "-p", dir], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    return [];
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
      .split("\n")
      .filter((line) => /error TS\d+/.test(line));
  }
}

/** zod 4's locale declarations use `export =` behind `export { default }`, which needs esModuleInterop (colinhacks/zod#5160). */
const inZodLocales = (line: string) => /node_modules\/zod\/v4\/locales\//.test(line);

describe("a user's project type-checks with the package", () => {
  it("under the tsconfig `pulumi new typescript` writes today (nodenext)", () => {
    expect(compile(current)).toEqual([]);
  }, 120_000);

  it("under the tsconfig it wrote before (commonjs, moduleResolution node): every import resolves; only zod's own locale files need esModuleInterop", () => {
    const diagnostics = compile(older);
    expect(diagnostics.filter((line) => !inZodLocales(line))).toEqual([]);
    expect(compile({ ...older, esModuleInterop: true })).toEqual([]);
  }, 120_000);
});

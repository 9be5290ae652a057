/**
 * Once per test run: pack this package as `npm publish` would and install the tarball into a
 * throw-away project, as a user's `npm install pulumi-semgrep` does. Serialization, the
 * dynamic-provider host and the Pulumi CLI tests run against that installed copy, because
 * Pulumi's closure serialization behaves as in production only for compiled code under
 * node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };

declare module "vitest" {
  export interface ProvidedContext {
    /** A project directory whose node_modules holds the packed pulumi-semgrep and its dependencies. */
    installedPackageDir: string;
  }
}

const REPO = join(__dirname, "../..");

export default function setup(project: TestProject): void {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-installed-"));
  const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  npm(["pack", "--pack-destination", root, "--silent"], REPO);
  const tarball = readdirSync(root).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${root}`);
  const dir = join(root, "consumer");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  // TypeScript beside it, as in a user's TypeScript Pulumi project.
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", join(root, tarball), "typescript@5", "@types/node@24"], dir);
  project.provide("installedPackageDir", dir);
}

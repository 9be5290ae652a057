// Packs this package as `npm publish` would and installs the tarball (with TypeScript beside it,
// as in a user's TypeScript Pulumi project, and @pulumi/policy, as a user who runs the policy
// pack adds it) into a new temporary project. Returns its directory.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** @returns {string} a project directory whose node_modules holds the packed pulumi-semgrep */
export function installPackedPackage() {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-installed-"));
  const npm = (args, cwd) => execFileSync("npm", args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  npm(["pack", "--pack-destination", root, "--silent"], REPO);
  const tarball = readdirSync(root).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${root}`);
  const dir = join(root, "consumer");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  const policy = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).peerDependencies["@pulumi/policy"];
  npm(
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      join(root, tarball),
      "typescript@5",
      "@types/node@24",
      `@pulumi/policy@${policy}`,
    ],
    dir,
  );
  return dir;
}

/**
 * Once per test run: pack this package and install the tarball into a throw-away project, as a
 * user's `npm install pulumi-semgrep` does. Serialization, the dynamic-provider host and the
 * Pulumi CLI tests run against that installed copy, because Pulumi's closure serialization
 * behaves as in production only for compiled code under node_modules.
 */
// vitest/node is ESM-only; this CommonJS-compiled project names its types with resolution-mode.
type TestProject = import("vitest/node", { with: { "resolution-mode": "import" } }).TestProject;
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { installPackedPackage } from "../tools/install-packed.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** A project directory whose node_modules holds the packed pulumi-semgrep and its dependencies. */
    installedPackageDir: string;
    /** True in the `omit-empty` test project (vitest.config.mts), whose emulators leave out fields at their default value. */
    omitEmpty: boolean;
  }
}

/** Installs the package; the teardown it returns removes the install (about 150 MB a run). */
export default function setup(project: TestProject): () => void {
  const dir = installPackedPackage();
  project.provide("installedPackageDir", dir);
  return () => rmSync(dirname(dir), { recursive: true, force: true }); // the tarball and the project beside it
}

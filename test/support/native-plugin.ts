/**
 * The native plugin `pulumi-resource-semgrep` as a user installs it: this machine's release
 * tarball (`npm run plugin:pack`'s, packed once per test file from dist/), installed into a
 * workspace's own PULUMI_HOME. Install rather than PATH: a plugin found on the PATH makes the CLI
 * print "warning: using pulumi-resource-semgrep from $PATH at …" on every run, in every output.
 * (The YAML language host needs nothing: `npm run pulumi:cli` builds it beside `pulumi`, where
 * the CLI looks first, without a warning.)
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pack, REPO, tarballForHere } from "../tools/plugin-pack.mjs";
import type { PulumiWorkspace } from "./pulumi";

/** The package's version: the plugin's, as `pulumi plugin ls` lists it. */
export const PLUGIN_VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

let packed: Promise<string[]> | undefined;

/** Every tarball of `npm run plugin:pack`, written once per test file into a temporary directory. */
export function packedTarballs(): Promise<string[]> {
  packed ??= pack(join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-plugins-")), "plugins"));
  return packed;
}

/** This machine's tarball. */
export async function packedPlugin(): Promise<string> {
  return tarballForHere(await packedTarballs(), PLUGIN_VERSION);
}

/** `pulumi plugin install resource semgrep <version> --file <tarball>` into the workspace's PULUMI_HOME. */
export async function installPlugin(workspace: PulumiWorkspace): Promise<void> {
  await workspace.run(["plugin", "install", "resource", "semgrep", PLUGIN_VERSION, "--file", await packedPlugin()]);
}

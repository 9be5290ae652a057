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
import { pack, REPO, tarballName } from "../tools/plugin-pack.mjs";
import type { PulumiWorkspace } from "./pulumi";

/** The package's version: the plugin's, as `pulumi plugin ls` lists it. */
export const PLUGIN_VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** Pulumi's names for this machine's OS and architecture (`windows`, `amd64`). */
export function pulumiPlatform(): { os: string; arch: string } {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return { os, arch };
}

let packed: Promise<string[]> | undefined;

/** Every tarball of `npm run plugin:pack`, written once per test file into a temporary directory. */
export function packedTarballs(): Promise<string[]> {
  packed ??= pack(join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-plugins-")), "plugins"));
  return packed;
}

/** This machine's tarball. */
export async function packedPlugin(): Promise<string> {
  const { os, arch } = pulumiPlatform();
  const name = tarballName(PLUGIN_VERSION, os, arch);
  const found = (await packedTarballs()).find((p) => p.endsWith(name));
  if (!found) throw new Error(`plugin:pack wrote no ${name}`);
  return found;
}

/** `pulumi plugin install resource semgrep <version> --file <tarball>` into the workspace's PULUMI_HOME. */
export async function installPlugin(workspace: PulumiWorkspace): Promise<void> {
  await workspace.run(["plugin", "install", "resource", "semgrep", PLUGIN_VERSION, "--file", await packedPlugin()]);
}

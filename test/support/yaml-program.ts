/**
 * A Pulumi YAML program run through the real CLI with the native plugin `pulumi-resource-semgrep`
 * of the packed and installed package (test/support/global-setup.ts): the npm bin a user of
 * `npm install pulumi-semgrep` gets.
 *
 * The plugin is found on the PATH: a directory holding only a link to the installed package's
 * `node_modules/.bin/pulumi-resource-semgrep` comes first on it. So this tier runs the package's
 * bin as installed by npm, at no cost beyond the global setup's one install (the release tarballs
 * of `npm run plugin:pack`, installed with `pulumi plugin install`, have tests of their own). The
 * CLI then prints "warning: using pulumi-resource-semgrep from $PATH at …" on every run (a few
 * times, with blank lines, under the stack's diagnostics): tests tolerate it, and
 * `printedWithoutPathWarnings` leaves it out where a test reads what a run printed.
 */
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { inject } from "vitest";
import { type ProgramWorkspace, stateOf } from "./program";
import { type PulumiWorkspace, pulumiCliDir, pulumiWorkspace } from "./pulumi";

/** The type tokens of the plugin's resources: `semgrep:index:<Kind>`. */
export const TYPE_PREFIX = "semgrep:index:";

export interface YamlWorkspace extends PulumiWorkspace, Pick<ProgramWorkspace, "exported" | "resources"> {
  /** Replaces the program: `body` is what follows `name` and `runtime` in Pulumi.yaml. */
  write(body: string): void;
  /** Everything every CLI run of this workspace printed so far (stdout and stderr), in order; runs asked to `--show-secrets` left out. */
  printed(): string;
}

let pluginDir: string | undefined;

/** A directory holding only `pulumi-resource-semgrep`, a link to the installed package's bin. */
function pluginOnPath(): string {
  if (pluginDir) return pluginDir;
  const bin = join(inject("installedPackageDir"), "node_modules/.bin/pulumi-resource-semgrep");
  if (!existsSync(bin))
    throw new Error(`the installed package has no bin pulumi-resource-semgrep (${bin}): is it in package.json's "bin"?`);
  const dir = mkdtempSync(join(tmpdir(), "pulumi-semgrep-plugin-"));
  symlinkSync(bin, join(dir, "pulumi-resource-semgrep"));
  pluginDir = dir;
  return dir;
}

const pulumiYaml = (body: string) => `name: e2e\nruntime: yaml\n${body}`;

/**
 * A stack `test` of project `e2e` running the YAML program `body` with the plugin on the PATH.
 * The provider's credentials come from the stack's config only (SEMGREP_APP_TOKEN / SEMGREP_APP_URL
 * are emptied): `config` is set as plain text, `secrets` with `--secret`, in one CLI run.
 */
export async function yamlWorkspace(
  body: string,
  options: { config?: Record<string, string>; secrets?: Record<string, string> } = {},
): Promise<YamlWorkspace> {
  const path = [pluginOnPath(), dirname(process.execPath), pulumiCliDir(), process.env.PATH ?? ""].join(delimiter);
  const workspace = await pulumiWorkspace({ "Pulumi.yaml": pulumiYaml(body) }, { PATH: path, SEMGREP_APP_URL: "", SEMGREP_APP_TOKEN: "" });
  const transcript: string[] = [];
  const run: PulumiWorkspace["run"] = async (args, runOptions) => {
    const result = await workspace.run(args, { ...runOptions, allowFailure: true });
    if (!args.includes("--show-secrets")) transcript.push(result.stdout, result.stderr);
    if (result.status !== 0 && !runOptions?.allowFailure)
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.status}\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  const pairs = [
    ...Object.entries(options.config ?? {}).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
    ...Object.entries(options.secrets ?? {}).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
  ];
  if (pairs.length) await run(["config", "set-all", ...pairs]);
  const ours = { ...workspace, run };
  return {
    ...ours,
    ...stateOf(ours, TYPE_PREFIX),
    write: (text) => writeFileSync(join(workspace.dir, "Pulumi.yaml"), pulumiYaml(text)),
    printed: () => transcript.join("\n"),
  };
}

/** The CLI's warning about a plugin found on the PATH (this tier's way of finding the plugin). */
const PATH_WARNING = /^.*warning: using pulumi-resource-semgrep from \$PATH at .*\n?/gm;

/** What a run printed (stdout then stderr) without the PATH warnings, every run of white space one space. */
export const printedWithoutPathWarnings = (result: { stdout: string; stderr: string }) =>
  (result.stdout + result.stderr).replace(PATH_WARNING, "").replace(/\s+/g, " ");

/** The URN of resource `name` of kind `kind` in the `test` stack of project `e2e`. */
export const yamlUrnOf = (kind: string, name: string) => `urn:pulumi:test::e2e::${TYPE_PREFIX}${kind}::${name}`;

/**
 * A Pulumi program (`index.js`) using the packed package as a user's project has it, run through
 * the real CLI against an emulator: for tests that change the program between runs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { RunningEmulator } from "../../provider/emulator";
import { type PulumiWorkspace, pulumiWorkspace } from "./pulumi";

export interface ProgramWorkspace extends PulumiWorkspace {
  /** Replaces the program. */
  write(program: string): void;
  /** Our resources in the stack's state (`pulumi stack export`, secrets decrypted when asked), by name. */
  resources(options?: { showSecrets?: boolean }): Promise<Record<string, StateResource>>;
  /** The text of `pulumi stack export` (secrets encrypted). */
  exported(): Promise<string>;
}

export interface StateResource {
  urn: string;
  /** The resource's id (absent while pending). */
  id?: string;
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** `require("pulumi-semgrep")` as `semgrep`, then `body`. */
export const program = (body: string) => `const pulumi = require("@pulumi/pulumi");\nconst semgrep = require("pulumi-semgrep");\n${body}\n`;

/**
 * A stack `test` of project `e2e` whose program is `index`, with the token and address of
 * `emulator` in SEMGREP_APP_TOKEN / SEMGREP_APP_URL (or in nothing, for tests that set stack config).
 */
export async function programWorkspace(
  emulator: RunningEmulator,
  index: string,
  options: { credentials?: "environment" | "none" } = {},
): Promise<ProgramWorkspace> {
  const credentials =
    options.credentials === "none"
      ? { SEMGREP_APP_URL: "", SEMGREP_APP_TOKEN: "" }
      : { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
  const files = { "Pulumi.yaml": "name: e2e\nruntime: nodejs\n", "index.js": index, "package.json": '{"name":"e2e","main":"index.js"}' };
  const workspace = await pulumiWorkspace(files, credentials, join(inject("installedPackageDir"), "node_modules"));
  return {
    ...workspace,
    ...stateOf(workspace, "pulumi-nodejs:dynamic/semgrep:"),
    write: (text) => writeFileSync(join(workspace.dir, "index.js"), text),
  };
}

/**
 * `exported` and `resources` of a workspace's stack, for resources whose type starts with
 * `typePrefix` (the dynamic provider's `pulumi-nodejs:dynamic/semgrep:`, the plugin's `semgrep:index:`).
 */
export function stateOf(workspace: PulumiWorkspace, typePrefix: string): Pick<ProgramWorkspace, "exported" | "resources"> {
  const exported = async () => (await workspace.run(["stack", "export"])).stdout;
  return {
    exported,
    async resources({ showSecrets = false } = {}) {
      const text = showSecrets ? (await workspace.run(["stack", "export", "--show-secrets"])).stdout : await exported();
      const state = JSON.parse(text) as { deployment: { resources?: StateResource[] } };
      const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith(typePrefix));
      return Object.fromEntries(ours.map((r) => [r.urn.split("::").at(-1)!, r]));
    },
  };
}

/** What a CLI run printed (stdout then stderr), with every run of white space made one space. */
export const printed = (result: { stdout: string; stderr: string }) => (result.stdout + result.stderr).replace(/\s+/g, " ");

/** The URN of resource `name` of kind `kind` in the `test` stack of project `e2e`. */
export const urnOf = (kind: string, name: string) => `urn:pulumi:test::e2e::pulumi-nodejs:dynamic/semgrep:${kind}::${name}`;

/**
 * A workflow's stack for each front end: the dynamic classes of the packed and installed package
 * in a TypeScript program (`index.js`), or the native plugin installed from this machine's release
 * tarball (`pulumi plugin install --file`, as a user installs it) under a YAML program
 * (`Pulumi.yaml`). Either way the stack `test` of project `e2e`, offline, the emulator's address
 * and token in the environment.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../provider/emulator";
import { installPlugin } from "../support/native-plugin";
import { type ProgramWorkspace, programWorkspace, stateOf } from "../support/program";
import { pulumiWorkspace } from "../support/pulumi";
import { TYPE_PREFIX } from "../support/yaml-program";
import type { Program } from "./model";
import { type FrontEnd, programFile, renderFor } from "./render";

/** A stack whose program is a model's program, rendered for its front end. */
export interface Stack extends Omit<ProgramWorkspace, "write"> {
  frontEnd: FrontEnd;
  /** Makes `program` the stack's program. */
  write(program: Program): void;
  /** The program file (`index.js` or `Pulumi.yaml`) for `program`. */
  render(program: Program): string;
}

/** A new stack of `frontEnd` with an empty program, against `emulator`. */
export async function newStack(frontEnd: FrontEnd, emulator: RunningEmulator): Promise<Stack> {
  const render = (program: Program) => renderFor(frontEnd, program);
  if (frontEnd === "dynamic") {
    const workspace = await programWorkspace(emulator, render([]));
    return { ...workspace, frontEnd, render, write: (program) => workspace.write(render(program)) };
  }
  const workspace = await pulumiWorkspace(
    { "Pulumi.yaml": render([]) },
    { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
  );
  await installPlugin(workspace);
  return {
    ...workspace,
    ...stateOf(workspace, TYPE_PREFIX),
    frontEnd,
    render,
    write: (program) => writeFileSync(join(workspace.dir, programFile(frontEnd)), render(program)),
  };
}

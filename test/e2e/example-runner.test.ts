/**
 * The example runner CI runs each SDK example through (`npm run example -- <dir>`,
 * test/tools/example.mjs), as a command: its own emulator, the example's SDK wired in, up, a
 * no-change preview, destroy, and the emulator's state after destroy compared with the one before.
 * It passes on examples/nodejs-sdk as shipped, and fails (exit 1) naming what went wrong: a value
 * destroy left (examples/yaml with `retainOnDelete` on its tags), or the step that failed (a
 * program whose `up` fails); the failing runs take the YAML example, which has no SDK to build. The Go example runs through the same steps in go-sdk.test.ts (once:
 * its first compile takes minutes); Python and C# run in CI only (no toolchain here).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommand } from "../support/run-command";
import { REPO } from "../tools/plugin-pack.mjs";

const RUNNER = join(REPO, "test/tools/example.mjs");
const EXAMPLE = join(REPO, "examples/nodejs-sdk");

/** `node test/tools/example.mjs ARGS`: its exit status and output. */
const runner = (args: string[]) => runCommand(process.execPath, [RUNNER, ...args], { cwd: REPO });

const copies: string[] = [];
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of examples/yaml whose program is changed by `edit`: a failing run without an SDK to build (seconds, not half a minute). */
function editedExample(edit: (program: string) => string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "pulumi-semgrep-runner-test-")), "yaml");
  copies.push(join(dir, ".."));
  cpSync(join(REPO, "examples/yaml"), dir, { recursive: true });
  const program = join(dir, "Pulumi.yaml");
  const text = readFileSync(program, "utf8");
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(program, edited);
  return dir;
}

describe("npm run example (test/tools/example.mjs)", { timeout: 300_000 }, () => {
  it("runs examples/nodejs-sdk as shipped: up, a no-change preview and destroy, exit 0", async () => {
    const run = await runner([EXAMPLE]);
    expect(run.stderr).toContain("examples/nodejs-sdk: up, a no-change preview and destroy passed; destroy put back every value");
    expect(run.status).toBe(0);
    // Each step's output: the stack and both resources created, nothing to change, all deleted.
    expect(run.stdout).toMatch(/Resources:\s+\+ 3 created/);
    expect(run.stdout).toMatch(/Resources:\s+3 unchanged/);
    expect(run.stdout).toMatch(/Resources:\s+- 3 deleted/);
  });

  it("fails naming the value when destroy leaves one (the tags kept by retainOnDelete)", async () => {
    const dir = editedExample((program) =>
      program.replace('      tags: ["owner:appsec"]\n', '      tags: ["owner:appsec"]\n    options:\n      retainOnDelete: true\n'),
    );
    const run = await runner([dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("yaml: after destroy, the emulator's state differs from the one before the run (destroy left a value):");
    expect(run.stderr).toMatch(/ {2}projects\["acme\/web-app"\]\.tags: \[[^\]]*\] → \[[^\]]*"owner:appsec"[^\]]*\]\n/);
    expect(run.stderr).not.toContain("passed");
  });

  it("fails naming the step and the reason when the example fails", async () => {
    const dir = editedExample((program) => program.replace("projectName: acme/web-app", "projectName: acme/no-such-project"));
    const run = await runner([dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[example\] error: .*yaml: pulumi up --yes --skip-preview failed \(exit \d+\):/);
    expect(run.stderr).toContain("acme/no-such-project");
  });

  it("refuses a directory without a Pulumi project, and prints its usage on --help", async () => {
    const missing = await runner([join(REPO, "examples")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("[example] error: examples holds no Pulumi.yaml: give the directory of an example");
    const help = await runner(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run example -- <example directory>/);
  });
});

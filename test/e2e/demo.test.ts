/**
 * The README's first command, run as a newcomer runs it: `npm run demo` in the repository (the npm
 * script, the emulator it starts, the root Pulumi.yaml, the Pulumi CLI), judged by its exit status
 * and its closing line. The demo once stayed broken for two days (a scratch program had replaced
 * the root Pulumi.yaml) because nothing ran it; this file fails when it breaks, naming it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCommand } from "../support/run-command";

const REPO = join(__dirname, "../..");

/** What the root Pulumi.yaml must say: the demo's project, running examples/security-baseline. */
const DEMO_PROJECT = {
  name: "pulumi-semgrep-demo",
  runtime: "nodejs",
  description: "The security-baseline example, run by `npm run demo` against the API emulator.",
  main: "examples/security-baseline/",
};
/** The files a Pulumi program of any language would add at the root (a scratch program left there). */
const PROGRAM_FILES = /^(Main\.yaml|Pulumi\..+\.yaml|index\.[cm]?[jt]s|__main__\.py|main\.go|Program\.cs|.+\.csproj|go\.mod)$/;

/** The files at the root that git tracks (what a commit would carry); every root file outside a git checkout. */
function trackedRootFiles(): string[] {
  const git = spawnSync("git", ["ls-files"], { cwd: REPO, encoding: "utf8" });
  if (git.status !== 0) return readdirSync(REPO);
  return git.stdout.split("\n").filter((path) => path && !path.includes("/"));
}

describe("npm run demo (the README's first command)", () => {
  it("the root Pulumi.yaml is the demo's project, and no other program lives at the root", () => {
    expect(parse(readFileSync(join(REPO, "Pulumi.yaml"), "utf8")), "the root Pulumi.yaml is what `npm run demo` runs").toEqual(
      DEMO_PROJECT,
    );
    expect(trackedRootFiles().filter((name) => PROGRAM_FILES.test(name))).toEqual([]);
  });

  it("exits 0, its last line saying it passed, and leaves no stack config in the checkout", { timeout: 300_000 }, async () => {
    // A shell's own credentials must not matter: the demo runs against its own emulator.
    const env = { ...process.env, SEMGREP_APP_TOKEN: "not-the-emulators", SEMGREP_APP_URL: "http://127.0.0.1:9" };
    const { status, output } = await runCommand("npm", ["run", "demo"], { cwd: REPO, env });
    const lines = output.trimEnd().split("\n");
    expect({ status, last: lines.at(-1) }, output).toEqual({
      status: 0,
      last: "npm run demo: passed (up, a no-change preview that made no request, and a destroy that put every value back)",
    });
    expect(output).toContain("After destroy, every project setting and rule mode is as it was found: yes");
    expect(output).toMatch(/pulumi preview \(no changes expected, no API request\): 0 API requests/);
    // The outputs say what each blocked rule was; one the sample data already blocks says so (not "was undefined").
    expect(output).toContain("sql-injection-using-raw (SEVERITY_CRITICAL, already blocked)");
    expect(output).not.toContain("undefined)");
    expect(existsSync(join(REPO, "Pulumi.demo.yaml"))).toBe(false);
  });
});

/**
 * Every command a user or a contributor runs answers the same way (issue 33): `--help` prints the
 * usage (its first line `Usage: …`) on stdout and exits 0, having done nothing else; a flag it does
 * not take is one line on stderr naming the flag and pointing at `--help`, exit status 2, no stack
 * trace. The commands are read, not listed: every `node <file>` of package.json's scripts (run
 * directly with node, with the script's own arguments, as `npm run <script> -- --help` runs it
 * after any build the script does first), every bin of package.json (and `pulumi-semgrep adopt`),
 * and every other tool under test/ with a main guard (release.mjs and openapi-files.mjs, which the
 * workflows run).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

interface Command {
  /** How a user runs it: `npm run soak`, `pulumi-semgrep adopt`. */
  name: string;
  /** The file node runs, relative to the repository. */
  file: string;
  /** The arguments it is given before the user's (a script's own, a subcommand). */
  args: string[];
}

/** `node <file> [args]` in a script's command line, up to the next `&&`, `;` or `|`. */
const NODE_TOOL = /(?:^|&&|;|\|\|)\s*node\s+([^\s-][^\s]*\.[cm]?js)((?:\s+[^\s&;|]+)*)/g;

const scriptCommands: Command[] = Object.entries(pkg.scripts).flatMap(([script, line]) =>
  [...line.matchAll(NODE_TOOL)].map(([, file, args]) => ({
    name: `npm run ${script}`,
    file: file!,
    args: args!.trim().split(/\s+/).filter(Boolean),
  })),
);
const binCommands: Command[] = Object.entries(pkg.bin).flatMap(([bin, file]) => [
  { name: bin, file, args: [] },
  ...(bin === "pulumi-semgrep" ? [{ name: "pulumi-semgrep adopt", file, args: ["adopt"] }] : []),
]);
/** A module run as a program: `if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))`. */
const MAIN_GUARD = /process\.argv\[1\][^\n]*import\.meta\.url/;
/**
 * Every other tool under test/ that a person or a workflow runs with node (release.mjs and
 * openapi-files.mjs from the workflows, tiers.mjs, …): each .mjs with a main guard that no script runs.
 */
const toolCommands: Command[] = readdirSync(join(REPO, "test"), { recursive: true, encoding: "utf8" })
  .map((name) => `test/${name.split("\\").join("/")}`)
  .filter((file) => file.endsWith(".mjs") && MAIN_GUARD.test(readFileSync(join(REPO, file), "utf8")))
  .filter((file) => !scriptCommands.some((command) => command.file === file))
  .sort()
  .map((file) => ({ name: `node ${file}`, file, args: [] }));
const COMMANDS: Command[] = [...scriptCommands, ...binCommands, ...toolCommands];
/**
 * Tools whose flags are another program's: the plugin's are the Pulumi engine's, whatever flags a CLI
 * passes (it refuses none: below); the test tiers pass theirs on to vitest (`npm run test:unit -- -t name`).
 */
const TAKES_ANY_FLAG = new Set(["pulumi-resource-semgrep", "npm run test:unit", "npm run test:e2e"]);

/**
 * Runs `command` with `extra` arguments in a home, cache and PATH of its own, empty but for node: a
 * tool that set about its work (a build, a download, a Pulumi run) would fail loudly or leave files
 * there (`made`, what the sandbox holds afterwards). Each run has its own: one command's leftovers
 * do not fail another's test.
 */
function runNode({ file, args }: Command, extra: string[]) {
  const sandbox = mkdtempSync(join(tmpdir(), "pulumi-semgrep-help-"));
  try {
    const result = spawnSync(process.execPath, [join(REPO, file), ...args, ...extra], {
      cwd: REPO,
      env: sandboxEnv(sandbox),
      encoding: "utf8",
      timeout: 60_000,
    });
    return { ...result, made: readdirSync(sandbox) };
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

const sandboxEnv = (sandbox: string) => ({
  PATH: dirname(process.execPath),
  HOME: sandbox,
  XDG_CACHE_HOME: join(sandbox, "cache"),
  PULUMI_SEMGREP_CACHE: join(sandbox, "cache", "pulumi-semgrep"),
  PULUMI_HOME: join(sandbox, "pulumi"),
  SEMGREP_APP_TOKEN: "",
  SEMGREP_APP_URL: "",
});

describe("the commands read from package.json", () => {
  it("include every tool the issue names", () => {
    const names = COMMANDS.map((c) => c.name);
    for (const script of ["demo", "emulator", "pulumi:cli", "plugin:pack", "bench", "soak", "docs", "docs:check"])
      expect(names).toContain(`npm run ${script}`);
    for (const script of ["schema", "schema:check", "sdk", "sdk:check", "actionlint"]) expect(names).toContain(`npm run ${script}`);
    expect(names).toEqual(
      expect.arrayContaining(["pulumi-semgrep", "pulumi-semgrep adopt", "pulumi-semgrep-emulator", "pulumi-resource-semgrep"]),
    );
    expect(COMMANDS.find((c) => c.name === "npm run docs:check")).toMatchObject({ file: "test/tools/docs.mjs", args: ["--check"] });
  });
});

describe.each(COMMANDS.map((command) => [command.name, command] as const))("%s", (_, command) => {
  it("--help: the usage on stdout, first line Usage:, status 0, nothing else done", () => {
    const result = runNode(command, ["--help"]);
    expect({ status: result.status, stderr: result.stderr, first: result.stdout.split("\n")[0] }).toEqual({
      status: 0,
      stderr: "",
      first: expect.stringMatching(/^Usage: /),
    });
    expect(result.stdout).toMatch(/--help/);
    expect(result.made).toEqual([]); // no cache, home or Pulumi directory made
  });

  it.skipIf(TAKES_ANY_FLAG.has(command.name))("an unknown flag: one line naming it and --help, status 2, no stack trace", () => {
    const result = runNode(command, ["--no-such-flag"]);
    expect({ status: result.status, stdout: result.stdout, lines: result.stderr.trimEnd().split("\n") }).toEqual({
      status: 2,
      stdout: "",
      lines: [expect.stringMatching(/unknown option --no-such-flag .*--help/)],
    });
    expect(result.made).toEqual([]);
  });
});

describe("pulumi-resource-semgrep", () => {
  it("takes the engine's flags, known or not, and serves: its first line is the port", async () => {
    const sandbox = mkdtempSync(join(tmpdir(), "pulumi-semgrep-help-"));
    const plugin = join(REPO, pkg.bin["pulumi-resource-semgrep"]!);
    const child = spawn(process.execPath, [plugin, "--logtostderr", "-v=9", "--flag-of-a-later-cli"], {
      env: sandboxEnv(sandbox),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          if (out.includes("\n")) resolve(out.split("\n")[0]!);
        });
        child.once("exit", (status) => reject(new Error(`exited with ${status} before printing its port`)));
      });
      expect(first).toMatch(/^\d+$/);
    } finally {
      child.kill();
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});

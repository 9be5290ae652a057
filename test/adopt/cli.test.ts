/**
 * `pulumi-semgrep adopt` as a user runs it: the built bin as a child process against an emulator
 * started here, without the Pulumi CLI (test/e2e/adopt.test.ts runs the generated program). Each
 * case asserts the exit status, what stdout and stderr say, the files written (or that nothing
 * was), and the requests the emulator saw.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SAST_POLICY_ID, type RunningEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulator, useEmulators } from "../support/emulator";
import { runCommand } from "../support/run-command";

const BIN = join(__dirname, "../../dist/cli/main.js");
/** The demo's notification rule's webhook URL as the secret config key the program reads, set from the file adopt writes. */
const SECRET_STEP = "pulumi config set --secret criticalFindingsToTheSocUrl < secrets/criticalFindingsToTheSocUrl && rm -r secrets";
/** The access settings of the demo deployment, as the summary counts them. */
const ACCESS_COUNTS = "2 Team, 1 DeploymentSettings, 1 NotificationRule, 2 UserRole";
/** A token no message or file may show. */
const TOKEN = "adopt-cli-s3cret-token";

const fixture = useEmulator({ token: TOKEN });
const emulators = useEmulators({ token: TOKEN });

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stderr's non-empty lines. */
  errorLines: string[];
}

/**
 * Runs the bin in `cwd` with the emulator's token and address in SEMGREP_APP_TOKEN/URL, and the
 * fallbacks blank, so that a shell's own settings do not leak in. Asynchronous: the emulator
 * answers from this process.
 */
function adoptCli(args: string[], options: { cwd: string; env?: Record<string, string>; emulator?: RunningEmulator }): Promise<Run> {
  const emulator = options.emulator ?? fixture.emulator;
  const env = {
    ...process.env,
    SEMGREP_APP_TOKEN: emulator.token,
    SEMGREP_APP_URL: emulator.url,
    SEMGREP_API_TOKEN: "",
    SEMGREP_URL: "",
    ...options.env,
  };
  return runCommand(process.execPath, [BIN, ...args], { cwd: options.cwd, env }).then(({ status, stdout, stderr }) => ({
    status,
    stdout,
    stderr,
    errorLines: stderr.split("\n").filter(Boolean),
  }));
}

/** A fresh working directory. */
const workDir = () => mkdtempSync(join(tmpdir(), "adopt-cli-"));

/** Every file under `dir`, by path relative to it (`/`-separated), with its text. */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path).split("\\").join("/")] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return files;
}

/** The project names projects.ts declares. */
const declaredProjects = (projectsTs: string) => [...projectsTs.matchAll(/projectName: "([^"]+)"/g)].map((m) => m[1]);

/** How many requests of each operation the emulator saw. */
function operationCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of fixture.requests())
    counts[r.operation ?? `${r.method} ${r.path}`] = (counts[r.operation ?? `${r.method} ${r.path}`] ?? 0) + 1;
  return counts;
}

/** A failed request: status 2, one line on stderr naming `names`, nothing on stdout, nothing written. */
function expectRefused(run: Run, out: string, ...names: (string | RegExp)[]) {
  expect(run.status, run.stderr).toBe(2);
  expect(run.errorLines).toHaveLength(1);
  expect(run.errorLines[0]).toMatch(/^pulumi-semgrep adopt: /);
  for (const name of names) expect(run.errorLines[0]).toMatch(name);
  expect(run.stdout).toBe("");
  expect(existsSync(out)).toBe(false);
  expect(run.stderr).not.toContain(TOKEN);
}

describe("pulumi-semgrep adopt: usage", () => {
  it("--help documents every flag and exits 0; no arguments print the usage to stderr and exit 2", async () => {
    const cwd = workDir();
    for (const args of [["--help"], ["adopt", "--help"], ["adopt", "-h"]]) {
      const run = await adoptCli(args, { cwd });
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      for (const flag of [
        "--deployment",
        "--out",
        "--projects",
        "--policies",
        "--skip",
        "--force",
        "--language",
        "--url",
        "--package",
        "--one-per-project",
        "--set-threshold",
        "--all-users",
      ])
        expect(run.stdout).toContain(flag);
      for (const area of ["projects", "policies", "unified-policies", "teams", "settings", "notifications", "users"])
        expect(run.stdout).toContain(area);
      expect(run.stdout).toContain("SEMGREP_APP_TOKEN");
    }
    const bare = await adoptCli([], { cwd });
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toContain("Usage: pulumi-semgrep adopt --deployment");
    expect(readdirSync(cwd)).toEqual([]);
    expect(fixture.requests()).toEqual([]);
  });

  it.each([
    { case: "an unknown flag", args: ["--deployment", "acme", "--frobnicate"], names: ["--frobnicate", "--help"] },
    { case: "no --deployment", args: ["--projects", "acme/*"], names: ["--deployment is required"] },
    { case: "an empty --deployment", args: ["--deployment", " "], names: ["--deployment is required"] },
    {
      case: "an unknown --skip area",
      args: ["--deployment", "acme", "--skip", "nonsense"],
      names: ["--skip nonsense", "unified-policies"],
    },
    { case: "a positional argument", args: ["--deployment", "acme", "extra"], names: ["extra"] },
    {
      case: "--projects with --skip projects",
      args: ["--deployment", "acme", "--projects", "a/*", "--skip", "projects"],
      names: ["--projects and --skip projects"],
    },
    {
      case: "--policies with --skip policies",
      args: ["--deployment", "acme", "--policies", "10", "--skip", "policies"],
      names: ["--policies and --skip policies"],
    },
    {
      case: "an http:// --url to another machine (the token would travel in clear)",
      args: ["--deployment", "acme", "--url", "http://semgrep.example"],
      names: ['--url "http://semgrep.example/" must start with https://', "Use https://semgrep.example/"],
    },
    {
      case: "a --set-threshold that is not a whole number",
      args: ["--deployment", "acme", "--set-threshold", "lots"],
      names: ['--set-threshold "lots": give a whole number of projects'],
    },
    {
      case: "a --set-threshold that is a fraction",
      args: ["--deployment", "acme", "--set-threshold", "2.5"],
      names: ['--set-threshold "2.5": give a whole number of projects'],
    },
    { case: "an empty --package", args: ["--deployment", "acme", "--package", " "], names: ["--package needs an npm install spec"] },
    {
      case: "a --package path that does not exist",
      args: ["--deployment", "acme", "--package", "./pulumi-semgrep-9.9.9.tgz"],
      names: ["--package ./pulumi-semgrep-9.9.9.tgz: no such file or directory"],
    },
  ])("$case: one line naming the flag, status 2, no request, nothing written", async ({ args, names }) => {
    const cwd = workDir();
    const out = join(cwd, "out");
    expectRefused(await adoptCli(["adopt", ...args, "--out", out], { cwd }), out, ...names);
    expect(fixture.requests()).toEqual([]);
  });

  it("an unknown command: one line, status 2", async () => {
    const run = await adoptCli(["adpot", "--deployment", "acme"], { cwd: workDir() });
    expect(run.status).toBe(2);
    expect(run.errorLines).toEqual([expect.stringContaining('unknown command "adpot"')]);
  });
});

describe("pulumi-semgrep adopt: token, address and deployment", () => {
  it("a wrong token: one line naming SEMGREP_APP_TOKEN (never its value), status 2, nothing written", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const wrong = "wrong-t0ken-never-shown";
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd, env: { SEMGREP_APP_TOKEN: wrong } });
    expectRefused(run, out, /401/, /SEMGREP_APP_TOKEN/);
    expect(run.stderr).not.toContain(wrong);
    expect(fixture.requests().map((r) => [r.operation, r.status])).toEqual([["deployments.list", 401]]);
    // From the fallback variable, the message names that one.
    const fallback = await adoptCli(["adopt", "--deployment", "acme", "--out", out], {
      cwd,
      env: { SEMGREP_APP_TOKEN: "", SEMGREP_API_TOKEN: wrong },
    });
    expectRefused(fallback, out, /SEMGREP_API_TOKEN/);
    expect(fallback.stderr).not.toContain(wrong);
  });

  it("no token: one line saying which variables to set (not pulumi config), status 2, no request", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd, env: { SEMGREP_APP_TOKEN: " " } });
    expectRefused(run, out, "set SEMGREP_APP_TOKEN (or SEMGREP_API_TOKEN) to a token of the deployment");
    expect(run.stderr).not.toContain("pulumi config");
    expect(fixture.requests()).toEqual([]);
  });

  it("a token with a control character inside: one line naming SEMGREP_APP_TOKEN (not the address), status 2, no request", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd, env: { SEMGREP_APP_TOKEN: `${TOKEN}\u0001x` } });
    expectRefused(run, out, "SEMGREP_APP_TOKEN holds a control character");
    expect(run.stderr).not.toContain("SEMGREP_APP_URL");
    expect(fixture.requests()).toEqual([]);
  });

  it("a --url carrying credentials: one line naming --url, the password never shown", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const withPassword = fixture.emulator.url.replace("http://", "http://user:pa55word@");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--url", withPassword], { cwd });
    expectRefused(run, out, /^pulumi-semgrep adopt: --url /, "must not carry credentials");
    expect(run.stderr).not.toContain("pa55word");
  });

  it("the token from SEMGREP_API_TOKEN when SEMGREP_APP_TOKEN is unset", async () => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies"], {
      cwd,
      env: { SEMGREP_APP_TOKEN: "", SEMGREP_API_TOKEN: TOKEN },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "semgrep-acme", "projects.ts"))).toBe(true);
  });

  it.each(["nope", "99"])("an unknown deployment (%s): one line listing the deployments the token reads, status 2", async (wanted) => {
    const cwd = workDir();
    const out = join(cwd, "out");
    expectRefused(await adoptCli(["adopt", "--deployment", wanted, "--out", out], { cwd }), out, `"${wanted}"`, "acme (1)");
    expect(fixture.requests().map((r) => r.operation)).toEqual(["deployments.list"]);
  });

  it("the deployment by id writes what the slug writes", async () => {
    const cwd = workDir();
    const [bySlug, byId] = [join(cwd, "slug"), join(cwd, "id")];
    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", bySlug], { cwd })).status).toBe(0);
    expect((await adoptCli(["adopt", "--deployment", "1", "--out", byId], { cwd })).status).toBe(0);
    // The same files, but for the command line in their headers.
    const command = (files: Record<string, string>) =>
      Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replace(/--deployment (acme|1)\b/g, "--deployment D")]));
    expect(command(filesOf(byId))).toEqual(command(filesOf(bySlug)));
    expect(readFileSync(join(byId, "index.ts"), "utf8")).toContain("pulumi-semgrep adopt --deployment 1");
  });

  it("--url gives the address when no variable does; a --url with a path is one line naming --url, status 2", async () => {
    const cwd = workDir();
    const good = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies", "--url", fixture.emulator.url], {
      cwd,
      env: { SEMGREP_APP_URL: "" },
    });
    expect(good.status, good.stderr).toBe(0);
    expect(existsSync(join(cwd, "semgrep-acme", "projects.ts"))).toBe(true);
    // A new stack would talk to https://semgrep.dev: the next commands point it at the address read from.
    expect(good.stdout).toContain(
      `pulumi stack init acme && pulumi config set semgrep:url <the --url address> && ${SECRET_STEP} && pulumi up`,
    );
    // The files stay the same bytes whatever the address (the README names the step, not the address).
    expect(readFileSync(join(cwd, "semgrep-acme", "README.md"), "utf8")).toContain("# pulumi config set semgrep:url <address>");

    const out = join(cwd, "out");
    const before = fixture.requests().length;
    expectRefused(
      await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--url", `${fixture.emulator.url}/api/v1`], { cwd }),
      out,
      /^pulumi-semgrep adopt: --url /,
      "without a path",
    );
    expectRefused(
      await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--url", "not-an-address"], { cwd }),
      out,
      "--url",
      "not an address",
    );
    // From the variable, the message names the variable.
    expectRefused(
      await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd, env: { SEMGREP_APP_URL: `${fixture.emulator.url}/web` } }),
      out,
      /^pulumi-semgrep adopt: SEMGREP_APP_URL /,
    );
    expect(fixture.requests()).toHaveLength(before);
  });
});

describe("pulumi-semgrep adopt --package: a build that is not on the npm registry", () => {
  it("a tarball's path, relative to where adopt runs, is written as seen from the project; the header names the flag", async () => {
    const cwd = workDir();
    writeFileSync(join(cwd, "pulumi-semgrep-1.2.3.tgz"), "");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--package", "./pulumi-semgrep-1.2.3.tgz", "--out", "nested/out"], {
      cwd,
    });
    expect(run.status, run.stderr).toBe(0);
    const files = filesOf(join(cwd, "nested/out"));
    const packageJson = JSON.parse(files["package.json"]!) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies["pulumi-semgrep"]).toBe("file:../../pulumi-semgrep-1.2.3.tgz");
    expect(files["index.ts"]).toContain("pulumi-semgrep adopt --deployment acme --package ./pulumi-semgrep-1.2.3.tgz");
    expect(files["README.md"]).toContain("file:../../pulumi-semgrep-1.2.3.tgz");
  });

  it("any other npm install spec is written as given", async () => {
    const cwd = workDir();
    const spec = "git+https://github.com/pulumi-semgrep/pulumi-semgrep.git#v0.1.0";
    const run = await adoptCli(["adopt", "--deployment", "acme", "--package", spec, "--out", "out"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const packageJson = JSON.parse(readFileSync(join(cwd, "out", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies["pulumi-semgrep"]).toBe(spec);
  });
});

describe("pulumi-semgrep adopt: the directory", () => {
  it("refuses a non-empty directory (status 2, its files untouched); --force writes there and replaces adopt's files", async () => {
    const cwd = workDir();
    const out = join(cwd, "mine");
    mkdirSync(out);
    writeFileSync(join(out, "index.ts"), "// my own program\n");
    writeFileSync(join(out, "notes.txt"), "keep me\n");
    const refused = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd });
    expect(refused.status).toBe(2);
    expect(refused.errorLines).toEqual([expect.stringMatching(/--out .*mine is not empty \(index\.ts, notes\.txt\).*--force/)]);
    expect(refused.stdout).toBe("");
    expect(filesOf(out)).toEqual({ "index.ts": "// my own program\n", "notes.txt": "keep me\n" });
    // The deployment is checked (the token with it), then the directory: nothing read at length.
    expect(fixture.requests().map((r) => r.operation)).toEqual(["deployments.list"]);

    const forced = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--force"], { cwd });
    expect(forced.status, forced.stderr).toBe(0);
    const files = filesOf(out);
    expect(files["notes.txt"]).toBe("keep me\n");
    expect(files["index.ts"]).toContain("new PolicyRuleModes(");
    expect(Object.keys(files)).toContain("policies/default-sast-policy.ts");
  });

  it("with --force, the data files adopt no longer writes are removed: fewer policies, then back, then a skipped area", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const policyFiles = () => readdirSync(join(out, "policies")).sort();
    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd })).status).toBe(0);
    expect(policyFiles()).toEqual(["default-sast-policy.ts", "default-secrets-policy.ts", "strict-sast-pilot.ts"]);

    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--force", "--policies", "10"], { cwd })).status).toBe(0);
    expect(policyFiles()).toEqual(["default-sast-policy.ts"]);
    const index = readFileSync(join(out, "index.ts"), "utf8");
    expect(index).toContain('"./policies/default-sast-policy"');
    expect(index).not.toContain("default-secrets-policy");

    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--force"], { cwd })).status).toBe(0);
    expect(policyFiles()).toEqual(["default-sast-policy.ts", "default-secrets-policy.ts", "strict-sast-pilot.ts"]);

    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--force", "--skip", "projects"], { cwd })).status).toBe(0);
    expect(existsSync(join(out, "projects.ts"))).toBe(false);
    expect(readFileSync(join(out, "index.ts"), "utf8")).not.toMatch(/"\.\/projects"|projects\.ts/);
  });

  it("writes into an existing empty directory; refuses a file as --out", async () => {
    const cwd = workDir();
    const out = join(cwd, "empty");
    mkdirSync(out);
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd });
    expect(run.status, run.stderr).toBe(0);
    expect(Object.keys(filesOf(out))).toEqual(
      expect.arrayContaining(["Pulumi.yaml", "package.json", "tsconfig.json", "README.md", "index.ts", "projects.ts"]),
    );

    const file = join(cwd, "a-file");
    writeFileSync(file, "x");
    const refused = await adoptCli(["adopt", "--deployment", "acme", "--out", file, "--force"], { cwd });
    expect(refused.status).toBe(2);
    expect(refused.errorLines).toEqual([expect.stringContaining("is a file, not a directory")]);
    expect(readFileSync(file, "utf8")).toBe("x");
  });

  it("writes ./semgrep-<slug> under the working directory by default, the same bytes each run, and no token or address", async () => {
    const cwd = workDir();
    const first = await adoptCli(["adopt", "--deployment", "acme", "--url", fixture.emulator.url], { cwd });
    expect(first.status, first.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual(["semgrep-acme"]);
    expect(first.stdout).toContain("Wrote semgrep-acme/ for deployment acme (1):");
    // The next commands set semgrep:url without printing the address: the --url given, or the variable that held it.
    expect(first.stdout).toContain(
      `pulumi stack init acme && pulumi config set semgrep:url <the --url address> && ${SECRET_STEP} && pulumi up`,
    );
    const second = await adoptCli(["adopt", "--deployment", "acme", "--out", "again/"], { cwd });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      `pulumi stack init acme && pulumi config set semgrep:url "$SEMGREP_APP_URL" && ${SECRET_STEP} && pulumi up`,
    );
    expect(second.stdout).toContain("Wrote again/ for deployment acme (1):");
    expect(second.stdout).toContain("  cd again && npm install");
    const files = filesOf(join(cwd, "semgrep-acme"));
    expect(filesOf(join(cwd, "again"))).toEqual(files);

    const { url, port } = fixture.emulator;
    for (const [path, text] of Object.entries(files)) {
      for (const secret of [TOKEN, url, `:${port}`, "127.0.0.1", "localhost"])
        expect(text, `${path} holds ${secret}`).not.toContain(secret);
    }
    for (const output of [first.stdout, first.stderr]) for (const secret of [TOKEN, url]) expect(output).not.toContain(secret);
  });
});

describe("pulumi-semgrep adopt: what it declares", () => {
  it.each([
    { patterns: ["acme/web-*"], expected: ["acme/web-app"] },
    { patterns: ["acme/web-*", "acme/pay*"], expected: ["acme/payments-api", "acme/web-app"] },
    { patterns: ["acme/web-*,acme/pay*"], expected: ["acme/payments-api", "acme/web-app"] },
    { patterns: ["acme/searc?"], expected: ["acme/search"] },
  ])("--projects $patterns declares only the matching projects, and reads only those", async ({ patterns, expected }) => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies", ...patterns.flatMap((p) => ["--projects", p])], {
      cwd,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(declaredProjects(readFileSync(join(cwd, "semgrep-acme", "projects.ts"), "utf8"))).toEqual(expected);
    expect(fixture.requests("projects.get")).toHaveLength(expected.length);
    // The patterns are in the generated files' header, to run the same command again.
    const shown = patterns.flatMap((p) => p.split(",")).map((p) => `--projects '${p}'`);
    expect(readFileSync(join(cwd, "semgrep-acme", "index.ts"), "utf8")).toContain(shown.join(" "));
  });

  it("--set-threshold: above it one ProjectSettingsSet over projects.ts, the summary counting its projects; at it, or with --one-per-project, one ProjectSettings each as without them; the header names the flags", async () => {
    const adoptWith = async (...flags: string[]) => {
      const cwd = workDir();
      const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies", ...flags], { cwd });
      expect(run.status, run.stderr).toBe(0);
      return { run, files: filesOf(join(cwd, "semgrep-acme")) };
    };
    const command = (flags: string) => `pulumi-semgrep adopt --deployment acme --skip policies${flags}`;
    const plain = await adoptWith();
    expect(declaredProjects(plain.files["projects.ts"]!)).toHaveLength(14); // 14 projects: at or below the default 100
    expect(plain.run.stdout).toContain(`\n  14 ProjectSettings, ${ACCESS_COUNTS}\n`);

    // At the threshold, or above it with --one-per-project: the same declarations; only the command in the header differs.
    for (const flags of [
      ["--set-threshold", "14"],
      ["--one-per-project", "--set-threshold", "5"],
    ]) {
      const { files } = await adoptWith(...flags);
      const shown = ` ${flags.join(" ")}`;
      expect(files["projects.ts"]).toBe(plain.files["projects.ts"]!.replaceAll(command(""), command(shown)));
      expect(files["index.ts"]).toBe(plain.files["index.ts"]!.replaceAll(command(""), command(shown)));
      expect(Object.keys(files)).toEqual(Object.keys(plain.files));
    }

    // Above it: one ProjectSettingsSet, its map by project name in projects.ts.
    const set = await adoptWith("--set-threshold", "13");
    expect(set.run.stdout).toContain(`\n  1 ProjectSettingsSet (14 projects), ${ACCESS_COUNTS}\n`);
    expect(set.run.stdout).toMatch(/projects\.ts +\d+ B {2}the fields of 14 projects for one ProjectSettingsSet/);
    expect(set.files["index.ts"]).toContain('new ProjectSettingsSet("projects", { deploymentSlug, projects });');
    expect(set.files["index.ts"]).toContain(command(" --set-threshold 13"));
    const names = [...set.files["projects.ts"]!.matchAll(/^ {2}"([^"]+)": \{$/gm)].map((m) => m[1]);
    expect(names).toEqual(declaredProjects(plain.files["projects.ts"]!)!.slice().sort());
    expect(Object.keys(set.files)).toEqual(Object.keys(plain.files));
    // The same notes in the summary as for one ProjectSettings each.
    const notes = (stdout: string) => stdout.slice(stdout.indexOf("Not declared"), stdout.indexOf("Next:"));
    expect(notes(set.run.stdout)).toBe(notes(plain.run.stdout));
  });

  it("--set-threshold with --projects: only the projects declared count", async () => {
    const cwd = workDir();
    const run = await adoptCli(
      ["adopt", "--deployment", "acme", "--skip", "policies", "--projects", "acme/web-*,acme/pay*", "--set-threshold", "1"],
      { cwd },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`\n  1 ProjectSettingsSet (2 projects), ${ACCESS_COUNTS}\n`);
    const atIt = await adoptCli(
      ["adopt", "--deployment", "acme", "--skip", "policies", "--projects", "acme/web-*,acme/pay*", "--set-threshold", "2"],
      { cwd: workDir() },
    );
    expect(atIt.stdout).toContain(`\n  2 ProjectSettings, ${ACCESS_COUNTS}\n`);
  });

  it("--projects matching no project: one line naming the pattern, status 2, nothing written", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--projects", "acme/web-*", "--projects", "acme/typo*"], {
      cwd,
    });
    expectRefused(run, out, '--projects "acme/typo*" matches none of the deployment\'s 14 projects');
    expect(fixture.requests("projects.get")).toEqual([]);
  });

  it.each(["10", "default-sast-policy"])("--policies %s declares only that policy, and lists only its rules", async (wanted) => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "projects", "--policies", wanted], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const dir = join(cwd, "semgrep-acme");
    expect(readdirSync(join(dir, "policies"))).toEqual(["default-sast-policy.ts"]);
    expect(readFileSync(join(dir, "index.ts"), "utf8").match(/new PolicyRuleModes\(/g)).toHaveLength(1);
    expect(fixture.requests("policies.listRules").map((r) => r.path)).toEqual([`/api/v1/deployments/1/policies/${SAST_POLICY_ID}`]);
  });

  it("--policies 10,11 (comma-separated) declares both", async () => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "projects", "--policies", "10,default-secrets-policy"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(join(cwd, "semgrep-acme", "policies"))).toEqual(["default-sast-policy.ts", "default-secrets-policy.ts"]);
  });

  it("an unknown --policies: one line listing the deployment's policies, status 2, nothing written", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--policies", "10", "--policies", "99"], { cwd });
    expectRefused(
      run,
      out,
      '--policies: no v1 policy "99"',
      "10 (default-sast-policy), 11 (default-secrets-policy), 12 (strict-sast-pilot)",
    );
    expect(fixture.requests("policies.listRules")).toEqual([]);
  });

  it.each([
    // The teams name their projects from the project listing: --skip projects alone still lists them.
    {
      skip: "projects,teams",
      absent: ["projects.ts", "teams.ts"],
      present: ["policies/default-sast-policy.ts"],
      unread: /^(projects|teams)\./,
    },
    { skip: "teams", absent: ["teams.ts"], present: ["projects.ts", "user-roles.ts"], unread: /^teams\./ },
    { skip: "settings", absent: [], present: ["teams.ts"], unread: /^products\./ },
    { skip: "notifications", absent: ["secrets/criticalFindingsToTheSocUrl"], present: ["teams.ts"], unread: /^notificationRules\./ },
    { skip: "users", absent: ["user-roles.ts"], present: ["teams.ts"], unread: /^users\./ },
    { skip: "policies", absent: ["policies/default-sast-policy.ts"], present: ["projects.ts"], unread: /^policies\./ },
    { skip: "unified-policies", absent: [], present: ["projects.ts", "policies/default-sast-policy.ts"], unread: /^policiesV2\./ },
  ])("--skip $skip neither reads nor declares the area", async ({ skip, absent, present, unread }) => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", skip], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const files = Object.keys(filesOf(join(cwd, "semgrep-acme")));
    expect(files).toEqual(expect.arrayContaining(present));
    for (const path of absent) expect(files).not.toContain(path);
    expect(fixture.requests().filter((r) => unread.test(r.operation ?? ""))).toEqual([]);
  });

  it("on a migrated deployment: DetectionPolicy and RemediationPolicy, no v1 policies; --policies is refused there", async () => {
    const emulator = await emulators.start({ policiesV2: true });
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme"], { cwd, emulator });
    expect(run.status, run.stderr).toBe(0);
    const dir = join(cwd, "semgrep-acme");
    const files = filesOf(dir);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(["detection-policies/code.ts", "detection-policies/secrets.ts", "remediation-policies.ts", "projects.ts"]),
    );
    expect(existsSync(join(dir, "policies"))).toBe(false);
    expect(files["index.ts"]).toContain("new DetectionPolicy(");
    expect(files["index.ts"]).toContain("new RemediationPolicy(");
    expect(files["index.ts"]).not.toContain("PolicyRuleModes");
    expect(files["index.ts"]).toContain("// Not in this deployment: v1 policies (the deployment uses unified policies).");
    expect(files["remediation-policies.ts"]).toContain('slug: "block-critical-high-confidence"');
    expect(files["remediation-policies.ts"]).not.toContain(SYSTEM_REMEDIATION_SLUG);
    expect(run.stdout).toMatch(/14 ProjectSettings, 2 DetectionPolicy, 4 RemediationPolicy/);

    const out = join(cwd, "out");
    expectRefused(
      await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--policies", "10"], { cwd, emulator }),
      out,
      "--policies names v1 policies, but deployment acme uses unified policies (it has none): leave --policies out",
    );
  });

  it("a project the listing shows twice (its pages shifted while read) is read and declared once", async () => {
    const projects = fixture.emulator.state().projects;
    projects.push({ ...projects.find((p) => p.name === "acme/web-app")! });
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const declared = declaredProjects(readFileSync(join(cwd, "semgrep-acme", "projects.ts"), "utf8"));
    expect(declared.filter((name) => name === "acme/web-app")).toHaveLength(1);
    expect(declared).toHaveLength(14);
    expect(fixture.requests("projects.get")).toHaveLength(14);
  });

  it("a live value the resource refuses is left out with a note, in the file and in the summary", async () => {
    const project = fixture.emulator.state().projects.find((p) => p.name === "acme/web-app")!;
    project.tags = [" padded", "team:web"];
    project.primaryBranch = "main"; // bare, where the default branch is refs/heads/main
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies", "--projects", "acme/web-app"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('project acme/web-app: tags left out: the live value [" padded","team:web"] cannot be declared');
    expect(run.stdout).toContain('project acme/web-app: primaryBranch left out: the live value "main" cannot be declared');
    expect(run.stdout).not.toContain("primaryBranch of");
    const projectsTs = readFileSync(join(cwd, "semgrep-acme", "projects.ts"), "utf8");
    expect(projectsTs).toContain('// tags left out: the live value [" padded","team:web"]');
    expect(projectsTs).not.toMatch(/^\s+tags:/m);
  });
});

describe("pulumi-semgrep adopt: reads, progress and summary", () => {
  it("an answer the client cannot read while reading: status 1 (not a usage error), one error line, nothing written", async () => {
    const sast = fixture.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    (sast.rules[0] as unknown as Record<string, unknown>).languages = 42; // not a list: the client refuses the answer
    const cwd = workDir();
    const out = join(cwd, "out");
    const run = await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd });
    expect(run.status, run.stderr).toBe(1);
    expect(run.errorLines.filter((line) => line.startsWith("pulumi-semgrep adopt: "))).toEqual([
      expect.stringContaining("policies.listRules"),
    ]);
    expect(run.stdout).toBe("");
    expect(existsSync(out)).toBe(false);
  });

  it("a project deleted between the listing and its own read is left out with a note, not a failure of the whole adoption", async () => {
    fixture.emulator.setFaults({ latencyMs: 50 }); // time to delete it after the listing, before its read
    const cwd = workDir();
    const running = adoptCli(["adopt", "--deployment", "acme", "--skip", "policies"], { cwd });
    const deadline = Date.now() + 20_000;
    while (!fixture.requests().some((r) => r.operation === "projects.list" && r.status === 200) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 2));
    const projects = fixture.emulator.state().projects;
    const gone = projects.splice(
      projects.findIndex((p) => p.name === "acme/web-app"),
      1,
    )[0]!;
    const run = await running;
    fixture.emulator.setFaults({ latencyMs: 0 });
    expect(run.status, run.stderr).toBe(0);
    expect(fixture.requests().filter((r) => r.operation === "projects.get" && r.status === 404)).toHaveLength(1);
    const written = readFileSync(join(cwd, "semgrep-acme", "projects.ts"), "utf8");
    expect(written).not.toContain(`projectName: "${gone.name}"`);
    expect(run.stdout).toContain(`project ${gone.name}: listed, then gone when adopt read it (deleted meanwhile)`);
  });

  it("reads at the minimum: only GETs, one listing each, one read per project, rules at 2,000 a page", async () => {
    // 4,100 rules in the SAST policy: 3 pages at 2,000 (9 at the emulator's default of 500).
    const sast = fixture.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    const template = sast.rules[0]!;
    for (let i = sast.rules.length; i < 4_100; i++) sast.rules.push({ ...template, id: String(900_000 + i), path: `acme.extra.rule-${i}` });
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme"], { cwd });
    expect(run.status, run.stderr).toBe(0);

    const requests = fixture.requests();
    const projects = fixture.emulator.state().projects;
    // Every request a read (the teams', notification rules' and users' listings are POSTs); on a
    // deployment still on v1 policies the one Policies V2 attempt answers 403.
    expect(requests.filter((r) => r.method !== "GET").map((r) => r.operation)).toEqual(
      expect.arrayContaining(["teams.list", "notificationRules.list", "users.list"]),
    );
    expect(requests.filter((r) => r.method !== "GET" && !r.operation?.endsWith(".list"))).toEqual([]);
    expect(requests.filter((r) => r.status !== 200).map((r) => [r.operation, r.status])).toEqual([
      ["policiesV2.getDetectionPolicySummary", 403],
    ]);
    expect(operationCounts()).toEqual({
      "deployments.list": 1,
      "projects.list": 1,
      "projects.get": projects.length,
      "policies.list": 1,
      "policies.listRules": 3 + 1 + 1,
      "policiesV2.getDetectionPolicySummary": 1,
      // The access settings: one listing of the teams (100 a page), one page of members and one of
      // repositories per team, the product configuration, the notification rules, the users (100 a page).
      "teams.list": 1,
      "teams.members": 2,
      "teams.repositories": 2,
      "products.get": 1,
      "notificationRules.list": 1,
      "users.list": 1,
    });
    // One read of each project, not of some twice.
    expect(new Set(fixture.requests("projects.get").map((r) => r.path)).size).toBe(projects.length);
    expect(readFileSync(join(cwd, "semgrep-acme", "policies", "default-sast-policy.ts"), "utf8")).toContain('"acme.extra.rule-4099": ');
    expect(run.stdout).toContain("14 ProjectSettings, 3 PolicyRuleModes (4,200 rule modes)");
  });

  it("progress on stderr, the summary on stdout: counts per kind and each file with its size", async () => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    expect(run.errorLines).toEqual(
      expect.arrayContaining(["projects: 0/14 read", "projects: 14/14 read", "policies: 0/3 read", "policies: 3/3 read"]),
    );
    expect(run.errorLines.every((line) => /^(projects|policies|unified policies|teams): \d+(\/\d+)? read$/.test(line))).toBe(true);
    expect(run.stdout).toContain("14 ProjectSettings, 3 PolicyRuleModes (420 rule modes)");
    const dir = join(cwd, "semgrep-acme");
    const files = filesOf(dir);
    for (const [path, text] of Object.entries(files)) {
      expect(run.stdout).toMatch(new RegExp(`^  ${path.replace(/\./g, "\\.")} +${Buffer.byteLength(text)} B`, "m"));
    }
    expect(run.stdout).toMatch(
      /policies\/default-sast-policy\.ts +\d+ B {2}the mode of each of the 320 rules of policy "Default SAST Policy" \(10\)/,
    );
    expect(run.stdout).toContain("cd semgrep-acme && npm install");
    // The primary branches left out for being the default branch: one line, not one per project.
    expect(run.stdout).toContain(
      "Not declared (2; each is a comment in the files):\n  primaryBranch of 14 projects: left out, being the default branch",
    );
  });
});

/** Main.yaml as the `yaml` package reads it. */
type Main = { resources: Record<string, { type: string; properties: Record<string, unknown> }> };

describe("pulumi-semgrep adopt --language yaml", () => {
  it("writes a Pulumi YAML program (Pulumi.yaml, Main.yaml) declaring the TypeScript program's resources by the same names", async () => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--language", "yaml"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const files = filesOf(join(cwd, "semgrep-acme"));
    expect(Object.keys(files)).toEqual([".gitignore", "Main.yaml", "Pulumi.yaml", "README.md", "secrets/criticalFindingsToTheSocUrl"]);
    expect(parse(files["Pulumi.yaml"]!)).toMatchObject({ name: "semgrep-acme", runtime: "yaml" });
    const { resources } = parse(files["Main.yaml"]!) as Main;
    expect(files["Main.yaml"]).toContain("# Generated by `pulumi-semgrep adopt --deployment acme --language yaml`");
    expect(run.stdout).toContain("14 ProjectSettings, 3 PolicyRuleModes (420 rule modes)");
    expect(run.stdout).toMatch(/Main\.yaml +\d+ B {2}the resources: 14 ProjectSettings, 3 PolicyRuleModes/);
    expect(run.stdout).toContain("install the plugin pulumi-resource-semgrep (README.md), then: cd semgrep-acme && pulumi stack init acme");
    expect(run.stdout).not.toContain("npm install");

    // The TypeScript program of the same deployment: the same resources, by the same names, with the same values.
    const ts = await adoptCli(["adopt", "--deployment", "acme", "--out", "ts"], { cwd });
    expect(ts.status, ts.stderr).toBe(0);
    const tsFiles = filesOf(join(cwd, "ts"));
    const projectNames = [...tsFiles["projects.ts"]!.matchAll(/^ {2}"([^"]+)": \{$/gm)].map((m) => m[1]);
    const policyNames = [...tsFiles["index.ts"]!.matchAll(/new PolicyRuleModes\("([^"]+)"/g)].map((m) => m[1]);
    const accessNames = ["appsec", "payments", "deployment-settings", "critical-findings-to-the-soc", "alice", "bob"];
    expect(Object.keys(resources)).toEqual([...projectNames, ...policyNames, ...accessNames]);
    expect(tsFiles["teams.ts"]).toContain('  "payments": {');
    expect(tsFiles["user-roles.ts"]).toContain('  "alice": { userId: "101", role: "ORG_ROLE_ADMIN" },');
    expect(declaredProjects(tsFiles["projects.ts"]!)).toEqual(projectNames.map((name) => resources[name!]!.properties.projectName));
    const sast = resources["default-sast-policy"]!;
    expect(sast.type).toBe("semgrep:index:PolicyRuleModes");
    const tsModes = [...tsFiles["policies/default-sast-policy.ts"]!.matchAll(/^ {2}("[^"]+"): ("MODE_[A-Z]+"),$/gm)].map((m) => [
      JSON.parse(m[1]!) as string,
      JSON.parse(m[2]!) as string,
    ]);
    expect(Object.entries(sast.properties.modes as Record<string, string>)).toEqual(tsModes);
    expect(tsModes).toHaveLength(320);
    // The same notes, as comments.
    expect(run.stdout.slice(run.stdout.indexOf("Not declared"))).toEqual(
      ts.stdout
        .slice(ts.stdout.indexOf("Not declared"))
        .replace("see projects.ts", "see Main.yaml")
        .replace(/\nNext:[\s\S]*/, "") + run.stdout.slice(run.stdout.indexOf("\nNext:")),
    );
  });

  it("the same bytes each run; an unknown --language is one line, status 2, nothing written; --help names it", async () => {
    const cwd = workDir();
    for (const out of ["a", "b"])
      expect((await adoptCli(["adopt", "--deployment", "acme", "--language", "yaml", "--out", out], { cwd })).status).toBe(0);
    expect(filesOf(join(cwd, "b"))).toEqual(filesOf(join(cwd, "a")));
    const refused = await adoptCli(["adopt", "--deployment", "acme", "--language", "python", "--out", "c"], { cwd });
    expectRefused(refused, join(cwd, "c"), "--language python: not a language adopt writes; give typescript or yaml");
    const help = await adoptCli(["adopt", "--help"], { cwd });
    expect(help.stdout.replace(/\s+/g, " ")).toContain("--language L typescript (default)");
  });

  it("--force over a TypeScript project: its program files go, package.json and tsconfig.json stay and are named; and back", async () => {
    const cwd = workDir();
    const out = join(cwd, "out");
    expect((await adoptCli(["adopt", "--deployment", "acme", "--out", out], { cwd })).status).toBe(0);
    writeFileSync(join(out, "notes.txt"), "keep me\n");
    const refused = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--language", "yaml"], { cwd });
    expect(refused.status).toBe(2);

    const yaml = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--language", "yaml", "--force"], { cwd });
    expect(yaml.status, yaml.stderr).toBe(0);
    expect(Object.keys(filesOf(out))).toEqual([
      ".gitignore",
      "Main.yaml",
      "Pulumi.yaml",
      "README.md",
      "notes.txt",
      "package.json",
      "secrets/criticalFindingsToTheSocUrl",
      "tsconfig.json",
    ]);
    expect(existsSync(join(out, "policies"))).toBe(false);
    expect(yaml.stdout).toContain(
      "Left as they were: package.json, tsconfig.json (a TypeScript project's; Pulumi.yaml now runs Main.yaml, runtime yaml): remove them if nothing else uses them",
    );

    const back = await adoptCli(["adopt", "--deployment", "acme", "--out", out, "--force"], { cwd });
    expect(back.status, back.stderr).toBe(0);
    const files = filesOf(out);
    expect(files["Main.yaml"]).toBeUndefined(); // else Pulumi YAML would be the program again
    expect(files["Pulumi.yaml"]).toContain("runtime: nodejs");
    expect(files["index.ts"]).toContain("new PolicyRuleModes(");
    expect(back.stdout).not.toContain("Left as they were");
  });
});

describe("pulumi-semgrep adopt --language yaml, the large preset", () => {
  const large = useEmulators({ token: TOKEN, preset: "large" });
  it("gives a Main.yaml that parses, every rule of the 5,000-rule policy on its own line", async () => {
    const emulator = await large.start();
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--language", "yaml"], { cwd, emulator });
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(join(cwd, "semgrep-acme", "Main.yaml"), "utf8");
    const { resources } = parse(text) as Main;
    const modes = Object.values(resources)
      .filter((r) => r.type === "semgrep:index:PolicyRuleModes")
      .map((r) => Object.keys(r.properties.modes as object).length);
    const total = modes.reduce((a, b) => a + b, 0);
    expect(Math.max(...modes)).toBeGreaterThanOrEqual(5_000);
    expect(run.stdout).toContain(`(${total.toLocaleString("en-US")} rule modes)`);
    expect(text.split("\n").filter((line) => /^ {8}"[^"]+": "MODE_[A-Z]+"$/.test(line))).toHaveLength(total);
  });
});

describe("pulumi-semgrep adopt: the access settings", () => {
  it("a service that does not serve the experimental endpoints: those areas left out with a line each, the teams adopted, status 0", async () => {
    const emulator = await emulators.start({ experimentalEndpoints: false });
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "policies"], { cwd, emulator });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("\n  14 ProjectSettings, 2 Team\n");
    for (const line of [
      "the product configuration (DeploymentProductsService, experimental): the service does not serve products.get (HTTP 404), so none is declared",
      "the notification rules (NotificationRulesService, experimental): the service does not serve notificationRules.list (HTTP 404), so none is declared",
      "the users' org roles (DeploymentService users, experimental): the service does not serve users.list (HTTP 404), so none is declared",
    ])
      expect(run.stdout).toContain(`\n  ${line}\n`);
    const files = filesOf(join(cwd, "semgrep-acme"));
    expect(Object.keys(files)).not.toContain("user-roles.ts");
    expect(files["index.ts"]).not.toContain("new DeploymentSettings(");
    expect(files["index.ts"]).not.toContain("new NotificationRule(");
    expect(files["index.ts"]).toContain(
      "// the product configuration (DeploymentProductsService, experimental): the service does not serve",
    );
    expect(run.stdout).not.toContain("secrets/");
  });

  it("--all-users declares every user's role; by default only the org admins, the others named in one line", async () => {
    const cwd = workDir();
    const admins = await adoptCli(["adopt", "--deployment", "acme", "--skip", "projects,policies", "--out", "admins"], { cwd });
    expect(admins.status, admins.stderr).toBe(0);
    expect(admins.stdout).toContain(
      "org roles: 4 users in ORG_ROLE_MEMBER or ORG_ROLE_READONLY not declared (the roles a user has unless made an admin; only the " +
        "admin role is declared, one UserRole per org admin): adopt --all-users declares every user's role",
    );
    const all = await adoptCli(["adopt", "--deployment", "acme", "--skip", "projects,policies", "--out", "all", "--all-users"], { cwd });
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toContain("6 UserRole");
    expect(all.stdout).not.toContain("org roles:");
    const roles = filesOf(join(cwd, "all"))["user-roles.ts"]!;
    expect([...roles.matchAll(/role: "(ORG_ROLE_[A-Z]+)"/g)].map((m) => m[1])).toEqual([
      "ORG_ROLE_ADMIN",
      "ORG_ROLE_ADMIN",
      "ORG_ROLE_MEMBER",
      "ORG_ROLE_MEMBER",
      "ORG_ROLE_READONLY",
      "ORG_ROLE_MEMBER",
    ]);
    expect(roles).toContain("// Erin Auditor (erin)");
    expect(filesOf(join(cwd, "all"))["index.ts"]).toContain("--all-users");
    const refused = await adoptCli(["adopt", "--deployment", "acme", "--all-users", "--skip", "users", "--out", "no"], { cwd });
    expectRefused(refused, join(cwd, "no"), "--all-users and --skip users contradict");
  });

  it("the webhook URL is written to secrets/<key> alone (owner-only), the program reading it as secret config", async () => {
    const cwd = workDir();
    const run = await adoptCli(["adopt", "--deployment", "acme", "--skip", "projects,policies"], { cwd });
    expect(run.status, run.stderr).toBe(0);
    const dir = join(cwd, "semgrep-acme");
    const files = filesOf(dir);
    expect(files["secrets/criticalFindingsToTheSocUrl"]).toMatch(/^https:\/\/hooks\.acme\.example\//);
    expect(statSync(join(dir, "secrets")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "secrets/criticalFindingsToTheSocUrl")).mode & 0o777).toBe(0o600);
    for (const [path, text] of Object.entries(files)) if (!path.startsWith("secrets/")) expect(text, path).not.toContain("hooks.acme");
    expect(run.stdout).not.toContain("hooks.acme");
    expect(files["index.ts"]).toContain('config: { url: config.requireSecret("criticalFindingsToTheSocUrl") },');
    expect(files["README.md"]).toContain("pulumi config set --secret criticalFindingsToTheSocUrl < secrets/criticalFindingsToTheSocUrl");
  });
});

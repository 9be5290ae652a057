/**
 * The Python and C# programs (examples/python, examples/csharp: what the README links and the
 * Registry overview docs/_index.md shows, copied in by `npm run docs`), checked against the
 * generated SDKs, since neither language can run here (no PyPI, no .NET toolchain):
 * - Python: pyright (a real type checker, from npm) checks the program against sdk/python and the
 *   Pulumi Python SDK of the release the SDKs were generated from (which ships in the Go module
 *   github.com/pulumi/pulumi/sdk/v3): a misspelled argument or function is an error.
 * - C#: every class, argument and property the program names must be declared in sdk/dotnet; a
 *   name check, not a compile.
 * The TypeScript and Go programs run through the CLI: test/e2e/node-sdk.test.ts, go-sdk.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { download } from "../tools/go-build.mjs";
import { packageVersion } from "../tools/release.mjs";
import { REPO } from "../tools/sdk.mjs";

const SDK = join(REPO, "sdk");
const EXAMPLES = join(REPO, "examples");
/** The package's version, which every example asks its SDK at. */
const version = packageVersion();
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The Pulumi Python SDK's sources (`pulumi` package) of the release the Go SDK requires. */
function pulumiPythonLib(): string {
  const match = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)$/m.exec(readFileSync(join(SDK, "go", "semgrep", "go.mod"), "utf8"));
  if (!match?.[1]) throw new Error("sdk/go/semgrep/go.mod requires no github.com/pulumi/pulumi/sdk/v3");
  const module = download("github.com/pulumi/pulumi/sdk/v3", match[1]) as { Dir: string } | undefined;
  if (!module) throw new Error(`the Go module proxy does not serve github.com/pulumi/pulumi/sdk/v3@${match[1]}`);
  return join(module.Dir, "python", "lib");
}

interface PyrightDiagnostic {
  file: string;
  severity: "error" | "warning" | "information";
  message: string;
  range: { start: { line: number } };
}

/** pyright's diagnostics of `program` (a __main__.py text) against sdk/python and the Pulumi SDK. */
function pyright(program: string): PyrightDiagnostic[] {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-semgrep-pyright-"));
  temporary.push(dir);
  writeFileSync(join(dir, "__main__.py"), program);
  const config = { include: ["__main__.py"], extraPaths: [join(SDK, "python"), pulumiPythonLib()], pythonVersion: "3.9" };
  writeFileSync(join(dir, "pyrightconfig.json"), JSON.stringify(config));
  const result = spawnSync(join(REPO, "node_modules", ".bin", "pyright"), ["--outputjson", "--project", dir], { encoding: "utf8" });
  const report = JSON.parse(result.stdout) as { generalDiagnostics: PyrightDiagnostic[] };
  return report.generalDiagnostics;
}

describe("examples/python", () => {
  const program = readFileSync(join(EXAMPLES, "python", "__main__.py"), "utf8");

  it("type-checks against sdk/python and the Pulumi Python SDK, without a warning", { timeout: 120_000 }, () => {
    expect(pyright(program).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it("a misspelled argument or function would be an error", { timeout: 120_000 }, () => {
    const broken = program.replace('deployment_slug="acme"', 'deployment_slugs="acme"').replace("get_policies_output", "get_policys_output");
    const errors = pyright(broken).filter((d) => d.severity === "error");
    expect(errors.map((d) => d.message).join("\n")).toMatch(/No overloads for "__init__"[^\n]*\n[^\n]*Literal\[.web-tags.\][\s\S]*"get_policys_output" is not a known attribute/);
  });

  it("asks for the SDK at the package's version", () => {
    expect(readFileSync(join(EXAMPLES, "python", "requirements.txt"), "utf8")).toContain(`pulumi_semgrep==${version}`);
  });
});

/** The public members (properties, fields) a generated C# class declares. */
function csharpMembers(file: string, className: string): Set<string> {
  const text = readFileSync(join(SDK, "dotnet", file), "utf8");
  const start = text.search(new RegExp(`public sealed class ${className}\\b`));
  if (start < 0) throw new Error(`sdk/dotnet/${file} declares no class ${className}`);
  const next = text.indexOf("public sealed class ", start + 1);
  const body = text.slice(start, next < 0 ? undefined : next);
  return new Set([...body.matchAll(/public (?:readonly )?[\w<>.?, ]+? (\w+)\s*(?:\{|;)/g)].map((m) => m[1] ?? ""));
}

/**
 * The names a C# program uses that sdk/dotnet does not declare, as `Class.Member`: the arguments of
 * `new Semgrep.X("name", new() { A = …, B = … })` and `Semgrep.GetX.Invoke(new() { … })`.
 */
function undeclaredCsharpNames(program: string): string[] {
  const uses = [
    ...[...program.matchAll(/new Semgrep\.(\w+)\("[^"]+", new\(\)\s*\{/g)].map((m) => ({ kind: m[1] ?? "", args: `${m[1]}Args`, at: m.index + m[0].length })),
    ...[...program.matchAll(/Semgrep\.(\w+)\.Invoke\(new\(\)\s*\{/g)].map((m) => ({ kind: m[1] ?? "", args: `${m[1]}InvokeArgs`, at: m.index + m[0].length })),
  ];
  if (uses.length === 0) throw new Error("the program declares no Semgrep resource or function");
  return uses.flatMap((use) => {
    const declared = csharpMembers(`${use.kind}.cs`, use.args);
    return topLevelAssignments(program, use.at)
      .filter((name) => !declared.has(name))
      .map((name) => `${use.args}.${name}`);
  });
}

/** The names assigned (`Name =`) at the top level of the initializer whose body starts at `from`, nested initializers skipped. */
function topLevelAssignments(text: string, from: number): string[] {
  let depth = 0;
  let top = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && depth-- === 0) break;
    else if (depth === 0) top += c;
  }
  return [...top.matchAll(/(\w+) =(?![=>])/g)].map((m) => m[1] ?? "");
}

describe("examples/csharp", () => {
  const program = readFileSync(join(EXAMPLES, "csharp", "Program.cs"), "utf8");

  it("names only classes and arguments sdk/dotnet declares (a name check: compiling needs a .NET toolchain, which this machine lacks)", () => {
    expect(undeclaredCsharpNames(program)).toEqual([]);
    expect(csharpMembers("GetPolicies.cs", "GetPoliciesResult").has("Policies")).toBe(true);
    expect(csharpMembers("Outputs/Policy.cs", "Policy").has("Name")).toBe(true);
  });

  it("a misspelled argument would fail that check", () => {
    const broken = program.replace("DeploymentSlug =", "DeploymentSlugs =").replace("Mode =", "Modes =");
    expect(undeclaredCsharpNames(broken)).toEqual(["PolicyRuleModeArgs.Modes", "ProjectTagsArgs.DeploymentSlugs"]);
    // After a nested initializer too.
    const after = program.replace('Tags = new[] { "owner:appsec" },', 'Tags = new[] { "owner:appsec" },\n        Extra = "x",');
    expect(undeclaredCsharpNames(after)).toEqual(["ProjectTagsArgs.Extra"]);
  });

  it("asks for the SDK at the package's version", () => {
    expect(readFileSync(join(EXAMPLES, "csharp", "SemgrepExample.csproj"), "utf8")).toContain(`Include="PulumiSemgrep.Semgrep" Version="${version}"`);
  });
});

describe("examples/go and examples/nodejs-sdk", () => {
  it("ask for the SDK at the package's version (a release bumps them with package.json)", () => {
    const goMod = readFileSync(join(EXAMPLES, "go", "go.mod"), "utf8");
    expect(goMod).toMatch(new RegExp(`^\\s*github\\.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep v${version.replaceAll(".", "\\.")}$`, "m"));
    const manifest = JSON.parse(readFileSync(join(EXAMPLES, "nodejs-sdk", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(manifest.dependencies["@pulumi-semgrep/semgrep"]).toBe(`^${version}`);
  });
});

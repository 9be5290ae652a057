/**
 * The SDKs in sdk/, generated from schema.json by `npm run sdk` (test/tools/sdk.mjs): each names
 * the plugin `pulumi-resource-semgrep` at the package's version (so a program finds it), carries
 * every resource and function of the schema, and `npm run sdk:check` notices when they are stale.
 * The Python SDK byte-compiles here; its packages cannot be installed (no PyPI). The .NET SDK is
 * generated and checked for completeness only: compiling it needs a .NET toolchain, which this
 * machine lacks. The Node.js SDK is compiled and run in test/e2e/node-sdk.test.ts, the Go SDK in
 * test/e2e/go-sdk.test.ts.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageVersion } from "../tools/release.mjs";
import { compareTrees, generate, GO_MODULE, REPO, staleFiles } from "../tools/sdk.mjs";

const SDK = join(REPO, "sdk");
const read = (path: string) => readFileSync(join(SDK, path), "utf8");
const json = (path: string) => JSON.parse(read(path)) as Record<string, unknown>;
const VERSION = packageVersion();
const schema = JSON.parse(readFileSync(join(REPO, "schema.json"), "utf8")) as {
  description: string;
  pluginDownloadURL: string;
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
};
/** What a program's engine needs to find the plugin: pulumi-plugin.json and package.json's `pulumi`. */
const PLUGIN = { resource: true, name: "semgrep", version: VERSION, server: schema.pluginDownloadURL };

const names = (tokens: Record<string, unknown>) => Object.keys(tokens).map((token) => token.split(":")[2] ?? token);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, "");

const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("every SDK carries every resource and function of schema.json", () => {
  const kinds = [...names(schema.resources), ...names(schema.functions)];
  const layouts: Array<[string, (name: string) => string]> = [
    ["nodejs", (name) => `nodejs/${lowerFirst(name)}.ts`],
    ["python", (name) => `python/pulumi_semgrep/${snake(name)}.py`],
    ["go", (name) => `go/semgrep/${lowerFirst(name)}.go`],
    ["dotnet", (name) => `dotnet/${upperFirst(name)}.cs`],
  ];
  it.each(layouts)("%s", (_language, fileOf) => {
    expect(kinds.length).toBeGreaterThanOrEqual(21);
    expect(kinds.filter((name) => !existsSync(join(SDK, fileOf(name))))).toEqual([]);
  });
});

describe("each SDK names its package and the plugin at the package's version", () => {
  it("Node.js: @pulumi-semgrep/semgrep, with the description npm shows", () => {
    const pkg = json("nodejs/package.json");
    expect(pkg).toMatchObject({ name: "@pulumi-semgrep/semgrep", version: VERSION, description: schema.description, pulumi: PLUGIN });
  });

  it("Python: pulumi_semgrep, its pyproject and the plugin file it ships", () => {
    const pyproject = read("python/pyproject.toml");
    expect(pyproject).toMatch(/^\s*name = "pulumi_semgrep"$/m);
    expect(pyproject).toMatch(new RegExp(`^\\s*version = "${VERSION.replaceAll(".", "\\.")}"$`, "m"));
    expect(pyproject).toMatch(/pulumi_semgrep = \[[^\]]*"pulumi-plugin\.json"/);
    expect(pyproject).toMatch(/^\s*readme = "README\.md"$/m);
    expect(existsSync(join(SDK, "python", "README.md"))).toBe(true);
    expect(json("python/pulumi_semgrep/pulumi-plugin.json")).toEqual(PLUGIN);
  });

  it("Go: the module github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep, asking for the plugin at its version", () => {
    expect(read("go/semgrep/go.mod")).toMatch(new RegExp(`^module ${GO_MODULE}$`, "m"));
    expect(read("go/semgrep/go.mod")).toMatch(/^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.\d+\.\d+$/m);
    expect(existsSync(join(SDK, "go", "semgrep", "go.sum"))).toBe(true);
    expect(json("go/semgrep/pulumi-plugin.json")).toEqual(PLUGIN);
    // Without the schema's version compiled in, a Go program would ask for the plugin at no version.
    expect(read("go/semgrep/internal/pulumiUtilities.go")).toContain(`version := semver.MustParse("${VERSION}")`);
  });

  it(".NET: PulumiSemgrep.Semgrep, with our icon (generated only: no .NET toolchain here to compile it)", () => {
    const csproj = read("dotnet/PulumiSemgrep.Semgrep.csproj");
    expect(csproj).toContain(`<Version>${VERSION}</Version>`);
    expect(csproj).toContain("<PackageIcon>logo.png</PackageIcon>");
    expect(read("dotnet/version.txt").trim()).toBe(VERSION);
    expect(json("dotnet/pulumi-plugin.json")).toEqual(PLUGIN);
    expect(readFileSync(join(SDK, "dotnet", "logo.png")).equals(readFileSync(join(REPO, "test", "tools", "sdkgen", "logo.png")))).toBe(true);
  });
});

describe("the Python SDK", () => {
  it("byte-compiles with this machine's Python 3", () => {
    const cache = tempDir("pulumi-semgrep-pycache-");
    const result = spawnSync("python3", ["-m", "compileall", "-q", join(SDK, "python")], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPYCACHEPREFIX: cache }, // keeps __pycache__ out of sdk/
    });
    expect(result.error, "python3 is needed to check the Python SDK").toBeUndefined();
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("a syntax error in it would fail that check", () => {
    const copy = tempDir("pulumi-semgrep-python-");
    cpSync(join(SDK, "python"), copy, { recursive: true });
    writeFileSync(join(copy, "pulumi_semgrep", "project_tags.py"), `${read("python/pulumi_semgrep/project_tags.py")}\ndef broken(:\n`);
    const result = spawnSync("python3", ["-m", "compileall", "-q", copy], { encoding: "utf8", env: { ...process.env, PYTHONPYCACHEPREFIX: tempDir("pycache-") } });
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("project_tags.py");
  });
});

describe("npm run sdk:check", () => {
  it("finds sdk/ as schema.json generates it", { timeout: 600_000 }, () => {
    expect(staleFiles()).toEqual([]);
  });

  it("npm run sdk writes the SDKs when the temporary directory is on another filesystem (a tmpfs /tmp)", { timeout: 600_000 }, () => {
    // /dev/shm is a tmpfs on Linux; the repository is not. Before, the SDKs were renamed out of the
    // temporary directory: EXDEV, after sdk/ had been emptied.
    expect(statSync("/dev/shm").dev).not.toBe(statSync(REPO).dev);
    const target = join(REPO, ".tmp", `sdk-exdev-${process.pid}`);
    temporary.push(target);
    mkdirSync(target, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = "/dev/shm";
    try {
      generate(target);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(compareTrees(SDK, target)).toEqual([]);
  });

  it("names the files a schema change would change", { timeout: 600_000 }, () => {
    const changed = JSON.parse(readFileSync(join(REPO, "schema.json"), "utf8")) as { resources: Record<string, { description: string }> };
    const tags = changed.resources["semgrep:index:ProjectTags"];
    if (!tags) throw new Error("schema.json has no ProjectTags");
    tags.description += " One more sentence.";
    const file = join(tempDir("pulumi-semgrep-schema-"), "schema.json");
    writeFileSync(file, JSON.stringify(changed, null, 2));
    expect(staleFiles(SDK, file)).toEqual([
      "nodejs/projectTags.ts (changed)",
      "python/pulumi_semgrep/project_tags.py (changed)",
      "go/semgrep/projectTags.go (changed)",
      "dotnet/ProjectTags.cs (changed)",
    ]);
  });

  it("names a missing, an extra and an edited file", () => {
    const copy = tempDir("pulumi-semgrep-sdk-");
    cpSync(SDK, copy, { recursive: true });
    rmSync(join(copy, "go", "semgrep", "getScan.go"));
    writeFileSync(join(copy, "nodejs", "extra.ts"), "export {};\n");
    writeFileSync(join(copy, "dotnet", "Provider.cs"), "// edited by hand\n");
    expect(compareTrees(SDK, copy).sort()).toEqual(["dotnet/Provider.cs (changed)", "go/semgrep/getScan.go (missing)", "nodejs/extra.ts (extra)"]);
  });

  it("leaves out what building an SDK in place writes (README's install from a clone), not a generated file", () => {
    const copy = tempDir("pulumi-semgrep-sdk-built-");
    cpSync(SDK, copy, { recursive: true });
    const built = [
      "python/build/lib/pulumi_semgrep/__init__.py", // pip install ./sdk/python
      "python/pulumi_semgrep.egg-info/PKG-INFO",
      "python/pulumi_semgrep/__pycache__/__init__.cpython-312.pyc",
      "dotnet/bin/Release/PulumiSemgrep.Semgrep.0.1.0.nupkg", // dotnet pack sdk/dotnet
      "dotnet/obj/project.assets.json",
      "nodejs/bin/index.js", // tsc in sdk/nodejs
      "nodejs/node_modules/@pulumi/pulumi/package.json",
    ];
    for (const file of built) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(join(copy, file), "built\n");
    }
    writeFileSync(join(copy, "python", "pulumi_semgrep", "extra.py"), "\n");
    expect(compareTrees(SDK, copy)).toEqual(["python/pulumi_semgrep/extra.py (extra)"]);
  });
});

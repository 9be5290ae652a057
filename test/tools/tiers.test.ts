/**
 * The test tiers CI runs as separate jobs (test/tools/tiers.mjs, `npm run test:unit` and
 * `npm run test:e2e`): together they are every file `npm test` runs, each file in one, the
 * `omit-empty` project's files all in the e2e tier, and no unit-tier file reaching for what only
 * the e2e job has (the Pulumi CLI, Go, the SDKs).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { E2E, REPO, testFiles, tierOf, vitestArgs } from "./tiers.mjs";

const files = testFiles();
const unit = files.filter((f) => tierOf(f) === "unit");
const e2e = files.filter((f) => tierOf(f) === "e2e");

/** The helpers that start the Pulumi CLI, build with Go or pack the SDKs: the e2e job's toolchains. */
const E2E_ONLY = [
  "support/pulumi",
  "support/program",
  "support/yaml-program",
  "support/native-plugin",
  "support/node-sdk",
  "tools/pulumi-run.mjs",
  "tools/pulumi-cli.mjs",
  "tools/go-build.mjs",
  "tools/actionlint.mjs",
  "tools/sdk.mjs",
  "tools/example.mjs",
];

describe("the test tiers", () => {
  it("are every test file of the `all` project between them, each in one", () => {
    expect(files.length).toBeGreaterThan(80);
    expect([...unit, ...e2e].sort()).toEqual(files);
    expect(unit.filter((f) => e2e.includes(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith("test/live/"))).toEqual([]); // its own config: npm run test:live
    // Every pattern of the e2e tier names at least one file: none is left over from a move.
    expect(E2E.filter((pattern) => !files.some((f) => (pattern.endsWith("/") ? f.startsWith(pattern) : f === pattern)))).toEqual([]);
  });

  it("put every file of the omit-empty project in the e2e tier, whose run includes that project", () => {
    const config = readFileSync(join(REPO, "vitest.config.mts"), "utf8");
    const project = config.slice(config.indexOf('name: "omit-empty"'));
    const include = /include: \[([^\]]*)\]/.exec(project)?.[1];
    const globs = [...(include ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(globs).toEqual(["test/e2e/**/*.test.ts", "test/functions/**/*.test.ts"]);
    for (const glob of globs) expect(E2E, glob).toContain(glob.slice(0, glob.indexOf("**")));
    // The e2e tier's vitest run names no project: both run it. The unit tier's runs `all` only.
    expect(vitestArgs("e2e")).toEqual(["run", ...E2E]);
    expect(vitestArgs("unit").slice(0, 3)).toEqual(["run", "--project", "all"]);
    expect(vitestArgs("unit").slice(3)).toEqual(unit);
    expect(() => vitestArgs("al")).toThrow('unknown tier "al": unit or e2e');
  });

  it("leave no unit-tier file using the Pulumi CLI, Go or the SDKs (CI's unit job has only Node.js)", () => {
    const reaching = unit.flatMap((file) => {
      const text = readFileSync(join(REPO, file), "utf8");
      const imports = [...text.matchAll(/^(?:import|export)\b[^;]*?from "([^"]+)";/gm)].map((m) => m[1]!);
      return imports.filter((i) => E2E_ONLY.some((helper) => i.endsWith(helper))).map((i) => `${file} imports ${i}`);
    });
    expect(reaching).toEqual([]);
    // The check can fail: an e2e file does import them.
    expect(readFileSync(join(REPO, "test/e2e/go-sdk.test.ts"), "utf8")).toContain('from "../tools/example.mjs"');
  });

  it("are the npm scripts test:unit and test:e2e, which build first; npm test still runs every file", () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts["test:unit"]).toBe("npm run -s build && node test/tools/tiers.mjs unit");
    expect(scripts["test:e2e"]).toBe("npm run -s build && node test/tools/tiers.mjs e2e");
    expect(scripts.test).toBe("npm run build && npm run typecheck && vitest run");
  });
});

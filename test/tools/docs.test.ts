/**
 * The reference pages in docs/ are generated (test/tools/docs.mjs, `npm run docs`): they must be
 * what the sources generate now, list every declared input and output, and follow a change of a
 * declaration's doc comment. Runs against dist/ (`npm test` builds first).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compareDocs, describeDifferences, DocsError, generateDocs, REPO, writeDocs } from "./docs.mjs";

type Declaration = { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
const { KINDS } = createRequire(join(REPO, "package.json"))(join(REPO, "dist/core/kinds/index.js")) as {
  KINDS: Record<string, Declaration>;
};

/** The cells of each row of the table under `## heading` of a page (an escaped `\|` stays inside its cell). */
function tableRows(page: string, heading: string): string[][] {
  const section = page.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

/** The names in the first column of the table under `## heading` of a page. */
function tableNames(page: string, heading: string): string[] {
  return tableRows(page, heading).map((cells) => /^`([^`]+)`/.exec(cells[0]!)![1]!);
}

const source = (path: string) => readFileSync(join(REPO, path), "utf8");

/** The pages that differ between two generations (or exist in only one). */
function changedPages(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path));
}

/** `text` with `from` replaced once, failing when `from` is not there (the test would prove nothing). */
function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe("reference pages (docs/)", () => {
  let pages: Map<string, string>;
  beforeAll(() => {
    pages = generateDocs();
  });

  it("are what the sources generate (else: npm run docs)", () => {
    const differences = compareDocs(pages);
    expect(differences, differences.length ? describeDifferences(differences) : "").toEqual([]);
  });

  it("has a page per resource kind listing every declared input and output, and an index linking every page", () => {
    const index = pages.get("docs/reference.md")!;
    for (const [kind, declaration] of Object.entries(KINDS)) {
      const page = pages.get(`docs/resources/${kind}.md`);
      expect(page, kind).toBeDefined();
      expect(
        tableNames(page!, "Inputs").filter((name) => !name.includes(".")),
        kind,
      ).toEqual(Object.keys(declaration.inputs));
      expect(
        tableNames(page!, "Outputs").filter((name) => !name.includes(".")),
        kind,
      ).toEqual(Object.keys(declaration.outputs));
      expect(page).toContain("## Id");
      expect(page).toContain("## What it does on the service");
      expect(page).toContain("## Adoption and import");
      expect(page).toContain("```ts"); // the class's @example
    }
    const linked = [...index.matchAll(/\]\(([^)]+)\)/g)].map((m) => `docs/${m[1]}`);
    expect(linked.sort()).toEqual([...pages.keys()].filter((path) => path !== "docs/reference.md").sort());
  });

  it("has a page per data-source function with its arguments, result, invoke options and Output twin", () => {
    const pkg = createRequire(join(REPO, "package.json"))(join(REPO, "dist/index.js")) as Record<string, unknown>;
    const functions = Object.keys(pkg).filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"));
    expect(functions.length).toBeGreaterThan(0);
    for (const name of functions) {
      const page = pages.get(`docs/functions/${name}.md`);
      expect(page, name).toBeDefined();
      expect(tableNames(page!, "Arguments")).toContain(/^getProjects?$/.test(name) ? "deploymentSlug" : "deploymentId");
      expect(tableNames(page!, "Invoke options").sort()).toEqual(["dependsOn", "token", "url"]);
      expect(page).toContain(`## ${name}Output`);
      for (const heading of ["Arguments", "Result", "Invoke options"]) {
        const blank = tableRows(page!, heading).filter((cells) => !cells.at(-1));
        expect(blank, `${name}: ${heading} rows without a description`).toEqual([]);
      }
    }
    expect(tableNames(pages.get("docs/functions/getPolicyRules.md")!, "Arguments")).toContain("filter.severities");
    expect(tableNames(pages.get("docs/functions/getPolicyRules.md")!, "Result")).toContain("rules[].path");
  });

  it("goes stale when a declaration's doc comment changes, and only that page", () => {
    const path = "provider/core/kinds/project-tags.ts";
    const changed = replaced(
      source(path),
      "/** Every tag of the project at the last read or write, system tags (`managed-scan`) included. */",
      "/** Every tag of the project, as last seen. */",
    );
    const regenerated = generateDocs({ sources: { [path]: changed } });
    expect(regenerated.get("docs/resources/ProjectTags.md")).toContain(
      "| `projectTags` | `string[]` | always | Every tag of the project, as last seen. |",
    );
    expect(changedPages(pages, regenerated)).toEqual(["docs/resources/ProjectTags.md"]);
  });

  it("follows a class's example and a function's doc comment", () => {
    const resource = "provider/dynamic/resources/managed-scan.ts";
    const fn = "provider/functions/projects.ts";
    const regenerated = generateDocs({
      sources: {
        [resource]: replaced(source(resource), 'projectName: "acme/mobile-app"', 'projectName: "acme/other-app"'),
        [fn]: replaced(source(fn), "One project: its tags,", "A single project: its tags,"),
      },
    });
    expect(changedPages(pages, regenerated)).toEqual([
      "docs/reference.md", // the index quotes the function's first sentence
      "docs/resources/ManagedScan.md",
      "docs/functions/getProject.md",
    ]);
  });

  it("refuses an input or output without a doc comment, naming it", () => {
    const path = "provider/core/kinds/project-tags.ts";
    const tagsDoc = /\n {4}\/\*\*\n {5}\* Tags to add[\s\S]*? \*\/\n(?= {4}tags:)/.exec(source(path))![0];
    let changed = replaced(source(path), tagsDoc, "\n");
    changed = replaced(changed, "    /** The project's numeric id. */\n", "");
    let error: unknown;
    try {
      generateDocs({ sources: { [path]: changed } });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DocsError);
    expect((error as Error).message).toMatch(
      /ProjectTags: input `tags` has no doc comment \(provider\/core\/kinds\/project-tags\.ts\)[\s\S]*ProjectTags: output `projectId` has no doc comment/,
    );
  });

  it("refuses a function's argument or result field without a doc comment (nested ones too), naming function, field and file", () => {
    const scans = "provider/functions/scans.ts";
    const shapes = "provider/functions/shapes.ts";
    const schema = "provider/client/schemas/dependencies.ts";
    const sources = {
      [scans]: replaced(
        source(scans),
        "  /** The scan's id, digits as a string or a number, e.g. `50299` (a scan's `id` in `getScans`). */\n",
        "",
      ),
      [shapes]: replaced(source(shapes), "    /** Supply Chain (SCA) findings. */\n", ""),
      // A zod schema: its inferred type (DependencyFilter) carries the doc comments of its properties.
      [schema]: replaced(
        source(schema),
        '  /** Dependency version, e.g. `"1.0.1"`. Deprecated by the service in favour of `packageFilters`. */\n',
        "",
      ),
    };
    let error: unknown;
    try {
      generateDocs({ sources });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DocsError);
    const message = (error as Error).message;
    expect(message).toContain("getScan: argument `scanId` has no doc comment (provider/functions/scans.ts)");
    expect(message).toContain(
      "getScans: result field `scans[].findingsCounts.supplyChain` has no doc comment (provider/functions/shapes.ts)",
    );
    for (const fn of ["getDependencyRepositories", "getLockfiles"]) {
      expect(message).toContain(
        `${fn}: argument \`dependencyFilter.version\` has no doc comment (provider/client/schemas/dependencies.ts)`,
      );
    }
  });

  it("names each stale, missing and extra page, and writing fixes them", () => {
    const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-docs-"));
    try {
      writeDocs(pages, root);
      expect(compareDocs(pages, root)).toEqual([]);
      writeFileSync(join(root, "docs/resources/SbomExport.md"), "edited by hand\n");
      rmSync(join(root, "docs/functions/getScan.md"));
      mkdirSync(join(root, "docs/resources"), { recursive: true });
      writeFileSync(join(root, "docs/resources/Removed.md"), "a kind that is gone\n");
      // A hand-written page beside the generated ones is not the generator's: neither extra nor removed.
      mkdirSync(join(root, "docs/guides"), { recursive: true });
      writeFileSync(join(root, "docs/guides/hand-written.md"), "# A guide\n");
      const differences = compareDocs(pages, root);
      expect(differences).toEqual([
        { path: "docs/resources/SbomExport.md", problem: "stale" },
        { path: "docs/functions/getScan.md", problem: "missing" },
        { path: "docs/resources/Removed.md", problem: "extra" },
      ]);
      const message = describeDifferences(differences);
      expect(message).toContain("docs/resources/SbomExport.md: stale");
      expect(message).toContain("Run `npm run docs`");
      writeDocs(pages, root);
      expect(compareDocs(pages, root)).toEqual([]);
      expect(readFileSync(join(root, "docs/guides/hand-written.md"), "utf8")).toBe("# A guide\n");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

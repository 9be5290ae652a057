/**
 * The hand-written Markdown (test/tools/markdown.mjs): a block under `<!-- file: PATH -->` is that
 * file's text, so a page shows only programs the tests run; every relative link resolves, to a file
 * and to a heading. `npm run docs` copies the files in; `npm run docs:check` (CI) fails otherwise.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO } from "./docs.mjs";
import { anchorsOf, brokenLinks, handWrittenPages, markdownFiles, withFiles } from "./markdown.mjs";

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A throw-away repository holding `files` (path → text). */
function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-markdown-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const fence = "```";

describe("the repository's hand-written Markdown", () => {
  it("shows each program as its file is now, and every link resolves (else: npm run docs, or fix the link)", () => {
    const { pages, problems } = handWrittenPages(REPO);
    expect(problems).toEqual([]);
    const stale = [...pages].filter(([path, text]) => text !== readFileSync(join(REPO, path), "utf8"));
    expect(stale.map(([path]) => path)).toEqual([]);
  });

  it("covers the README, CONTRIBUTING, the docs and the examples' READMEs, not the generated pages or the SDKs", () => {
    const files = markdownFiles(REPO);
    expect(files).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/README.md", "docs/_index.md", "examples/README.md"]),
    );
    expect(files.filter((path) => /^(docs\/(resources|functions)\/|docs\/reference\.md|sdk\/|node_modules\/)/.test(path))).toEqual([]);
  });

  it("the README is the front door: at most 300 lines, its first two commands `npm run demo` and `npm test`", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(
      firstBlock
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("#")[0]!.trim()),
    ).toEqual(["npm run demo", "npm test"]);
  });

  it("the Registry's pages carry the front matter it reads (title, meta_desc, layout: package)", () => {
    for (const page of ["docs/_index.md", "docs/installation-configuration.md"]) {
      const front = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(REPO, page), "utf8"))?.[1] ?? "";
      expect(parse(front), page).toEqual({ title: expect.any(String), meta_desc: expect.any(String), layout: "package" });
    }
  });

  it("the Registry's pages link only by absolute address (they are published away from the repository)", () => {
    for (const page of ["docs/_index.md", "docs/installation-configuration.md"]) {
      const relative = [...readFileSync(join(REPO, page), "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((t) => !/^(https?:|#)/.test(t));
      expect(relative, page).toEqual([]);
    }
  });

  it("the README and the Registry overview show the example programs as files", () => {
    const shown = (path: string) =>
      [...readFileSync(join(REPO, path), "utf8").matchAll(/<!-- file: (\S+) -->/g)].map((m: RegExpMatchArray) => m[1]);
    expect(shown("README.md")).toEqual(["examples/typescript/index.ts", "examples/yaml/Pulumi.yaml"]);
    expect(shown("docs/_index.md")).toEqual([
      "examples/nodejs-sdk/index.ts",
      "examples/python/__main__.py",
      "examples/go/main.go",
      "examples/csharp/Program.cs",
      "examples/yaml/Pulumi.yaml",
    ]);
  });
});

describe("file blocks", () => {
  const root = repository({ "examples/a/index.ts": "export const a = 1;\n" });

  it("are replaced by the file's text, whatever the block held", () => {
    const page = `# A\n\n<!-- file: examples/a/index.ts -->\n${fence}ts\nexport const a = 0; // stale\n${fence}\n\nAfter.\n`;
    expect(withFiles(root, "README.md", page)).toEqual({
      text: `# A\n\n<!-- file: examples/a/index.ts -->\n${fence}ts\nexport const a = 1;\n${fence}\n\nAfter.\n`,
      problems: [],
    });
  });

  it("refuse a program's block without a marker, and a marker naming a file the tests do not cover; a fragment says so", () => {
    const page = [
      `${fence}ts\nnew PolicyRuleMode("x", {});\n${fence}`,
      `<!-- fragment: one line of a program -->\n${fence}ts\nnew PolicyRuleMode("x", {});\n${fence}`,
      `${fence}sh\nnpm run demo\n${fence}`,
      `<!-- file: package.json -->\n${fence}json\n${fence}`,
    ].join("\n\n");
    expect(withFiles(root, "docs/x.md", page).problems).toEqual([
      "docs/x.md:1: a ts block without <!-- file: PATH --> above it (the file a test runs or compiles), or <!-- fragment: why --> for a few lines of a larger program",
      "docs/x.md:14: <!-- file: package.json --> must name a file under examples/ or docs/snippets/ (what the tests run or compile)",
    ]);
  });

  it("name a marker without a file, and a marker over no block, with the line", () => {
    const page = `<!-- file: examples/gone.ts -->\n${fence}ts\n${fence}\n\n<!-- file: examples/a/index.ts -->\nNot a block.\n`;
    expect(withFiles(root, "docs/x.md", page).problems).toEqual([
      "docs/x.md:1: <!-- file: examples/gone.ts --> names no file of the repository",
      "docs/x.md:5: <!-- file: examples/a/index.ts --> must stand right above a fenced code block",
    ]);
  });
});

describe("links", () => {
  const root = repository({
    "README.md": "# Top\n",
    "docs/guides/adopting.md": "# Adopting a deployment\n\n## The command\n\n## `--language yaml`\n\n```sh\n# not a heading\n```\n",
  });

  it("resolve relative to the page, to a file and to a heading (GitHub's slugs)", () => {
    const page = [
      "[a](adopting.md) [b](adopting.md#the-command) [c](adopting.md#--language-yaml) [d](../../README.md#top)",
      "[e](https://semgrep.dev) [f](#here)",
      "## Here",
    ].join("\n");
    expect(brokenLinks(root, "docs/guides/other.md", page)).toEqual([]);
  });

  it("name a missing file and a missing heading, not links inside code", () => {
    const page = ["[a](adopting.md#not-a-heading) [b](gone.md)", "`[c](gone.md)`", "```", "[d](gone.md)", "```"].join("\n");
    expect(brokenLinks(root, "docs/guides/other.md", page)).toEqual([
      "docs/guides/other.md:1: the link adopting.md#not-a-heading: docs/guides/adopting.md has no heading #not-a-heading",
      "docs/guides/other.md:1: the link gone.md names docs/guides/gone.md, which does not exist",
    ]);
  });

  it("a link to this repository's main branch on GitHub is checked like a relative one, from the root", () => {
    const url = "https://github.com/pulumi-semgrep/pulumi-semgrep";
    const page = `[a](${url}/blob/main/docs/guides/adopting.md#the-command) [b](${url}/tree/main/docs) [c](${url}/blob/main/docs/gone.md)`;
    expect(brokenLinks(root, "docs/_index.md", page)).toEqual([
      "docs/_index.md:1: the link docs/gone.md names docs/gone.md, which does not exist",
    ]);
  });

  it("a heading's anchor is GitHub's: lower case, punctuation gone, spaces as hyphens, repeats numbered", () => {
    expect([...anchorsOf("# The five promises\n## What `destroy` restores\n## Notes\n## Notes\n## Import: ids & tokens")]).toEqual([
      "the-five-promises",
      "what-destroy-restores",
      "notes",
      "notes-1",
      "import-ids--tokens",
    ]);
  });
});

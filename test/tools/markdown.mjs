// The hand-written Markdown (README.md, CONTRIBUTING.md, docs/ but the generated reference pages,
// examples/): two things a test can hold it to.
//
// 1. Programs are files. A fenced block right under a marker `<!-- file: examples/yaml/Pulumi.yaml -->`
//    is that file's text, copied in by `npm run docs`: the file is what the tests run or compile
//    (examples/, run by the tests; docs/snippets/, type-checked by `npm run typecheck`), and the
//    page only shows it. `npm run docs:check` fails when a block differs from its file, when a
//    marker names a file elsewhere, and when a program's block (TypeScript, YAML, Python, Go, C#,
//    JSON) has no marker: one that is not a whole program says so with `<!-- fragment: why -->`.
// 2. Links resolve. Every relative link (`[text](docs/guides/adopting.md#the-flags)`) names a file
//    or directory of the repository, and its `#anchor` a heading of that file (GitHub's slugs). So
//    does a link to this repository's main branch on GitHub (the Registry's pages, docs/_index.md and
//    docs/installation-configuration.md, are published away from the repository and use those).
//
// Shared by test/tools/docs.mjs (the commands) and test/tools/markdown.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** The generated pages (test/tools/docs.mjs): neither read nor rewritten here. */
const GENERATED = [/^docs\/resources\//, /^docs\/functions\//, /^docs\/reference\.md$/];
/** Directories never walked: dependencies, build outputs, the generated SDKs (their READMEs are the generator's). */
const SKIPPED = new Set(["node_modules", "dist", "sdk", ".git", ".tmp", "bin", "obj"]);

const MARKER = /^<!-- file: (\S+) -->$/;
/** A block shown on purpose without its file: a few lines of a larger program, named as such. */
const FRAGMENT = /^<!-- fragment: .+ -->$/;
/** Where the files shown live: what the tests run (examples/) or compile (docs/snippets/). */
const SHOWN_FROM = /^(examples|docs\/snippets)\//;
/** The languages of programs: a block in one of these is a file's, or a fragment. */
const PROGRAM_LANGUAGES = new Set(["ts", "typescript", "js", "javascript", "yaml", "yml", "python", "py", "go", "csharp", "cs", "json"]);
/** This repository's files on GitHub: `${REPOSITORY_URL}/blob/main/<path>` (a file) or `/tree/main/<path>` (a directory). */
export const REPOSITORY_URL = "https://github.com/pulumi-semgrep/pulumi-semgrep";
const ON_GITHUB = new RegExp(`^${REPOSITORY_URL.replace(/[.]/g, "\\.")}/(?:blob|tree)/main/`);
const FENCE = /^(`{3,})(\S*)\s*$/;

/** Every hand-written Markdown file, relative to `root`, sorted. */
export function markdownFiles(root) {
  const found = [];
  const walk = (rel) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      if (SKIPPED.has(name)) continue;
      const child = rel ? `${rel}/${name}` : name;
      if (statSync(join(root, child)).isDirectory()) walk(child);
      else if (name.endsWith(".md") && !GENERATED.some((re) => re.test(child))) found.push(child);
    }
  };
  walk("");
  return found;
}

/**
 * `text` (the Markdown file `path`) with each block under a `<!-- file: … -->` marker replaced by
 * the file's text; `problems` collects markers naming no file or standing over no fenced block.
 *
 * @returns {{ text: string, problems: string[] }}
 */
export function withFiles(root, path, text) {
  const lines = text.split("\n");
  const out = [];
  const problems = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const marker = MARKER.exec(lines[i].trim());
    if (!marker) {
      const fence = FENCE.exec(lines[i]);
      if (fence) {
        // A block without a marker: skip to its end, refusing a program's that is neither a file's nor a fragment.
        if (PROGRAM_LANGUAGES.has(fence[2]) && !FRAGMENT.test((lines[i - 1] ?? "").trim()))
          problems.push(
            `${path}:${i + 1}: a ${fence[2]} block without <!-- file: PATH --> above it (the file a test runs or compiles), or <!-- fragment: why --> for a few lines of a larger program`,
          );
        const close = lines.findIndex((l, j) => j > i && l.trim() === fence[1]);
        const end = close < 0 ? lines.length - 1 : close;
        out.push(...lines.slice(i + 1, end + 1));
        i = end;
      }
      continue;
    }
    const line = i + 1;
    const file = marker[1];
    const open = FENCE.exec(lines[i + 1] ?? "");
    if (!open) {
      problems.push(`${path}:${line}: <!-- file: ${file} --> must stand right above a fenced code block`);
      continue;
    }
    const close = lines.findIndex((l, j) => j > i + 1 && l.trim() === open[1]);
    if (close < 0) {
      problems.push(`${path}:${line}: the code block under <!-- file: ${file} --> is never closed`);
      continue;
    }
    const misnamed = !SHOWN_FROM.test(file)
      ? "must name a file under examples/ or docs/snippets/ (what the tests run or compile)"
      : !existsSync(join(root, file)) || !statSync(join(root, file)).isFile()
        ? "names no file of the repository"
        : undefined;
    if (misnamed) {
      problems.push(`${path}:${line}: <!-- file: ${file} --> ${misnamed}`);
      out.push(...lines.slice(i + 1, close + 1)); // the block stays as it is, not taken for one without a marker
      i = close;
      continue;
    }
    const body = readFileSync(join(root, file), "utf8").replace(/\n$/, "");
    out.push(lines[i + 1], ...body.split("\n"), lines[close]);
    i = close;
  }
  return { text: out.join("\n"), problems };
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings (a repeated heading gets `-1`, `-2`, … as on GitHub). */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of text.split("\n")) {
    const open = FENCE.exec(line.trim());
    if (open && (!fence || open[1] === fence)) fence = fence ? null : open[1];
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1].replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

/** The relative links of a Markdown text outside code: `[text](target)`, with their line numbers. */
function linksOf(text) {
  const links = [];
  let fence = null;
  text.split("\n").forEach((line, index) => {
    const open = FENCE.exec(line.trim());
    if (open && (!fence || open[1] === fence)) {
      fence = fence ? null : open[1];
      return;
    }
    if (fence) return;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: match[1], line: index + 1 });
  });
  return links
    .map((link) => (ON_GITHUB.test(link.target) ? { ...link, fromRoot: true, target: link.target.replace(ON_GITHUB, "") } : link))
    .filter(({ target, fromRoot }) => fromRoot || !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Each relative link of `text` (the file `path`) whose file, or heading, does not exist. */
export function brokenLinks(root, path, text) {
  const problems = [];
  for (const { target, line, fromRoot } of linksOf(text)) {
    const [file, anchor] = target.split("#");
    const resolved = file ? normalize(join(fromRoot ? "" : dirname(path), decodeURI(file))) : path;
    if (file && (resolved.startsWith("..") || !existsSync(join(root, resolved)))) {
      problems.push(`${path}:${line}: the link ${target} names ${relative(".", resolved)}, which does not exist`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith(".md")) continue;
    const anchors = anchorsOf(resolved === path ? text : readFileSync(join(root, resolved), "utf8"));
    if (!anchors.has(anchor)) problems.push(`${path}:${line}: the link ${target}: ${resolved} has no heading #${anchor}`);
  }
  return problems;
}

/**
 * The hand-written pages as they should be (their file blocks filled in), and what is wrong that
 * writing cannot fix (a marker without a file, a broken link).
 *
 * @returns {{ pages: Map<string, string>, problems: string[] }}
 */
export function handWrittenPages(root) {
  const pages = new Map();
  const problems = [];
  for (const path of markdownFiles(root)) {
    const filled = withFiles(root, path, readFileSync(join(root, path), "utf8"));
    pages.set(path, filled.text);
    problems.push(...filled.problems, ...brokenLinks(root, path, filled.text));
  }
  return { pages, problems };
}

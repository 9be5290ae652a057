/** Resource names the generated program gives: readable, stable from run to run, unique within a kind. */

/** `acme/Web_App` → `acme-web-app`: lower-case letters, digits and single dashes. */
export function resourceName(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "unnamed"
  );
}

/**
 * A name for each of `texts` (already in the order the program declares them). The texts that are
 * their name but for `/` claim it first, `org/repo` forms before the rest (`acme/web-app` before
 * `acme-web-app`: Semgrep names projects `org/repo`); the others sharing a name get `--2`, `--3`,
 * … in order. A double dash never comes out of {@link resourceName}, so a disambiguated name cannot
 * take another project's own (`acme/web-app-2`), and an `org/repo` project keeps its resource name
 * when a look-alike appears later.
 */
export function uniqueNames(texts: readonly string[]): string[] {
  const bases = texts.map(resourceName);
  const rank = texts.map((text, i) => (text.replace(/\//g, "-") !== bases[i] ? 2 : text.includes("/") ? 0 : 1));
  const names: string[] = new Array<string>(texts.length);
  const taken = new Set<string>();
  for (const pass of [0, 1, 2]) {
    texts.forEach((_, i) => {
      if (rank[i] !== pass) return;
      let name = bases[i]!;
      for (let n = 2; taken.has(name); n++) name = `${bases[i]}--${n}`;
      taken.add(name);
      names[i] = name;
    });
  }
  return names;
}

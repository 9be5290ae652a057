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
 * A name for each of `texts` (already in the order the program declares them): the first to
 * claim a name gets it, later ones `-2`, `-3`, … So the same deployment gives the same names.
 */
export function uniqueNames(texts: readonly string[]): string[] {
  const taken = new Set<string>();
  return texts.map((text) => {
    const base = resourceName(text);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return name;
  });
}

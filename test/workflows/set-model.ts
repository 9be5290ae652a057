/**
 * What destroy leaves that a ProjectSettingsSet with `restoreOnDelete: false` set: a set that
 * stops managing a project's field (the project stops matching, leaves `projects`, or the set is
 * removed or destroyed) leaves the value as it is, and a later resource taking the field over
 * records that value as its original. The snapshot destroy is compared with takes it.
 */
import { type Decl, type Program, setFields } from "./model";
import type { WorldProject } from "./world";

/** The keys a set manages, with the tags it adds where it adds them (`addTags`). */
function managed(decl: Decl, projects: readonly WorldProject[]): Map<string, string[] | undefined> {
  const keys = new Map<string, string[] | undefined>();
  for (const f of setFields(decl, projects))
    keys.set(`project:${f.project}:${f.field === "addTags" ? "tags" : f.field}`, f.field === "addTags" ? (f.value as string[]) : undefined);
  return keys;
}

const sameSet = (decl: Decl, other: Decl) => other.kind === "ProjectSettingsSet" && (other.name === decl.name || other.alias === decl.name);

/**
 * The snapshot's new values for what the no-restore sets of `from` let go of in `to` (`live`:
 * the values before the step): the value itself, or for tags a set added, the snapshot's tags
 * and those added tags.
 */
export function keptBySets(
  from: Program,
  to: Program,
  live: ReadonlyMap<string, string>,
  projects: readonly WorldProject[],
  snapshot: ReadonlyMap<string, string>,
): Map<string, string> {
  const kept = new Map<string, string>();
  for (const decl of from.filter((d) => d.kind === "ProjectSettingsSet")) {
    const next = to.find((d) => sameSet(decl, d));
    // A set still in the program decides by its new declaration; one removed, by what its state recorded.
    if ((next ?? decl).props.restoreOnDelete !== false) continue;
    const after = next ? managed(next, projects) : new Map<string, string[] | undefined>();
    for (const [key, adds] of managed(decl, projects)) {
      const still = after.get(key);
      if (after.has(key) && adds === undefined && still === undefined) continue;
      // Tags it added and adds no more stay (no-restore), those it still adds are still its own.
      const added = adds && still ? adds.filter((t) => !still.includes(t)) : adds;
      if (added?.length === 0) continue;
      const value = live.get(key);
      if (value === undefined) continue;
      if (added === undefined) kept.set(key, value);
      else {
        const present = added.filter((t) => (JSON.parse(value) as string[]).includes(t));
        const base = JSON.parse(kept.get(key) ?? snapshot.get(key) ?? "[]") as string[];
        kept.set(key, JSON.stringify([...new Set([...base, ...present])].sort()));
      }
    }
  }
  return kept;
}

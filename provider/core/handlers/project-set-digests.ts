/**
 * What a ProjectSettingsSet's state keeps of its `projects` map. Not the map: the engine keeps it
 * in the resource's inputs, and echoing it in the outputs too would store 3,000 projects twice
 * (the kind declares it `echoed: false`). Instead the outputs keep, for each explicit project, the
 * fields it declares and a digest of their values (`projectDigests`, e.g. `"tdf:1f2e3d4c5b6a"`).
 * With the small inputs the outputs do echo (`select`, `settings`) and the projects the selector
 * matched (`selected`), that tells an update what the set declared of each project before (which
 * fields it managed, whether it made the branch follow the default one, whether the declaration
 * changed), and a refresh whether a project's live values still hold what was declared.
 */
import { createHash } from "node:crypto";
import { PRIMARY_BRANCH_FOLLOWS_DEFAULT, withoutSystemTags } from "../../client/schemas";
import type { ProjectEntryArgs, ProjectSetSettingsArgs } from "../kinds/project-settings-set";
import { canonicalJson } from "../runtime/canonical";
import type { Props } from "../runtime/check";
import type { Field, Live } from "./project-set-plan";

/** Each field's letter in a digest; `n` is a primary branch declared as `"None"` (follow the default branch). */
const LETTER: Record<Field, string> = { primaryBranch: "b", tags: "t", diffScan: "d", fullScan: "f" };
const FIELD_OF: Record<string, Field> = { b: "primaryBranch", n: "primaryBranch", t: "tags", d: "diffScan", f: "fullScan" };

/** `"<letters>:<hash>"`: the fields an entry declares, and 48 bits of the SHA-256 of their values (tags as a sorted set). */
export function entryDigest(entry: ProjectEntryArgs): string {
  const letters: string[] = [];
  const values: unknown[] = [];
  if (entry.primaryBranch !== undefined) {
    letters.push(entry.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? "n" : LETTER.primaryBranch);
    values.push(entry.primaryBranch);
  }
  if (entry.tags !== undefined) {
    letters.push(LETTER.tags);
    values.push([...new Set(entry.tags)].sort());
  }
  for (const field of ["diffScan", "fullScan"] as const) {
    const toggle = entry.managedScanConfig?.[field];
    if (toggle === undefined) continue;
    letters.push(LETTER[field]);
    values.push(toggle.enabled);
  }
  return `${letters.join("")}:${createHash("sha256").update(JSON.stringify(values)).digest("hex").slice(0, 12)}`;
}

/** The digest of each explicit project, by name, sorted. */
export function digestsOf(projects: Record<string, ProjectEntryArgs> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.keys(projects ?? {})
      .sort()
      .map((name) => [name, entryDigest(projects![name]!)]),
  );
}

/** The digests a state holds: its `projectDigests`, or, in state written before they existed, those of the `projects` it echoed. */
export function storedDigests(state: Props): Record<string, string> {
  return (state.projectDigests as Record<string, string> | undefined) ?? digestsOf(state.projects as Record<string, ProjectEntryArgs>);
}

/** The fields a digest says its project declares. */
const fieldsOf = (digest: string): Field[] => [...digest.slice(0, digest.indexOf(":"))].map((letter) => FIELD_OF[letter]!);

/**
 * What the set declares of one project: the fields it manages, whether its branch is to follow
 * the default one, and a key that changes whenever what it declares of the project does.
 */
export interface Declared {
  fields: Field[];
  wasNone: boolean;
  key: string;
}

/**
 * What the set declares of each project: those `select` matched get `settings`, then each explicit
 * project's fields win (as project-set-plan.ts wantedOf merges them), from the settings and the digests.
 */
export function declaredOf(state: Props, selected: readonly string[], digests: Record<string, string>): Map<string, Declared> {
  const settings = state.select ? (state.settings as ProjectSetSettingsArgs | undefined) : undefined;
  const declared = new Map<string, Declared>();
  if (settings) {
    const fields = (["primaryBranch", "diffScan", "fullScan"] as const).filter((field) =>
      field === "primaryBranch" ? settings.primaryBranch !== undefined : settings.managedScanConfig?.[field] !== undefined,
    );
    // Independent of key order: the state the engine gives back holds `settings` in its own
    // order, not check's, and a key that changed with it would read each selected project's switches again.
    const key = canonicalJson(settings);
    for (const name of selected)
      declared.set(name, { fields: [...fields], wasNone: settings.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT, key });
  }
  for (const [name, digest] of Object.entries(digests)) {
    const fromSettings = declared.get(name);
    const letters = digest.slice(0, digest.indexOf(":"));
    const branchDeclared = /[bn]/.test(letters);
    declared.set(name, {
      fields: [...new Set([...(fromSettings?.fields ?? []), ...fieldsOf(digest)])],
      wasNone: branchDeclared ? letters.includes("n") : (fromSettings?.wasNone ?? false),
      key: `${fromSettings?.key ?? ""}|${digest}`,
    });
  }
  return declared;
}

/**
 * The entry that declares, for the fields `digest` names, the project's live values (a branch
 * equal to the default one as `"None"` where the digest declared `"None"`): its digest is `digest`
 * exactly when the project still holds what was declared.
 */
export function liveEntry(live: Live, digest: string): ProjectEntryArgs {
  const letters = digest.slice(0, digest.indexOf(":"));
  const entry: ProjectEntryArgs = {};
  if (letters.includes("n"))
    entry.primaryBranch = live.primaryBranch === live.defaultBranch ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : (live.primaryBranch ?? "");
  else if (letters.includes("b")) entry.primaryBranch = live.primaryBranch ?? "";
  if (letters.includes("t")) entry.tags = withoutSystemTags(live.tags);
  const scans = {
    ...(letters.includes("d") && live.diffScan ? { diffScan: live.diffScan } : {}),
    ...(letters.includes("f") && live.fullScan ? { fullScan: live.fullScan } : {}),
  };
  if (Object.keys(scans).length) entry.managedScanConfig = scans;
  return entry;
}

/** Whether a project declaring these fields is read on its own: the listing carries no managed-scan switches. */
export const managesSwitch = (fields: readonly Field[] | undefined) => fields?.some((f) => f === "diffScan" || f === "fullScan") ?? false;

/**
 * Edits the generator leaves out while a defect they find is open, so that `npm test` stays
 * green until its fix lands. Each entry names the case, the edits that find it and the
 * promise that catches it. Empty this list as the fixes are merged (issue 21, cases 1, 2 and 5);
 * `WORKFLOW_KNOWN_DEFECTS=none` (or `npm run soak -- --all-edits`) generates every edit anyway.
 */
import type { EditKind } from "./edits";

export interface KnownDefect {
  /** The issue and case, e.g. "issue 21, case 1". */
  defect: string;
  /** The edits left out while it is open. */
  edits: EditKind[];
  /** What the generator reports when it finds it. */
  caughtBy: string;
}

export const KNOWN_DEFECTS: KnownDefect[] = [];

/**
 * The edits left out: those of KNOWN_DEFECTS; none with WORKFLOW_KNOWN_DEFECTS=none; exactly
 * those listed (comma-separated) in WORKFLOW_SKIP_EDITS when it is set.
 */
export function skippedEdits(env: Record<string, string | undefined> = process.env): Set<EditKind> {
  if (env.WORKFLOW_SKIP_EDITS !== undefined) return new Set(env.WORKFLOW_SKIP_EDITS.split(",").filter(Boolean) as EditKind[]);
  if (env.WORKFLOW_KNOWN_DEFECTS === "none") return new Set();
  return new Set(KNOWN_DEFECTS.flatMap((d) => d.edits));
}

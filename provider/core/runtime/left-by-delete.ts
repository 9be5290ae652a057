/**
 * The note a delete gives for the values it leaves as they are because it recorded no original for
 * them: it found them already as declared, which may be a value an interrupted run of this stack
 * set (a SIGKILL records nothing, and on another machine no journal of originals has it). Every
 * kind says it the same way, once per resource, naming each value; the remedy is said once per run.
 *
 * The values are listed one to a line, grouped (by mode for rules, by object for fields), each
 * group with its count: a selector may leave thousands of rules, and one line naming them all is
 * unreadable (the trial saw a 68 KB line), while a count alone would not say which to set back.
 * The destroy's output is the one record a CI job keeps, so the list is there in full. The CLI's
 * progress table shows a message's first line only (the summary); the list is under Diagnostics.
 */
import type { CallContext } from "./call-context";
import { notify, notifyOnce } from "./notices";

/** Values of one heading (a mode, an object): each names one value left. */
export interface LeftGroup {
  heading: string;
  items: readonly string[];
}

/**
 * Notes, at delete, the values in `groups` it leaves as found. `noun`: what one value is (`rule`,
 * `value`), its plural made with an `s`. `redact` hides what the claims' secrecy hides beyond the
 * call's own redaction (a secret `modes`' rule paths).
 */
export async function noteLeftWithoutOriginal(
  ctx: CallContext,
  noun: string,
  groups: readonly LeftGroup[],
  redact: (text: string) => string = (text) => text,
): Promise<void> {
  const count = groups.reduce((sum, group) => sum + group.items.length, 0);
  if (!count) return;
  const one = count === 1;
  const list = groupedLines(noun, groups);
  // The remedy once per run: a destroy of a stack that adopted values as it found them names many resources.
  await notifyOnce(
    "left-by-delete",
    "info",
    "Resources of this stack that found values already as declared recorded no original for them, and their delete leaves " +
      "those values as they are (each names its own below). If an interrupted `pulumi up` of this stack had set any of them " +
      "(killed with SIGKILL, its originals reached no state), recover on the machine that ran it, whose journal of originals " +
      "has them, before destroying, or set the earlier values by hand (see docs/guides/interrupted-runs.md).",
  );
  await notify(
    "info",
    redact(
      `${ctx.name} leaves ${count} ${noun}${one ? "" : "s"} it manages as ${one ? "it is" : "they are"}: it found ` +
        `${one ? "it" : "them"} already as declared and recorded no original.${list}`,
    ),
  );
}

/**
 * `groups` as lines below a message: each group's heading with its count, then one value a line
 * (`\n  MODE_BLOCK, 2 rules:\n    python.a\n    python.b`). `noun`'s plural is made with an `s`.
 */
export function groupedLines(noun: string, groups: readonly LeftGroup[]): string {
  return groups
    .filter((group) => group.items.length)
    .map((group) => {
      const counted = `${group.items.length} ${noun}${group.items.length === 1 ? "" : "s"}`;
      return `\n  ${group.heading}, ${counted}:${group.items.map((item) => `\n    ${item}`).join("")}`;
    })
    .join("");
}

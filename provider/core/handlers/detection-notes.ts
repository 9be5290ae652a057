/**
 * Preview notes of a DetectionPolicy change. The engine shows a changed list input entry by entry
 * (a 1,000-entry `disabled` is 1,000 `=>` lines) and a dynamic provider returns no detailed diff,
 * so a note counts what each list gains and loses, naming a few, and, from the service's own dry
 * run, which exceptions applying the bundle would delete (other teams' entries among them).
 */
import type { DryRunDetectionPolicyResponse } from "../../client";
import { type DetectionExceptionArgs, exceptionKey } from "../kinds/detection-exceptions";
import { containsUnknown, type Props } from "../runtime/check";
import { DETECTION_FIELDS } from "./detection-bundles";
import { notifyOnce, someOf } from "../runtime/notices";
import type { CallContext } from "../runtime/call-context";

/** How many entries a note names per list. */
const NAMED = 5;

/** An entry as a note names it: a rule path or ruleset, or an exception's rule and scope. */
function entryName(entry: unknown): string {
  if (typeof entry === "string") return entry;
  const e = entry as DetectionExceptionArgs;
  const key = exceptionKey(e);
  return `${key.rule} (${key.scopeType === "project" ? "project" : "tag"} ${key.scopeTarget})`;
}

/**
 * Notes, for each declared list that changes, how many entries it adds and removes, with a few
 * names. Nothing when no declared list changes or a value is not known yet.
 */
export async function noteListChanges(ctx: CallContext, olds: Props, news: Props): Promise<void> {
  const parts: string[] = [];
  for (const field of DETECTION_FIELDS) {
    const declared = news[field];
    if (!Array.isArray(declared) || containsUnknown(declared)) continue;
    const before = new Set((Array.isArray(olds[field]) ? (olds[field] as unknown[]) : []).map(entryName));
    const after = new Set(declared.map(entryName));
    const added = [...after].filter((name) => !before.has(name));
    const removed = [...before].filter((name) => !after.has(name));
    if (!added.length && !removed.length) continue;
    const counts = [
      ...(added.length ? [`adds ${added.length} (${someOf(added, NAMED)})`] : []),
      ...(removed.length ? [`removes ${removed.length} (${someOf(removed, NAMED)})`] : []),
    ];
    parts.push(`${field} ${counts.join(" and ")}`);
  }
  if (!parts.length) return;
  const self = ctx.name;
  await notifyOnce(`${self}:lists`, "info", `${self}: the change of ${parts.join("; ")}.`);
}

/** Notes what the service's dry run says applying the declared bundle would delete, when it deletes anything. */
export async function noteDryRunDeletes(ctx: CallContext, answer: DryRunDetectionPolicyResponse): Promise<void> {
  const deletes = answer.deletes ?? [];
  if (!deletes.length) return;
  const names = deletes.map((d) => {
    const key = (d.key ?? {}) as { rule?: string; scope_type?: string; scope_target?: string };
    return key.rule ? `${key.rule} (${key.scope_type === "project" ? "project" : "tag"} ${key.scope_target ?? ""})` : d.kind;
  });
  const self = ctx.name;
  await notifyOnce(
    `${self}:dry-run-deletes`,
    "info",
    `${self}: Semgrep's dry run of the declared bundle reports that applying it deletes ${deletes.length} ` +
      `exception${deletes.length === 1 ? "" : "s"}: ${someOf(names, NAMED)}.`,
  );
}

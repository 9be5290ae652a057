/**
 * Promise 4 in the pack: a violation never prints the text of a secret input. The provider's rule
 * (provider/core/runtime/redact.ts) is reused: the texts of a resource's secret inputs become `[secret]` in
 * every message a policy reports, whatever the policy's own code forgot to hide.
 */
import type { ReportViolation } from "@pulumi/policy";
import type { ResourceKind } from "../core/kinds";
import { type Redact, redactorOf, secretTexts } from "../core/runtime/redact";
import type { Props } from "../core/runtime/check";
import { programResources } from "./program";
import { type Inputs, kindOf } from "./resources";

/**
 * Enum values the pack's messages use as their own words ("excludes pack … it is a protected
 * pack"): a secret exception's `ruleType`/`exceptionType` says no more than the message's wording.
 */
const TERMS = new Set(["pack", "rule", "exclude", "include"]);

/** The secret texts of one resource's inputs; none when they cannot be read (a value unknown at preview is no text). */
function textsOf(type: string, inputs: unknown): string[] {
  const kind = kindOf(type) as ResourceKind | undefined;
  if (!kind || !inputs) return [];
  try {
    return secretTexts(kind, JSON.parse(JSON.stringify(inputs)) as Props).filter((text) => !TERMS.has(text));
  } catch {
    return [];
  }
}

/**
 * The redactor for a validation's arguments: a resource validation's own inputs, or, for a stack
 * validation, the inputs every resource of the program declared (a put-back names a rule that a
 * secret `exclude` of another resource's inputs may hold).
 */
export function redactorForArgs(args: unknown): Redact {
  const a = args as { type?: string; props?: Inputs; resources?: { urn: string }[] };
  if (a.type !== undefined && a.props !== undefined) return redactorOf(textsOf(a.type, a.props));
  if (!Array.isArray(a.resources)) return (text) => text;
  const program = programResources(a.resources.map((r) => r.urn));
  return redactorOf([...new Set(program.flatMap((r) => textsOf(r.type, r.inputs)))]);
}

/** Private-use characters around the pack's own words in a message, until `redactingReport` takes them out. */
const OWN_START = "\uE000";
const OWN_END = "\uE001";
const OWN_WORDS = /\uE000([^\uE001]*)\uE001/;

/**
 * `text` marked as the pack's own words (its config's lists: the weak modes, the protected
 * severities), which the redaction leaves as they are. A program's secret mode is one of the mode
 * names the pack lists as weak: redacted there, the list would name every weak mode but the secret
 * one (`may not be put into [secret] or MODE_DISABLED`), and so give it away.
 */
export const ownWords = (text: string) => `${OWN_START}${text}${OWN_END}`;

/** `message` with the program's secret texts redacted, except in the pack's own words (unmarked). */
function redactMessage(message: string, redact: Redact): string {
  // split with one capturing group: the odd entries are the marked words, the even ones the rest.
  return message
    .split(OWN_WORDS)
    .map((part, i) => (i % 2 ? part : redact(part)))
    .join("");
}

/** `report` with each message redacted (the string form and the object form alike). */
export function redactingReport(report: ReportViolation, redact: Redact): ReportViolation {
  return ((violation: unknown, urn?: string) => {
    if (typeof violation === "string") return report(redactMessage(violation, redact), urn);
    const v = violation as { message: string };
    return (report as unknown as (v: unknown) => void)({ ...v, message: redactMessage(v.message, redact) });
  }) as ReportViolation;
}

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

/** `report` with each message redacted (the string form and the object form alike). */
export function redactingReport(report: ReportViolation, redact: Redact): ReportViolation {
  return ((violation: unknown, urn?: string) => {
    if (typeof violation === "string") return report(redact(violation), urn);
    const v = violation as { message: string };
    return (report as unknown as (v: unknown) => void)({ ...v, message: redact(v.message) });
  }) as ReportViolation;
}

/**
 * The exceptions of a Policies V2 detection policy, as DetectionPolicy (`exceptions`, the whole
 * list) and DetectionPolicyException (one exception) declare them. An exception is identified by
 * its scope, its rule and the rule's type (the API's diff key); `exceptionType` is its content.
 */
import { z } from "zod";
import { type DetectionExceptionEntry, EXCEPTION_TYPES, type ExceptionType, RULE_TYPES, type RuleType } from "../../client/schemas";

/** One exception: a rule (or rule pack) forced to run, or skipped, on one project or one project tag. */
export interface DetectionExceptionArgs {
  /** `include` forces the rule to run on the scope; `exclude` skips it there. */
  exceptionType: ExceptionType;
  /** The project the exception targets, e.g. `"acme/web-app"`. Give exactly one of `projectName` and `projectTagName`. */
  projectName?: string;
  /** The project tag the exception targets, as written (tag names may hold spaces). Give exactly one of `projectName` and `projectTagName`. */
  projectTagName?: string;
  /** A rule path (`python.lang.security.audit.eval-detected.eval-detected`) or a rule pack (`p/secrets`), as `ruleType` says. */
  rule: string;
  /** `rule` for one rule, `pack` for a rule pack. */
  ruleType: RuleType;
}

/**
 * The exceptions of a bundle read from the API (snake_case, `project`) in the resources' and data
 * sources' spelling (camelCase, `projectName`), in the bundle's order.
 */
export function exceptionsOf(entries: readonly DetectionExceptionEntry[]): DetectionExceptionArgs[] {
  return entries.map((e) => ({
    exceptionType: e.exception_type as ExceptionType,
    ...(e.project !== undefined ? { projectName: e.project } : { projectTagName: e.project_tag_name ?? "" }),
    rule: e.rule,
    ruleType: e.rule_type as RuleType,
  }));
}

const text = (what: string) => z.string({ error: `must be a string: ${what}` }).min(1, `must not be empty: give ${what}`);

export const exceptionType = z.enum(EXCEPTION_TYPES, { error: `must be one of ${EXCEPTION_TYPES.join(", ")}` });
export const ruleType = z.enum(RULE_TYPES, { error: `must be one of ${RULE_TYPES.join(", ")}` });

/** The fields that say where an exception applies; exactly one is given. */
export const exceptionScope = {
  projectName: text('the project, e.g. "acme/web-app"').optional(),
  projectTagName: text("the project tag").optional(),
};

export const exactlyOneScope = {
  holds: (declared: { projectName?: string; projectTagName?: string }) =>
    (declared.projectName === undefined) !== (declared.projectTagName === undefined),
  message: "give exactly one of projectName and projectTagName",
};

export const detectionException = z
  .strictObject({
    exceptionType,
    ...exceptionScope,
    rule: text("a rule path or a rule pack"),
    ruleType,
  })
  .refine(exactlyOneScope.holds, { message: exactlyOneScope.message, path: ["projectName"] });

/** `project` or `project_tag`: the API's `scope_type`. */
export type ScopeType = "project" | "project_tag";

/** The identity of an exception: scope, rule and rule type (not `exceptionType`, which an update may change). */
export interface ExceptionKey {
  scopeType: ScopeType;
  scopeTarget: string;
  ruleType: string;
  rule: string;
}

export function exceptionKey(exception: { projectName?: string; projectTagName?: string; rule: string; ruleType: string }): ExceptionKey {
  return exception.projectName !== undefined
    ? { scopeType: "project", scopeTarget: exception.projectName, ruleType: exception.ruleType, rule: exception.rule }
    : { scopeType: "project_tag", scopeTarget: exception.projectTagName ?? "", ruleType: exception.ruleType, rule: exception.rule };
}

/** `project acme/web-app, rule p/secrets (pack)`: an exception's identity as messages show it. */
export const keyText = (key: ExceptionKey) =>
  `${key.scopeType === "project" ? "project" : "project tag"} ${JSON.stringify(key.scopeTarget)}, ${key.ruleType} ${key.rule}`;

/** One string per identity, for sets and maps. */
export const keyString = (key: ExceptionKey) => [key.scopeType, key.scopeTarget, key.ruleType, key.rule].join("\u0000");

/** Two exception lists hold the same exceptions (identity and type), in any order. */
export function sameExceptions(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const text = (e: DetectionExceptionArgs) => `${keyString(exceptionKey(e))}\u0000${e.exceptionType}`;
  const left = new Set((a as DetectionExceptionArgs[]).map(text));
  return (b as DetectionExceptionArgs[]).every((e) => left.has(text(e)));
}

/** DetectionPolicyException, declared once: see declare.ts. */
import { id, restoreOnDelete } from "./inputs";
import { ABSENT, defineKind, input, managed, output } from "./declare";
import { exactlyOneScope, exceptionKey, exceptionScope, exceptionType, ruleType } from "./detection-exceptions";
import { detectionProduct, RULE_TYPES } from "../../client/schemas";
import { isProduct } from "./detection-policy";
import { z } from "zod";

/** The parts of the id, each URL-encoded so that the `/` of a project name or the spaces of a tag name cannot split it. */
const encode = (parts: readonly string[]) => parts.map(encodeURIComponent).join("/");

/** `<deploymentId>/<product>/<scopeType>/<scopeTarget>/<ruleType>/<rule>` */
export function exceptionResourceId(declared: {
  deploymentId: string;
  product: string;
  projectName?: string;
  projectTagName?: string;
  rule: string;
  ruleType: string;
}): string {
  const key = exceptionKey(declared);
  return encode([declared.deploymentId, declared.product, key.scopeType, key.scopeTarget, key.ruleType, key.rule]);
}

export const detectionPolicyExceptionKind = defineKind({
  kind: "DetectionPolicyException",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** `code` or `secrets`: the product whose detection policy holds the exception. Changing it replaces the resource. */
    product: input(detectionProduct, { replaces: true }),
    /** `include` forces the rule to run on the scope; `exclude` skips it there. Changes in place. */
    exceptionType: input(exceptionType),
    /** A rule path or a rule pack (`p/secrets`), as `ruleType` says. Changing it replaces the resource. */
    rule: input(z.string({ error: "must be a string: a rule path or a rule pack" }).min(1, "must not be empty"), { replaces: true }),
    /** `rule` for one rule, `pack` for a rule pack. Changing it replaces the resource. */
    ruleType: input(ruleType, { replaces: true }),
    /** The project the exception targets, e.g. `"acme/web-app"`. Give exactly one of `projectName` and `projectTagName`. Changing it replaces the resource. */
    projectName: input(exceptionScope.projectName, { replaces: true }),
    /** The project tag the exception targets, as written (tag names may hold spaces). Give exactly one of `projectName` and `projectTagName`. Changing it replaces the resource. */
    projectTagName: input(exceptionScope.projectTagName, { replaces: true }),
    /** Remove, on delete, the exception this resource added, or put back the type it changed (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [{ holds: exactlyOneScope.holds, message: exactlyOneScope.message, path: "projectName" }],
  outputs: {
    /** True when this resource added the exception (it was not there): delete removes it. */
    added: output<boolean>(),
    // The values are written in the doc comment: the schema would list them in whatever order the compiler creates the literal types.
    /** The type of the exception this resource found and changed, put back on delete; unset when it added it or found it as declared. One of `include`, `exclude`. */
    originalExceptionType: output<"include" | "exclude" | undefined>({ derivedFrom: "exceptionType" }),
    /** The deployment's slug, as the service reports it. */
    deploymentSlug: output<string>(),
    /** The bundle's `state_version` at the last read or write. */
    stateVersion: output<string>(),
  },
  managed: {
    // An exception it added was absent: delete removes it.
    exceptionType: managed("originalExceptionType", { fromState: (stored, state) => (state.added === true ? ABSENT : stored) }),
  },
  id: {
    format:
      "<deploymentId>/<product>/<scopeType>/<scopeTarget>/<ruleType>/<rule> (each part URL-encoded; scopeType is project or project_tag)",
    parse: (text) => {
      const parts = text.split("/").map((part) => {
        try {
          return decodeURIComponent(part);
        } catch {
          return "";
        }
      });
      const [deploymentId, product, scopeType, scopeTarget, rawType, rule] = parts;
      const type = RULE_TYPES.find((t) => t === rawType);
      if (parts.length !== 6 || !deploymentId || !scopeTarget || !rule || !isProduct(product)) return undefined;
      if (!type) return undefined;
      if (scopeType === "project") return { deploymentId, product, projectName: scopeTarget, rule, ruleType: type };
      if (scopeType === "project_tag") return { deploymentId, product, projectTagName: scopeTarget, rule, ruleType: type };
      return undefined;
    },
  },
  service: {
    create:
      "Reads the product's bundle (shared by every resource of that bundle in the run) and adds the exception, or sets its type, in one " +
      "`PUT` with `If-Match` (a conflict with another writer re-reads and reapplies this exception only); nothing when it is there as declared.",
    update: "Sets the exception's type in one `PUT`; any other change replaces the resource.",
    delete:
      "Removes the exception if this resource added it, or puts back the type it found, in one `PUT` (unless `restoreOnDelete` is " +
      "`false`); an exception found as declared stays.",
    read: "Reads the bundle; an exception removed elsewhere reads as gone (the next `up` adds it again), a type changed elsewhere as drift.",
    adoption:
      "An exception that exists is taken over, recording its type. A DetectionPolicy that declares `exceptions` on the same product is " +
      "a conflict, caught before any write. `DetectionPolicyException.get(name, id)` reads one without managing it.",
  },
});

/** DetectionPolicy, declared once: see declare.ts. */
import { z } from "zod";
import { DETECTION_PRODUCTS, type DetectionProduct, detectionProduct } from "../../client/schemas";
import { sameSet } from "../runtime/diff";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";
import { type DetectionExceptionArgs, detectionException, sameExceptions } from "./detection-exceptions";

export const isProduct = (value: unknown): value is DetectionProduct => (DETECTION_PRODUCTS as readonly unknown[]).includes(value);

const paths = (what: string) =>
  z
    .array(z.string({ error: `must be a string: ${what}` }).min(1, `must not be empty: give ${what}`), {
      error: `must be a list of ${what}s`,
    })
    .refine((list) => new Set(list).size === list.length, "must not repeat a path");

/** What the resource found of each field it manages, put back on delete. */
export interface DetectionPolicyOriginals {
  /** The rulesets found, when this resource changed them. */
  rulesets?: string[];
  /** The individually added rules found, when this resource changed them. */
  rules?: string[];
  /** The disabled rules found, when this resource changed them. */
  disabled?: string[];
  /** The exceptions found, when this resource changed them. */
  exceptions?: DetectionExceptionArgs[];
}

export const detectionPolicyKind = defineKind({
  kind: "DetectionPolicy",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** `code` (Semgrep Code) or `secrets` (Semgrep Secrets). Changing it replaces the resource. */
    product: input(detectionProduct, { replaces: true }),
    /** Registry rulesets that run deployment-wide, e.g. `["p/default"]` (the whole list; order does not matter). Must be left out or empty for `secrets`. Not managed when left out. */
    rulesets: input(paths("ruleset path").optional(), { equal: sameSet }),
    /** Registry rules added on top of the rulesets (the whole list). Not managed when left out. */
    rules: input(paths("rule path").optional(), { equal: sameSet }),
    /** Rules of the selected rulesets turned off (the whole list). Not managed when left out. */
    disabled: input(paths("rule path").optional(), { equal: sameSet }),
    /** Every exception of the product (the whole list: exceptions left out are deleted). Not managed when left out; use DetectionPolicyException to add one exception beside others instead. */
    exceptions: typedInput<DetectionExceptionArgs[] | undefined>()(
      z.array(detectionException, { error: "must be a list of exceptions" }).optional(),
      { equal: sameExceptions },
    ),
    /** Put back, on delete, the fields this resource changed, as it found them (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  rules: [
    {
      holds: (declared) => declared.product !== "secrets" || !declared.rulesets?.length,
      message: "must be left out or empty for product secrets: a secrets detection policy takes no rulesets",
      path: "rulesets",
    },
  ],
  outputs: {
    /** Live rulesets. */
    rulesets: output<string[]>(),
    /** Live individually added rules. */
    rules: output<string[]>(),
    /** Live disabled rules. */
    disabled: output<string[]>(),
    /** Live exceptions. */
    exceptions: output<DetectionExceptionArgs[]>(),
    /** The deployment's slug, as the service reports it. */
    deploymentSlug: output<string>(),
    /** The bundle's `state_version` at the last read or write (changes only when its content does). */
    stateVersion: output<string>(),
    /** What this resource found of each field it changed, put back on delete. */
    originals: output<DetectionPolicyOriginals>({ derivedFrom: ["rulesets", "rules", "disabled", "exceptions"] }),
    /** The fields this resource manages (those declared). */
    managedFields: output<string[]>(),
  },
  managed: {
    rulesets: managed("originals.rulesets"),
    rules: managed("originals.rules"),
    disabled: managed("originals.disabled"),
    exceptions: managed("originals.exceptions"),
  },
  id: {
    format: "<deploymentId>/<product>",
    parse: (text) => {
      const [deploymentId, product, ...rest] = text.split("/");
      return deploymentId && isProduct(product) && rest.length === 0 ? { deploymentId, product } : undefined;
    },
  },
  service: {
    create:
      "Reads the product's bundle (one read per bundle and run, shared by every resource of that bundle), records the declared fields as " +
      "found, dry-runs and applies the bundle with those fields replaced (`PUT` with `If-Match`), unless they are already as declared.",
    update:
      "Applies the bundle with the declared fields replaced, in one `PUT` (a conflict with another writer re-reads and reapplies only " +
      "what this resource declares); a field dropped from the program is no longer managed.",
    delete: "Puts back, in one `PUT`, each field it changed as it found it, unless `restoreOnDelete` is `false`.",
    read: "Reads the bundle (shared as on create); a managed field changed elsewhere shows as drift.",
    adoption:
      "Every deployment has one detection policy per enabled product: creating the resource takes it over, recording what it finds. " +
      '`DetectionPolicy.get(name, "<deploymentId>/<product>")` reads it without managing it. `check` dry-runs the bundle (also at ' +
      "preview), so the service's validation errors fail the preview, naming the field.",
  },
});

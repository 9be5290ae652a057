/** PolicyRuleMode, declared once: see declare.ts. */
import { z } from "zod";
import { POLICY_MODES, type PolicyMode, rulePath } from "../../client/schemas";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output } from "./declare";

/** A mode as the service reports it: one of POLICY_MODES, or a newer one this package does not know yet. */
type LiveMode = PolicyMode | (string & {});

export const policyRuleModeKind = defineKind({
  kind: "PolicyRuleMode",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"` (a number is accepted too). Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** Numeric id of the policy. Changing it replaces the resource. */
    policyId: input(id("policy"), { replaces: true }),
    /** Dotted path of the rule, e.g. `"python.lang.security.audit.eval-detected.eval-detected"`. Changing it replaces the resource. */
    rulePath: input(rulePath, { replaces: true }),
    /** `MODE_MONITOR`, `MODE_COMMENT`, `MODE_BLOCK` or `MODE_DISABLED`. */
    mode: input(z.enum(POLICY_MODES, { error: `must be one of ${POLICY_MODES.join(", ")}` })),
    /** Put back, on delete, the mode this resource changed, as it found it (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** Live mode of the rule. */
    mode: output<LiveMode>(),
    /** The rule's numeric id. */
    ruleId: output<string>(),
    /** The rule's severity, e.g. `SEVERITY_HIGH`; `null` where the service gives none. */
    severity: output<string | null>(),
    /** The rule's confidence, e.g. `CONFIDENCE_HIGH`; `null` where the service gives none. */
    confidence: output<string | null>(),
    /** The rule's category, e.g. `security`; `null` where the service gives none. */
    category: output<string | null>(),
    /** The rule's page on semgrep.dev; `null` where the service gives none. */
    url: output<string | null>(),
    /** The mode this resource found and changed (at create, or at the first update that changed a mode create found as declared), put back on delete; unset until it changes the rule. */
    originalMode: output<LiveMode | undefined>({ derivedFrom: "mode" }),
  },
  managed: {
    mode: managed("originalMode"),
  },
  id: {
    format: "<deploymentId>/<policyId>/<rulePath>",
    parse: (text) => {
      const [deploymentId, policyId, path, ...rest] = text.split("/");
      const digits = (part?: string) => part !== undefined && /^\d+$/.test(part);
      return digits(deploymentId) && digits(policyId) && path && rest.length === 0 ? { deploymentId, policyId, rulePath: path } : undefined;
    },
  },
  service: {
    create:
      "Lists the policy's rules (one listing per policy and run, shared " +
      "by every PolicyRuleMode of that policy), records the rule's mode, " +
      "and sets the declared mode unless the rule already has it.",
    update: "Sets the declared mode (one request); a change of deployment, policy or rule replaces the resource.",
    delete:
      "Puts back the mode it found (one request), unless `restoreOnDelete` is `false` or it found the rule in the declared mode. " +
      "On a deployment moved to unified policies (v1 policies answer `410 Gone`), it only leaves the stack, with a warning.",
    read: "Lists the policy's rules (shared as on create) and reports the rule's live mode; a mode changed elsewhere shows as drift.",
    adoption:
      "Every rule already exists: creating the resource takes the rule over, recording its mode as `originalMode`. " +
      '`PolicyRuleMode.get(name, "<deploymentId>/<policyId>/<rulePath>")` reads a rule without managing it.',
  },
});

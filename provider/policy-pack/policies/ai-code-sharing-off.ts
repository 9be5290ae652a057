/**
 * `ai-code-sharing-off` (mandatory): no DeploymentSettings turns on the legacy sharing of code with
 * OpenAI (`ai.legacyAllowOpenaiCodeSharing: true`), nor puts it back on when removed from the
 * program (its delete puts back what it found). Declaring it on where it already is (the stack's
 * last state, or the live configuration) is reported as advisory: nothing changes, but it stays on.
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { reportUnknownKeys, schemaOf, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { settingsBefore, settingsPutBacks } from "../product-settings";
import { describe, type Inputs, kindOf } from "../resources";
import { credentialsFrom } from "../severities";

export const NAME = "ai-code-sharing-off";

const configSchema = schemaOf({
  token: {
    type: "string",
    description: "Semgrep API token, to read the live configuration; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN.",
  },
  url: { type: "string", description: "Semgrep's address; default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev." },
});

const WHY = "code must not be shared with OpenAI under the legacy agreement";

const sharing = (settings: { ai?: Record<string, unknown> } | undefined) => settings?.ai?.legacyAllowOpenaiCodeSharing;

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  if (kindOf(args.type) !== "DeploymentSettings") return;
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const props = args.props as Inputs;
  if (sharing(props as { ai?: Record<string, unknown> }) !== true) return;
  const resource = describe(args.type, args.name);
  const before = await settingsBefore(args.urn, String(props.deploymentId), credentialsFrom(withDefaults(configSchema, given)));
  if (typeof before !== "string" && sharing(before) === true) {
    (report as unknown as (v: { message: string; enforcementLevel: "advisory" }) => void)({
      message: `${resource} keeps ai.legacyAllowOpenaiCodeSharing on (it is on already): ${WHY}. Declare it false.`,
      enforcementLevel: "advisory",
    });
    return;
  }
  report(`${resource} turns ai.legacyAllowOpenaiCodeSharing on: ${WHY}.`);
}

async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  reportUnknownKeys(NAME, configSchema, args.getConfig<object>(), report);
  const putBacks = await settingsPutBacks(args);
  if (typeof putBacks === "string") {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether a DeploymentSettings this change removes puts code sharing back on: ${putBacks}.`,
    );
    return;
  }
  for (const { resource, original, current } of putBacks) {
    if (original !== "secret" && sharing(original) === true && sharing(current) !== true)
      report(`${resource} is removed from the program: its delete puts ai.legacyAllowOpenaiCodeSharing back on: ${WHY}.`);
  }
}

export const aiCodeSharingOff: ResourceAndStackPolicy = {
  name: NAME,
  description: "Legacy code sharing with OpenAI stays off.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

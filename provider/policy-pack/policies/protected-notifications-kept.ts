/**
 * `protected-notifications-kept` (mandatory): a NotificationRule of a protected remediation policy
 * (`protectedPolicySlugs`) may not be disabled, nor removed from the program (its delete removes
 * the rule it created); and every notification rule's URLs (webhooks) must be `https://`, so that
 * findings never travel in clear text. A URL is never printed: it may be a secret. A rule new to
 * the stack adopts the deployment's rule of its name if there is one: with Semgrep credentials the
 * policy reads the deployment's rules (once per deployment and run) and judges the change against
 * that rule, as it judges one the stack holds against its last state.
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { describe, type Inputs, kindOf } from "../resources";
import { liveReader } from "../live-reads";
import { credentialsFrom } from "../severities";
import { isSecretValue, removedFromProgram, type StateResource, stateOf, stateResourceName } from "../stack-state";

export const NAME = "protected-notifications-kept";

const configSchema = schemaOf({
  protectedPolicySlugs: stringList("Remediation policies (slugs) whose notification rules may not be disabled or removed."),
  token: {
    type: "string",
    description: "Semgrep API token, to read the rule a new NotificationRule adopts; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN.",
  },
  url: { type: "string", description: "Semgrep's address; default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev." },
});

interface Config {
  protectedPolicySlugs: string[];
  token?: string;
  url?: string;
}

/** The deployment's rules by name (what a new NotificationRule adopts), or undefined where they cannot be read (judged then on what it declares). */
const liveRules = liveReader<Map<string, Inputs> | undefined>(
  async (client, deploymentId) =>
    new Map(
      (await client.notificationRules.list(deploymentId)).map((rule) => [
        rule.name,
        { policySlugs: rule.policySlugs, enabled: rule.enabled },
      ]),
    ),
  () => undefined,
);

/** What the rule was before this change: the stack's last state of it, else the deployment's rule of its name (adopted), if any. */
async function ruleBefore(config: Config, urn: string, props: Inputs): Promise<{ inputs: Inputs; adopted: boolean } | undefined> {
  const previous = await stateOf(urn);
  if (previous) return { inputs: previous.inputs ?? {}, adopted: false };
  const credentials = credentialsFrom(config);
  const live = credentials && (await liveRules(credentials, String(props.deploymentId)))?.get(String(props.name));
  return live ? { inputs: live, adopted: true } : undefined;
}

const configOf = (args: { getConfig<T extends object>(): T }, report: ReportViolation) => {
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  return withDefaults<Config>(configSchema, given);
};

/** The protected policies a rule notifies about. */
const protectedSlugs = (config: Config, inputs: Inputs) =>
  (Array.isArray(inputs.policySlugs) ? (inputs.policySlugs as unknown[]) : []).filter(
    (slug): slug is string => typeof slug === "string" && config.protectedPolicySlugs.includes(slug),
  );

/** The config keys whose value is a URL that is not `https://` (a key named like a URL, or a value that is one). */
function clearTextUrls(config: unknown): string[] {
  if (!config || typeof config !== "object") return [];
  return Object.entries(config as Record<string, unknown>).flatMap(([key, value]) => {
    if (typeof value !== "string") return [];
    const looksLikeUrl = /url|webhook|endpoint/i.test(key) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());
    return looksLikeUrl && !/^https:\/\//i.test(value.trim()) ? [key] : [];
  });
}

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  if (kindOf(args.type) !== "NotificationRule") return;
  const config = configOf(args, report);
  const props = args.props as Inputs;
  const resource = describe(args.type, args.name);
  const slugs = protectedSlugs(config, props);
  const before = config.protectedPolicySlugs.length ? await ruleBefore(config, args.urn, props) : undefined;
  const adopted = before?.adopted ? ` (it adopts the deployment's rule ${JSON.stringify(props.name)}, which notifies about them)` : "";
  // An adopted rule of a protected policy disabled stops that policy's notifications too, whatever the program declares for it.
  const disabled = [
    ...new Set([...slugs, ...(before?.adopted && before.inputs.enabled !== false ? protectedSlugs(config, before.inputs) : [])]),
  ];
  if (props.enabled === false && disabled.length)
    report(
      `${resource} disables the notifications of ${disabled.join(", ")}${adopted}: protected remediation policies (protectedPolicySlugs) keep theirs.`,
    );
  // A protected policy taken out of the rule's policySlugs stops its notifications as surely as disabling the rule.
  const dropped = before ? protectedSlugs(config, before.inputs).filter((slug) => !slugs.includes(slug)) : [];
  if (dropped.length)
    report(
      `${resource} no longer notifies about ${dropped.join(", ")} (removed from its policySlugs)${adopted}: protected remediation policies (protectedPolicySlugs) keep their notifications.`,
    );
  for (const key of clearTextUrls(props.config))
    report(`${resource} sends to a config.${key} that is not https://: findings would travel in clear text. Use an https:// address.`);
}

/**
 * Whether deleting the rule's resource stops the notifications of `slugs`: it deletes a rule it
 * created; an adopted one it leaves (found as declared, or `restoreOnDelete: false`) or puts back
 * as it found it (`original`), which stops them only if that rule was disabled or lacked one of them.
 */
function stopsOnDelete(config: Config, resource: StateResource, slugs: string[]): boolean {
  if (resource.inputs?.restoreOnDelete === false) return false;
  const outputs = resource.outputs ?? {};
  if (outputs.created !== false) return true;
  const original = outputs.original;
  if (original === undefined || original === null) return false;
  if (isSecretValue(original)) return true;
  const back = original as Inputs;
  return back.enabled === false || slugs.some((slug) => !protectedSlugs(config, back).includes(slug));
}

/** The stack-level half: a protected policy's rule removed from the program is deleted (the engine shows a policy only the new program). */
async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const config = configOf(args, report);
  if (!config.protectedPolicySlugs.length) return;
  const removed = await removedFromProgram(args.resources, "NotificationRule");
  if ("error" in removed) {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether this change removes a protected notification rule: ${removed.error}.`,
    );
    return;
  }
  for (const resource of removed) {
    const slugs = protectedSlugs(config, resource.inputs ?? {});
    if (!slugs.length || !stopsOnDelete(config, resource, slugs)) continue;
    const name = stateResourceName(resource);
    report(`${name} is removed from the program: its delete stops the notifications of ${slugs.join(", ")} (protectedPolicySlugs).`);
  }
}

export const protectedNotificationsKept: ResourceAndStackPolicy = {
  name: NAME,
  description: "Notification rules of protected remediation policies stay enabled, and every notification goes to an https:// address.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

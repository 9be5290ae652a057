/**
 * `protected-products-not-weakened` (mandatory): a product of `protectedProducts` (`sast`, `sca`,
 * `secrets`) keeps scanning and keeps its guard rails. A DeploymentSettings may not turn it off
 * (`enabled: false`), nor loosen its `triagePermission` (NONE, then REQUEST, then IGNORE: a step
 * toward IGNORE lets more people ignore findings) from what it is now, nor, for `sca`, switch off
 * pull-request blocking (`blockPrEnabled`) or the malware firewall (`malwareFirewallEnabled`). A
 * DeploymentSettings removed from the program puts back what it found: the same rules apply to that.
 * "What it is now" is the stack's last state of the resource, else the live configuration (read
 * with Semgrep credentials); without either, only TRIAGE_PERMISSION_IGNORE counts as loosened.
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { loosens, PRODUCTS, type Settings, settingsBefore, settingsPutBacks } from "../product-settings";
import { describe, type Inputs, kindOf } from "../resources";
import { credentialsFrom } from "../severities";

export const NAME = "protected-products-not-weakened";

const configSchema = schemaOf({
  protectedProducts: stringList(`Products that keep scanning and keep their guard rails (${PRODUCTS.join(", ")}).`, [], PRODUCTS),
  token: {
    type: "string",
    description: "Semgrep API token, to read the live configuration; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN.",
  },
  url: { type: "string", description: "Semgrep's address; default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev." },
});

interface Config {
  protectedProducts: string[];
  token?: string;
  url?: string;
}

const configOf = (args: { getConfig<T extends object>(): T }, report: ReportViolation) => {
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  return withDefaults<Config>(configSchema, given);
};

/** The SCA switches a protected SCA keeps on. */
const SCA_GUARDS = { blockPrEnabled: "pull-request blocking", malwareFirewallEnabled: "the malware firewall" } as const;

/** What `now` does to the protected products, against `before` (undefined where unknown): one line each. */
function weakenings(config: Config, now: Settings, before: Settings | undefined): string[] {
  return config.protectedProducts.flatMap((product) => {
    const declared = now[product as keyof Settings] ?? {};
    const was = before?.[product as keyof Settings];
    const lines: string[] = [];
    if (declared.enabled === false && was?.enabled !== false) lines.push(`turns ${product} off`);
    if (declared.triagePermission !== undefined && loosens(declared.triagePermission, was?.triagePermission))
      lines.push(
        `loosens ${product}.triagePermission to ${String(declared.triagePermission)}` +
          (was?.triagePermission ? ` (from ${String(was.triagePermission)})` : " (the loosest: no one reviews an ignore)"),
      );
    if (product === "sca")
      for (const [field, what] of Object.entries(SCA_GUARDS))
        if (declared[field] === false && was?.[field] !== false) lines.push(`switches off ${what} (sca.${field})`);
    return lines;
  });
}

const WHY =
  "protected products (protectedProducts) keep scanning, keep who may ignore their findings, and SCA keeps blocking pull requests and its malware firewall";

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  if (kindOf(args.type) !== "DeploymentSettings") return;
  const config = configOf(args, report);
  if (!config.protectedProducts.length) return;
  const props = args.props as Inputs;
  const before = await settingsBefore(args.urn, String(props.deploymentId), credentialsFrom(config));
  const lines = weakenings(config, props as Settings, typeof before === "string" ? undefined : before);
  const resource = describe(args.type, args.name);
  for (const line of lines) report(`${resource} ${line}: ${WHY}.`);
}

async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const config = configOf(args, report);
  if (!config.protectedProducts.length) return;
  const putBacks = await settingsPutBacks(args);
  if (typeof putBacks === "string") {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether a DeploymentSettings this change removes puts back a weaker configuration: ${putBacks}.`,
    );
    return;
  }
  for (const { resource, original, current } of putBacks) {
    if (original === "secret") {
      report(
        `${resource} is removed from the program and the values it puts back are secret in the state: review them (\`pulumi stack export --show-secrets\`) before applying.`,
      );
      continue;
    }
    for (const line of weakenings(config, original, current))
      report(`${resource} is removed from the program: its delete puts back what it found, which ${line}: ${WHY}.`);
  }
}

export const protectedProductsNotWeakened: ResourceAndStackPolicy = {
  name: NAME,
  description: "Protected products stay on, keep their triage permissions and (SCA) keep PR blocking and the malware firewall.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};

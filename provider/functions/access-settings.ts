/**
 * Data sources on a deployment's product configuration and notification rules (experimental
 * APIs): what DeploymentSettings and NotificationRule declare, read without managing it.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { AiConfig, SastConfig, ScaConfig, SecretsConfig } from "../client";
import { id } from "../client/schemas";
import { secretConfigKeys, notificationRuleState } from "../core/kinds/notification-rule";
import { parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";

export interface GetDeploymentSettingsArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
}

/** {@link GetDeploymentSettingsArgs} as `getDeploymentSettingsOutput` takes them: every field may be a `pulumi.Input`. */
export type GetDeploymentSettingsOutputArgs = OutputArgs<GetDeploymentSettingsArgs>;

/** The deployment's product configuration, in DeploymentSettings' names. */
export interface GetDeploymentSettingsResult {
  /** SAST: whether it scans, who may triage its findings, whether rule-written autofixes are offered. */
  sast: SastConfig;
  /** SCA: whether it scans, PR blocking and comments, malicious-dependency advisories, the malware firewall, upgrade guidance, triage. */
  sca: ScaConfig;
  /** Secrets: whether it scans, who may triage its findings. */
  secrets: SecretsConfig;
  /** Semgrep Assistant: whether it runs, legacy OpenAI code sharing, the allowed providers, and the read-only `mdrEnabled`. */
  ai: AiConfig;
  /** Whether developers may triage findings themselves. */
  hasDeveloperTriage: boolean;
  /** The approvers' tag ("" for none). */
  approversTag: string;
}

const deploymentArgs = z.strictObject({ deploymentId: id("deployment") });

/**
 * The product configuration of a deployment (experimental): which products scan, who may triage
 * their findings, SCA PR blocking, the malware firewall, AI code sharing. One request.
 *
 * @experimental
 * @example
 * ```ts
 * import { getDeploymentSettings } from "pulumi-semgrep";
 * const settings = await getDeploymentSettings({ deploymentId: "1" });
 * if (settings.ai.legacyAllowOpenaiCodeSharing) console.log("code may be shared with OpenAI");
 * ```
 */
export async function getDeploymentSettings(
  args: GetDeploymentSettingsArgs,
  opts?: SemgrepInvokeOptions,
): Promise<GetDeploymentSettingsResult> {
  const { deploymentId } = parseArgs("getDeploymentSettings", deploymentArgs, args);
  return (await clientFor(opts)).products.get(deploymentId);
}

/**
 * {@link getDeploymentSettings} with `pulumi.Input` arguments, as an Output.
 *
 * @experimental
 * @example
 * ```ts
 * import { getDeploymentSettingsOutput } from "pulumi-semgrep";
 * export const malwareFirewall = getDeploymentSettingsOutput({ deploymentId: "1" }).sca.malwareFirewallEnabled;
 * ```
 */
export const getDeploymentSettingsOutput: (
  args: GetDeploymentSettingsOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
) => pulumi.Output<GetDeploymentSettingsResult> = outputForm(getDeploymentSettings);

export interface GetNotificationRulesArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
}

/** {@link GetNotificationRulesArgs} as `getNotificationRulesOutput` takes them: every field may be a `pulumi.Input`. */
export type GetNotificationRulesOutputArgs = OutputArgs<GetNotificationRulesArgs>;

/** One notification rule, as NotificationRule declares it. */
export interface NotificationRuleInfo {
  /** The service's id of the rule (a NotificationRule's id is `<deploymentId>/<ruleId>`). */
  ruleId: number;
  /** The rule's name. */
  name: string;
  /** `CHANNEL_WEBHOOK`, `CHANNEL_SLACK_WEBHOOK`, `CHANNEL_EMAIL` or `CHANNEL_S3`. */
  channel: string;
  /** The channel's settings: a secret in `getNotificationRulesOutput` (and through the plugin) when a value holds a URL or a token. */
  config: Record<string, string>;
  /** The remediation policies whose findings it sends, by slug. */
  policySlugs: string[];
  /** Whether it sends. */
  enabled: boolean;
  /** Whether a webhook is sent an event at each completed scan. */
  sendScanCompletion: boolean;
  /** Whether delivery goes through the network broker. */
  useNetworkBroker: boolean;
  /** Why the service cannot build a notifier from the stored config; "" when healthy. */
  configError: string;
}

export interface GetNotificationRulesResult {
  /** Every rule of the deployment, by id. */
  rules: NotificationRuleInfo[];
}

/**
 * Every notification rule of a deployment (experimental), in one request. The Promise form
 * returns config values as they are, URLs and tokens included: keep them out of logs, or use
 * {@link getNotificationRulesOutput}, which holds them as secrets.
 *
 * @experimental
 * @example
 * ```ts
 * import { getNotificationRules } from "pulumi-semgrep";
 * const { rules } = await getNotificationRules({ deploymentId: "1" });
 * console.log(rules.filter((r) => !r.enabled).map((r) => r.name));
 * ```
 */
export async function getNotificationRules(
  args: GetNotificationRulesArgs,
  opts?: SemgrepInvokeOptions,
): Promise<GetNotificationRulesResult> {
  const { deploymentId } = parseArgs("getNotificationRules", deploymentArgs, args);
  const rules = await (await clientFor(opts)).notificationRules.list(deploymentId);
  return {
    rules: rules
      .sort((a, b) => a.id - b.id)
      .map((rule) => ({ ruleId: rule.id, ...notificationRuleState(rule), configError: rule.configError })),
  };
}

/** The rules as an Output: a rule's `config` is a secret Output where a value holds a URL or a token. */
export type GetNotificationRulesOutputResult = {
  rules: Array<Omit<NotificationRuleInfo, "config"> & { config: pulumi.Output<Record<string, string>> }>;
};

/**
 * {@link getNotificationRules} with `pulumi.Input` arguments, as an Output. A rule's `config` is a
 * Pulumi secret where one of its values holds a URL or a token (as NotificationRule's outputs are).
 *
 * @experimental
 * @example
 * ```ts
 * import { getNotificationRulesOutput } from "pulumi-semgrep";
 * export const ruleNames = getNotificationRulesOutput({ deploymentId: "1" }).rules.apply((rules) => rules.map((r) => r.name));
 * ```
 */
export function getNotificationRulesOutput(
  args: GetNotificationRulesOutputArgs,
  opts?: SemgrepInvokeOutputOptions,
): pulumi.Output<GetNotificationRulesOutputResult> {
  return outputForm(getNotificationRules)(args, opts).apply((result) => ({
    rules: result.rules.map((rule) => ({
      ...rule,
      config: secretConfigKeys({ config: rule.config }).length ? pulumi.secret(rule.config) : pulumi.output(rule.config),
    })),
  }));
}

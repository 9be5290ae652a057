/**
 * Notification rules (`NotificationRulesService`, experimental): where a deployment's findings of
 * chosen remediation policies are sent (a webhook, a Slack webhook, email, S3). The wire is
 * snake_case (`is_enabled`, `policy_slugs`, `use_network_broker`, `send_scan_completion`,
 * `config_error`); the client's public names are camelCase ({@link NotificationRuleEntry}).
 */
import { z } from "zod";
import { flag, list, looseInt, openEnum, text } from "./common";

/** The channels the OpenAPI's list filter names (the rule's own `channel` is a plain string there). */
export const NOTIFICATION_CHANNELS = ["CHANNEL_EMAIL", "CHANNEL_SLACK_WEBHOOK", "CHANNEL_WEBHOOK", "CHANNEL_S3"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const notificationChannel = z.enum(NOTIFICATION_CHANNELS, { error: `must be one of ${NOTIFICATION_CHANNELS.join(", ")}` });

/** The config keys whose values name where a channel delivers (a URL) or carry a credential: secrets in the provider's outputs. */
export const SENSITIVE_CONFIG_KEY = /url|token|secret|key|password|webhook|auth|credential/i;

// ---------------------------------------------------------------------------------------------
// Requests (strict)

/** A rule as a create or replace sends it (the OpenAPI's `NotificationRule` without the service's `id` and `config_error`). */
export const notificationRuleInput = z.strictObject({
  channel: notificationChannel,
  config: z.record(z.string(), z.string()).optional(),
  is_enabled: z.boolean().optional(),
  name: z.string().min(1, "must not be empty"),
  policy_slugs: z.array(z.string()).optional(),
  use_network_broker: z.boolean().optional(),
  send_scan_completion: z.boolean().optional(),
  /** Read-only on the service: the emulator refuses a request that writes it. */
  config_error: z.never({ error: "is read-only (config_error): the service sets it" }).optional(),
  id: z.never({ error: "is the service's (id): give the rule's id in the path" }).optional(),
});
export type NotificationRuleWireInput = z.input<typeof notificationRuleInput>;

const deploymentIdInBody = z.union([z.number().int(), z.string().regex(/^\d+$/)]).optional();

export const createNotificationRuleRequest = z.strictObject({ deploymentId: deploymentIdInBody, notificationRule: notificationRuleInput });
export const replaceNotificationRuleRequest = z.strictObject({
  deploymentId: deploymentIdInBody,
  notificationRuleId: deploymentIdInBody,
  notificationRule: notificationRuleInput,
});
export const listNotificationRulesRequest = z.strictObject({
  deploymentId: deploymentIdInBody,
  options: z
    .strictObject({
      optionalLimit: z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]).optional(),
      cursor: z.strictObject({ token: z.string().optional() }).optional(),
    })
    .optional(),
  filters: z.strictObject({ channel: notificationChannel.optional() }).optional(),
});
export const testNotificationRuleRequest = z.strictObject({ deploymentId: deploymentIdInBody, notificationRuleId: deploymentIdInBody });

// ---------------------------------------------------------------------------------------------
// Answers (loose)

export const notificationRuleWire = z.looseObject({
  id: looseInt,
  channel: openEnum(NOTIFICATION_CHANNELS),
  config: z
    .record(z.string(), z.string())
    .nullish()
    .transform((v) => v ?? {}),
  is_enabled: flag,
  name: text,
  policy_slugs: list(z.string()),
  use_network_broker: flag,
  config_error: text,
  send_scan_completion: flag,
});
export type NotificationRuleWire = z.output<typeof notificationRuleWire>;

export const notificationRuleAnswer = z.looseObject({ notification_rule: notificationRuleWire });
export const notificationRulesAnswer = z.looseObject({ notification_rules: list(notificationRuleWire) });
export const testNotificationRuleAnswer = z.looseObject({ success: flag, errorDetail: text });

// ---------------------------------------------------------------------------------------------
// The client's view (camelCase)

/** A notification rule as the client returns it. */
export interface NotificationRuleEntry {
  /** The service's id of the rule. */
  id: number;
  name: string;
  /** `CHANNEL_WEBHOOK`, `CHANNEL_SLACK_WEBHOOK`, `CHANNEL_EMAIL`, `CHANNEL_S3` (or a newer one). */
  channel: string;
  /** The channel's settings (a webhook's `url`, ...). */
  config: Record<string, string>;
  enabled: boolean;
  /** The remediation policies whose findings it sends, by slug. */
  policySlugs: string[];
  useNetworkBroker: boolean;
  /** Only meaningful for `CHANNEL_WEBHOOK`. */
  sendScanCompletion: boolean;
  /** Why the stored config cannot build a notifier (an invalid URL); "" when healthy. */
  configError: string;
}

/** What a create or replace sends, in the client's names. */
export interface NotificationRuleInput {
  name: string;
  channel: NotificationChannel;
  config?: Record<string, string>;
  enabled?: boolean;
  policySlugs?: string[];
  useNetworkBroker?: boolean;
  sendScanCompletion?: boolean;
}

export function notificationRuleOf(wire: NotificationRuleWire): NotificationRuleEntry {
  return {
    id: wire.id,
    name: wire.name,
    channel: wire.channel,
    config: wire.config,
    enabled: wire.is_enabled,
    policySlugs: wire.policy_slugs,
    useNetworkBroker: wire.use_network_broker,
    sendScanCompletion: wire.send_scan_completion,
    configError: wire.config_error,
  };
}

export function notificationRuleWireInput(rule: NotificationRuleInput): NotificationRuleWireInput {
  return {
    name: rule.name,
    channel: rule.channel,
    ...(rule.config !== undefined ? { config: rule.config } : {}),
    ...(rule.enabled !== undefined ? { is_enabled: rule.enabled } : {}),
    ...(rule.policySlugs !== undefined ? { policy_slugs: rule.policySlugs } : {}),
    ...(rule.useNetworkBroker !== undefined ? { use_network_broker: rule.useNetworkBroker } : {}),
    ...(rule.sendScanCompletion !== undefined ? { send_scan_completion: rule.sendScanCompletion } : {}),
  };
}

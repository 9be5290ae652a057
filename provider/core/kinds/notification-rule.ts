/** NotificationRule, declared once: see declare.ts. */
import { z } from "zod";
import { NOTIFICATION_CHANNELS, type NotificationChannel, type NotificationRuleEntry } from "../../client/schemas/notification-rules";
import { sameSet } from "../runtime/diff";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";

/** A notification rule as the service holds it (the outputs, and what the resource found at create). */
export interface NotificationRuleState {
  /** The rule's name. */
  name: string;
  /** `CHANNEL_WEBHOOK`, `CHANNEL_SLACK_WEBHOOK`, `CHANNEL_EMAIL` or `CHANNEL_S3`. */
  channel: string;
  /** The channel's settings. */
  config: Record<string, string>;
  /** The remediation policies whose findings it sends, by slug. */
  policySlugs: string[];
  /** Whether it sends. */
  enabled: boolean;
  /** Whether a webhook is sent an event at each completed scan. */
  sendScanCompletion: boolean;
  /** Whether delivery goes through the network broker. */
  useNetworkBroker: boolean;
}

/** A rule read from the API as the resource's outputs, records and the `getNotificationRules` data source hold it. */
export function notificationRuleState(rule: NotificationRuleEntry): NotificationRuleState {
  return {
    name: rule.name,
    channel: rule.channel,
    config: rule.config,
    policySlugs: rule.policySlugs,
    enabled: rule.enabled,
    sendScanCompletion: rule.sendScanCompletion,
    useNetworkBroker: rule.useNetworkBroker,
  };
}

/** Config keys whose values are credentials or addresses by their name alone. */
const SENSITIVE_KEY = /url|token|secret|password|key|auth|credential|webhook/i;
/** A value that is an address (`https://…`, `s3://…`): a webhook's URL carries its credential in its path. */
const ADDRESS = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The config keys of `values.config` held as secrets: those whose name or value says it is a URL
 * or a credential, unless `values.plainConfigKeys` names them.
 */
export function secretConfigKeys(values: Record<string, unknown>): string[] {
  const config = values.config;
  if (!config || typeof config !== "object") return [];
  const plain = new Set(Array.isArray(values.plainConfigKeys) ? (values.plainConfigKeys as unknown[]).map(String) : []);
  return Object.entries(config as Record<string, unknown>)
    .filter(([key, value]) => !plain.has(key) && (SENSITIVE_KEY.test(key) || (typeof value === "string" && ADDRESS.test(value))))
    .map(([key]) => key);
}

/** A rule's part found at create, as the state holds it, when this resource changed it (see RemediationPolicy). */
const changedOnly = (field: string) => (stored: unknown, state: Record<string, unknown>) =>
  JSON.stringify(stored) === JSON.stringify(state[field]) ? undefined : stored;

const flag = z.boolean({ error: "must be true or false" }).optional();

export const notificationRuleKind = defineKind({
  kind: "NotificationRule",
  stability: "experimental",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The rule's name, unique in the deployment: a rule of that name that exists already is adopted. Changing it replaces the resource. */
    name: input(
      z.string({ error: "must be a string: the rule's name" }).min(1, "must not be empty").max(256, "must be at most 256 characters"),
      {
        replaces: true,
      },
    ),
    /** Where it sends: `CHANNEL_WEBHOOK`, `CHANNEL_SLACK_WEBHOOK`, `CHANNEL_EMAIL` or `CHANNEL_S3`. */
    channel: typedInput<NotificationChannel>()(
      z.enum(NOTIFICATION_CHANNELS, { error: `must be one of ${NOTIFICATION_CHANNELS.join(", ")}` }),
    ),
    /**
     * The channel's settings, e.g. `{ url: "https://…" }` for a webhook (which needs an `http(s)` `url`).
     * Values that hold a URL or a token (by key: `url`, `token`, `secret`…; or a value of the form
     * `scheme://…`) are secrets: stored encrypted and printed nowhere, even when given plain,
     * unless `plainConfigKeys` names their keys. Not managed when left out.
     */
    config: input(z.record(z.string(), z.string(), { error: "must be a map of strings" }).optional(), {
      secretWhen: { given: ["config", "plainConfigKeys"], holds: (values) => secretConfigKeys(values).length > 0 },
    }),
    /** The config keys whose values may be stored and shown in clear although they hold a URL or a token (e.g. `["url"]` for a public test endpoint). */
    plainConfigKeys: input(z.array(z.string(), { error: "must be a list of config keys" }).optional()),
    /**
     * The remediation policies whose findings it sends, by slug (the whole list, in any order). Each
     * must name a remediation policy of the deployment, or the rule is refused before any write;
     * one the stack creates must come first: take the slug from the RemediationPolicy's `slug`
     * output, or give the rule `dependsOn` it. Not managed when left out.
     */
    policySlugs: input(z.array(z.string(), { error: "must be a list of policy slugs" }).optional(), {
      equal: (live, declared) => sameSet(live, declared),
    }),
    /** Whether the rule sends (the service's default for a new rule: `true`). Not managed when left out. */
    enabled: input(flag),
    /** Whether a webhook is sent an event each time a scan completes (default `true` for a new rule; only meaningful for `CHANNEL_WEBHOOK`). Not managed when left out. */
    sendScanCompletion: input(flag),
    /** Whether delivery goes through the network broker (default `false`). Not managed when left out. */
    useNetworkBroker: input(flag),
    /** Put back, on delete, the rule this resource found, or delete the one it created (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The service's id of the rule. */
    ruleId: output<number>(),
    /** Live channel. */
    channel: output<string>(),
    /** Live settings of the channel (a secret where the declared config is). */
    config: output<Record<string, string>>(),
    /** Live policy slugs. */
    policySlugs: output<string[]>(),
    /** Live: whether it sends. */
    enabled: output<boolean>(),
    /** Live: whether a webhook gets scan-completion events. */
    sendScanCompletion: output<boolean>(),
    /** Live: whether delivery goes through the network broker. */
    useNetworkBroker: output<boolean>(),
    /** Why the service cannot build a notifier from the stored config (an invalid URL); "" when healthy. */
    configError: output<string>(),
    /** The rule this resource found under its name and changed, put back on delete; unset when it created the rule or found it as declared. */
    original: output<NotificationRuleState | undefined>({
      derivedFrom: ["channel", "config", "policySlugs", "enabled", "sendScanCompletion", "useNetworkBroker"],
    }),
    /** True when this resource created the rule (no rule had its name): delete removes it. */
    created: output<boolean>(),
    /** The optional fields this resource manages (those declared): `config`, `policySlugs`, `enabled`, `sendScanCompletion`, `useNetworkBroker`. */
    managedFields: output<string[]>(),
  },
  // The channel is always managed; `managedFields` lists the optional fields declared.
  managed: {
    channel: managed("original.channel"),
    config: managed("original.config", { fromState: changedOnly("config") }),
    policySlugs: managed("original.policySlugs", { fromState: changedOnly("policySlugs") }),
    enabled: managed("original.enabled", { fromState: changedOnly("enabled") }),
    sendScanCompletion: managed("original.sendScanCompletion", { fromState: changedOnly("sendScanCompletion") }),
    useNetworkBroker: managed("original.useNetworkBroker", { fromState: changedOnly("useNetworkBroker") }),
  },
  id: {
    format: "<deploymentId>/<ruleId>",
    parse: (text) => {
      const [deploymentId, ruleId, ...rest] = text.split("/");
      return deploymentId && ruleId && /^\d+$/.test(ruleId) && rest.length === 0 ? { deploymentId } : undefined;
    },
  },
  service: {
    create:
      "Lists the deployment's notification rules (one request per run, shared by every NotificationRule of the deployment); checks that " +
      "each policy slug names a remediation policy (before any write); adopts the rule of the same name, recording it, and replaces it " +
      "with the declared one in one `PUT`, or creates the rule in one `POST`.",
    update:
      "Replaces the rule with the declared one in one `PUT` (fields not declared sent as they are live); a change of `name` or deployment replaces the resource.",
    delete: "Deletes the rule it created, or puts back the rule it found in one `PUT` (unless `restoreOnDelete` is `false`).",
    read: "Lists the rules; a rule deleted elsewhere reads as gone, a changed one (disabled, another URL) as drift.",
    adoption:
      "A rule with the name is adopted (recorded whole as `original`; one found already as declared records nothing), otherwise created " +
      '(`created`). `NotificationRule.get(name, "<deploymentId>/<ruleId>")` reads one without managing it.',
  },
});

import type { ArgsOf } from "../../core/kinds/declare";
import { notificationRuleKind } from "../../core/kinds";
import provider from "../shims/NotificationRule";
import { type ResourceClass, resourceClass } from "./resource-class";
export type { NotificationRuleState } from "../../core/kinds/notification-rule";

/** Arguments of a {@link NotificationRule}. */
export type NotificationRuleArgs = ArgsOf<typeof notificationRuleKind>;

/**
 * A notification rule of a deployment (experimental API), by name: where the findings of chosen
 * remediation policies are sent. Adopts the rule of that name if one exists (recording it, put
 * back on delete), creates it otherwise (deleted on delete). Config values that hold a URL or a
 * token are secrets, stored encrypted and printed nowhere, even when given plain; name in
 * `plainConfigKeys` the keys to keep in clear. Take each policy slug from the RemediationPolicy's
 * output (or give the rule `dependsOn` it), so that the policy exists before the rule.
 *
 * @example
 * ```ts
 * import * as pulumi from "@pulumi/pulumi";
 * import { NotificationRule, RemediationPolicy } from "pulumi-semgrep";
 *
 * const critical = new RemediationPolicy("critical", {
 *   deploymentId: "1",
 *   slug: "critical-findings",
 *   policyName: "Critical findings",
 *   filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
 *   actions: [{ type: "pr_comment" }],
 * });
 *
 * new NotificationRule("soc-webhook", {
 *   deploymentId: "1",
 *   name: "Critical findings to the SOC",
 *   channel: "CHANNEL_WEBHOOK",
 *   config: { url: new pulumi.Config().requireSecret("socWebhookUrl") },
 *   policySlugs: [critical.slug],
 *   sendScanCompletion: false,
 * });
 * ```
 */
export const NotificationRule: ResourceClass<typeof notificationRuleKind> = resourceClass(notificationRuleKind, provider);
export type NotificationRule = InstanceType<typeof NotificationRule>;

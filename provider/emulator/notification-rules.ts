/**
 * Notification rules (`NotificationRulesService`, experimental) over the emulator's state. What a
 * careful reading of the OpenAPI implies, where it says nothing more:
 * - a rule's `channel` is one of the values the list filter names (`CHANNEL_WEBHOOK`, ...); any
 *   other is refused (400);
 * - a `CHANNEL_WEBHOOK` or `CHANNEL_SLACK_WEBHOOK` rule needs `config.url`, an `http(s)` URL
 *   (`config_error` says the service could not build a notifier from a stored config, so it must
 *   build one from what it takes): otherwise 400 naming `config.url`;
 * - every `policy_slugs` entry names a remediation policy of the deployment (system-managed ones
 *   too): otherwise 400 with the code `UNKNOWN_POLICY_SLUG`, naming the slugs;
 * - rule names are unique in a deployment (a rule is found by its name in the UI): a second rule
 *   of a name is refused with 409 `ALREADY_EXISTS`;
 * - `id` and `config_error` are the service's: a request that writes them is refused (400);
 * - `send_scan_completion` "defaults to true for new rules", and `is_enabled` too (a rule is made
 *   to send): a create or replace that leaves either out sets it true;
 * - the list's `PaginateOptions.optionalLimit` cuts the answer to that many rules (by id); the
 *   answer has no cursor, so a `cursor` cannot ask for more and is ignored;
 * - a rule id the deployment does not have answers 404.
 */
import {
  createNotificationRuleRequest,
  listNotificationRulesRequest,
  type NotificationRuleWireInput,
  replaceNotificationRuleRequest,
  testNotificationRuleRequest,
} from "../client/schemas";
import { type ApiRequest, deploymentById, HttpError, parse, type Route } from "./api";
import type { StoredNotificationRule } from "./model";

const ACTIONS = "/api/agent/deployments/(?<deployment>[^/]+)/actions";
const RULE = `${ACTIONS}/(?<rule>[^/]+)`;
const experimental = { stability: "experimental" } as const;

export const notificationRulesRoutes: Route[] = [
  { method: "POST", pattern: new RegExp(`^${ACTIONS}/list$`), operation: "notificationRules.list", handle: listRules, ...experimental },
  { method: "POST", pattern: new RegExp(`^${ACTIONS}$`), operation: "notificationRules.create", handle: createRule, ...experimental },
  { method: "POST", pattern: new RegExp(`^${RULE}/test$`), operation: "notificationRules.test", handle: testRule, ...experimental },
  { method: "PUT", pattern: new RegExp(`^${RULE}$`), operation: "notificationRules.replace", handle: replaceRule, ...experimental },
  { method: "DELETE", pattern: new RegExp(`^${RULE}$`), operation: "notificationRules.delete", handle: deleteRule, ...experimental },
];

export const UNKNOWN_POLICY_SLUG = "UNKNOWN_POLICY_SLUG";
export const ALREADY_EXISTS = "ALREADY_EXISTS";
/** The channels that deliver to a URL given in `config.url`. */
const URL_CHANNELS = new Set(["CHANNEL_WEBHOOK", "CHANNEL_SLACK_WEBHOOK"]);

export function renderNotificationRule(rule: StoredNotificationRule) {
  return {
    id: rule.id,
    channel: rule.channel,
    config: { ...rule.config },
    is_enabled: rule.isEnabled,
    name: rule.name,
    policy_slugs: [...rule.policySlugs],
    use_network_broker: rule.useNetworkBroker,
    config_error: "",
    send_scan_completion: rule.sendScanCompletion,
  };
}

const rulesOf = (req: ApiRequest, deploymentId: number) =>
  req.state.notificationRules.filter((r) => r.deploymentId === deploymentId).sort((a, b) => a.id - b.id);

/** Body fields that repeat a path parameter must say the same, when given. */
function matchesPath(body: Record<string, unknown>, field: string, value: number): void {
  if (body[field] !== undefined && String(body[field]) !== String(value))
    throw new HttpError(400, `invalid request: ${field} ${JSON.stringify(body[field])} does not match the path (${value})`);
}

function ruleOf(req: ApiRequest, deploymentId: number): StoredNotificationRule {
  const raw = req.params.rule ?? "";
  const rule = /^\d+$/.test(raw) ? rulesOf(req, deploymentId).find((r) => r.id === Number(raw)) : undefined;
  if (!rule) throw new HttpError(404, `notification rule ${raw} not found`);
  return rule;
}

/** The rule a create or replace stores, after the service's validation (see the module's comment). */
function validRule(req: ApiRequest, deploymentId: number, input: NotificationRuleWireInput, id: number): StoredNotificationRule {
  const config = input.config ?? {};
  if (URL_CHANNELS.has(input.channel) && !isHttpUrl(config.url))
    throw new HttpError(
      400,
      `invalid request: notificationRule.config.url must be an http(s) URL for ${input.channel}, not ${JSON.stringify(config.url ?? "")}`,
    );
  const known = new Set(req.state.remediationPolicies.filter((p) => p.deploymentId === deploymentId).map((p) => p.slug));
  const unknown = (input.policy_slugs ?? []).filter((slug) => !known.has(slug));
  if (unknown.length)
    throw new HttpError(
      400,
      `notificationRule.policy_slugs: no remediation policy with the slug ${unknown.join(", ")}`,
      UNKNOWN_POLICY_SLUG,
    );
  if (rulesOf(req, deploymentId).some((r) => r.name === input.name && r.id !== id))
    throw new HttpError(409, `a notification rule named ${JSON.stringify(input.name)} already exists`, ALREADY_EXISTS);
  return {
    id,
    deploymentId,
    name: input.name,
    channel: input.channel,
    config: { ...config },
    isEnabled: input.is_enabled ?? true,
    policySlugs: [...(input.policy_slugs ?? [])],
    useNetworkBroker: input.use_network_broker ?? false,
    sendScanCompletion: input.send_scan_completion ?? true,
  };
}

function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function listRules(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(listNotificationRulesRequest, req.body ?? {});
  matchesPath(body, "deploymentId", deployment.id);
  const channel = body.filters?.channel;
  const matching = rulesOf(req, deployment.id).filter((r) => channel === undefined || r.channel === channel);
  const limit = body.options?.optionalLimit === undefined ? undefined : Number(body.options.optionalLimit);
  // 0 is the field's default: no limit.
  const rules = limit ? matching.slice(0, limit) : matching;
  return { notification_rules: rules.map(renderNotificationRule) };
}

function createRule(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(createNotificationRuleRequest, req.body);
  matchesPath(body, "deploymentId", deployment.id);
  const id = Math.max(5000, ...req.state.notificationRules.map((r) => r.id)) + 1;
  const rule = validRule(req, deployment.id, body.notificationRule, id);
  req.state.notificationRules.push(rule);
  req.changed();
  return { notification_rule: renderNotificationRule(rule) };
}

function replaceRule(req: ApiRequest) {
  const deployment = deploymentById(req);
  const existing = ruleOf(req, deployment.id);
  const body = parse(replaceNotificationRuleRequest, req.body);
  matchesPath(body, "deploymentId", deployment.id);
  matchesPath(body, "notificationRuleId", existing.id);
  const rule = validRule(req, deployment.id, body.notificationRule, existing.id);
  req.state.notificationRules = req.state.notificationRules.map((r) => (r === existing ? rule : r));
  req.changed();
  return { notification_rule: renderNotificationRule(rule) };
}

function deleteRule(req: ApiRequest) {
  const deployment = deploymentById(req);
  const existing = ruleOf(req, deployment.id);
  req.state.notificationRules = req.state.notificationRules.filter((r) => r !== existing);
  req.changed();
  return { notification_rule: renderNotificationRule(existing) };
}

function testRule(req: ApiRequest) {
  const deployment = deploymentById(req);
  const rule = ruleOf(req, deployment.id);
  const body = parse(testNotificationRuleRequest, req.body ?? {});
  matchesPath(body, "deploymentId", deployment.id);
  matchesPath(body, "notificationRuleId", rule.id);
  // The emulator delivers nothing: a rule it would build a notifier for succeeds.
  const ok = !URL_CHANNELS.has(rule.channel) || isHttpUrl(rule.config.url);
  return ok ? { success: true, errorDetail: "" } : { success: false, errorDetail: "config.url is not an http(s) URL" };
}

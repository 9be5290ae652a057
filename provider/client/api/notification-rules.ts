/**
 * Notification rules (`NotificationRulesService`, experimental), under
 * `/api/agent/deployments/{deploymentId}/actions`.
 */
import { numericId } from "../schemas/common";
import {
  createNotificationRuleRequest,
  listNotificationRulesRequest,
  type NotificationRuleEntry,
  notificationRuleAnswer,
  type NotificationRuleInput,
  notificationRuleOf,
  notificationRulesAnswer,
  notificationRuleWireInput,
  replaceNotificationRuleRequest,
  testNotificationRuleAnswer,
  testNotificationRuleRequest,
} from "../schemas/notification-rules";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

const PREFIX = "/api/agent";

/** What a rule's test delivery answered. */
export interface NotificationRuleTest {
  success: boolean;
  /** Why it failed (an HTTP status, a timeout, DNS); "" on success. */
  errorDetail: string;
}

export class NotificationRules {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST .../actions/list`: every rule of the deployment. The request takes `PaginateOptions`
   * (`optionalLimit`, `cursor`) but the answer carries no cursor, so there is no next page to ask
   * for: the client sends no options, and the one answer holds every rule (a deployment has a
   * handful). One request.
   */
  async list(deploymentId: string | number, options?: RequestOptions): Promise<NotificationRuleEntry[]> {
    const operation = "notificationRules.list";
    const id = this.#deployment(operation, deploymentId);
    const body = validateRequest(operation, listNotificationRulesRequest, { deploymentId: Number(id) });
    const answer = await this.#send(operation, "POST", `/deployments/${id}/actions/list`, body, notificationRulesAnswer, options);
    return answer.notification_rules.map(notificationRuleOf);
  }

  /** `POST .../actions`: creates a rule; answers it with its `id`. Not idempotent: sent twice, two rules. */
  async create(deploymentId: string | number, rule: NotificationRuleInput, options?: RequestOptions): Promise<NotificationRuleEntry> {
    const operation = "notificationRules.create";
    const id = this.#deployment(operation, deploymentId);
    const body = validateRequest(operation, createNotificationRuleRequest, {
      deploymentId: Number(id),
      notificationRule: notificationRuleWireInput(rule),
    });
    const answer = await this.transport.request({
      operation,
      method: "POST",
      prefix: PREFIX,
      path: `/deployments/${id}/actions`,
      body,
      response: notificationRuleAnswer,
      stability: "experimental",
      repeatEffect: "a notification rule of that name may have been created already",
      options,
    });
    return notificationRuleOf(answer.notification_rule);
  }

  /** `PUT .../actions/{ruleId}`: replaces the whole rule (a field left out takes its default). */
  async replace(
    deploymentId: string | number,
    ruleId: string | number,
    rule: NotificationRuleInput,
    options?: RequestOptions,
  ): Promise<NotificationRuleEntry> {
    const operation = "notificationRules.replace";
    const id = this.#deployment(operation, deploymentId);
    const ruleSegment = this.#rule(operation, ruleId);
    const body = validateRequest(operation, replaceNotificationRuleRequest, {
      deploymentId: Number(id),
      notificationRuleId: Number(ruleSegment),
      notificationRule: notificationRuleWireInput(rule),
    });
    const path = `/deployments/${id}/actions/${ruleSegment}`;
    const answer = await this.#send(operation, "PUT", path, body, notificationRuleAnswer, options, `notification rule ${ruleSegment}`);
    return notificationRuleOf(answer.notification_rule);
  }

  /** `DELETE .../actions/{ruleId}`: deletes the rule; answers it as it was. `NotFoundError` when it is gone already. */
  async delete(deploymentId: string | number, ruleId: string | number, options?: RequestOptions): Promise<NotificationRuleEntry> {
    const operation = "notificationRules.delete";
    const id = this.#deployment(operation, deploymentId);
    const ruleSegment = this.#rule(operation, ruleId);
    const path = `/deployments/${id}/actions/${ruleSegment}`;
    const answer = await this.#send(
      operation,
      "DELETE",
      path,
      undefined,
      notificationRuleAnswer,
      options,
      `notification rule ${ruleSegment}`,
    );
    return notificationRuleOf(answer.notification_rule);
  }

  /** `POST .../actions/{ruleId}/test`: sends a test notification through the rule. */
  async test(deploymentId: string | number, ruleId: string | number, options?: RequestOptions): Promise<NotificationRuleTest> {
    const operation = "notificationRules.test";
    const id = this.#deployment(operation, deploymentId);
    const ruleSegment = this.#rule(operation, ruleId);
    const body = validateRequest(operation, testNotificationRuleRequest, {
      deploymentId: Number(id),
      notificationRuleId: Number(ruleSegment),
    });
    const path = `/deployments/${id}/actions/${ruleSegment}/test`;
    const { success, errorDetail } = await this.#send(
      operation,
      "POST",
      path,
      body,
      testNotificationRuleAnswer,
      options,
      `notification rule ${ruleSegment}`,
    );
    return { success, errorDetail };
  }

  #send<S extends Parameters<Transport["request"]>[0]["response"]>(
    operation: string,
    method: "POST" | "PUT" | "DELETE",
    path: string,
    body: unknown,
    response: S,
    options: RequestOptions | undefined,
    addresses?: string,
  ) {
    return this.transport.request({
      operation,
      method,
      prefix: PREFIX,
      path,
      body,
      response,
      stability: "experimental",
      ...(addresses ? { addresses } : {}),
      options,
    });
  }

  #deployment(operation: string, deploymentId: string | number): string {
    return segment(validateRequest(operation, numericId, deploymentId));
  }

  #rule(operation: string, ruleId: string | number): string {
    return segment(validateRequest(operation, numericId, ruleId));
  }
}

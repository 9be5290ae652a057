/** Policies and their rules. */
import { numericId } from "../schemas/common";
import {
  listRulesQuery,
  type ListRulesQuery,
  MAX_RULE_PAGE_SIZE,
  type Policy,
  policyListResponse,
  type Rule,
  rulesPage,
  type RulesPage,
  updateRuleModeRequest,
  updateRuleModeResponse,
  type UpdateRuleModeResponse,
} from "../schemas/policies";
import type { PolicyMode } from "../schemas/enums";
import { byCursor, type Paginated } from "../pagination";
import { DEPLOYMENT_MIGRATED } from "../errors";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

/** Every operation here is deprecated: gone (410) once the deployment uses unified policies. */
const goneCode = DEPLOYMENT_MIGRATED;

export class Policies {
  constructor(private readonly transport: Transport) {}

  /** `GET /deployments/{deploymentId}/policies`. */
  async list(deploymentId: string | number, options?: RequestOptions): Promise<Policy[]> {
    const operation = "policies.list";
    const id = validateRequest(operation, numericId, deploymentId);
    return (
      await this.transport.request({
        operation,
        method: "GET",
        path: `/deployments/${segment(id)}/policies`,
        response: policyListResponse,
        goneCode,
        options,
      })
    ).policies;
  }

  /** One page of `GET /deployments/{deploymentId}/policies/{policyId}` (the policy and some of its rules). */
  async listRulesPage(
    deploymentId: string | number,
    policyId: string | number,
    query: ListRulesQuery = {},
    options?: RequestOptions,
  ): Promise<RulesPage> {
    const operation = "policies.listRules";
    const path = this.#path(operation, deploymentId, policyId);
    const q = validateRequest(operation, listRulesQuery, { limit: MAX_RULE_PAGE_SIZE, ...query });
    return this.transport.request({ operation, method: "GET", path, query: q, response: rulesPage, goneCode, options });
  }

  /** Every rule of a policy, read page by page (2,000 a page by default). */
  listRules(
    deploymentId: string | number,
    policyId: string | number,
    query: Omit<ListRulesQuery, "cursor"> = {},
    options?: RequestOptions,
  ): Paginated<Rule, string, RulesPage> {
    return byCursor((cursor) => this.listRulesPage(deploymentId, policyId, { ...query, cursor }, options), "rules");
  }

  /** `PUT /deployments/{deploymentId}/policies/{policyId}`: sets the mode of one rule, named by its path. */
  async updateRuleMode(
    deploymentId: string | number,
    policyId: string | number,
    change: { rulePath: string; policyMode: PolicyMode },
    options?: RequestOptions,
  ): Promise<UpdateRuleModeResponse> {
    const operation = "policies.updateRuleMode";
    const path = this.#path(operation, deploymentId, policyId);
    const body = validateRequest(operation, updateRuleModeRequest, {
      ...change,
      deploymentId: String(deploymentId),
      policyId: String(policyId),
    });
    return this.transport.request({ operation, method: "PUT", path, body, response: updateRuleModeResponse, goneCode, options });
  }

  #path(operation: string, deploymentId: string | number, policyId: string | number): string {
    const id = validateRequest(operation, numericId, deploymentId);
    const policy = validateRequest(operation, numericId, policyId);
    return `/deployments/${segment(id)}/policies/${segment(policy)}`;
  }
}

/**
 * Policies V2 (unified policies, beta): the detection policy of each product, the remediation
 * policies, their dry runs and the vocabulary, under `/api/policies/v2/deployments/{deploymentId}/`.
 *
 * Every write is a strict apply of a whole bundle, guarded by `If-Match: <state_version>`: read
 * the bundle, change it, (dry-run it,) apply it with the version read. A stale version is refused
 * with {@link StateVersionConflictError}, which carries the current version when the service
 * sends it.
 */
import type { z } from "zod";
import { numericId } from "../schemas/common";
import type { DetectionProduct } from "../schemas/enums";
import {
  detectionPolicyRequest,
  detectionPolicyState,
  type DetectionPolicyState,
  detectionPolicySummary,
  type DetectionPolicySummary,
  type DetectionPolicyBundleInput,
  detectionProduct,
  dryRunDetectionPolicyResponse,
  type DryRunDetectionPolicyResponse,
  dryRunRemediationPoliciesResponse,
  type DryRunRemediationPoliciesResponse,
  applyOptions,
  remediationPoliciesRequest,
  remediationPoliciesState,
  type RemediationPoliciesState,
  type RemediationPoliciesBundleInput,
  vocabQuery,
  type VocabQuery,
  vocabResponse,
  type Vocabulary,
} from "../schemas/policies-v2";
import { StateVersionConflictError } from "../errors";
import { type RequestOptions, type RequestSpec, segment, type Transport, validateRequest } from "../transport";

const PREFIX = "/api/policies/v2";

/** The options of a strict apply: the bundle's `state_version` as `ifMatch`, and the per-call options. */
export interface ApplyOptions extends RequestOptions {
  /** The `state_version` the change was computed against (from a read, a dry run or the last apply). */
  ifMatch: string;
}

/** What a dry run answers that {@link PoliciesV2}'s confirmation reads. */
interface DryRun {
  creates: unknown[];
  updates: unknown[];
  deletes: unknown[];
  validation_errors: unknown[];
  state_version?: string;
}

export class PoliciesV2 {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET .../detection-policy/{product}`: one product's bundle (`code` or `secrets`) and its
   * `state_version`. {@link ProductNotEnabledError} when the deployment lacks the product.
   */
  async getDetectionPolicy(
    deploymentId: string | number,
    product: DetectionProduct,
    options?: RequestOptions,
  ): Promise<DetectionPolicyState> {
    const operation = "policiesV2.getDetectionPolicy";
    const path = this.#detectionPath(operation, deploymentId, product);
    return this.#send({ operation, method: "GET", path, response: detectionPolicyState, options });
  }

  /**
   * `PUT .../detection-policy/{product}` with `If-Match`: replaces the product's whole bundle
   * (fields left out are cleared, exceptions left out are deleted). Answers the bundle after the
   * apply and its new `state_version`.
   */
  async applyDetectionPolicy(
    deploymentId: string | number,
    product: DetectionProduct,
    bundle: DetectionPolicyBundleInput,
    options: ApplyOptions,
  ): Promise<DetectionPolicyState> {
    const operation = "policiesV2.applyDetectionPolicy";
    const path = this.#detectionPath(operation, deploymentId, product);
    const body = validateRequest(operation, detectionPolicyRequest, { bundle });
    return this.#apply(operation, path, body, detectionPolicyState, options, {
      dryRun: (o) => this.dryRunDetectionPolicy(deploymentId, product, bundle, o),
      read: (o) => this.getDetectionPolicy(deploymentId, product, o),
    });
  }

  /**
   * `POST .../detection-policy/{product}:dryRun`: the diff a strict apply of `bundle` would make
   * (`creates`, `updates`, `deletes`), or every validation error at once, and the `state_version`
   * it was computed against (the live service may leave it out of a clean dry run). Changes
   * nothing. The live service may also refuse an invalid bundle as its apply would, with a
   * `BadRequestError` (or `ReservedSlugError`) carrying the first problem's code and
   * fields, instead of listing `validation_errors`: callers take both forms.
   */
  async dryRunDetectionPolicy(
    deploymentId: string | number,
    product: DetectionProduct,
    bundle: DetectionPolicyBundleInput,
    options?: RequestOptions,
  ): Promise<DryRunDetectionPolicyResponse> {
    const operation = "policiesV2.dryRunDetectionPolicy";
    const path = `${this.#detectionPath(operation, deploymentId, product)}:dryRun`;
    const body = validateRequest(operation, detectionPolicyRequest, { bundle });
    return this.#send({ operation, method: "POST", path, body, response: dryRunDetectionPolicyResponse, options });
  }

  /** `GET .../detection-policy`: the bundle and `state_version` of every enabled product, in one read. */
  async getDetectionPolicySummary(deploymentId: string | number, options?: RequestOptions): Promise<DetectionPolicySummary> {
    const operation = "policiesV2.getDetectionPolicySummary";
    const path = `${this.#deploymentPath(operation, deploymentId)}/detection-policy`;
    return this.#send({ operation, method: "GET", path, response: detectionPolicySummary, options });
  }

  /** `GET .../remediation-policies`: the remediation policies (system-managed ones are never in it) and the `state_version`. */
  async getRemediationPolicies(deploymentId: string | number, options?: RequestOptions): Promise<RemediationPoliciesState> {
    const operation = "policiesV2.getRemediationPolicies";
    const path = `${this.#deploymentPath(operation, deploymentId)}/remediation-policies`;
    return this.#send({ operation, method: "GET", path, response: remediationPoliciesState, options });
  }

  /**
   * `PUT .../remediation-policies` with `If-Match`: replaces the whole list (policies left out are
   * deleted; system-managed ones are untouched). {@link ReservedSlugError} when a policy uses the
   * slug of a system-managed one.
   */
  async applyRemediationPolicies(
    deploymentId: string | number,
    bundle: RemediationPoliciesBundleInput,
    options: ApplyOptions,
  ): Promise<RemediationPoliciesState> {
    const operation = "policiesV2.applyRemediationPolicies";
    const path = `${this.#deploymentPath(operation, deploymentId)}/remediation-policies`;
    const body = validateRequest(operation, remediationPoliciesRequest, { bundle });
    return this.#apply(operation, path, body, remediationPoliciesState, options, {
      dryRun: (o) => this.dryRunRemediationPolicies(deploymentId, bundle, o),
      read: (o) => this.getRemediationPolicies(deploymentId, o),
    });
  }

  /**
   * `POST .../remediation-policies:dryRun`: the diff a strict apply would make, or every validation
   * error, in either form {@link dryRunDetectionPolicy} describes. Changes nothing.
   */
  async dryRunRemediationPolicies(
    deploymentId: string | number,
    bundle: RemediationPoliciesBundleInput,
    options?: RequestOptions,
  ): Promise<DryRunRemediationPoliciesResponse> {
    const operation = "policiesV2.dryRunRemediationPolicies";
    const path = `${this.#deploymentPath(operation, deploymentId)}/remediation-policies:dryRun`;
    const body = validateRequest(operation, remediationPoliciesRequest, { bundle });
    return this.#send({ operation, method: "POST", path, body, response: dryRunRemediationPoliciesResponse, options });
  }

  /**
   * `GET .../vocab`: the condition types, action types (with their companions) and, with a
   * `product` (`code`, `secrets` or `remediation`), its value enums and detection constraints.
   */
  async getVocab(deploymentId: string | number, query: VocabQuery = {}, options?: RequestOptions): Promise<Vocabulary> {
    const operation = "policiesV2.getVocab";
    const path = `${this.#deploymentPath(operation, deploymentId)}/vocab`;
    const q = validateRequest(operation, vocabQuery, query);
    return this.#send({ operation, method: "GET", path, query: q, response: vocabResponse, options });
  }

  #send<S extends z.ZodType>(spec: Omit<RequestSpec<S>, "prefix">): Promise<z.output<S>> {
    return this.transport.request({ ...spec, prefix: PREFIX });
  }

  /**
   * A strict apply with `If-Match`. The transport retries it with the same `If-Match` (safe: see
   * `RequestSpec.ifMatch`). When an attempt's answer was lost and the retry is then refused with
   * 409, the lost attempt may have applied the bundle itself. That is confirmed rather than
   * guessed: a dry run of the same bundle against the current state that finds nothing to create,
   * update or delete (and no error) means the bundle in place is the one asked for, whoever wrote
   * it, so the apply has the outcome asked for, and answers the bundle as read (one more read,
   * whose `state_version` must be the dry run's). Anything else is the conflict it says it is:
   * another writer changed the bundle, and the caller must read it again.
   */
  async #apply<S extends z.ZodType<{ state_version: string }>>(
    operation: string,
    path: string,
    body: unknown,
    response: S,
    options: ApplyOptions,
    confirm: { dryRun: (o: RequestOptions) => Promise<DryRun>; read: (o: RequestOptions) => Promise<z.output<S>> },
  ): Promise<z.output<S>> {
    const { ifMatch, ...callOptions } = options ?? ({} as ApplyOptions);
    const { ifMatch: version } = validateRequest(operation, applyOptions, { ifMatch });
    try {
      return await this.#send({
        operation,
        method: "PUT",
        path,
        body,
        response,
        ifMatch: version,
        repeatEffect: "an earlier attempt may have applied the bundle (never over a newer one: the apply is guarded by If-Match)",
        options: callOptions,
      });
    } catch (error) {
      if (!(error instanceof StateVersionConflictError && error.mayHaveApplied)) throw error;
      const applied = await this.#confirmApplied(confirm, callOptions, error.currentStateVersion).catch(() => undefined);
      if (applied === undefined) throw error;
      return applied;
    }
  }

  /**
   * The bundle as read when a dry run confirms it is the one asked for. The read must be of the
   * version the dry run was computed against: the dry run's `state_version`, or, when a clean dry
   * run leaves it out, the `current_state_version` of the 409 (the bundle then was the one read
   * after, so the dry run in between saw it too).
   */
  async #confirmApplied<T extends { state_version: string }>(
    confirm: { dryRun: (o: RequestOptions) => Promise<DryRun>; read: (o: RequestOptions) => Promise<T> },
    options: RequestOptions,
    conflictVersion: string | undefined,
  ): Promise<T | undefined> {
    const diff = await confirm.dryRun(options);
    const unchanged = !diff.creates.length && !diff.updates.length && !diff.deletes.length && !diff.validation_errors.length;
    if (!unchanged) return undefined;
    const computedAgainst = diff.state_version ?? conflictVersion;
    if (computedAgainst === undefined) return undefined;
    const state = await confirm.read(options);
    return state.state_version === computedAgainst ? state : undefined;
  }

  #deploymentPath(operation: string, deploymentId: string | number): string {
    const id = validateRequest(operation, numericId, deploymentId);
    return `/deployments/${segment(id)}`;
  }

  #detectionPath(operation: string, deploymentId: string | number, product: DetectionProduct): string {
    const base = this.#deploymentPath(operation, deploymentId);
    return `${base}/detection-policy/${segment(validateRequest(operation, detectionProduct, product))}`;
  }
}

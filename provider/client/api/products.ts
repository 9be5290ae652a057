/**
 * The deployment's product configuration (`DeploymentProductsService`, experimental), under
 * `/api/agent/deployments/{deploymentId}/products`.
 */
import {
  type ProductConfig,
  productConfigAnswer,
  type ProductConfigChange,
  productConfigOf,
  productConfigRequest,
  putProductConfigRequest,
} from "../schemas/products";
import { numericId } from "../schemas/common";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

const PREFIX = "/api/agent";

export class Products {
  constructor(private readonly transport: Transport) {}

  /** `GET .../products`: the deployment's product configuration. */
  async get(deploymentId: string | number, options?: RequestOptions): Promise<ProductConfig> {
    return productConfigOf((await this.#read(deploymentId, options)).products);
  }

  /**
   * Changes the fields `change` names and keeps every other one: {@link edit} with a fixed change.
   * Two requests: a `GET` and a `PUT`.
   */
  async update(deploymentId: string | number, change: ProductConfigChange, options?: RequestOptions): Promise<ProductConfig> {
    return (await this.edit(deploymentId, () => change, options)).config;
  }

  /**
   * A read-modify-write of the configuration. The OpenAPI does not say that the `PUT` merges (it
   * is "create or update" of the whole configuration, and protobuf cannot tell a field left out
   * from one set to its default), so a change is a `GET`, then a `PUT` of the whole configuration
   * read with the change over it: a field the change does not name (nested settings such as
   * `sast.ai_autofix` included) goes back as it was, and the read-only `ai.mdr_enabled` is left
   * out. `change` is given the configuration read and answers what to change, or `undefined` for
   * nothing (then no `PUT`). Answers the configuration after, and whether it was written.
   */
  async edit(
    deploymentId: string | number,
    change: (current: ProductConfig) => ProductConfigChange | undefined,
    options?: RequestOptions,
  ): Promise<{ config: ProductConfig; written: boolean }> {
    const operation = "products.update";
    const read = await this.#read(deploymentId, options);
    const wanted = change(productConfigOf(read.products));
    if (wanted === undefined) return { config: productConfigOf(read.products), written: false };
    const body = validateRequest(operation, putProductConfigRequest, productConfigRequest(read.products, wanted));
    const answer = await this.transport.request({
      operation,
      method: "PUT",
      prefix: PREFIX,
      path: this.#path(operation, deploymentId),
      body,
      response: productConfigAnswer,
      stability: "experimental",
      options,
    });
    return { config: productConfigOf(answer.products), written: true };
  }

  #read(deploymentId: string | number, options?: RequestOptions) {
    const operation = "products.get";
    return this.transport.request({
      operation,
      method: "GET",
      prefix: PREFIX,
      path: this.#path(operation, deploymentId),
      response: productConfigAnswer,
      stability: "experimental",
      options,
    });
  }

  #path(operation: string, deploymentId: string | number): string {
    return `/deployments/${segment(validateRequest(operation, numericId, deploymentId))}/products`;
  }
}

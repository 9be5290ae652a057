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
   * Changes the fields `change` names and keeps every other one. The OpenAPI does not say that
   * the `PUT` merges (it is "create or update" of the whole configuration, and protobuf cannot
   * tell a field left out from one set to its default), so this is a read-modify-write: a `GET`,
   * then a `PUT` of the whole configuration read with `change` over it, so that a field the caller
   * does not name (nested settings such as `sast.ai_autofix` included) goes back as it was, and
   * the read-only `ai.mdr_enabled` is left out. Two requests; answers the configuration the `PUT`
   * returns.
   */
  async update(deploymentId: string | number, change: ProductConfigChange, options?: RequestOptions): Promise<ProductConfig> {
    const operation = "products.update";
    const read = await this.#read(deploymentId, options);
    const body = validateRequest(operation, putProductConfigRequest, productConfigRequest(read.products, change));
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
    return productConfigOf(answer.products);
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

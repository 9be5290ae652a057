/** Deployments (a helper of the live service): turns a slug into an id and back. */
import { type Deployment, deploymentListResponse } from "../schemas/projects";
import type { RequestOptions, Transport } from "../transport";

export class Deployments {
  constructor(private readonly transport: Transport) {}

  /** `GET /deployments`: the token's deployment(s). */
  async list(options?: RequestOptions): Promise<Deployment[]> {
    return (
      await this.transport.request({
        operation: "deployments.list",
        method: "GET",
        path: "/deployments",
        response: deploymentListResponse,
        options,
      })
    ).deployments;
  }
}

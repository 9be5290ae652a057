/** SBOM exports. */
import { nonEmpty, numericId } from "../schemas/common";
import {
  createSbomExportRequest,
  type CreateSbomExportRequest,
  createSbomExportResponse,
  type CreateSbomExportResponse,
  sbomExportStatus,
  type SbomExportStatusResult,
} from "../schemas/sbom";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

export class Sbom {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /deployments/{deploymentId}/sbom/export`: starts an export job. Not idempotent, but
   * retried like every request: a second export is harmless, a failure is not. When it finally
   * fails after an attempt that may have reached the service, the error says an export may
   * already have started.
   */
  async createExport(
    deploymentId: string | number,
    params: Omit<CreateSbomExportRequest, "deploymentId">,
    options?: RequestOptions,
  ): Promise<CreateSbomExportResponse> {
    const operation = "sbom.createExport";
    const id = validateRequest(operation, numericId, deploymentId);
    const body = validateRequest(operation, createSbomExportRequest, { ...params, deploymentId: id });
    const path = `/deployments/${segment(id)}/sbom/export`;
    const repeatEffect = "an SBOM export may already have started";
    return this.transport.request({ operation, method: "POST", path, body, response: createSbomExportResponse, repeatEffect, options });
  }

  /** `GET /deployments/{deploymentId}/sbom/export/{taskToken}` (an extra of the live service): the job's status. */
  async getExport(deploymentId: string | number, taskToken: string, options?: RequestOptions): Promise<SbomExportStatusResult> {
    const operation = "sbom.getExport";
    const id = validateRequest(operation, numericId, deploymentId);
    const token = validateRequest(operation, nonEmpty, taskToken);
    return this.transport.request({
      operation,
      method: "GET",
      path: `/deployments/${segment(id)}/sbom/export/${segment(token)}`,
      response: sbomExportStatus,
      options,
    });
  }
}

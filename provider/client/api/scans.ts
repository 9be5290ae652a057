/** Scans: search (beta) and details. */
import { numericId } from "../schemas/common";
import {
  MAX_SCAN_PAGE_SIZE,
  scanDetail,
  type ScanDetail,
  scanSearchRequest,
  type ScanSearchRequest,
  scanSearchResponse,
  type ScanSearchResponse,
  type ScanSummary,
} from "../schemas/scans";
import { byCursor, type Paginated } from "../pagination";
import { type RequestOptions, segment, type Transport, validateRequest } from "../transport";

export class Scans {
  constructor(private readonly transport: Transport) {}

  /** One page of `POST /deployments/{deploymentId}/scans/search`. */
  async searchPage(deploymentId: string | number, params: ScanSearchRequest = {}, options?: RequestOptions): Promise<ScanSearchResponse> {
    const operation = "scans.search";
    const id = validateRequest(operation, numericId, deploymentId);
    const body = validateRequest(operation, scanSearchRequest, { limit: MAX_SCAN_PAGE_SIZE, ...params, deploymentId: id });
    return this.transport.request({
      operation,
      method: "POST",
      path: `/deployments/${segment(id)}/scans/search`,
      body,
      response: scanSearchResponse,
      options,
    });
  }

  /** Every scan matching `params`, newest first as the service orders them, read page by page. */
  search(
    deploymentId: string | number,
    params: Omit<ScanSearchRequest, "cursor"> = {},
    options?: RequestOptions,
  ): Paginated<ScanSummary, string, ScanSearchResponse> {
    return byCursor((cursor) => this.searchPage(deploymentId, { ...params, cursor }, options), "scans");
  }

  /** `GET /deployments/{deploymentId}/scan/{scanId}`. */
  async get(deploymentId: string | number, scanId: string | number, options?: RequestOptions): Promise<ScanDetail> {
    const operation = "scans.get";
    const id = validateRequest(operation, numericId, deploymentId);
    const scan = validateRequest(operation, numericId, scanId);
    return this.transport.request({
      operation,
      method: "GET",
      path: `/deployments/${segment(id)}/scan/${segment(scan)}`,
      response: scanDetail,
      options,
    });
  }
}

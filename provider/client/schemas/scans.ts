/** Scans: search (operation 1) and details (operation 2). */
import { z } from "zod";
import { count, flag, list, looseId, looseInt, looseNumber, openEnum, timestamp } from "./common";
import { PRODUCTS, SCAN_STATUS_FILTERS, SCAN_STATUSES } from "./enums";

export const MAX_SCAN_PAGE_SIZE = 500;

export const scanSearchRequest = z.strictObject({
  deploymentId: z.string().optional(),
  branch: z.string().min(1).optional(),
  cursor: z.string().optional(),
  /** 1: full scans only; 0: diff scans only. */
  is_full_scan: z.union([z.literal(0), z.literal(1)]).optional(),
  limit: z.number().int().min(1).max(MAX_SCAN_PAGE_SIZE).optional(),
  products: z.array(z.enum(PRODUCTS)).optional(),
  repository_id: z.number().int().nonnegative().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  statuses: z.array(z.enum(SCAN_STATUS_FILTERS)).optional(),
  total_time: z.strictObject({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() }).optional(),
});
export type ScanSearchRequest = z.input<typeof scanSearchRequest>;

const findingsCounts = z.looseObject({ code: count, secrets: count, supply_chain: count, total: count });

export const scanSummary = z
  .looseObject({
    id: looseId,
    deployment_id: looseId,
    repository_id: looseId,
    branch: z.string().nullish(),
    commit: z.string().nullish(),
    started_at: timestamp.nullish(),
    completed_at: timestamp.nullish(),
    enabled_products: list(z.string()),
    exit_code: looseInt.nullish(),
    findings_counts: findingsCounts.nullish(),
    is_full_scan: flag,
    /** Absent is the enum's zero value. */
    status: openEnum(SCAN_STATUSES)
      .nullish()
      .transform((v) => v ?? "SCAN_STATUS_UNSPECIFIED"),
    total_time: looseNumber.nullish(),
  })
  .transform(finishedExitCode);
export type ScanSummary = z.output<typeof scanSummary>;

export const scanSearchResponse = z.looseObject({
  cursor: z.string().nullish(),
  scans: list(scanSummary),
});
export type ScanSearchResponse = z.output<typeof scanSearchResponse>;

/** A title is a plain string on the live service; the contract's sample shows an object. */
const titleLike = z.union([z.string(), z.record(z.string(), z.unknown())]);

export const scanMeta = z.looseObject({
  on: z.string().nullish(),
  branch: z.string().nullish(),
  commit: z.string().nullish(),
  commit_title: titleLike.nullish(),
  config: z.string().nullish(),
  repo_url: z.string().nullish(),
  ci_job_url: z.string().nullish(),
  repository: z.string().nullish(),
  pull_request_id: looseId.nullish(),
  pull_request_title: titleLike.nullish(),
  commit_author_name: z.string().nullish(),
  commit_author_username: z.string().nullish(),
  commit_author_email: z.string().nullish(),
  commit_author_image_url: z.string().nullish(),
  pull_request_author_username: z.string().nullish(),
  pull_request_author_image_url: z.string().nullish(),
});
export type ScanMeta = z.output<typeof scanMeta>;

export const scanDetail = z
  .looseObject({
    id: looseInt,
    deployment_id: looseInt,
    repository_id: looseInt,
    started_at: timestamp.nullish(),
    completed_at: timestamp.nullish(),
    enabled_products: list(z.string()),
    exit_code: looseInt.nullish(),
    has_logs: flag,
    stats: z.looseObject({ findings: count, total_time: looseNumber.nullish() }).nullish(),
    meta: scanMeta.nullish(),
  })
  .transform(finishedExitCode);

/**
 * A finished scan whose answer has no exit code exited with 0: protobuf's JSON mapping leaves a
 * zero out. An unfinished scan has none.
 */
function finishedExitCode<T extends { completed_at?: string | null; exit_code?: number | null }>(scan: T): T {
  return scan.completed_at && scan.exit_code == null ? { ...scan, exit_code: 0 } : scan;
}
export type ScanDetail = z.output<typeof scanDetail>;

/** Scans: search (operation 1) and details (operation 2). */
import { z } from "zod";
import { count, flag, list, looseId, looseInt, looseNumber, openEnum, timestamp } from "./common";
import { PRODUCTS, SCAN_STATUS_FILTERS, SCAN_STATUSES } from "./enums";

export const MAX_SCAN_PAGE_SIZE = 500;

/**
 * `true`: full scans only; `false`: diff scans only. Sent as a boolean, the form Semgrep's own
 * scan-health script sends: the OpenAPI types the field integer, but its description speaks of
 * true and false, and protobuf's JSON mapping reads a bool only from `true`/`false`. The
 * OpenAPI's `1` and `0` are taken too, and sent as `true` and `false`.
 */
const fullScanOnly = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: "must be true or false (or the OpenAPI's 1 or 0)" })
  .transform((value) => value === true || value === 1);

const scanSearchFields = {
  deploymentId: z.string().optional(),
  branch: z.string().min(1).optional(),
  cursor: z.string().optional(),
  is_full_scan: fullScanOnly.optional(),
  limit: z.number().int().min(1).max(MAX_SCAN_PAGE_SIZE).optional(),
  products: z.array(z.enum(PRODUCTS)).optional(),
  repository_id: z.number().int().nonnegative().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  statuses: z.array(z.enum(SCAN_STATUS_FILTERS)).optional(),
  total_time: z.strictObject({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() }).optional(),
};

/** A scan search as the client sends it: a field it does not know is a mistake of its caller. */
export const scanSearchRequest = z.strictObject(scanSearchFields);
export type ScanSearchRequest = z.input<typeof scanSearchRequest>;

/**
 * A scan search as the service reads it: keys it does not know are ignored, as protobuf's JSON
 * gateway does (Semgrep's scan-health script sends some).
 */
export const scanSearchAsRead = z.object(scanSearchFields);

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

/** Data sources: scans of a deployment (searched, every page up to a maximum), and one scan's details. */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { id, MAX_SCAN_PAGE_SIZE, PRODUCTS, SCAN_STATUS_FILTERS } from "../client/schemas";
import { oneOf, parseArgs } from "./args";
import { clientFor, type SemgrepInvokeOptions, type SemgrepInvokeOutputOptions } from "./client";
import { type OutputArgs, outputForm } from "./output";
import { PERSONAL_META_FIELDS, type ScanInfo, scanInfo, type ScanSummaryInfo, scanSummaryInfo } from "./shapes";

export interface GetScansArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** Only scans of this branch, e.g. `"refs/heads/main"`. */
  branch?: string;
  /** Only scans of this repository. */
  repositoryId?: string | number;
  /** Only scans in one of these statuses, e.g. `["SCAN_STATUS_ERROR"]` (`SCAN_STATUS_UNSPECIFIED` asks for none). */
  statuses?: string[];
  /** Only scans with these products enabled, e.g. `["PRODUCT_SECRETS"]`. */
  products?: string[];
  /** Only scans started after this time (ISO 8601). */
  since?: string;
  /** Only full scans (`true`) or only diff scans (`false`). */
  isFullScan?: boolean;
  /** Only scans whose duration (seconds) is within this range. */
  totalTime?: {
    /** Shortest duration, in seconds, e.g. `60`; no lower bound when left out. */
    min?: number;
    /** Longest duration, in seconds, e.g. `600`; no upper bound when left out. */
    max?: number;
  };
  /** Stop after this many scans (newest first); no further page is read. */
  maxResults?: number;
}

/** {@link GetScansArgs} as `getScansOutput` takes them: every field may be a `pulumi.Input`. */
export type GetScansOutputArgs = OutputArgs<GetScansArgs>;

export interface GetScansResult {
  /** Newest first. */
  scans: ScanSummaryInfo[];
}

const scansArgs = z.strictObject({
  deploymentId: id("deployment"),
  branch: z.string().min(1).optional(),
  repositoryId: id("repository").optional(),
  statuses: oneOf(SCAN_STATUS_FILTERS),
  products: oneOf(PRODUCTS),
  since: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z" }).optional(),
  isFullScan: z.boolean().optional(),
  totalTime: z.strictObject({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() }).optional(),
  maxResults: z.number().int().positive().optional(),
});

/**
 * Scans of a deployment, newest first, every page read (500 a page) up to `maxResults`.
 *
 * @example
 * ```ts
 * import { getScans } from "pulumi-semgrep";
 * const { scans } = await getScans({ deploymentId: "1", branch: "refs/heads/main", statuses: ["SCAN_STATUS_ERROR"], maxResults: 20 });
 * ```
 */
export async function getScans(args: GetScansArgs, opts?: SemgrepInvokeOptions): Promise<GetScansResult> {
  const { deploymentId, branch, repositoryId, statuses, products, since, isFullScan, totalTime, maxResults } = parseArgs(
    "getScans",
    scansArgs,
    args,
  );
  const listing = (await clientFor(opts)).scans.search(deploymentId, {
    branch,
    repository_id: repositoryId === undefined ? undefined : Number(repositoryId),
    statuses,
    products,
    since,
    is_full_scan: isFullScan,
    total_time: totalTime,
    limit: Math.min(MAX_SCAN_PAGE_SIZE, maxResults ?? MAX_SCAN_PAGE_SIZE),
  });
  return { scans: (await listing.toArray(maxResults)).map(scanSummaryInfo) };
}

/**
 * {@link getScans} with `pulumi.Input` arguments, as an Output.
 *
 * @example
 * ```ts
 * import { getScansOutput } from "pulumi-semgrep";
 * export const failedScans = getScansOutput({ deploymentId: "1", statuses: ["SCAN_STATUS_ERROR"], maxResults: 10 })
 *   .scans.apply((s) => s.length);
 * ```
 */
export const getScansOutput: (args: GetScansOutputArgs, opts?: SemgrepInvokeOutputOptions) => pulumi.Output<GetScansResult> =
  outputForm(getScans);

export interface GetScanArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: string | number;
  /** The scan's id, digits as a string or a number, e.g. `50299` (a scan's `id` in `getScans`). */
  scanId: string | number;
}

/** {@link GetScanArgs} as `getScanOutput` takes them: every field may be a `pulumi.Input`. */
export type GetScanOutputArgs = OutputArgs<GetScanArgs>;

/** A scan's details (fields at the top level). */
export type GetScanResult = ScanInfo;

const scanArgs = z.strictObject({ deploymentId: id("deployment"), scanId: id("scan") });

/**
 * One scan's details.
 *
 * @example
 * ```ts
 * import { getScan } from "pulumi-semgrep";
 * const scan = await getScan({ deploymentId: "1", scanId: 50299 });
 * console.log(scan.meta.repository, scan.stats.findings);
 * ```
 */
export async function getScan(args: GetScanArgs, opts?: SemgrepInvokeOptions): Promise<GetScanResult> {
  const { deploymentId, scanId } = parseArgs("getScan", scanArgs, args);
  return scanInfo(await (await clientFor(opts)).scans.get(deploymentId, scanId));
}

/** A scan's details as an Output: the personal-data fields of `meta` are secret Outputs. */
export type GetScanOutputResult = Omit<ScanInfo, "meta"> & {
  meta: Omit<ScanInfo["meta"], (typeof PERSONAL_META_FIELDS)[number]> & {
    [K in (typeof PERSONAL_META_FIELDS)[number]]: pulumi.Output<string | undefined>;
  };
};

/**
 * {@link getScan} with `pulumi.Input` arguments, as an Output. The author names, usernames and
 * email of `meta` are Pulumi secrets (encrypted in state, masked in the CLI).
 *
 * @example
 * ```ts
 * import { getScanOutput } from "pulumi-semgrep";
 * const scan = getScanOutput({ deploymentId: "1", scanId: 50299 });
 * export const author = scan.meta.commitAuthorEmail; // a secret
 * export const findings = scan.stats.findings;       // not a secret
 * ```
 */
export function getScanOutput(args: GetScanOutputArgs, opts?: SemgrepInvokeOutputOptions): pulumi.Output<GetScanOutputResult> {
  return outputForm(getScan)(args, opts).apply((scan) => {
    const meta = { ...scan.meta } as Record<string, unknown>;
    for (const field of PERSONAL_META_FIELDS) meta[field] = pulumi.secret(scan.meta[field]);
    return { ...scan, meta } as GetScanOutputResult;
  });
}

/** SBOM export: start a job (operation 13) and read its status (live-service extra). */
import { z } from "zod";
import { isBranchName } from "./projects";
import { numericId, openEnum } from "./common";
import {
  SBOM_CYCLONEDX_VERSIONS,
  SBOM_EXPORT_STATUSES,
  SBOM_FORMATS,
  SBOM_METADATA_COMPONENT_TYPES,
  SBOM_OUTPUT_FORMATS,
  type SbomCycloneDxVersion,
  type SbomFormat,
} from "./enums";

/** `refs/heads/<branch>` or `refs/pull/<number>/merge`. */
export const sbomRef = z
  .string()
  .refine(
    (s) => /^refs\/pull\/\d+\/merge$/.test(s) || (s.startsWith("refs/heads/") && isBranchName(s.slice("refs/heads/".length))),
    "must be refs/heads/<branch> or refs/pull/<number>/merge",
  );

/**
 * `protos.sca.v1.SbomFormatVersion`: both fields optional, the service defaulting to CycloneDX
 * 1.4. The older `version: "1.5"` string is gone from Semgrep's OpenAPI.
 */
export const sbomFormatVersion = z.strictObject({
  format: z.enum(SBOM_FORMATS, { error: `must be one of ${SBOM_FORMATS.join(", ")}` }).optional(),
  cyclonedxVersion: z.enum(SBOM_CYCLONEDX_VERSIONS, { error: `must be one of ${SBOM_CYCLONEDX_VERSIONS.join(", ")}` }).optional(),
});
export type SbomFormatVersion = z.output<typeof sbomFormatVersion>;

/** The format the service uses when `format` is unset (the OpenAPI's default). */
export const DEFAULT_SBOM_FORMAT: SbomFormat = "SBOM_FORMAT_CYCLONEDX";

/** What the service produces when `cyclonedxVersion` is unset (the OpenAPI: "Defaults to 1.4 when unset"). */
export const DEFAULT_CYCLONEDX_VERSION: SbomCycloneDxVersion = "SBOM_CYCLONE_DX_VERSION_V1_4";

/** The CycloneDX specification version a value names: `SBOM_CYCLONE_DX_VERSION_V1_5` → `"1.5"`. */
export function cyclonedxSpecVersion(value: SbomCycloneDxVersion): string {
  return value.replace(/^SBOM_CYCLONE_DX_VERSION_V(\d+)_(\d+)$/, "$1.$2");
}

/** The value naming a specification version (`"1.5"` → `SBOM_CYCLONE_DX_VERSION_V1_5`), if the service supports it. */
export function cyclonedxVersionOf(specVersion: string): SbomCycloneDxVersion | undefined {
  return SBOM_CYCLONEDX_VERSIONS.find((value) => cyclonedxSpecVersion(value) === specVersion);
}

export const createSbomExportRequest = z.strictObject({
  deploymentId: z.string().optional(),
  repositoryId: numericId,
  ref: sbomRef,
  formatVersion: sbomFormatVersion.optional(),
  sbomOutputFormat: z.enum(SBOM_OUTPUT_FORMATS).optional(),
  metadataComponentType: z.enum(SBOM_METADATA_COMPONENT_TYPES).optional(),
  metadataSupplier: z
    .strictObject({
      name: z.string().optional(),
      url: z.string().optional(),
      contact: z.strictObject({ name: z.string().optional(), email: z.string().optional(), phone: z.string().optional() }).optional(),
    })
    .optional(),
});
export type CreateSbomExportRequest = z.input<typeof createSbomExportRequest>;

export const createSbomExportResponse = z.looseObject({ taskToken: z.string().min(1) });
export type CreateSbomExportResponse = z.output<typeof createSbomExportResponse>;

export const sbomExportStatus = z.looseObject({
  status: openEnum(SBOM_EXPORT_STATUSES),
  downloadUrl: z.string().nullish(),
  errorMessage: z.string().nullish(),
});
export type SbomExportStatusResult = z.output<typeof sbomExportStatus>;

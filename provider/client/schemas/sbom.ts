/** SBOM export: start a job (operation 13) and read its status (live-service extra). */
import { z } from "zod";
import { numericId, openEnum } from "./common";
import { SBOM_EXPORT_STATUSES, SBOM_FORMATS, SBOM_METADATA_COMPONENT_TYPES, SBOM_OUTPUT_FORMATS } from "./enums";

/** `refs/heads/<branch>` or `refs/pull/<number>/merge`. */
export const sbomRef = z
  .string()
  .regex(
    /^(refs\/heads\/[^\s~^:?*[\\]+|refs\/pull\/\d+\/merge)$/,
    "must be refs/heads/<branch> or refs/pull/<number>/merge",
  );

export const createSbomExportRequest = z.strictObject({
  deploymentId: z.string().optional(),
  repositoryId: numericId,
  ref: sbomRef,
  formatVersion: z
    .strictObject({
      format: z.enum(SBOM_FORMATS),
      version: z.string().regex(/^\d+\.\d+$/, "must be <major>.<minor>, e.g. 1.5"),
    })
    .optional(),
  sbomOutputFormat: z.enum(SBOM_OUTPUT_FORMATS).optional(),
  metadataComponentType: z.enum(SBOM_METADATA_COMPONENT_TYPES).optional(),
  metadataSupplier: z
    .strictObject({
      name: z.string().optional(),
      url: z.string().optional(),
      contact: z
        .strictObject({ name: z.string().optional(), email: z.string().optional(), phone: z.string().optional() })
        .optional(),
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

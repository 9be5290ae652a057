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
 * 1.4. The older `version: "1.5"` string is gone from Semgrep's OpenAPI (see
 * {@link anySbomFormatVersion}); the client never sends it.
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

const SUPPORTED = SBOM_CYCLONEDX_VERSIONS.map(cyclonedxSpecVersion).join(", ");

/** `formatVersion` in the `cyclonedxVersion` spelling, or why its deprecated `version` does not translate. */
export function translateFormatVersion({
  version,
  ...rest
}: Record<string, unknown>): { value: Record<string, unknown> } | { problem: string } {
  if (version === undefined) return { value: rest };
  const named = typeof version === "string" ? cyclonedxVersionOf(version) : undefined;
  if (named === undefined) {
    return {
      problem:
        `must be a CycloneDX version the service supports: one of ${SUPPORTED} ` +
        '(deprecated: give cyclonedxVersion, e.g. "SBOM_CYCLONE_DX_VERSION_V1_5")',
    };
  }
  if (rest.cyclonedxVersion !== undefined && rest.cyclonedxVersion !== named) {
    return {
      problem: "names another version than formatVersion.cyclonedxVersion: give only cyclonedxVersion (version is its deprecated spelling)",
    };
  }
  return { value: { ...rest, cyclonedxVersion: named } };
}

/**
 * `formatVersion` in either spelling: `{format?, cyclonedxVersion?}`, or the deprecated
 * `version` ("1.4" to "1.7"; the first v1 description's `"1.5"`, still in Semgrep's SDK of 2026-07,
 * which the live service still takes: docs/live-service.md, "SBOM export"), returned in the `cyclonedxVersion` spelling. What the SbomExport
 * resource and the emulator take; the client sends only {@link sbomFormatVersion}.
 */
export const anySbomFormatVersion = sbomFormatVersion
  .extend({ version: z.string({ error: `must be a string, one of ${SUPPORTED}` }).optional() })
  .transform((given, ctx): SbomFormatVersion => {
    const translated = translateFormatVersion(given);
    if ("problem" in translated) {
      ctx.addIssue({ code: "custom", path: ["version"], message: translated.problem });
      return z.NEVER;
    }
    // `given` passed the schema, and the translation only puts a supported value in cyclonedxVersion.
    return translated.value as SbomFormatVersion;
  });

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

/** An SBOM export request as the service reads it: `formatVersion` in either spelling ({@link anySbomFormatVersion}). */
export const createSbomExportAsRead = createSbomExportRequest.extend({ formatVersion: anySbomFormatVersion.optional() });

export const createSbomExportResponse = z.looseObject({ taskToken: z.string().min(1) });
export type CreateSbomExportResponse = z.output<typeof createSbomExportResponse>;

export const sbomExportStatus = z.looseObject({
  status: openEnum(SBOM_EXPORT_STATUSES),
  downloadUrl: z.string().nullish(),
  errorMessage: z.string().nullish(),
});
export type SbomExportStatusResult = z.output<typeof sbomExportStatus>;

/** SbomExport, declared once: see declare.ts. */
import { z } from "zod";
import { anySbomFormatVersion, createSbomExportRequest } from "../../client/schemas";
import type { SbomCycloneDxVersion, SbomFormat } from "../../client/schemas/enums";
import { id } from "./inputs";
import { defineKind, input, output, typedInput } from "./declare";
import { sameFormatVersion } from "./sbom-format-version";

/**
 * The SBOM's format and CycloneDX version, e.g.
 * `{ format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" }`.
 * Leaving a field out asks for the service's default, and is the same export as writing the
 * default out: changing one into the other starts no new export.
 */
export interface SbomFormatVersionArgs {
  /** `SBOM_FORMAT_CYCLONEDX`, the only format (and the default). */
  format?: SbomFormat;
  /** The CycloneDX schema version, `SBOM_CYCLONE_DX_VERSION_V1_4` to `_V1_7`; the service produces 1.4 when unset. */
  cyclonedxVersion?: SbomCycloneDxVersion;
  /**
   * The CycloneDX version as `"1.4"` to `"1.7"`, as the API took it before.
   * @deprecated Give `cyclonedxVersion` (`"1.5"` is `SBOM_CYCLONE_DX_VERSION_V1_5`): the API no
   * longer takes `version`. It still works, with a warning, and is sent as `cyclonedxVersion`;
   * changing one spelling into the other starts no new export.
   */
  version?: string;
}

/** `formatVersion` in the outputs: the `cyclonedxVersion` spelling, whichever the program used. */
export interface SbomFormatVersionOutput {
  /** The format asked for; unset means the service's default, CycloneDX. */
  format?: SbomFormat;
  /** The CycloneDX version asked for; unset means the service's default, 1.4. */
  cyclonedxVersion?: SbomCycloneDxVersion;
}

/** Who supplies the SBOM's subject, as CycloneDX's `metadata.supplier` records it. */
export interface SbomMetadataSupplierArgs {
  /** The supplier's name, e.g. `"Acme Corp"`. */
  name?: string;
  /** The supplier's web address. */
  url?: string;
  /** A person to contact at the supplier. */
  contact?: {
    /** The contact's name. */
    name?: string;
    /** The contact's e-mail address. */
    email?: string;
    /** The contact's phone number. */
    phone?: string;
  };
}

const request = createSbomExportRequest.shape;
/** Every input identifies the export: a change starts a new one. */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const exportInput = <S extends z.ZodType>(schema: S) => input(schema, { replaces: true, equal: sameJson });

export const sbomExportKind = defineKind({
  kind: "SbomExport",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. */
    deploymentId: exportInput(id("deployment")),
    /** Numeric id of the repository to export for. */
    repositoryId: exportInput(id("repository")),
    /** `refs/heads/<branch>` or `refs/pull/<number>/merge`. */
    ref: exportInput(request.ref),
    /** Format and CycloneDX version: `{ format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" }`. */
    formatVersion: typedInput<SbomFormatVersionArgs | undefined>()(anySbomFormatVersion.optional(), {
      replaces: true,
      equal: sameFormatVersion,
    }),
    /** `SBOM_OUTPUT_FORMAT_JSON` or `SBOM_OUTPUT_FORMAT_CYCLONEDX`. */
    sbomOutputFormat: exportInput(request.sbomOutputFormat),
    /** The CycloneDX 1.5 type of the SBOM's subject, e.g. `SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_APPLICATION`. */
    metadataComponentType: exportInput(request.metadataComponentType),
    /** Who supplies the component: `{ name?, url?, contact?: { name?, email?, phone? } }`. */
    metadataSupplier: typedInput<SbomMetadataSupplierArgs | undefined>()(request.metadataSupplier, { replaces: true, equal: sameJson }),
    /** Any values whose change should start a new export (e.g. a release version). */
    triggers: exportInput(
      z
        .union([z.array(z.string()), z.record(z.string(), z.string())], { error: "must be a list of strings or a map of strings" })
        .optional(),
    ),
  },
  outputs: {
    /** The export job's token. */
    taskToken: output<string>(),
    /** The job's status, where the service's status endpoint answers. */
    status: output<string | undefined>(),
    /** Where to download the SBOM once the job completed, where the service says. */
    downloadUrl: output<string | null | undefined>(),
    /** The format and version asked for, in the `cyclonedxVersion` spelling (state of an older build takes it at its next refresh). */
    formatVersion: output<SbomFormatVersionOutput | undefined>(),
  },
  id: {
    format: "<deploymentId>/<taskToken> (exports created by an earlier release keep the bare <taskToken>, which `get` does not take)",
    parse: (text) => {
      const [deploymentId, taskToken, ...rest] = text.split("/");
      return taskToken && rest.length === 0 && /^\d+$/.test(deploymentId!) ? { deploymentId } : undefined;
    },
  },
  service: {
    create: "Starts an export job (one request) and asks for its status where the service's status endpoint answers.",
    update: "Every input replaces the resource: a change starts a new export, the old job is only forgotten.",
    delete: "Makes no request: an export job cannot be deleted; the resource only forgets it.",
    read: "Asks for the job's status where the service's status endpoint answers.",
    adoption: '`SbomExport.get(name, "<deploymentId>/<taskToken>")` reads an export job that exists, by its token.',
  },
});

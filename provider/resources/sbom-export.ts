import * as pulumi from "@pulumi/pulumi";
import type { SbomCycloneDxVersion, SbomFormat, SbomMetadataComponentType, SbomOutputFormat } from "../client/schemas/enums";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/SbomExport";

/**
 * The SBOM's format and CycloneDX version, e.g.
 * `{ format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" }`.
 * Leaving a field out asks for the service's default, and is the same export as writing the
 * default out: changing one into the other starts no new export.
 */
export interface SbomFormatVersionArgs {
  /** `SBOM_FORMAT_CYCLONEDX`, the only format (and the default). */
  format?: pulumi.Input<SbomFormat>;
  /** The CycloneDX schema version, `SBOM_CYCLONE_DX_VERSION_V1_4` to `_V1_7`; the service produces 1.4 when unset. */
  cyclonedxVersion?: pulumi.Input<SbomCycloneDxVersion>;
  /**
   * The CycloneDX version as `"1.4"` to `"1.7"`, as the API took it before.
   * @deprecated Give `cyclonedxVersion` (`"1.5"` is `SBOM_CYCLONE_DX_VERSION_V1_5`): the API no
   * longer takes `version`. It still works, with a warning, and is sent as `cyclonedxVersion`;
   * changing one spelling into the other starts no new export.
   */
  version?: pulumi.Input<string>;
}

/** `formatVersion` in the outputs: the `cyclonedxVersion` spelling, whichever the program used. */
export interface SbomFormatVersionOutput {
  format?: SbomFormat;
  cyclonedxVersion?: SbomCycloneDxVersion;
}

export interface SbomExportArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: pulumi.Input<string | number>;
  /** Numeric id of the repository to export for. */
  repositoryId: pulumi.Input<string | number>;
  /** `refs/heads/<branch>` or `refs/pull/<number>/merge`. */
  ref: pulumi.Input<string>;
  /** Format and CycloneDX version: `{ format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" }`. */
  formatVersion?: pulumi.Input<SbomFormatVersionArgs>;
  sbomOutputFormat?: pulumi.Input<SbomOutputFormat>;
  metadataComponentType?: pulumi.Input<SbomMetadataComponentType>;
  metadataSupplier?: pulumi.Input<{
    name?: pulumi.Input<string>;
    url?: pulumi.Input<string>;
    contact?: pulumi.Input<{ name?: pulumi.Input<string>; email?: pulumi.Input<string>; phone?: pulumi.Input<string> }>;
  }>;
  /** Any values whose change should start a new export (e.g. a release version). */
  triggers?: pulumi.Input<pulumi.Input<string>[] | Record<string, pulumi.Input<string>>>;
}

/**
 * An SBOM export job, started when the resource is created and again whenever an input
 * (`triggers` included) changes.
 *
 * @example
 * ```ts
 * import { SbomExport } from "pulumi-semgrep";
 *
 * const sbom = new SbomExport("web-app-release", {
 *   deploymentId: "1",
 *   repositoryId: "101",
 *   ref: "refs/heads/main",
 *   formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" },
 *   sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON",
 *   triggers: ["v2.4.0"],
 * });
 * export const sbomTask = sbom.taskToken;
 * ```
 */
export class SbomExport extends pulumi.dynamic.Resource {
  /** The export job's token. */
  declare readonly taskToken: pulumi.Output<string>;
  /** The job's status, where the service's status endpoint answers. */
  declare readonly status: pulumi.Output<string | undefined>;
  /** Where to download the SBOM once the job completed, where the service says. */
  declare readonly downloadUrl: pulumi.Output<string | undefined>;
  declare readonly deploymentId: pulumi.Output<string>;
  declare readonly repositoryId: pulumi.Output<string>;
  declare readonly ref: pulumi.Output<string>;
  /** The format and version asked for, in the `cyclonedxVersion` spelling (state of an older build takes it at its next refresh). */
  declare readonly formatVersion: pulumi.Output<SbomFormatVersionOutput | undefined>;

  constructor(name: string, args: SbomExportArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...args, taskToken: undefined, status: undefined, downloadUrl: undefined, ...metaInputs("SbomExport", name, args, opts) },
      resourceOptions("SbomExport", name, args, opts),
      TYPE_MODULE,
      "SbomExport",
    );
  }
}

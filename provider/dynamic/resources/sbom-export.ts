import type { ArgsOf } from "../../core/kinds/declare";
import { sbomExportKind } from "../../core/kinds";
import provider from "../shims/SbomExport";
import { type ResourceClass, resourceClass } from "./resource-class";
export type { SbomFormatVersionArgs, SbomFormatVersionOutput, SbomMetadataSupplierArgs } from "../../core/kinds/sbom-export";

/** Arguments of a {@link SbomExport}. */
export type SbomExportArgs = ArgsOf<typeof sbomExportKind>;

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
export const SbomExport: ResourceClass<typeof sbomExportKind> = resourceClass(sbomExportKind, provider);
export type SbomExport = InstanceType<typeof SbomExport>;

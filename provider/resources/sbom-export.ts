import * as pulumi from "@pulumi/pulumi";
import type { SbomMetadataComponentType, SbomOutputFormat } from "../client/schemas/enums";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";
import provider from "../shims/SbomExport";

export interface SbomExportArgs {
  /** Numeric id of the deployment, e.g. `"1"`. */
  deploymentId: pulumi.Input<string | number>;
  /** Numeric id of the repository to export for. */
  repositoryId: pulumi.Input<string | number>;
  /** `refs/heads/<branch>` or `refs/pull/<number>/merge`. */
  ref: pulumi.Input<string>;
  /** e.g. `{ format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" }`. */
  formatVersion?: pulumi.Input<{ format: pulumi.Input<"SBOM_FORMAT_CYCLONEDX">; version: pulumi.Input<string> }>;
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
 *   formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" },
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

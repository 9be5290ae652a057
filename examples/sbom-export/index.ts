// An SBOM export, started again whenever the release version changes.
import * as pulumi from "@pulumi/pulumi";
import { SbomExport } from "pulumi-semgrep";

const release = new pulumi.Config().get("release") ?? "2026.11.0";

const sbom = new SbomExport("payments-api", {
  deploymentId: "1",
  repositoryId: "102",
  ref: "refs/heads/main",
  formatVersion: { format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5" },
  sbomOutputFormat: "SBOM_OUTPUT_FORMAT_JSON",
  metadataComponentType: "SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_APPLICATION",
  metadataSupplier: { name: "Acme Corp", contact: { email: "appsec@acme.example" } },
  triggers: [release],
});

export const taskToken = sbom.taskToken;
export const status = sbom.status;

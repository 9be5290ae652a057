/**
 * SbomExport in the provider process: starts an export job on create. Any change of its inputs,
 * `triggers` included, replaces it, which starts a new export; `formatVersion` changes only when
 * the export it asks for does (see sbom-format-version.ts). Delete only forgets the job.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { APIError, type SbomExportStatusResult } from "../client";
import { createSbomExportRequest } from "../client/schemas";
import type { Props } from "./check";
import { apiClient } from "./credentials";
import { diffDeclared, type FieldRule } from "./diff";
import { id } from "./inputs";
import { about } from "./lookup";
import { checkResource, metaChanged, metaOutputs, withoutMeta } from "./resource-meta";
import { formatVersionInput, sameFormatVersion, warnDeprecatedVersion, withNormalizedFormatVersion } from "./sbom-format-version";

const request = createSbomExportRequest.omit({ deploymentId: true, repositoryId: true });

export const inputs = request.extend({
  deploymentId: id("deployment"),
  repositoryId: id("repository"),
  formatVersion: formatVersionInput.optional(),
  triggers: z
    .union([z.array(z.string()), z.record(z.string(), z.string())], { error: "must be a list of strings or a map of strings" })
    .optional(),
});
type Inputs = z.output<typeof inputs>;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every input identifies the export. `diff` also asks `equal` about an input dropped from the program. */
const FIELDS = [
  "deploymentId",
  "repositoryId",
  "ref",
  "formatVersion",
  "sbomOutputFormat",
  "metadataComponentType",
  "metadataSupplier",
  "triggers",
].map((name) => ({ name, replaces: true, equal: name === "formatVersion" ? sameFormatVersion : sameJson }) satisfies FieldRule);

const subject = (props: Props) => `SbomExport of repository ${String(props.repositoryId)} at ${String(props.ref)}`;

/** The job's status where the live service's status endpoint answers; nothing where it does not. */
async function status(deploymentId: string, taskToken: string): Promise<Partial<SbomExportStatusResult>> {
  try {
    const { status: state, downloadUrl } = await apiClient().sbom.getExport(deploymentId, taskToken);
    return { status: state, downloadUrl: downloadUrl ?? null };
  } catch (error) {
    if (error instanceof APIError && (error.status === 404 || error.status === 405 || error.status === 501)) return {};
    throw error;
  }
}

export const sbomExport = {
  check: async (_olds: Props, news: Props) => {
    await warnDeprecatedVersion(news);
    return checkResource("SbomExport", inputs, news);
  },

  diff: async (_id: string, olds: Props, news: Props) => {
    // An input dropped from the program is a change too, unless leaving it out asks for the same
    // export (an unset formatVersion is the service's default, CycloneDX 1.4).
    const dropped = FIELDS.filter((f) => news[f.name] === undefined && olds[f.name] !== undefined && !f.equal(olds[f.name], undefined)).map(
      (f) => f.name,
    );
    const result = diffDeclared(olds, news, FIELDS);
    const replaces = [...(result.replaces ?? []), ...dropped];
    // A dropped input replaces, so it is no longer stable.
    const stables = (result.stables ?? []).filter((name) => !dropped.includes(name));
    return {
      ...result,
      changes: result.changes || dropped.length > 0 || metaChanged(olds, news),
      replaces,
      stables,
      deleteBeforeReplace: false,
    };
  },

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(subject(declared), async () => {
      const { deploymentId, triggers: _triggers, ...body } = withoutMeta(declared) as Inputs;
      const { taskToken } = await apiClient().sbom.createExport(deploymentId, body);
      return { id: taskToken, outs: { ...declared, ...metaOutputs(props), taskToken, ...(await status(deploymentId, taskToken)) } };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(subject(props), async () => ({
      id,
      props: { ...withNormalizedFormatVersion(props), ...(await status(props.deploymentId as string, id)) },
    })),

  // Every input replaces the resource, so update only ever sees a change of the metadata.
  update: async (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => ({
    outs: { ...withNormalizedFormatVersion(olds), ...news },
  }),

  delete: async (): Promise<void> => {},
};

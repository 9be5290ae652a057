/**
 * SbomExport in the provider process: starts an export job on create. Any change of its inputs,
 * `triggers` included, replaces it, which starts a new export. Delete only forgets the job.
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

const request = createSbomExportRequest.omit({ deploymentId: true, repositoryId: true });

export const inputs = request.extend({
  deploymentId: id("deployment"),
  repositoryId: id("repository"),
  triggers: z.union([z.array(z.string()), z.record(z.string(), z.string())], { error: "must be a list of strings or a map of strings" }).optional(),
});
type Inputs = z.output<typeof inputs>;

const FIELDS: FieldRule[] = [
  "deploymentId",
  "repositoryId",
  "ref",
  "formatVersion",
  "sbomOutputFormat",
  "metadataComponentType",
  "metadataSupplier",
  "triggers",
].map((name) => ({ name, replaces: true, equal: (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b) }));

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
  check: (_olds: Props, news: Props) => checkResource("SbomExport", inputs, news),

  diff: async (_id: string, olds: Props, news: Props) => {
    // Every input identifies the export; an input dropped from the program is a change too.
    const dropped = FIELDS.filter((f) => news[f.name] === undefined && olds[f.name] !== undefined).map((f) => f.name);
    const result = diffDeclared(olds, news, FIELDS);
    const replaces = [...(result.replaces ?? []), ...dropped];
    return { ...result, changes: result.changes || dropped.length > 0 || metaChanged(olds, news), replaces, deleteBeforeReplace: false };
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
    about(subject(props), async () => ({ id, props: { ...props, ...(await status(props.deploymentId as string, id)) } })),

  // Every input replaces the resource, so update only ever sees a change of the metadata.
  update: async (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => ({ outs: { ...olds, ...news } }),

  delete: async (): Promise<void> => {},
};

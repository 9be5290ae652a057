/**
 * SbomExport in the provider process: starts an export job on create. Any change of its inputs,
 * `triggers` included, replaces it, which starts a new export; `formatVersion` changes only when
 * the export it asks for does (see provider/core/kinds/sbom-format-version.ts). Delete only forgets the job.
 */
import { APIError } from "../../client";
import { fieldRules, type sbomExportKind } from "../kinds";
import { withNormalizedFormatVersion } from "../kinds/sbom-format-version";
import type { Props } from "../runtime/check";
import { apiClient } from "../runtime/credentials";
import { diffDeclared } from "../runtime/diff";
import { declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about } from "../runtime/lookup";
import { checkKindInputs } from "../runtime/owned";
import { warnDeprecatedVersion } from "./sbom-format-warning";

const KIND = "SbomExport";
type Kind = typeof sbomExportKind;
const outputs = declaredOutputs<Kind>();

const subject = (props: Props) => `SbomExport of repository ${String(props.repositoryId)} at ${String(props.ref)}`;

/** The job's status where the live service's status endpoint answers; nothing where it does not. */
async function status(deploymentId: string, taskToken: string): Promise<Pick<Outputs<Kind>, "status" | "downloadUrl">> {
  try {
    const { status: state, downloadUrl } = await apiClient().sbom.getExport(deploymentId, taskToken);
    return { status: state, downloadUrl: downloadUrl ?? null };
  } catch (error) {
    if (error instanceof APIError && (error.status === 404 || error.status === 405 || error.status === 501)) return { status: undefined };
    throw error;
  }
}

/**
 * The job's token. The id is `<deploymentId>/<taskToken>`; resources created before 0.2 have the
 * bare token as their id, and `taskToken` in their state.
 */
const taskTokenOf = (id: string, props: Props) => (typeof props.taskToken === "string" ? props.taskToken : id.slice(id.indexOf("/") + 1));

export const sbomExport: Handler<Kind> = {
  check: async (_olds, news, ctx) => {
    await warnDeprecatedVersion(ctx, news);
    return checkKindInputs(ctx, news);
  },

  diff: async (_id, olds, news) => {
    // An input dropped from the program is a change too, unless leaving it out asks for the same
    // export (an unset formatVersion is the service's default, CycloneDX 1.4).
    const fields = fieldRules(KIND);
    const dropped = fields
      .filter(
        (f) => news[f.name as keyof typeof news] === undefined && olds[f.name] !== undefined && !f.equal?.(olds[f.name], undefined, olds),
      )
      .map((f) => f.name);
    const result = diffDeclared(olds, news, fields);
    const replaces = [...(result.replaces ?? []), ...dropped];
    // A dropped input replaces, so it is no longer stable.
    const stables = (result.stables ?? []).filter((name) => !dropped.includes(name));
    return {
      ...result,
      changes: result.changes || dropped.length > 0,
      replaces,
      stables,
      deleteBeforeReplace: false,
    };
  },

  create: (declared) =>
    about(subject(declared), async () => {
      const { deploymentId, triggers: _triggers, ...body } = declared;
      const { taskToken } = await apiClient().sbom.createExport(deploymentId, body);
      return {
        id: `${deploymentId}/${taskToken}`,
        outs: outputs({ ...declared, taskToken, ...(await status(deploymentId, taskToken)) }),
      };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const taskToken = taskTokenOf(id, props);
      return { id, props: { ...withNormalizedFormatVersion(props), taskToken, ...(await status(String(props.deploymentId), taskToken)) } };
    }),

  // Every input replaces the resource, so update only ever sees a change of the resource's name or secrets (dispatch.ts).
  update: async (id, olds, news) => {
    const kept = withNormalizedFormatVersion(olds) as typeof olds;
    return {
      outs: {
        ...news,
        taskToken: taskTokenOf(id, olds),
        status: olds.status,
        downloadUrl: olds.downloadUrl,
        formatVersion: news.formatVersion ?? kept.formatVersion,
      },
    };
  },

  delete: async () => {},
};

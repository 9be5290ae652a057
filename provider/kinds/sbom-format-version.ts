/**
 * SbomExport's `formatVersion`. Semgrep's OpenAPI spells it `{format, cyclonedxVersion}`
 * (`SBOM_CYCLONE_DX_VERSION_V1_5`); programs and state written before it say `{format, version:
 * "1.5"}`. Both spellings are accepted, stored as the first, and compared by the export they ask
 * for, so that re-spelling a program or upgrading the package starts no new export. The warning
 * about the old spelling: provider/dynamic/sbom-format-version.ts.
 */
import { z } from "zod";
import {
  cyclonedxSpecVersion,
  cyclonedxVersionOf,
  DEFAULT_CYCLONEDX_VERSION,
  DEFAULT_SBOM_FORMAT,
  SBOM_CYCLONEDX_VERSIONS,
  type SbomFormatVersion,
  sbomFormatVersion,
} from "../client/schemas";
import type { Props } from "../dynamic/check";
import { isRecord } from "../dynamic/diff";

const SUPPORTED = SBOM_CYCLONEDX_VERSIONS.map(cyclonedxSpecVersion).join(", ");

/** `formatVersion` in the `cyclonedxVersion` spelling, or why its deprecated `version` does not translate. */
export function translate({ version, ...rest }: Props): { value: Props } | { problem: string } {
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
 * The input: `{format?, cyclonedxVersion?}`, or the deprecated `version` ("1.4" to "1.7"),
 * returned in the `cyclonedxVersion` spelling (what the service takes and the state keeps).
 */
export const formatVersionInput = sbomFormatVersion
  .extend({ version: z.string({ error: `must be a string, one of ${SUPPORTED}` }).optional() })
  .transform((given, ctx): SbomFormatVersion => {
    const translated = translate(given);
    if ("problem" in translated) {
      ctx.addIssue({ code: "custom", path: ["version"], message: translated.problem });
      return z.NEVER;
    }
    // `given` passed the schema, and translate only puts a supported value in cyclonedxVersion.
    return translated.value as SbomFormatVersion;
  });

/** A stored `formatVersion` (state of older builds holds `version: "1.5"`) in the `cyclonedxVersion` spelling, where it translates. */
function normalized(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const translated = translate(value);
  return "value" in translated ? translated.value : value;
}

/** Properties (outputs) with `formatVersion` in the `cyclonedxVersion` spelling. */
export function withNormalizedFormatVersion(props: Props): Props {
  return props.formatVersion === undefined ? props : { ...props, formatVersion: normalized(props.formatVersion) };
}

/** The export a `formatVersion` asks for: either spelling, with the service's defaults (CycloneDX 1.4) for what is unset. */
function effective(value: unknown): string {
  const given = normalized(value ?? {});
  if (!isRecord(given)) return JSON.stringify(given);
  const { format = DEFAULT_SBOM_FORMAT, cyclonedxVersion = DEFAULT_CYCLONEDX_VERSION, ...rest } = given;
  return JSON.stringify({ format, cyclonedxVersion, ...rest });
}

/**
 * Whether two `formatVersion`s ask for the same export: `{version: "1.5"}` equals
 * `{cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5"}`, and unset equals what the service
 * defaults to (format CycloneDX, version 1.4), so writing a default out or leaving it out starts
 * no new export.
 */
export function sameFormatVersion(a: unknown, b: unknown): boolean {
  return effective(a) === effective(b);
}

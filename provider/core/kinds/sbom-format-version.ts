/**
 * SbomExport's `formatVersion`. Semgrep's OpenAPI spells it `{format, cyclonedxVersion}`
 * (`SBOM_CYCLONE_DX_VERSION_V1_5`); programs and state written before it say `{format, version:
 * "1.5"}`. Both spellings are accepted, stored as the first, and compared by the export they ask
 * for, so that re-spelling a program or upgrading the package starts no new export. The input's
 * schema is the client's `anySbomFormatVersion` (the emulator takes both spellings too); the
 * warning about the old spelling: provider/core/handlers/sbom-format-warning.ts.
 */
import { DEFAULT_CYCLONEDX_VERSION, DEFAULT_SBOM_FORMAT, translateFormatVersion } from "../../client/schemas";
import type { Props } from "../runtime/check";
import { isRecord } from "../runtime/diff";

/** A stored `formatVersion` (state of older builds holds `version: "1.5"`) in the `cyclonedxVersion` spelling, where it translates. */
function normalized(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const translated = translateFormatVersion(value);
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

/** The warning given while a program spells SbomExport's `formatVersion` the deprecated way (see provider/core/kinds/sbom-format-version.ts). */
import { translateFormatVersion } from "../../client/schemas";
import { containsUnknown, type Props } from "../runtime/check";
import { isRecord } from "../runtime/diff";
import { notifyOnce } from "../runtime/notices";
import type { CallContext } from "../runtime/call-context";

/**
 * Warns (at `check`, so on every preview and update while the program says it) that the program
 * gives the deprecated `formatVersion.version`, with the spelling to write instead. One that
 * does not translate warns nothing: `check` refuses it.
 */
export function warnDeprecatedVersion(ctx: CallContext, props: Props): Promise<void> {
  const given = props.formatVersion;
  if (!isRecord(given) || typeof given.version !== "string" || containsUnknown(given)) return Promise.resolve();
  const translated = translateFormatVersion(given);
  if (!("value" in translated)) return Promise.resolve();
  const respelling = ctx.secret("formatVersion")
    ? "cyclonedxVersion in place of version"
    : `cyclonedxVersion: "${String(translated.value.cyclonedxVersion)}" in place of version: "${given.version}"`;
  const message =
    `${ctx.owner ? ctx.name : "An SbomExport"}: formatVersion.version is deprecated ` +
    "(Semgrep's API takes formatVersion.cyclonedxVersion); " +
    `write ${respelling}. Changing only the spelling starts no new export.`;
  // The engine checks a replaced resource twice in one run: say it once.
  return notifyOnce(message, "warning", message);
}

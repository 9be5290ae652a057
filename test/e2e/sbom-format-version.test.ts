/**
 * SbomExport's `formatVersion` through the real CLI (issue 9): the deprecated `version: "1.5"`
 * warns and is sent as the OpenAPI's `cyclonedxVersion`; re-spelling the program, or upgrading
 * under state an older build wrote with `version` in it, starts no second export.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, type ProgramWorkspace, programWorkspace } from "../support/program";

const V1_5 = "SBOM_CYCLONE_DX_VERSION_V1_5";
const sbomProgram = (formatVersion: string) =>
  program(
    `new semgrep.SbomExport("release", { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main", formatVersion: ${formatVersion} });`,
  );
const LEGACY = sbomProgram(`{ format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" }`);
const CURRENT = sbomProgram(`{ format: "SBOM_FORMAT_CYCLONEDX", cyclonedxVersion: "${V1_5}" }`);
const WARNING =
  'warning: SbomExport "release": formatVersion.version is deprecated (Semgrep\'s API takes formatVersion.cyclonedxVersion); ' +
  `write cyclonedxVersion: "${V1_5}" in place of version: "1.5". Changing only the spelling starts no new export.`;

const emulators = useEmulators({ preset: "demo" });
let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await emulators.start();
});

const exportsStarted = () => emulator.requests().filter((r) => r.operation === "sbom.createExport").length;

/** Rewrites the stack's state as a build before `cyclonedxVersion` wrote it: `{format, version: "1.5"}` in inputs and outputs. */
async function writeOldState(workspace: ProgramWorkspace): Promise<void> {
  const state = JSON.parse(await workspace.exported());
  for (const resource of state.deployment.resources) {
    if (resource.type !== "pulumi-nodejs:dynamic/semgrep:SbomExport") continue;
    for (const props of [resource.inputs, resource.outputs]) props.formatVersion = { format: "SBOM_FORMAT_CYCLONEDX", version: "1.5" };
  }
  const file = join(workspace.dir, "..", "state-old-spelling.json");
  writeFileSync(file, JSON.stringify(state));
  await workspace.run(["stack", "import", "--file", file]);
}

describe("SbomExport formatVersion through the CLI", () => {
  it("quotes no value of a formatVersion given as a secret, in the warning or in a check error", async () => {
    const workspace = await programWorkspace(emulator, sbomProgram(`pulumi.secret({ version: "1.6" })`));
    const up = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(up).toContain("write cyclonedxVersion in place of version. Changing only the spelling starts no new export.");
    workspace.write(sbomProgram(`pulumi.secret({ version: "9.9-SECRETVAL" })`));
    const refused = await workspace.run(["preview"], { allowFailure: true });
    expect(refused.status).not.toBe(0);
    expect(printed(refused)).toContain("must be a CycloneDX version the service supports");
    expect(printed(refused)).not.toContain("SECRETVAL");
    expect(printed(refused) + up).not.toContain('"1.6"');
  }, 120_000);

  it('warns about version: "1.5", sends cyclonedxVersion, and starts no second export once the program is re-spelled', async () => {
    const workspace = await programWorkspace(emulator, LEGACY);
    const up = printed(await workspace.run(["up", "--yes"]));
    expect(up).toContain(WARNING);
    expect(exportsStarted()).toBe(1);
    expect(emulator.state().sbomExports[0]?.request.formatVersion).toStrictEqual({
      format: "SBOM_FORMAT_CYCLONEDX",
      cyclonedxVersion: V1_5,
    });
    expect((await workspace.resources()).release!.outputs.formatVersion).toStrictEqual({
      format: "SBOM_FORMAT_CYCLONEDX",
      cyclonedxVersion: V1_5,
    });

    workspace.write(CURRENT);
    const preview = printed(await workspace.run(["preview", "--expect-no-changes"]));
    expect(preview).not.toContain("deprecated");
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(exportsStarted()).toBe(1);

    // A version the service did not export is a new export.
    workspace.write(sbomProgram(`{ cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_6" }`));
    const changed = await workspace.run(["preview", "--expect-no-changes"], { allowFailure: true });
    expect(changed.status).not.toBe(0);
    expect(printed(changed)).toMatch(/1 to replace/);
  }, 240_000);

  it('reads state an older build wrote with version: "1.5" as the same export, whichever the program\'s spelling', async () => {
    const workspace = await programWorkspace(emulator, CURRENT);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await writeOldState(workspace);

    await workspace.run(["preview", "--expect-no-changes"]);
    workspace.write(LEGACY);
    await workspace.run(["preview", "--expect-no-changes"]);
    workspace.write(CURRENT);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(exportsStarted()).toBe(1);

    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    expect((await workspace.resources()).release!.outputs.formatVersion).toStrictEqual({
      format: "SBOM_FORMAT_CYCLONEDX",
      cyclonedxVersion: V1_5,
    });
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(exportsStarted()).toBe(1);
  }, 240_000);
});

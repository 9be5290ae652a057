/**
 * `pulumi import --file` of several objects at once, through the native plugin, where two of the
 * imported resources declare the same field of one object. The guide
 * (docs/guides/other-languages-and-import.md) promises "an import that the stack could not hold is
 * refused before it lands"; the plugin checks each import against the stack's exported state
 * (provider/native/import-refusals.ts), which does not hold the other resources of the same
 * import; so each is also checked against the imports of the file admitted before it. Found by
 * trying issue 34 as a user: a ProjectSettings (whose import declares the whole tag list and both
 * scan switches), a ProjectTags and a ManagedScan of one project, imported in one file, all
 * landed, protected, and the next preview failed on the conflicts. Now the one read first may
 * land (the stack can hold it alone); the others are refused naming it, and nothing is written.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { writesSince } from "../support/emulator";
import { printedWithoutPathWarnings, TYPE_PREFIX, yamlWorkspace } from "../support/yaml-program";

const TOKEN = "import-batch-token-7d2e";

describe("pulumi import --file of resources that declare the same field of one object", { timeout: 240_000 }, () => {
  it("is refused before anything is recorded: a ProjectSettings, a ProjectTags and a ManagedScan of one project", async () => {
    const emulator = await startEmulator({ preset: "demo", token: TOKEN, retryAfterSeconds: 0 });
    try {
      const workspace = await yamlWorkspace("resources: {}\n", {
        config: { "semgrep:url": emulator.url },
        secrets: { "semgrep:token": TOKEN },
      });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      const mark = emulator.requests().length;
      const id = "acme/acme/web-app";
      const file = {
        resources: [
          { type: `${TYPE_PREFIX}ProjectSettings`, name: "web-settings", id },
          { type: `${TYPE_PREFIX}ProjectTags`, name: "web-tags", id },
          { type: `${TYPE_PREFIX}ManagedScan`, name: "web-scans", id },
        ],
      };
      writeFileSync(join(workspace.dir, "imports.json"), JSON.stringify(file));
      const run = await workspace.run(["import", "--file", "imports.json", "--yes", "--out", "imported.yaml"], { allowFailure: true });

      const printed = printedWithoutPathWarnings(run);
      const landed = Object.keys(await workspace.resources());
      expect(landed.length, printed).toBeLessThanOrEqual(1); // the stack holds no two that declare one field
      expect(run.status).not.toBe(0);
      expect(printed).toMatch(/is not imported: an import declares every value the object holds/);
      if (landed.length) expect(printed).toContain(`"${landed[0]}"`); // the refusals name the one admitted
      expect(writesSince(emulator, mark)).toEqual([]);
      // Whatever landed, the next preview holds: nothing conflicts.
      expect((await workspace.run(["preview"], { allowFailure: true })).status, printed).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});

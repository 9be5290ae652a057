/**
 * Five ProjectTags, a ProjectSettings without tags and a ManagedScan on one project, applied with
 * `--parallel 16`: the final tags are exactly the union declared, every time (10 runs).
 */
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { pulumiWorkspace } from "../support/pulumi";

const PROGRAM = `
const semgrep = require("pulumi-semgrep");
const address = { deploymentSlug: "acme", projectName: "acme/mobile-app" };
for (let i = 1; i <= 5; i++) new semgrep.ProjectTags("tags-" + i, { ...address, tags: ["team-" + i, "shared", "owner-" + (i % 2)] });
new semgrep.ProjectSettings("settings", { ...address, primaryBranch: "main" });
new semgrep.ManagedScan("scans", { ...address, diffScan: { enabled: true }, fullScan: { enabled: true } });
`;
const UNION = ["owner-0", "owner-1", "shared", "team-1", "team-2", "team-3", "team-4", "team-5"];

describe("concurrent owners of one project's tags", () => {
  it("end with exactly the union of the declared tags, 10 times out of 10", async () => {
    const emulator = await startEmulator({ preset: "demo", latencyMs: 5 });
    try {
      const project = () => emulator.state().projects.find((p) => p.name === "acme/mobile-app")!;
      const files = {
        "Pulumi.yaml": "name: concurrency\nruntime: nodejs\n",
        "index.js": PROGRAM,
        "package.json": '{"name":"concurrency","main":"index.js"}',
      };
      const workspace = await pulumiWorkspace(
        files,
        { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
        join(inject("installedPackageDir"), "node_modules"),
      );
      for (let run = 1; run <= 10; run++) {
        await workspace.run(["up", "--yes", "--skip-preview", "--parallel", "16"]);
        // With its managed scans switched on, the service adds its system tag; destroy switches them off and it goes.
        expect({ run, tags: [...project().tags].sort() }).toEqual({ run, tags: [...UNION, "managed-scan"].sort() });
        expect(project()).toMatchObject({
          primaryBranch: "refs/heads/main",
          managedScanConfig: { diff_scan: { enabled: true }, full_scan: { enabled: true } },
        });
        await workspace.run(["destroy", "--yes", "--skip-preview", "--parallel", "16"]);
        expect({ run, tags: project().tags }).toEqual({ run, tags: [] });
      }
    } finally {
      await emulator.close();
    }
  }, 600_000);
});

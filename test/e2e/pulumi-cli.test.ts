/**
 * The real Pulumi CLI (built by `npm run pulumi:cli`) runs a dynamic-provider program with a
 * local file backend, against the emulator.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { pulumiCliDir, pulumiWorkspace } from "../support/pulumi";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

// One dynamic resource whose provider adds a tag to a project over HTTP, reading the emulator's
// address and token from the provider process's environment at call time.
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");

const provider = {
  async create(inputs) {
    const url = process.env.SEMGREP_APP_URL + "/api/v1/deployments/acme/projects/" + encodeURIComponent(inputs.project) + "/tags";
    const res = await fetch(url, {
      method: "PUT",
      headers: { authorization: "Bearer " + process.env.SEMGREP_APP_TOKEN, "content-type": "application/json" },
      body: JSON.stringify([inputs.tag]),
    });
    if (!res.ok) throw new Error("tagging failed: " + res.status);
    const { project } = await res.json();
    return { id: inputs.project, outs: { ...inputs, tags: project.tags } };
  },
};

const tagged = new pulumi.dynamic.Resource(provider, "tagged", { project: "acme/web-app", tag: "managed-by:pulumi", tags: undefined });
exports.tags = tagged.tags;
`;

describe("the Pulumi CLI toolchain", () => {
  it("prints its version", () => {
    const version = execFileSync(join(pulumiCliDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
    expect(version).toMatch(/^v3\.\d+\.\d+/);
  });

  it("previews, applies and destroys a one-resource dynamic-provider program", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const workspace = await pulumiWorkspace(
        {
          "Pulumi.yaml": "name: e2e-smoke\nruntime: nodejs\n",
          "index.js": PROGRAM,
          "package.json": '{ "name": "e2e-smoke", "main": "index.js" }',
        },
        { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
      );
      const preview = await workspace.run(["preview"]);
      expect(preview.stdout).toMatch(/\+ 2 to create/);
      expect(emulator.requests()).toHaveLength(0);

      await workspace.run(["up", "--yes", "--skip-preview"]);
      const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as { tags: string[] };
      expect(outputs.tags).toEqual(["team:web", "tier:1", "managed-by:pulumi"]);
      expect(emulator.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 200"]);

      await workspace.run(["preview", "--expect-no-changes"]);
      const destroyed = await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(destroyed.stdout).toMatch(/2 deleted/);
    } finally {
      await emulator.close();
    }
  }, 180_000);
});

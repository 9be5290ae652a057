/**
 * The real Pulumi CLI (built by `npm run pulumi:cli`) runs a one-resource program of the packed
 * package with a local file backend, against the emulator: the toolchain every other CLI test
 * stands on.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../provider/emulator";
import { program, programWorkspace } from "../support/program";
import { pulumiCliDir, pulumiWorkspace } from "../support/pulumi";

const PROGRAM = program(`
const tagged = new semgrep.ProjectTags("tagged", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["managed-by:pulumi"] });
exports.tags = tagged.projectTags;
`);

describe("the Pulumi CLI toolchain", () => {
  it("prints its version", () => {
    const version = execFileSync(join(pulumiCliDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
    expect(version).toMatch(/^v3\.\d+\.\d+/);
  });

  it("runs a YAML program through the YAML language host beside it, with no warning", async () => {
    const workspace = await pulumiWorkspace({ "Pulumi.yaml": "name: yaml\nruntime: yaml\noutputs:\n  greeting: hello\n" });
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(up.stdout + up.stderr).not.toMatch(/warning/i);
    expect(JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout)).toEqual({ greeting: "hello" });
  });

  it("holds the Go language host beside it (Go programs: go-sdk.test.ts)", () => {
    expect(existsSync(join(pulumiCliDir(), "pulumi-language-go"))).toBe(true);
  });

  it("previews, applies and destroys a one-resource program of the installed package", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const workspace = await programWorkspace(emulator, PROGRAM);
      const preview = await workspace.run(["preview"]);
      expect(preview.stdout).toMatch(/\+ 2 to create/);
      expect(emulator.requests()).toHaveLength(0);

      await workspace.run(["up", "--yes", "--skip-preview"]);
      const outputs = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as { tags: string[] };
      // The project's whole set: the service's system tag managed-scan (web-app has managed scans), then the one added.
      expect(outputs.tags).toEqual(["team:web", "tier:1", "managed-scan", "managed-by:pulumi"]);
      expect(
        emulator
          .requests()
          .filter((r) => r.method !== "GET")
          .map((r) => `${r.operation} ${r.status}`),
      ).toEqual(["projects.addTags 200"]);

      await workspace.run(["preview", "--expect-no-changes"]);
      const destroyed = await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(destroyed.stdout).toMatch(/2 deleted/);
      expect(emulator.state().projects.find((p) => p.name === "acme/web-app")!.tags).toEqual(["team:web", "tier:1", "managed-scan"]);
    } finally {
      await emulator.close();
    }
  }, 180_000);
});

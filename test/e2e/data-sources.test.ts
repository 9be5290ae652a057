/**
 * Data sources through the real CLI: `dependsOn` of a `getXOutput` makes the read wait for the
 * resources it names, and a preview where one is still to be created reads nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { program, programWorkspace } from "../support/program";

let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await startEmulator({ preset: "demo" });
});
afterEach(async () => emulator?.close());

const tagsThenRead = program(`
const added = new semgrep.ProjectTags("pci", { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"] });
exports.tags = semgrep.getProjectOutput({ deploymentSlug: "acme", projectName: "acme/mobile-app" }, { dependsOn: [added] }).tags;
`);

describe("getXOutput with dependsOn", () => {
  it("reads nothing in a preview while the resource is to be created, and after it once it exists", async () => {
    const workspace = await programWorkspace(emulator, tagsThenRead);
    await workspace.run(["preview"]);
    expect(emulator.requests().filter((r) => r.operation === "projects.get")).toEqual([]);
    // Answers arrive slowly: without dependsOn the read would be answered before the tag is added.
    emulator.setFaults({ latencyMs: 300 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as { tags: string[] };
    expect(outputs.tags).toContain("pci");
    const order = emulator.requests().map((r) => r.operation);
    expect(order.lastIndexOf("projects.get")).toBeGreaterThan(order.indexOf("projects.addTags"));
  }, 120_000);
});

/**
 * `pulumi preview --diff` of a ProjectSettingsSet whose explicit `projects` changes for one
 * project, through the real CLI in both front ends: the diff names that project only. The state's
 * outputs do not echo `projects` (they keep a digest per project), and the dynamic provider's host
 * gives a diff the old outputs, not the old inputs: compared with those, every project would show
 * as added.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const env = useEmulator({ preset: "demo" });

const program = (webAppTags: string[]): Decl[] => [
  {
    kind: "ProjectSettingsSet" as Kind,
    name: "fleet",
    props: {
      deploymentSlug: "acme",
      projects: { "acme/web-app": { tags: webAppTags }, "acme/infra": { primaryBranch: "main" } },
    },
    secret: [],
  },
];

describe.each(["dynamic", "native"] as const)("ProjectSettingsSet preview --diff (%s front end)", (frontEnd) => {
  it("a one-project change shows that project only, as an update", async () => {
    const workspace = await newStack(frontEnd, env.emulator);
    workspace.write(program(["team:web"]));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    // A refresh's read returns no inputs: the engine keeps the map it has.
    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    const exported = JSON.parse((await workspace.run(["stack", "export"])).stdout) as {
      deployment: { resources: Array<{ urn: string; inputs?: { projects?: object } }> };
    };
    const fleet = exported.deployment.resources.find((r) => r.urn.endsWith("::fleet"))!;
    expect(Object.keys(fleet.inputs?.projects ?? {}).sort()).toEqual(["acme/infra", "acme/web-app"]);
    workspace.write(program(["team:web", "tier:2"]));
    const preview = await workspace.run(["preview", "--diff"]);
    // An update of that project, its one new tag added: not the whole map as added.
    expect(preview.stdout).toMatch(/~ projects: \{\s+~ acme\/web-app: \{/);
    expect(preview.stdout).toMatch(/\+ \[1\]: "tier:2"/);
    expect(preview.stdout).not.toContain("acme/infra");
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
  }, 300_000);
});

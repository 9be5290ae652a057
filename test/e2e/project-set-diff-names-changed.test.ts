/**
 * Trial 3 (issue 35): `pulumi preview --diff` of a ProjectSettingsSet whose explicit `projects` map
 * holds many projects (adopt's form) must list only the project whose values change. In a
 * TypeScript program (dynamic class) the diff shows the whole map as added (`+ projects: { … }`,
 * every project, 36,582 lines for adopt's 3,000): `projects` is not an output, and a dynamic
 * provider cannot return a detailed diff, so the engine compares the new inputs with the old
 * outputs. The YAML program (native plugin) shows the one project.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const env = useEmulator({ preset: "large" });

describe.each(["dynamic", "native"] as const)("ProjectSettingsSet preview --diff (%s front end)", (frontEnd) => {
  it("names only the changed project of a 20-project explicit map", async () => {
    const names = env.emulator
      .state()
      .projects.map((p) => p.name)
      .sort()
      .slice(0, 20);
    const tagsOf = (name: string) =>
      env.emulator
        .state()
        .projects.find((p) => p.name === name)!
        .tags.filter((t) => t !== "managed-scan");
    const entries = Object.fromEntries(names.map((name) => [name, { tags: tagsOf(name) }]));
    const program = (projects: Record<string, { tags: string[] }>): Decl[] => [
      { kind: "ProjectSettingsSet" as Kind, name: "fleet", props: { deploymentSlug: "acme", projects }, secret: [] },
    ];
    const workspace = await newStack(frontEnd, env.emulator);
    workspace.write(program(entries));
    await workspace.run(["up", "--yes", "--skip-preview"]);

    const [changed, unchanged] = [names[0]!, names[1]!];
    workspace.write(program({ ...entries, [changed]: { tags: [...entries[changed]!.tags, "trial:3"] } }));
    const preview = await workspace.run(["preview", "--diff"]);
    expect(preview.stdout).toContain(changed);
    expect(preview.stdout).not.toContain(unchanged);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
  }, 300_000);
});

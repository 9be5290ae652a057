/**
 * Trial 3 (issue 35): a project moved from a ProjectSettings into a ProjectSettingsSet in one `up`.
 * The ProjectSettings' delete warns that it leaves the tags to the set and what it had recorded
 * (the tags before the stack), but the set finds the tags as declared and records no original; its
 * `destroy` then makes no request and says nothing: the stack's own tag stays, unnamed. Every other
 * kind's destroy names each value it leaves when it recorded no original (runtime/left-by-delete.ts);
 * the set's delete returns at once when it has no originals (handlers/project-settings-set.ts).
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const env = useEmulator({ preset: "demo", resetEachTest: true });

describe.each(["dynamic", "native"] as const)("a project moved from a ProjectSettings into a set (%s front end)", (frontEnd) => {
  it("destroy of the set puts back the tags or names the tag it leaves", async () => {
    const project = env.emulator.state().projects.find((p) => p.name === "acme/web-app")!;
    const found = project.tags.filter((t) => t !== "managed-scan");
    const tags = [...found, "moved"];
    const set = (projects: Record<string, unknown>): Decl => ({
      kind: "ProjectSettingsSet" as Kind,
      name: "fleet",
      props: { deploymentSlug: "acme", projects },
      secret: [],
    });
    const stack = await newStack(frontEnd, env.emulator);
    stack.write([
      set({
        "acme/infra": {
          tags: env.emulator
            .state()
            .projects.find((p) => p.name === "acme/infra")!
            .tags.filter((t) => t !== "managed-scan"),
        },
      }),
      { kind: "ProjectSettings" as Kind, name: "single", props: { deploymentSlug: "acme", projectName: "acme/web-app", tags }, secret: [] },
    ]);
    await stack.run(["up", "--yes", "--skip-preview"]);
    stack.write([set({ "acme/web-app": { tags } })]);
    await stack.run(["up", "--yes", "--skip-preview"]);
    const destroy = await stack.run(["destroy", "--yes", "--skip-preview"]);
    const now = env.emulator
      .state()
      .projects.find((p) => p.name === "acme/web-app")!
      .tags.filter((t) => t !== "managed-scan");
    const out = (destroy.stdout + destroy.stderr).replace(/\s+/g, " ");
    if (now.includes("moved")) expect(out).toMatch(/acme\/web-app[^]*moved|moved[^]*acme\/web-app/);
    else expect(now.sort()).toEqual([...found].sort());
  }, 300_000);
});

/**
 * ProjectSettingsSet through the real CLI, in a TypeScript program of the package's classes and in
 * a YAML program served by the native plugin, against a deployment of 3,000 projects (the large preset's 300 ten times over): a selector converging
 * the 300 projects it matches, an explicit entry, a one-project change as one write, a project
 * created out of band converged by the next `up` and named in its preview, and `destroy` leaving
 * the emulator's projects as they were.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import type { Decl, Kind } from "../workflows/model";
import { newStack } from "../workflows/stacks";

const env = useEmulator({ preset: "large", projects: 3000 });

/** The set: every `acme/*-3` project gets diff scans, and acme/web-app-0 the whole tag set given. */
const program = (webAppTags: string[]): Decl[] => [
  {
    kind: "ProjectSettingsSet" as Kind,
    name: "fleet",
    props: {
      deploymentSlug: "acme",
      select: { namePatterns: ["acme/*-3"] },
      settings: { managedScanConfig: { diffScan: { enabled: true } } },
      projects: { "acme/web-app-0": { tags: webAppTags } },
    },
    secret: [],
  },
];

const writes = () => env.requests().filter((r) => r.method !== "GET");
const resetLog = () => void (env.emulator.requests().length = 0);
const projectsState = () => JSON.stringify(env.emulator.state().projects);

describe.each(["dynamic", "native"] as const)("ProjectSettingsSet through the real CLI (%s front end)", (frontEnd) => {
  it("converges what the selector matches among 3,000 projects, one write per changed project, and destroy restores them", async () => {
    const matched = env.emulator
      .state()
      .projects.filter((p) => /^acme\/[^/]*-3$/.test(p.name))
      .map((p) => p.name);
    expect(matched).toHaveLength(300);
    const toChange = env.emulator
      .state()
      .projects.filter((p) => matched.includes(p.name) && !p.managedScanConfig.diff_scan?.enabled)
      .map((p) => p.name);
    expect(toChange.length).toBeGreaterThan(0);
    const workspace = await newStack(frontEnd, env.emulator);
    workspace.write(program(["team:web", "reviewed"]));

    const before = projectsState();
    // The preview of the new set names what its selector matches (one listing, no project's own read, no write).
    const first = await workspace.run(["preview"]);
    expect((first.stdout + first.stderr).replace(/\s+/g, " ")).toContain('ProjectSettingsSet "fleet": select matches 300 projects (acme/');
    // Each of them, one a line under the note: the reviewer sees every project the new set touches.
    expect(first.stdout).toContain("matched, 300 projects:");
    const lines = first.stdout.split("\n").map((line) => line.trim());
    for (const name of matched) expect(lines).toContain(name);
    expect(env.requests().map((r) => r.operation)).toEqual(["projects.list", "projects.list"]);
    resetLog();
    await workspace.run(["up", "--yes", "--skip-preview"]);
    for (const name of matched)
      expect(env.emulator.state().projects.find((p) => p.name === name)!.managedScanConfig.diff_scan).toEqual({ enabled: true });
    expect(env.emulator.state().projects.find((p) => p.name === "acme/web-app-0")!.tags).toEqual(
      expect.arrayContaining(["team:web", "reviewed"]),
    );
    // One listing (3,000 a page: a full page, then the empty one that ends it), the switches read
    // only for the 300 projects whose switch is managed, one PATCH per project that changes.
    expect(env.requests("projects.list")).toHaveLength(2);
    expect(env.requests("projects.get")).toHaveLength(300);
    expect(writes()).toHaveLength(toChange.length + 1);

    // A no-change preview lists once and reads no project on its own.
    resetLog();
    await workspace.run(["preview", "--expect-no-changes"]);
    expect(env.requests("projects.get")).toHaveLength(0);
    expect(writes()).toHaveLength(0);

    // A one-project tag change: the diff shows that project only, and the up makes one write.
    workspace.write(program(["team:web", "reviewed", "tier:2"]));
    const preview = await workspace.run(["preview", "--diff"]);
    expect(preview.stdout).toContain("acme/web-app-0");
    expect(preview.stdout).not.toContain("acme/web-app-1");
    resetLog();
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writes().map((w) => w.path)).toEqual(["/api/v1/deployments/acme/projects/acme%2Fweb-app-0"]);
    expect(env.requests("projects.get")).toHaveLength(0); // the 300 switches were converged by the first up

    // A project created out of band that matches: named in the next preview, converged by the next up.
    const template = env.emulator.state().projects.find((p) => p.name === "acme/web-app-0")!;
    const created = {
      ...structuredClone(template),
      id: 990_001,
      name: "acme/new-service-3",
      tags: [],
      managedScanConfig: { diff_scan: { enabled: false }, full_scan: { enabled: false } },
    };
    env.emulator.state().projects.push(structuredClone(created));
    const next = await workspace.run(["preview"]);
    expect(next.stdout + next.stderr).toContain("converges 1 project (acme/new-service-3) it newly matches");
    resetLog();
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writes().map((w) => w.path)).toEqual(["/api/v1/deployments/acme/projects/acme%2Fnew-service-3"]);
    expect(env.requests("projects.get").map((r) => r.path)).toEqual(["/api/v1/deployments/acme/projects/acme%2Fnew-service-3"]);

    // State: only what destroy needs.
    const state = (await workspace.run(["stack", "export"])).stdout;
    expect(Buffer.byteLength(state)).toBeLessThan(1 << 20);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    // Every project as the stack found it, the one created out of band included.
    expect(JSON.parse(projectsState())).toEqual([...(JSON.parse(before) as unknown[]), created]);
  }, 600_000);
});

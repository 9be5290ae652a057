/**
 * Real clients: system tags. On the live service a project with managed scans carries the tag
 * `managed-scan`, which the service keeps whatever a write sends; Semgrep's own tag scripts
 * allow-list it and find managed-scan projects by it (docs/live-service.md, "From real clients").
 * These are the request forms such scripts send, straight to the emulator over HTTP (written from
 * that description; no client of ours in between), and what the answers must say.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../provider/emulator";
import { useEmulator } from "../../support/emulator";

const env = useEmulator({ preset: "demo" });
const MOBILE = "/deployments/acme/projects/acme/mobile-app";

interface ProjectAnswer {
  name: string;
  tags: string[];
}

async function call(method: string, path: string, body?: unknown, base = env.emulator) {
  const headers: Record<string, string> = { authorization: `Bearer ${base.token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base.url}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { project?: ProjectAnswer; projects?: ProjectAnswer[] } };
}

/** The Semgrep app (or a script) turns the project's managed scans on: the service tags it. */
const onboard = () => call("PATCH", `${MOBILE}/managed-scan`, { diff_scan: { enabled: true } });
const tagsOfMobile = async () => (await call("GET", MOBILE)).body.project!.tags;

describe("the system tag managed-scan", () => {
  it("is added when a project's managed scans are switched on, and read back by GET and the project list", async () => {
    expect(await tagsOfMobile()).toEqual([]);
    const managedBefore = new Set(
      env.emulator
        .state()
        .projects.filter((p) => p.tags.includes("managed-scan"))
        .map((p) => p.name),
    );
    const answer = await onboard();
    expect(answer.status).toBe(200);
    expect(answer.body.project!.tags).toEqual(["managed-scan"]);
    expect(await tagsOfMobile()).toEqual(["managed-scan"]);
    // Scripts find managed-scan projects by the tag in the project list: mobile-app is now one of them.
    const list = await call("GET", "/deployments/acme/projects?page=0&page_size=1000");
    const managed = list.body.projects!.filter((p) => p.tags.includes("managed-scan")).map((p) => p.name);
    expect(managed).toContain("acme/mobile-app");
    expect(managed).toEqual(
      list.body.projects!.filter((p) => p.name === "acme/mobile-app" || managedBefore.has(p.name)).map((p) => p.name),
    );
  });

  it("stays through a PATCH of tags that omits it, and one that clears every tag", async () => {
    await onboard();
    const patched = await call("PATCH", MOBILE, { tags: ["team:mobile", "pci"] });
    expect(patched.status).toBe(200);
    expect(patched.body.project!.tags).toEqual(["team:mobile", "pci", "managed-scan"]);
    const cleared = await call("PATCH", MOBILE, { tags: [] });
    expect(cleared.body.project!.tags).toEqual(["managed-scan"]);
    expect(await tagsOfMobile()).toEqual(["managed-scan"]);
  });

  it("stays through a DELETE of tags naming it (the query form), which still removes the other tags named", async () => {
    await onboard();
    await call("PUT", `${MOBILE}/tags`, { tags: ["team:mobile"] });
    const removed = await call("DELETE", `${MOBILE}/tags?tags=managed-scan&tags=team:mobile`);
    expect(removed.status).toBe(200);
    expect(removed.body.project!.tags).toEqual(["managed-scan"]);
    expect(await tagsOfMobile()).toEqual(["managed-scan"]);
  });

  it("is the service's to set: a PATCH or PUT of tags naming it on a project without managed scans does not add it", async () => {
    const patched = await call("PATCH", MOBILE, { tags: ["managed-scan", "pci"] });
    expect(patched.status).toBe(200);
    expect(patched.body.project!.tags).toEqual(["pci"]);
    const added = await call("PUT", `${MOBILE}/tags`, ["managed-scan"]);
    expect(added.body.project!.tags).toEqual(["pci"]);
  });

  it("is dropped when both managed scans are switched off (in one PATCH of the project too), and the other tags stay", async () => {
    await onboard();
    await call("PATCH", MOBILE, { tags: ["pci"] });
    const off = await call("PATCH", MOBILE, { managed_scan_config: { diff_scan: {}, full_scan: { enabled: false } } });
    expect(off.body.project!.tags).toEqual(["pci"]);
    const on = await call("PATCH", MOBILE, { managed_scan_config: { full_scan: { enabled: true } } });
    expect(on.body.project!.tags).toEqual(["pci", "managed-scan"]);
  });

  // Both presets start as the service would have them: demo's projects with managed scans are tagged from the start too.
  it.each(["demo", "large"] as const)(
    "is carried by every project of the %s preset whose managed scans are on, and by no other",
    async (preset) => {
      const emulator = await startEmulator({ preset });
      try {
        const projects: Array<ProjectAnswer & { managed_scan_config?: unknown }> = [];
        for (let page = 0; ; page++) {
          const answer = await call("GET", `/deployments/acme/projects?page=${page}&page_size=100`, undefined, emulator);
          if (!answer.body.projects!.length) break;
          projects.push(...answer.body.projects!);
        }
        expect(projects.length).toBeGreaterThan(preset === "large" ? 100 : 10);
        const scanned = new Set(
          emulator
            .state()
            .projects.filter((p) => p.managedScanConfig.diff_scan.enabled || p.managedScanConfig.full_scan.enabled)
            .map((p) => p.name),
        );
        expect(scanned.size).toBeGreaterThan(0);
        for (const project of projects) expect(project.tags.includes("managed-scan"), project.name).toBe(scanned.has(project.name));
        const web = await call("GET", "/deployments/acme/projects/acme/web-app", undefined, emulator);
        expect(web.body.project!.tags).toEqual(["team:web", "tier:1", "managed-scan"]);
      } finally {
        await emulator.close();
      }
    },
  );
});

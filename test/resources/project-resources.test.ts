/** ProjectSettings, ProjectTags and ManagedScan provider methods against the emulator. */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";
import { startRecordingProxy } from "../support/recording-proxy";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const settings = provider("ProjectSettings");
const tags = provider("ProjectTags");
const scans = provider("ManagedScan");
const live = (name: string) => env.emulator.state().projects.find((p) => p.name === name)!;
const writes = () => env.requests().filter((r) => r.method !== "GET");

describe("ProjectSettings", () => {
  it("adopts a project that already has tags, records what it found, applies what is declared in one write", async () => {
    const inputs = await checked(settings, {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "develop",
      tags: ["team:web", "pci"],
      managedScanConfig: { fullScan: { enabled: false } },
    });
    expect(inputs.primaryBranch).toBe("refs/heads/develop");
    const { id, outs } = await settings.create(inputs);
    expect(id).toBe("acme/acme/web-app");
    expect(outs).toMatchObject({
      projectId: 101,
      primaryBranch: "refs/heads/develop",
      defaultBranch: "refs/heads/main",
      tags: ["team:web", "pci", "managed-scan"], // the project's whole set: the system tag stays, as on the service
      managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: false } },
      originalPrimaryBranch: "refs/heads/main",
      originalTags: ["team:web", "tier:1"],
      originalManagedScanConfig: { fullScan: { enabled: true } },
    });
    expect(env.requests().map((r) => r.operation)).toEqual(["projects.get", "projects.update"]);
  });

  it("makes no write when the project already matches", async () => {
    await settings.create(await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["tier:1", "team:web"] }));
    expect(writes()).toEqual([]);
  });

  it("finds an out-of-band change on read, reports it in diff, corrects it on update", async () => {
    const inputs = await checked(settings, {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "main",
      tags: ["team:web"],
    });
    const { id, outs } = await settings.create(inputs);
    expect(await settings.diff(outs, inputs)).toMatchObject({ changes: false });

    live("acme/web-app").tags.push("added-by-hand");
    live("acme/web-app").primaryBranch = "refs/heads/hotfix";
    forgetProcessMemory(); // `pulumi refresh` runs in a new provider process
    const read = await settings.read(id, outs);
    expect(read.props).toMatchObject({ tags: ["team:web", "managed-scan", "added-by-hand"], primaryBranch: "refs/heads/hotfix" });
    expect(read.inputs).toMatchObject({ tags: ["team:web", "added-by-hand"], primaryBranch: "refs/heads/hotfix" });

    expect(await settings.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    env.emulator.reset();
    live("acme/web-app").tags.push("added-by-hand");
    const updated = await settings.update(id, read.props!, inputs);
    expect(updated.outs).toMatchObject({
      tags: ["team:web", "managed-scan"],
      primaryBranch: "refs/heads/main",
      originalTags: ["team:web", "tier:1"],
    });
    expect(env.requests().map((r) => `${r.method} ${r.operation}`)).toEqual(["PATCH projects.update"]);
  });

  it("reads back, with no drift, exactly the inputs declared (only the managed fields)", async () => {
    const inputs = await checked(settings, {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "main",
      managedScanConfig: { fullScan: { enabled: true } },
    });
    const { id, outs } = await settings.create(inputs);
    forgetProcessMemory();
    const read = await settings.read(id, outs);
    expect(read.inputs).toEqual(inputs);
  });

  it("restores every original value exactly on delete", async () => {
    const before = structuredClone(live("acme/payments-api"));
    const inputs = await checked(settings, {
      deploymentSlug: "acme",
      projectName: "acme/payments-api",
      primaryBranch: "refs/heads/release",
      tags: [],
      managedScanConfig: { diffScan: { enabled: false }, fullScan: { enabled: true } },
    });
    const { id, outs } = await settings.create(inputs);
    expect(live("acme/payments-api")).toMatchObject({ tags: ["managed-scan"], primaryBranch: "refs/heads/release" });
    await settings.delete(id, outs);
    expect(live("acme/payments-api")).toEqual(before);
  });

  it("leaves the values as they are on delete with restoreOnDelete: false", async () => {
    const { id, outs } = await settings.create(
      await checked(settings, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["kept"], restoreOnDelete: false }),
    );
    await settings.delete(id, outs);
    expect(live("acme/mobile-app").tags).toEqual(["kept"]);
  });

  it("a project it made follow its default branch, then pinned by an update, follows it again after delete", async () => {
    // acme/web-app's primary branch is its default one (main): "None" has nothing to record at create.
    const follow = await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "None" });
    const { id, outs } = await settings.create(follow);
    expect(live("acme/web-app").primaryBranch).toBeNull();
    const pin = await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "release" });
    const updated = await settings.update(id, outs, pin);
    expect(live("acme/web-app").primaryBranch).toBe("refs/heads/release");
    // What the update replaced is "follow the default branch", not the branch the service showed.
    expect(updated.outs.originalPrimaryBranch).toBe("None");
    forgetProcessMemory();
    await settings.delete(id, updated.outs);
    expect(live("acme/web-app").primaryBranch).toBeNull();
  });

  it("follows the default branch with primaryBranch None, with no perpetual diff", async () => {
    live("acme/web-app").primaryBranch = "refs/heads/old";
    const inputs = await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "None" });
    const { id, outs } = await settings.create(inputs);
    expect(outs).toMatchObject({ primaryBranch: "refs/heads/main", followsDefaultBranch: true });
    expect(await settings.diff(outs, inputs)).toMatchObject({ changes: false });
    forgetProcessMemory();
    expect((await settings.read(id, outs)).inputs).toEqual(inputs);
  });

  it("warns of fields it stops managing, printing no value of one whose input was a secret (a scan toggle, by its input managedScanConfig)", async () => {
    const declared = {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "develop",
      managedScanConfig: { fullScan: { enabled: false } },
    };
    const { outs } = await settings.create(await checked(settings, { ...declared, secretInputs: ["managedScanConfig"] }));
    const news = await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app" });
    expect(await settings.diff(outs, news)).toMatchObject({ changes: true, replaces: [] });
    const warning = notices.find((n) => n.message.includes("no longer declared"))!;
    expect(warning.message).toContain(
      'Before this stack managed them, primaryBranch was "refs/heads/main"; managedScanConfig.fullScan was [secret].',
    );
    expect(warning.message).not.toContain("enabled");
  });

  it("names the project when it does not exist", async () => {
    await expect(settings.create(await checked(settings, { deploymentSlug: "acme", projectName: "acme/nope", tags: [] }))).rejects.toThrow(
      /ProjectSettings acme\/acme\/nope: project "acme\/nope" does not exist in deployment "acme"/,
    );
    expect(writes()).toEqual([]);
  });

  it("reads a project deleted from the service as gone", async () => {
    const { id, outs } = await settings.create(
      await checked(settings, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["x"] }),
    );
    env.emulator.state().projects.splice(env.emulator.state().projects.indexOf(live("acme/mobile-app")), 1);
    forgetProcessMemory();
    expect(await settings.read(id, outs)).toEqual({ id: "" });
  });

  it("replaces on a change of project, updates in place otherwise", async () => {
    const olds = {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      tags: ["a"],
      primaryBranch: "refs/heads/main",
      defaultBranch: "refs/heads/main",
    };
    expect(await settings.diff(olds, { ...olds, projectName: "acme/other" })).toMatchObject({ changes: true, replaces: ["projectName"] });
    expect(await settings.diff(olds, { ...olds, tags: ["b"] })).toMatchObject({ changes: true, replaces: [] });
    expect(await settings.diff(olds, { deploymentSlug: "acme", projectName: "acme/web-app" })).toMatchObject({ changes: false });
    expect(env.requests()).toEqual([]);
  });
});

describe("ProjectTags", () => {
  it("adds only missing tags and removes on delete only those it added", async () => {
    const first = await tags.create(
      await checked(tags, { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["tier:1", "owner:appsec"] }),
    );
    expect(first.outs).toMatchObject({ tags: ["tier:1", "owner:appsec"], addedTags: ["owner:appsec"] });
    await tags.delete(first.id, first.outs);
    expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan"]);
  });

  it("two ProjectTags and a ProjectSettings that does not declare tags share a project", async () => {
    const a = await tags.create(await checked(tags, { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["a"] }));
    const b = await tags.create(await checked(tags, { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["b"] }));
    const s = await settings.create(
      await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "develop" }),
    );
    expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan", "a", "b"]);
    await tags.delete(a.id, a.outs);
    expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan", "b"]);
    await settings.delete(s.id, s.outs);
    expect(live("acme/web-app")).toMatchObject({ tags: ["team:web", "tier:1", "managed-scan", "b"], primaryBranch: "refs/heads/main" });
    await tags.delete(b.id, b.outs);
    expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan"]);
  });

  it("re-adds a tag removed out of band, and drops a tag it added when no longer declared", async () => {
    const inputs = await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["x", "y"] });
    const { id, outs } = await tags.create(inputs);
    live("acme/mobile-app").tags = ["y"];
    forgetProcessMemory();
    const read = await tags.read(id, outs);
    expect(read.props).toMatchObject({ tags: ["y"], projectTags: ["y"] });
    expect(await tags.diff(read.props!, inputs)).toMatchObject({ changes: true });
    const fixed = await tags.update(id, read.props!, inputs);
    expect(live("acme/mobile-app").tags).toEqual(["y", "x"]);
    const narrowed = await tags.update(id, fixed.outs, { ...inputs, tags: ["y"] });
    expect(live("acme/mobile-app").tags).toEqual(["y"]);
    expect(narrowed.outs).toMatchObject({ tags: ["y"], addedTags: ["y"] });
  });

  it("refuses an empty tag list and repeated tags", async () => {
    const { failures } = await tags.check({ deploymentSlug: "acme", projectName: "acme/web-app", tags: [] });
    expect(failures).toEqual([{ property: "tags", reason: "tags: []: must name at least one tag" }]);
    const repeated = await tags.check({ deploymentSlug: "acme", projectName: "acme/web-app", tags: ["a", "a"] });
    expect(repeated.failures?.[0]).toMatchObject({ property: "tags", reason: expect.stringMatching(/must not repeat/) });
  });
});

describe("one project, three resources", () => {
  it("reads the project once for a ProjectSettings, a ProjectTags and a ManagedScan created together", async () => {
    await Promise.all([
      settings.create(await checked(settings, { deploymentSlug: "acme", projectName: "acme/mobile-app", primaryBranch: "main" })),
      tags.create(await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["a", "b"] })),
      scans.create(await checked(scans, { deploymentSlug: "acme", projectName: "acme/mobile-app", fullScan: { enabled: true } })),
    ]);
    expect(
      env
        .requests()
        .map((r) => r.operation)
        .sort(),
    ).toEqual(["projects.addTags", "projects.get", "projects.update", "projects.updateManagedScans"]);
    expect(live("acme/mobile-app")).toMatchObject({
      primaryBranch: "refs/heads/main",
      managedScanConfig: { full_scan: { enabled: true } },
    });
    // Switching managed scans on, the service added its system tag, in whichever order the writes landed.
    expect([...live("acme/mobile-app").tags].sort()).toEqual(["a", "b", "managed-scan"]);
  });
});

describe("system tags (managed-scan)", () => {
  /** Managed scans switched on out of band: the service tags the project `managed-scan`. */
  const onboard = (name: string) => env.client().projects.updateManagedScans("acme", name, { diff_scan: { enabled: true } });

  it("ProjectSettings tags: the PATCH keeps the system tag, diff and read ignore it, the original holds none, delete keeps it", async () => {
    await onboard("acme/mobile-app");
    const proxy = await startRecordingProxy(env.emulator.url);
    process.env.SEMGREP_APP_URL = proxy.url;
    try {
      const inputs = await checked(settings, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["team:mobile"] });
      const { id, outs } = await settings.create(inputs);
      const patches = () => proxy.exchanges.filter((e) => e.method === "PATCH").map((e) => (e.body as { tags?: string[] }).tags);
      // It never asks for the system tag's removal: it sends back the system tags the project has.
      expect(patches()).toEqual([["team:mobile", "managed-scan"]]);
      expect(outs).toMatchObject({ tags: ["team:mobile", "managed-scan"], originalTags: [] });
      expect(await settings.diff(outs, inputs)).toMatchObject({ changes: false });
      const read = await settings.read(id, outs);
      expect(read.inputs!.tags).toEqual(["team:mobile"]);
      expect(read.props!.tags).toEqual(["team:mobile", "managed-scan"]);
      expect(await settings.diff(read.props!, inputs)).toMatchObject({ changes: false });
      await settings.delete(id, read.props!);
      expect(patches().at(-1)).toEqual(["managed-scan"]);
      expect(live("acme/mobile-app").tags).toEqual(["managed-scan"]);
    } finally {
      process.env.SEMGREP_APP_URL = env.emulator.url;
      await proxy.close();
    }
  });

  it("ProjectSettings: a system tag that appeared since the last write is no diff, and an older state's original holding one puts back no fight", async () => {
    const inputs = await checked(settings, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["team:mobile"] });
    const { id, outs } = await settings.create(inputs);
    await onboard("acme/mobile-app");
    forgetProcessMemory(); // a later run: its refresh reads the project afresh
    const read = await settings.read(id, outs);
    expect(read.props!.tags).toEqual(["team:mobile", "managed-scan"]);
    expect(await settings.diff(read.props!, inputs)).toMatchObject({ changes: false });
    // State written by a version that recorded the system tag as found: delete puts back the rest and keeps it.
    await settings.delete(id, { ...read.props!, originalTags: ["managed-scan", "legacy"] });
    expect(live("acme/mobile-app").tags).toEqual(["legacy", "managed-scan"]);
  });

  it("ProjectTags beside a system tag: its outputs report the whole set, its diff is unchanged", async () => {
    await onboard("acme/mobile-app");
    const inputs = await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"] });
    const { id, outs } = await tags.create(inputs);
    expect(outs).toMatchObject({ tags: ["pci"], addedTags: ["pci"], projectTags: ["managed-scan", "pci"] });
    expect(await tags.diff(outs, inputs)).toMatchObject({ changes: false });
    await tags.delete(id, outs);
    expect(live("acme/mobile-app").tags).toEqual(["managed-scan"]);
  });
});

describe("ManagedScan", () => {
  it("turns toggles on, and on delete puts back what it found", async () => {
    const inputs = await checked(scans, { deploymentSlug: "acme", projectName: "acme/mobile-app", diffScan: { enabled: true } });
    const { id, outs } = await scans.create(inputs);
    expect(outs).toMatchObject({ diffScan: { enabled: true }, fullScan: { enabled: false }, originalDiffScan: { enabled: false } });
    expect(outs.originalFullScan).toBeUndefined();
    expect(env.requests().map((r) => r.operation)).toEqual(["projects.get", "projects.updateManagedScans"]);
    await scans.delete(id, outs);
    expect(live("acme/mobile-app").managedScanConfig).toEqual({ diff_scan: { enabled: false }, full_scan: { enabled: false } });
  });

  it("reports drift of a declared toggle only", async () => {
    const inputs = await checked(scans, { deploymentSlug: "acme", projectName: "acme/web-app", fullScan: { enabled: true } });
    const { id, outs } = await scans.create(inputs);
    live("acme/web-app").managedScanConfig.diff_scan.enabled = false;
    forgetProcessMemory();
    const quiet = await scans.read(id, outs);
    expect(await scans.diff(quiet.props!, inputs)).toMatchObject({ changes: false });
    live("acme/web-app").managedScanConfig.full_scan.enabled = false;
    forgetProcessMemory();
    const drifted = await scans.read(id, outs);
    expect(drifted.inputs).toMatchObject({ fullScan: { enabled: false } });
    expect(await scans.diff(drifted.props!, inputs)).toMatchObject({ changes: true });
  });
});

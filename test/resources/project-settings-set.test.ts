/** ProjectSettingsSet provider methods against the emulator: explicit projects, the selector, claims, request counts, restore. */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../provider/core/runtime/canonical";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, notices, provider } from "../support/provider";
import { useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const set = provider("ProjectSettingsSet");
const settings = provider("ProjectSettings");
const managedScan = provider("ManagedScan");
const projects = () => env.emulator.state().projects;
const project = (name: string) => projects().find((p) => p.name === name)!;
/** What a set may change of each project, to compare the emulator's whole project state before and after. */
const values = () =>
  Object.fromEntries(
    projects().map((p) => [p.name, { primaryBranch: p.primaryBranch, tags: [...p.tags].sort(), scans: p.managedScanConfig }]),
  );
const writes = () => env.requests().filter((r) => r.method !== "GET");
const ops = () => env.requests().map((r) => r.operation);
const count = (operation: string) => ops().filter((o) => o === operation).length;
const resetLog = () => void (env.emulator.requests().length = 0);

describe("ProjectSettingsSet: explicit projects", () => {
  it("applies only the declared fields, one listing and one PATCH per project that changes, reads a project on its own only for managedScanConfig, and delete restores exactly", async () => {
    const before = values();
    const inputs = await checked(set, {
      deploymentSlug: "acme",
      resourceName: "fleet",
      projects: {
        "acme/web-app": { tags: ["team:web", "pci"] }, // changes (was team:web, tier:1)
        "acme/mobile-app": { primaryBranch: "main", managedScanConfig: { diffScan: { enabled: true } } }, // both change
        "acme/infra": { primaryBranch: "main" }, // already so: no write, no original
      },
    });
    const { id, outs } = await set.create(inputs);
    expect(id).toBe("acme/fleet");
    expect(project("acme/web-app").tags.sort()).toEqual(["managed-scan", "pci", "team:web"]); // the system tag kept
    expect(project("acme/mobile-app").primaryBranch).toBe("refs/heads/main");
    expect(project("acme/mobile-app").managedScanConfig).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: false } });
    expect(count("projects.list")).toBe(1);
    expect(count("projects.get")).toBe(1); // mobile-app alone declares managedScanConfig
    expect(
      writes()
        .map((w) => `${w.method} ${w.path}`)
        .sort(),
    ).toEqual(["PATCH /api/v1/deployments/acme/projects/acme%2Fmobile-app", "PATCH /api/v1/deployments/acme/projects/acme%2Fweb-app"]);
    // Only what it changed, per project: what destroy needs.
    expect(outs.originals).toEqual({
      "acme/mobile-app": { primaryBranch: "refs/heads/develop", managedScanConfig: { diffScan: { enabled: false } } },
      "acme/web-app": { tags: ["team:web", "tier:1"] },
    });
    expect(outs).toMatchObject({ managedProjects: 3, deviations: [], selected: [] });
    forgetProcessMemory();
    resetLog();
    await set.delete(id, outs);
    expect(values()).toEqual(before);
    expect(count("projects.list")).toBe(1);
    expect(writes()).toHaveLength(2);
  });

  it("a no-change diff reads nothing; a one-project tag change is one listing and one write, and lists only that project in the diff", async () => {
    const declared = {
      deploymentSlug: "acme",
      resourceName: "fleet",
      projects: {
        "acme/web-app": { tags: ["team:web"], managedScanConfig: { diffScan: { enabled: true } } },
        "acme/infra": { tags: ["team:infra"], managedScanConfig: { diffScan: { enabled: false } } },
      },
    };
    const { id, outs } = await set.create(await checked(set, declared));
    forgetProcessMemory();
    resetLog();
    expect(await set.diff(outs, await checked(set, declared))).toMatchObject({ changes: false });
    expect(env.requests()).toEqual([]);
    const changed = {
      ...declared,
      projects: { ...declared.projects, "acme/infra": { ...declared.projects["acme/infra"], tags: ["team:infra", "tier:2"] } },
    };
    const news = await checked(set, changed);
    expect(await set.diff(outs, news)).toMatchObject({ changes: true });
    expect(env.requests()).toEqual([]);
    const { outs: after } = await set.update(id, outs, news);
    expect(count("projects.list")).toBe(1);
    // The switches are read only for the project whose declaration changed (web-app's were converged at create).
    expect(env.requests("projects.get").map((r) => r.path)).toEqual(["/api/v1/deployments/acme/projects/acme%2Finfra"]);
    expect(writes().map((w) => w.path)).toEqual(["/api/v1/deployments/acme/projects/acme%2Finfra"]);
    expect(project("acme/infra").tags.sort()).toEqual(["team:infra", "tier:2"]);
    // The original of the first change stays: destroy puts back what the stack found.
    expect((after.originals as Record<string, unknown>)["acme/infra"]).toEqual({ tags: [] });
  });

  it("refuses, before any write, a project field another resource of the stack declares, naming both", async () => {
    const checkedSettings = await settings.check({
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      tags: ["team:web"],
      resourceName: "web-app",
    });
    expect(checkedSettings.failures).toBeUndefined();
    const scan = await managedScan.check({
      deploymentSlug: "acme",
      projectName: "acme/infra",
      diffScan: { enabled: true },
      resourceName: "infra-scan",
    });
    expect(scan.failures).toBeUndefined();
    const result = await set.check({
      deploymentSlug: "acme",
      resourceName: "fleet",
      projects: { "acme/web-app": { tags: ["team:web", "pci"] }, "acme/infra": { managedScanConfig: { diffScan: { enabled: true } } } },
    });
    const reasons = (result.failures ?? []).map((f) => f.reason).join("\n");
    expect(reasons).toContain(
      'ProjectSettingsSet "fleet" declares tags of project acme/web-app (deployment acme), which ProjectSettings "web-app" declares too.',
    );
    expect(reasons).toContain(
      'ProjectSettingsSet "fleet" declares diffScan of project acme/infra (deployment acme), which ManagedScan "infra-scan" declares too.',
    );
    expect(writes()).toEqual([]);
  });

  it("refuses an explicit project that does not exist, before any write", async () => {
    const inputs = await checked(set, {
      deploymentSlug: "acme",
      resourceName: "fleet",
      projects: { "acme/web-app": { tags: ["x"] }, "acme/nowhere": { tags: ["x"] } },
    });
    await expect(set.create(inputs)).rejects.toThrow(/project "acme\/nowhere" does not exist in deployment "acme"/);
    expect(writes()).toEqual([]);
  });

  it("with restoreOnDelete false, delete writes nothing", async () => {
    const { id, outs } = await set.create(
      await checked(set, {
        deploymentSlug: "acme",
        resourceName: "fleet",
        restoreOnDelete: false,
        projects: { "acme/infra": { tags: ["a"] } },
      }),
    );
    resetLog();
    await set.delete(id, outs);
    expect(env.requests()).toEqual([]);
    expect(project("acme/infra").tags).toEqual(["a"]);
  });
});

describe("ProjectSettingsSet: the state keeps the projects map once", () => {
  const declared = {
    deploymentSlug: "acme",
    resourceName: "fleet",
    projects: {
      "acme/web-app": { tags: ["team:web"], managedScanConfig: { diffScan: { enabled: true } } },
      "acme/infra": { primaryBranch: "None" },
    },
  };

  it("keeps a digest per explicit project in the outputs, not the map, and a refresh finds drift against the digests", async () => {
    const { id, outs } = await set.create(await checked(set, declared));
    expect(outs).not.toHaveProperty("projects"); // the engine keeps it in the inputs
    expect(Object.keys(outs.projectDigests as object)).toEqual(["acme/infra", "acme/web-app"]);
    expect((outs.projectDigests as Record<string, string>)["acme/web-app"]).toMatch(/^td:[0-9a-f]{12}$/);
    expect((outs.projectDigests as Record<string, string>)["acme/infra"]).toMatch(/^n:[0-9a-f]{12}$/);

    forgetProcessMemory();
    const asLeft = await set.read(id, outs);
    expect(asLeft.props).toMatchObject({ deviations: [] });
    // No inputs: the engine keeps those it has (the map), which the outputs do not hold.
    expect(asLeft.inputs).toBeUndefined();

    // Out of band: web-app's diff scans off, infra pinned to another branch.
    project("acme/web-app").managedScanConfig.diff_scan = { enabled: false };
    project("acme/infra").primaryBranch = "refs/heads/release";
    forgetProcessMemory();
    expect((await set.read(id, outs)).props).toMatchObject({ deviations: ["acme/infra", "acme/web-app"] });
    // An added tag is drift too (tags are the whole set); the system tag is not.
    project("acme/web-app").managedScanConfig.diff_scan = { enabled: true };
    project("acme/infra").primaryBranch = project("acme/infra").defaultBranch;
    project("acme/web-app").tags.push("added-by-hand");
    forgetProcessMemory();
    expect((await set.read(id, outs)).props).toMatchObject({ deviations: ["acme/web-app"] });
  });

  it("remembers, from the digests, which fields it managed: a project found as declared is not noted as found again at the next update", async () => {
    const first = await checked(set, {
      ...declared,
      projects: { "acme/infra": { primaryBranch: "main" }, "acme/web-app": { tags: ["team:web", "tier:1"] } }, // both already so
    });
    const { id, outs } = await set.create(first);
    expect(outs.originals).toEqual({});
    expect(notices.map((n) => n.message).join("\n")).toContain("found 2 projects (acme/infra, acme/web-app) already as declared");
    forgetProcessMemory();
    notices.length = 0;
    const changed = await checked(set, {
      ...declared,
      projects: { "acme/infra": { primaryBranch: "main" }, "acme/web-app": { tags: ["team:web"] } },
    });
    const { outs: after } = await set.update(id, outs, changed);
    expect(project("acme/web-app").tags).not.toContain("tier:1");
    expect(after.originals).toEqual({ "acme/web-app": { tags: ["team:web", "tier:1"] } });
    // infra was managed before (its digest says so): still as declared, not newly found.
    expect(notices.map((n) => n.message).join("\n")).not.toContain("already as declared");
  });

  it("reads the state an older version wrote (the map echoed, no digests): no change, and a refresh gives the inputs back", async () => {
    const inputs = await checked(set, declared);
    const { id, outs } = await set.create(inputs);
    const { projectDigests: _digests, ...older } = { ...outs, projects: inputs.projects } as Record<string, unknown>;
    forgetProcessMemory();
    resetLog();
    expect(await set.diff(older, inputs)).toMatchObject({ changes: false });
    expect((await set.read(id, older)).inputs).toMatchObject({ projects: inputs.projects });
  });
});

describe("ProjectSettingsSet: select", () => {
  const selecting = {
    deploymentSlug: "acme",
    resourceName: "apis",
    select: { namePatterns: ["acme/*-api", "acme/*-service"] },
    settings: { managedScanConfig: { fullScan: { enabled: true } }, addTags: ["tier:api"] },
  };

  it("applies settings to every matching project, explicit entries winning for their fields; a new matching project is converged by the next update and named in the preview", async () => {
    const before = values();
    const inputs = await checked(set, {
      ...selecting,
      projects: { "acme/auth-service": { managedScanConfig: { fullScan: { enabled: false } } } },
    });
    const { id, outs } = await set.create(inputs);
    const matched = projects()
      .map((p) => p.name)
      .filter((n) => /^acme\/[^/]*-(api|service)$/.test(n))
      .sort();
    expect(outs.selected).toEqual(matched);
    for (const name of matched) expect(project(name).tags).toContain("tier:api");
    expect(project("acme/payments-api").managedScanConfig.full_scan).toEqual({ enabled: true });
    expect(project("acme/auth-service").managedScanConfig.full_scan).toEqual({ enabled: false }); // explicit wins
    expect(count("projects.list")).toBe(1);
    expect(count("projects.get")).toBe(matched.length); // the switches are not in the listing
    expect(count("projects.update")).toBeLessThanOrEqual(matched.length);

    // A project created out of band that matches.
    forgetProcessMemory();
    resetLog();
    const template = project("acme/infra");
    projects().push({ ...structuredClone(template), id: 9001, name: "acme/search-api", tags: [] });
    const diff = await set.diff(outs, inputs);
    expect(diff.changes).toBe(true);
    expect(ops()).toEqual(["projects.list"]); // the preview lists once, reads no project on its own
    expect(notices.map((n) => n.message).join("\n")).toContain("converges 1 project (acme/search-api) it newly matches");
    const { outs: after } = await set.update(id, outs, inputs);
    expect(project("acme/search-api").tags.filter((t) => t !== "managed-scan")).toEqual(["tier:api"]);
    expect(project("acme/search-api").managedScanConfig.full_scan).toEqual({ enabled: true });
    expect(after.selected).toContain("acme/search-api");
    expect(count("projects.update")).toBe(1);

    // Nothing left to do: the next preview lists once and finds no change.
    forgetProcessMemory();
    resetLog();
    expect(await set.diff(after, inputs)).toMatchObject({ changes: false });
    expect(ops()).toEqual(["projects.list"]);

    forgetProcessMemory();
    await set.delete(id, after);
    const restored = values();
    delete restored["acme/search-api"];
    expect(restored).toEqual(before);
    expect(project("acme/search-api").tags.filter((t) => t !== "managed-scan")).toEqual([]); // the tag it added, removed
    expect(project("acme/search-api").managedScanConfig).toEqual(template.managedScanConfig);
  });

  it("an explicit project's change reads no selected project on its own, whatever the key order of the state the engine gives back", async () => {
    const inputs = await checked(set, { ...selecting, projects: { "acme/web-app": { tags: ["team:web"] } } });
    const { id, outs } = await set.create(inputs);
    // The engine stores and sends the outputs with keys in its own order (here sorted, as in a
    // state file), not the order check gave them: `settings` is `{ addTags, managedScanConfig }`.
    const stored = JSON.parse(canonicalJson(outs)) as typeof outs;
    expect(Object.keys(stored.settings as object)).toEqual(["addTags", "managedScanConfig"]);
    forgetProcessMemory();
    resetLog();
    const changed = await checked(set, { ...selecting, projects: { "acme/web-app": { tags: ["team:web", "tier:2"] } } });
    await set.update(id, stored, changed);
    // The selected projects' switches were converged by the create and their settings did not change: no own read.
    expect(ops().sort()).toEqual(["projects.list", "projects.update"]);
  });

  it("a project that stops matching gets back what the set found", async () => {
    const inputs = await checked(set, { ...selecting, select: { tags: ["team:payments"] } });
    const { id, outs } = await set.create(inputs);
    expect(project("acme/payments-api").tags).toContain("tier:api");
    const fullBefore = structuredClone(project("acme/payments-api").managedScanConfig);
    // payments-api stops matching: someone moves it to another team.
    const p = project("acme/payments-api");
    p.tags = p.tags.map((t) => (t === "team:payments" ? "team:core" : t));
    forgetProcessMemory();
    resetLog();
    expect(await set.diff(outs, inputs)).toMatchObject({ changes: true });
    expect(notices.map((n) => n.message).join("\n")).toContain(
      "puts back what it found on 1 project (acme/payments-api) it no longer matches",
    );
    const { outs: after } = await set.update(id, outs, inputs);
    expect(project("acme/payments-api").tags).not.toContain("tier:api");
    expect(project("acme/payments-api").managedScanConfig.full_scan).toEqual({ enabled: false });
    expect(fullBefore.full_scan).toEqual({ enabled: true });
    expect(after.originals).not.toHaveProperty(["acme/payments-api"]);
    expect(after.selected).not.toContain("acme/payments-api");
  });

  it("refuses, before any write, a selected project's field another resource declares, naming both", async () => {
    const scan = await managedScan.check({
      deploymentSlug: "acme",
      projectName: "acme/payments-api",
      fullScan: { enabled: false },
      resourceName: "payments-scan",
    });
    expect(scan.failures).toBeUndefined();
    const message =
      'ProjectSettingsSet "apis" declares fullScan of project acme/payments-api (deployment acme), which ManagedScan "payments-scan" declares too.';
    // At preview: a new set's check lists the projects (its selector's are known only from the listing).
    const result = await set.check(selecting);
    expect(result.failures?.map((f) => `${f.property}: ${f.reason}`)).toEqual([expect.stringContaining(`select: ${message}`)]);
    expect(ops()).toEqual(["projects.list"]);
    // And before any write of its create, whatever was checked in the process that runs it.
    await expect(set.create(result.inputs!)).rejects.toThrow(message);
    expect(writes()).toEqual([]);
  });
});

describe("ProjectSettingsSet at 3,000 projects", () => {
  const large = useEmulator({ preset: "large", projects: 3000 });

  it("declares every project explicitly with two listing reads and one write per changed project, in a state under 1 MB", async () => {
    process.env.SEMGREP_APP_URL = large.emulator.url;
    process.env.SEMGREP_APP_TOKEN = large.emulator.token;
    try {
      const all = large.emulator.state().projects;
      // Every project's whole tag set, as adopt declares it; every tenth gains a tag.
      const declared = Object.fromEntries(
        all.map((p, i) => [p.name, { tags: [...p.tags.filter((t) => t !== "managed-scan"), ...(i % 10 === 0 ? ["bench:x"] : [])] }]),
      );
      const { outs } = await set.create(await checked(set, { deploymentSlug: "acme", resourceName: "all", projects: declared }));
      const log = large.emulator.requests();
      expect(log.filter((r) => r.operation === "projects.list")).toHaveLength(2); // a full page of 3,000, then the empty one
      expect(log.filter((r) => r.operation === "projects.get")).toHaveLength(0);
      expect(log.filter((r) => r.method !== "GET")).toHaveLength(300);
      expect(outs.managedProjects).toBe(3000);
      // What the engine stores is the inputs (the whole map, once) and the outputs: a digest per
      // project, and the originals of the 300 changed projects only.
      expect(Object.keys(outs.originals as object)).toHaveLength(300);
      expect(outs).not.toHaveProperty("projects");
      expect(Buffer.byteLength(JSON.stringify({ inputs: declared, outputs: outs }))).toBeLessThan(1 << 20);
    } finally {
      process.env.SEMGREP_APP_URL = env.emulator.url;
      process.env.SEMGREP_APP_TOKEN = env.emulator.token;
    }
  }, 120_000);
});

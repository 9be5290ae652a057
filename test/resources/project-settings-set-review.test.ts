/** ProjectSettingsSet edge cases of the cold-trial fixes: a secret selector's refusal, a new set's check. */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import { handlers } from "../../provider/core/runtime/dispatch";
import { UNKNOWN } from "../../provider/core/runtime/check";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const set = provider("ProjectSettingsSet");
const managedScan = provider("ManagedScan");

describe("ProjectSettingsSet: a secret selector", () => {
  it("a refusal at check names no project the secret selector matches", async () => {
    const scan = await managedScan.check({
      deploymentSlug: "acme",
      projectName: "acme/payments-api",
      fullScan: { enabled: false },
      resourceName: "payments-scan",
    });
    expect(scan.failures).toBeUndefined();
    const result = await set.check({
      deploymentSlug: "acme",
      resourceName: "apis",
      select: { namePatterns: ["acme/*-api"] },
      settings: { managedScanConfig: { fullScan: { enabled: true } } },
      secretInputs: ["select"],
    });
    const text = [...(result.failures ?? []).map((f) => f.reason), ...notices.map((n) => n.message)].join("\n");
    expect(text).toContain("payments-scan"); // refused
    expect(text).not.toContain("acme/payments-api");
  });
});

describe("ProjectSettingsSet: changedEntries (the dynamic preview --diff)", () => {
  // The dynamic host hands a diff the news with an unknown input as the sentinel string, and
  // changedEntries reads its characters as 36 project names (and every old project as deleted).
  it("a projects map unknown at preview is one entry, not its characters as project names", () => {
    const olds = { deploymentSlug: "acme", projectDigests: { "acme/web-app": "t:0123456789ab" } };
    const entries = handlers.ProjectSettingsSet.changedEntries!(olds, { deploymentSlug: "acme", projects: UNKNOWN });
    expect(entries.map((e) => e.key)).not.toContain("0");
  });
});

describe("ProjectSettingsSet: two sets adding tags to one project, destroyed in one run", () => {
  it("the second delete does not put back the tag the first removed", async () => {
    const base = { deploymentSlug: "acme", select: { namePatterns: ["acme/payments-api"] } };
    const a = await set.create(await checked(set, { ...base, resourceName: "a", settings: { addTags: ["added:a"] } }));
    const b = await set.create(await checked(set, { ...base, resourceName: "b", settings: { addTags: ["added:b"] } }));
    const tags = () => env.emulator.state().projects.find((p) => p.name === "acme/payments-api")!.tags;
    expect(tags()).toEqual(expect.arrayContaining(["added:a", "added:b"]));
    // One destroy: both deletes in one provider process, one after the other.
    await set.delete(a.id, a.outs);
    expect(tags()).not.toContain("added:a");
    await set.delete(b.id, b.outs);
    expect(tags()).not.toContain("added:b");
    expect(tags()).not.toContain("added:a");
  });
});

describe("ProjectSettingsSet: a new set's listing, taken at check", () => {
  // In an `up`, the engine checks every resource as the program registers it, before any step
  // runs: the new set's check lists the projects (claimFirstSelection), and its create, steps
  // later in the same process, plans from that listing. A ProjectTags created in between (its
  // step ran first: a dependsOn, or the engine's order) adds a tag the listing lacks; the set
  // writes the project's whole tag list from the listing.
  // Every project write puts its answer into the cached listing (project-listing.ts noteProjectWritten).
  it("a tag another resource of the run added after the set's check survives the set's create", async () => {
    const projectTags = provider("ProjectTags");
    const inputs = await checked(set, {
      deploymentSlug: "acme",
      resourceName: "apis",
      select: { namePatterns: ["acme/payments-api"] },
      settings: { addTags: ["tier:api"] },
    });
    await projectTags.create(
      await checked(projectTags, { deploymentSlug: "acme", projectName: "acme/payments-api", tags: ["owner:x"], resourceName: "owner" }),
    );
    await set.create(inputs);
    const tags = env.emulator.state().projects.find((p) => p.name === "acme/payments-api")!.tags;
    expect(tags).toContain("tier:api");
    expect(tags).toContain("owner:x");
  });
});

describe("ProjectSettingsSet: delete with nothing to put back", () => {
  // Its delete lists the projects only to name what it leaves: a deployment gone from the service
  // (or out of the token's reach) must not fail a destroy that has nothing to write.
  it("succeeds when the deployment is gone", async () => {
    const outs = {
      deploymentSlug: "nowhere",
      resourceName: "fleet",
      selected: [],
      originals: {},
      deviations: [],
      managedProjects: 1,
      projectDigests: { "nowhere/x": "t:0123456789ab" },
    };
    await expect(set.delete("nowhere/fleet", outs)).resolves.not.toThrow();
  });
});

/**
 * Defects of ProjectSettingsSet the workflow generator found (test/workflows), each reduced to the
 * provider's methods against the emulator and kept as regression tests now that each is fixed.
 */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const set = provider("ProjectSettingsSet");
const settings = provider("ProjectSettings");
const project = (name: string) => env.emulator.state().projects.find((p) => p.name === name)!;
/** Whether some message names the primary branch of `name`. */
const named = (name: string) => notices.some((n) => n.message.includes(name) && /primary branch/i.test(n.message));

describe('ProjectSettingsSet: primaryBranch "None" on a project pinned to its default branch', () => {
  // The service shows a followed branch and one pinned to the same name alike, so neither kind can
  // record the original; ProjectSettings says so (its note names the project and its primary
  // branch), and destroy leaves the project following its default branch.
  it("ProjectSettings: names what destroy will leave", async () => {
    const { id, outs } = await settings.create(
      await checked(settings, { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "None" }),
    );
    expect(project("acme/web-app").primaryBranch).toBeNull(); // was refs/heads/main, its default branch
    forgetProcessMemory();
    await settings.delete(id, outs);
    expect(project("acme/web-app").primaryBranch === "refs/heads/main" || named("acme/web-app")).toBe(true);
  });

  // Found by the workflow generator (native front end, seed 22 with its steps weighted to sets): a
  // selector set with `settings: { primaryBranch: "None" }` lost acme/web-app from its selection;
  // the project stayed following its default branch (the emulator's null), where it was pinned
  // to refs/heads/main before the stack's first up, and no message of any run named it (promise 2).
  it("ProjectSettingsSet: names what destroy will leave, as ProjectSettings does", async () => {
    const { id, outs } = await set.create(
      await checked(set, { deploymentSlug: "acme", resourceName: "follow", projects: { "acme/web-app": { primaryBranch: "None" } } }),
    );
    expect(project("acme/web-app").primaryBranch).toBeNull();
    forgetProcessMemory();
    await set.delete(id, outs);
    expect(project("acme/web-app").primaryBranch === "refs/heads/main" || named("acme/web-app")).toBe(true);
  });
});

describe("ProjectSettingsSet: a selector matching a field another resource declares", () => {
  const managedScan = provider("ManagedScan");

  // Found by the workflow generator (native front end, seed 1714): a ProjectSettings declared
  // mobile-app's primary branch, then a new set selecting `acme/mobile-app` with
  // `settings: { primaryBranch }` was added; `pulumi preview` passed (promise 3, docs/concepts/
  // promises.md: "at preview, naming both, ... for PolicyRuleModes selectors alike"). The set's
  // create refuses it before any write of its own; a PolicyRuleModes selector's check lists the
  // policy when another resource declares rules of it, and is refused at preview.
  it("is refused at check, as a PolicyRuleModes selector is", async () => {
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
    });
    expect((result.failures ?? []).map((f) => f.reason).join("\n")).toContain("payments-scan");
  });
});

/**
 * Ownership in one provider process, as the engine drives it (checks of every resource of the
 * program, then creates and updates, then the deletes of removed resources): conflicts refused at
 * check, a delete that leaves to its new holder what another resource now declares, originals
 * recorded only for what a resource changed, fields dropped from the program, secrets kept out
 * of messages. The same cases through the real CLI: test/e2e/ownership.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { forgetProcessMemory } from "../../provider/dynamic/process-memory";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const settings = provider("ProjectSettings");
const tags = provider("ProjectTags");
const scans = provider("ManagedScan");
const rules = provider("PolicyRuleMode");
const web = { deploymentSlug: "acme", projectName: "acme/web-app" };
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const evalRule = { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL };
const live = (name: string) => env.emulator.state().projects.find((p) => p.name === name)!;
const liveRule = () => env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules.find((r) => r.path === EVAL)!;
const writes = () => env.requests().filter((r) => r.method !== "GET");
const warnings = () => notices.filter((n) => n.severity === "warning").map((n) => n.message);

describe("conflicts, refused at check", () => {
  it("names both resources and the object when two declare the same field", async () => {
    await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "block-eval" });
    const { failures } = await rules.check({ ...evalRule, mode: "MODE_MONITOR", resourceName: "monitor-eval" });
    expect(failures).toEqual([
      {
        property: "mode",
        reason: expect.stringMatching(
          /^PolicyRuleMode "monitor-eval" declares mode of rule python\.lang\.security\.audit\.eval-detected\.eval-detected in policy 10 \(deployment 1\), which PolicyRuleMode "block-eval" declares too\. Declare each field of an object in one resource only/,
        ),
      },
    ]);
  });

  it("refuses ProjectSettings tags beside a ProjectTags, and one toggle in a ProjectSettings and a ManagedScan", async () => {
    await checked(tags, { ...web, tags: ["pci"], resourceName: "web-tags" });
    const settingsCheck = await settings.check({ ...web, tags: ["a"], managedScanConfig: { diffScan: { enabled: true } }, resourceName: "web" });
    expect(settingsCheck.failures).toEqual([{ property: "tags", reason: expect.stringMatching(/^ProjectSettings "web" declares tags of project acme\/web-app \(deployment acme\), which ProjectTags "web-tags" declares too/) }]);
    const scansCheck = await scans.check({ ...web, diffScan: { enabled: false }, resourceName: "web-scans" });
    expect(scansCheck.failures?.[0]).toMatchObject({ property: "diffScan", reason: expect.stringMatching(/which ProjectSettings "web" declares too/) });
  });

  it("lets resources share a project when they declare different fields, and ProjectTags share tags", async () => {
    await checked(settings, { ...web, primaryBranch: "main", resourceName: "branch" });
    await checked(settings, { ...web, managedScanConfig: { fullScan: { enabled: true } }, resourceName: "full-scans" });
    await checked(scans, { ...web, diffScan: { enabled: true }, resourceName: "diff-scans" });
    await checked(tags, { ...web, tags: ["shared", "a"], resourceName: "tags-a" });
    await checked(tags, { ...web, tags: ["shared", "b"], resourceName: "tags-b" });
    // The same resource checked again is not a conflict with itself.
    await checked(tags, { ...web, tags: ["shared", "c"], resourceName: "tags-b" });
  });

  it("cannot judge what is not known yet, and judges it once it is", async () => {
    await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "a" });
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect((await rules.check({ ...evalRule, rulePath: UNKNOWN, mode: "MODE_BLOCK", resourceName: "b" })).failures).toBeUndefined();
    expect((await rules.check({ ...evalRule, mode: "MODE_BLOCK", resourceName: "b" })).failures).toHaveLength(1);
  });
});

describe("a rename without an alias (create of the new resource, then delete of the old one)", () => {
  it("leaves the rule as the program declares it, and tells the original and the alias to add", async () => {
    const old = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "block-eval" }));
    expect(old.outs.originalMode).toBe("MODE_COMMENT");

    // The next `pulumi up`: a new provider process, which checks and creates the renamed resource...
    env.emulator.reset();
    liveRule().policyMode = "MODE_BLOCK";
    forgetProcessMemory();
    const renamed = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "block-eval-renamed" }));
    expect(renamed.outs.originalMode).toBeUndefined();
    expect(notices).toEqual([{ severity: "info", message: expect.stringMatching(/^PolicyRuleMode "block-eval-renamed": the mode of rule .* was already as declared, so there is nothing to put back on delete \(originalMode stays unset\)/) }]);
    // ...then deletes the old one.
    await rules.delete(old.id, old.outs);
    expect(liveRule().policyMode).toBe("MODE_BLOCK");
    expect(writes()).toEqual([]);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^PolicyRuleMode "block-eval" was deleted and left the mode of rule python\..* as it is \(MODE_BLOCK\): PolicyRuleMode "block-eval-renamed", created in this run, declares it now\. Its mode before this stack managed it was MODE_COMMENT; .* If PolicyRuleMode "block-eval-renamed" is PolicyRuleMode "block-eval" renamed, give it `aliases: \[\{ name: "block-eval" \}\]` next time/,
      ),
    ]);
  });

  it("leaves a project's branch and tags, and a ProjectTags' tag, to the renamed resources", async () => {
    const oldSettings = await settings.create(await checked(settings, { ...web, primaryBranch: "develop", tags: ["team:web"], resourceName: "web" }));
    const oldTags = await tags.create(await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"], resourceName: "mobile-tags" }));
    forgetProcessMemory();
    env.emulator.requests().length = 0;
    await settings.create(await checked(settings, { ...web, primaryBranch: "develop", tags: ["team:web"], resourceName: "web-app" }));
    await tags.create(await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"], resourceName: "mobile-app-tags" }));
    await settings.delete(oldSettings.id, oldSettings.outs);
    await tags.delete(oldTags.id, oldTags.outs);
    expect(writes()).toEqual([]);
    expect(live("acme/web-app")).toMatchObject({ primaryBranch: "refs/heads/develop", tags: ["team:web"] });
    expect(live("acme/mobile-app").tags).toEqual(["pci"]);
    expect(warnings()).toEqual([
      expect.stringMatching(/^ProjectSettings "web" .* the primaryBranch of project acme\/web-app .* it was "refs\/heads\/main"/),
      expect.stringMatching(/^ProjectSettings "web" .* the tags of project acme\/web-app .* it was \["team:web","tier:1"\]/),
      expect.stringMatching(/^ProjectTags "mobile-tags" .* the tag "pci" of project acme\/mobile-app .* The project did not have it before this stack added it.*aliases: \[\{ name: "mobile-tags" \}\]/),
    ]);
  });

  it("still puts things back on a delete that nothing else in the run declares", async () => {
    const created = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "block-eval" }));
    forgetProcessMemory(); // destroy is a later run, in a new process
    await rules.delete(created.id, created.outs);
    expect(liveRule().policyMode).toBe("MODE_COMMENT");
  });
});

describe("originals", () => {
  it("records only what the resource changed: a value found as declared has nothing to put back", async () => {
    const inputs = await checked(settings, { ...web, primaryBranch: "main", tags: ["pci"], resourceName: "web" });
    const { outs } = await settings.create(inputs);
    expect(outs).toMatchObject({ originalTags: ["team:web", "tier:1"], managedFields: ["primaryBranch", "tags"] });
    expect(outs.originalPrimaryBranch).toBeUndefined();
    expect(notices.map((n) => n.message)).toEqual([expect.stringMatching(/the primaryBranch of project acme\/web-app \(deployment acme\) was already as declared, .*\(originalPrimaryBranch stays unset\)/)]);
  });

  it("keeps a recorded original while the field stays declared, and drops it, untouched on delete, once it is not", async () => {
    const inputs = await checked(settings, { ...web, tags: ["x"], primaryBranch: "develop", resourceName: "web" });
    const created = await settings.create(inputs);
    const changed = await checked(settings, { ...web, tags: ["x", "y"], primaryBranch: "develop", resourceName: "web" });
    const updated = await settings.update(created.id, created.outs, changed);
    expect(updated.outs.originalTags).toEqual(["team:web", "tier:1"]);

    const withoutTags = await checked(settings, { ...web, primaryBranch: "develop", resourceName: "web" });
    expect(await settings.diff(updated.outs, withoutTags)).toMatchObject({ changes: true, replaces: [] });
    env.emulator.requests().length = 0;
    const dropped = await settings.update(created.id, updated.outs, withoutTags);
    expect(writes()).toEqual([]);
    expect(dropped.outs).toMatchObject({ managedFields: ["primaryBranch"], originalPrimaryBranch: "refs/heads/main" });
    expect(dropped.outs.originalTags).toBeUndefined();
    expect(await settings.diff(dropped.outs, withoutTags)).toMatchObject({ changes: false });

    live("acme/web-app").tags = ["changed-by-someone-else"];
    forgetProcessMemory();
    await settings.delete(created.id, dropped.outs);
    expect(live("acme/web-app")).toMatchObject({ tags: ["changed-by-someone-else"], primaryBranch: "refs/heads/main" });
  });

  it("drops a ManagedScan toggle the program no longer declares, and leaves it alone on delete", async () => {
    const created = await scans.create(await checked(scans, { deploymentSlug: "acme", projectName: "acme/mobile-app", diffScan: { enabled: true }, fullScan: { enabled: true }, resourceName: "s" }));
    const onlyFull = await checked(scans, { deploymentSlug: "acme", projectName: "acme/mobile-app", fullScan: { enabled: true }, resourceName: "s" });
    expect(await scans.diff(created.outs, onlyFull)).toMatchObject({ changes: true });
    const updated = await scans.update(created.id, created.outs, onlyFull);
    expect(updated.outs).toMatchObject({ managedFields: ["fullScan"], originalFullScan: { enabled: false } });
    expect(updated.outs.originalDiffScan).toBeUndefined();
    forgetProcessMemory();
    await scans.delete(created.id, updated.outs);
    expect(live("acme/mobile-app").managedScanConfig).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: false } });
  });

  it("reads state written before managedFields existed by its originals", async () => {
    const oldState = { ...web, tags: ["x"], primaryBranch: "refs/heads/main", defaultBranch: "refs/heads/main", originalTags: ["team:web", "tier:1"] };
    const read = await settings.read("acme/acme/web-app", oldState);
    expect(read.inputs).toEqual({ ...web, tags: ["team:web", "tier:1"] });
    expect(await settings.diff(oldState, { ...web, tags: ["x"] })).toMatchObject({ changes: false });
    expect(await settings.diff(oldState, { ...web, tags: ["x"], resourceName: "web" })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("tags several ProjectTags declare", () => {
  it("stay when one of them is deleted while another of the stack still declares them", async () => {
    const a = await tags.create(await checked(tags, { ...web, tags: ["shared", "a"], resourceName: "tags-a" }));
    const bInputs = await checked(tags, { ...web, tags: ["shared", "b"], resourceName: "tags-b" });
    const b = await tags.create(bInputs);
    expect(b.outs.addedTags).toEqual(["b"]);
    forgetProcessMemory(); // the next `up`: tags-a is gone from the program, tags-b is unchanged
    await checked(tags, bInputs);
    expect(await tags.diff(b.outs, bInputs)).toMatchObject({ changes: false });
    await tags.delete(a.id, a.outs);
    expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "shared", "b"]);
    expect(warnings()).toEqual([expect.stringMatching(/^ProjectTags "tags-a" .* the tag "shared" .*: ProjectTags "tags-b" still declares it/)]);
  });

  it("are put back by the declaring resource when another removed them earlier in the same run", async () => {
    const aInputs = await checked(tags, { ...web, tags: ["shared", "a"], resourceName: "tags-a" });
    const a = await tags.create(aInputs);
    const bInputs = await checked(tags, { ...web, tags: ["shared", "b"], resourceName: "tags-b" });
    const b = await tags.create(bInputs);
    forgetProcessMemory();
    // tags-a drops "shared" and is updated before tags-b's check arrives.
    const aNarrowed = await checked(tags, { ...web, tags: ["a"], resourceName: "tags-a" });
    await tags.update(a.id, a.outs, aNarrowed);
    expect(live("acme/web-app").tags).not.toContain("shared");
    await checked(tags, bInputs);
    expect(await tags.diff(b.outs, bInputs)).toMatchObject({ changes: true });
    const updated = await tags.update(b.id, b.outs, bInputs);
    expect(live("acme/web-app").tags).toContain("shared");
    expect(updated.outs.addedTags).toEqual(["b", "shared"]);
  });
});

describe("secrets", () => {
  it("are never printed: a secret input's values show as [secret] in messages", async () => {
    const old = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_DISABLED", resourceName: "old", secretInputs: ["mode"], originalMode: null }));
    forgetProcessMemory();
    await rules.create(await checked(rules, { ...evalRule, mode: "MODE_DISABLED", resourceName: "new", secretInputs: ["mode"], originalMode: null }));
    await rules.delete(old.id, old.outs);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).not.toMatch(/MODE_DISABLED|MODE_COMMENT/);
    expect(warnings()[0]).toMatch(/as it is \(\[secret\]\).*it was \[secret\]/);
  });
});

describe("case by case", () => {
  it("sends primaryBranch None even when the primary branch already equals the default one", async () => {
    const { outs } = await settings.create(await checked(settings, { ...web, primaryBranch: "None", resourceName: "web" }));
    expect(live("acme/web-app").primaryBranch).toBeNull();
    expect(outs).toMatchObject({ followsDefaultBranch: true, primaryBranch: "refs/heads/main" });
    expect(outs.originalPrimaryBranch).toBeUndefined();
  });

  it("says the deployment does not exist when the slug is not one of the token's", async () => {
    const error = await settings.create(await checked(settings, { deploymentSlug: "1", projectName: "acme/web-app", tags: ["a"] })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/deployment "1" does not exist for this token \(its deployments: "acme" \(id 1\)\); deploymentSlug takes the deployment's slug, not its numeric id/);
    expect(writes()).toEqual([]);
  });

  it("refuses a ManagedScan that declares neither toggle", async () => {
    const { failures } = await scans.check({ ...web });
    expect(failures).toEqual([{ property: "diffScan", reason: "diffScan: declare diffScan, fullScan or both: a ManagedScan without either manages nothing" }]);
  });
});

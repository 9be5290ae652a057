/**
 * Ownership in one provider process, as the engine drives it (checks of every resource of the
 * program, then creates and updates, then the deletes of removed resources): conflicts refused at
 * check, a delete that leaves to its new holder what another resource now declares, originals
 * recorded only for what a resource changed, fields dropped from the program, secrets kept out
 * of messages. Every scenario runs through both front ends (the dynamic provider's host and the
 * native plugin). The same cases through the real CLI: test/e2e/ownership.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { ProjectTags } from "../../provider/dynamic/resources";
import { checked, FRONT_END_TRAITS, FRONT_ENDS, inStackWithHistory, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const web = { deploymentSlug: "acme", projectName: "acme/web-app" };
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const evalRule = { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL };
const live = (name: string) => env.emulator.state().projects.find((p) => p.name === name)!;
const liveRule = () =>
  env.emulator
    .state()
    .policies.find((p) => p.id === SAST_POLICY_ID)!
    .rules.find((r) => r.path === EVAL)!;
const writes = () => env.requests().filter((r) => r.method !== "GET");
const warnings = () => notices.filter((n) => n.severity === "warning").map((n) => n.message);

/** Every scenario through each front end: the dynamic provider's host and the native plugin (test/support/native.ts). */
describe.each(FRONT_ENDS)("%s front end", (frontEnd) => {
  const settings = provider("ProjectSettings", frontEnd);
  const tags = provider("ProjectTags", frontEnd);
  const scans = provider("ManagedScan", frontEnd);
  const rules = provider("PolicyRuleMode", frontEnd);
  const traits = FRONT_END_TRAITS[frontEnd];

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
      const settingsCheck = await settings.check({ ...web, tags: ["a"], resourceName: "web" });
      expect(settingsCheck.failures).toEqual([
        {
          property: "tags",
          reason: expect.stringMatching(
            /^ProjectSettings "web" declares tags of project acme\/web-app \(deployment acme\), which ProjectTags "web-tags" declares too/,
          ),
        },
      ]);
      await checked(settings, { ...web, managedScanConfig: { diffScan: { enabled: true } }, resourceName: "web-scans-config" });
      const scansCheck = await scans.check({ ...web, diffScan: { enabled: false }, resourceName: "web-scans" });
      expect(scansCheck.failures).toEqual([
        { property: "diffScan", reason: expect.stringMatching(/which ProjectSettings "web-scans-config" declares too/) },
      ]);
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
      inStackWithHistory(); // the stack's other resources
      const renamed = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "block-eval-renamed" }));
      expect(renamed.outs.originalMode).toBeUndefined();
      expect(notices).toEqual([
        {
          severity: "info",
          message: expect.stringMatching(
            /^PolicyRuleMode "block-eval-renamed": the mode of rule .* was already as declared, so there is nothing to put back on delete \(originalMode stays unset\)/,
          ),
        },
      ]);
      // ...then deletes the old one.
      await rules.delete(old.id, old.outs);
      expect(liveRule().policyMode).toBe("MODE_BLOCK");
      expect(writes()).toEqual([]);
      expect(warnings()).toEqual([
        expect.stringMatching(
          /^PolicyRuleMode "block-eval" was deleted and left the mode of rule python\..* to PolicyRuleMode "block-eval-renamed", which was created in this run and declares MODE_BLOCK\. Before this stack managed it, it was MODE_COMMENT\. PolicyRuleMode "block-eval-renamed" found the value as it declares it and recorded no original, so destroying it will leave the value as it is\. If PolicyRuleMode "block-eval-renamed" is PolicyRuleMode "block-eval" renamed or moved, give it `aliases: \[\{ name: "block-eval" \}\]` \(in a YAML program/,
        ),
      ]);
    });

    it("leaves a project's branch and tags, and a ProjectTags' tag, to the renamed resources", async () => {
      const oldSettings = await settings.create(
        await checked(settings, { ...web, primaryBranch: "develop", tags: ["team:web"], resourceName: "web" }),
      );
      const oldTags = await tags.create(
        await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"], resourceName: "mobile-tags" }),
      );
      forgetProcessMemory();
      env.emulator.requests().length = 0;
      await settings.create(await checked(settings, { ...web, primaryBranch: "develop", tags: ["team:web"], resourceName: "web-app" }));
      await tags.create(
        await checked(tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["pci"], resourceName: "mobile-app-tags" }),
      );
      await settings.delete(oldSettings.id, oldSettings.outs);
      await tags.delete(oldTags.id, oldTags.outs);
      expect(writes()).toEqual([]);
      expect(live("acme/web-app")).toMatchObject({ primaryBranch: "refs/heads/develop", tags: ["team:web", "managed-scan"] });
      expect(live("acme/mobile-app").tags).toEqual(["pci"]);
      expect(warnings()).toEqual([
        expect.stringMatching(/^ProjectSettings "web" .* the primaryBranch of project acme\/web-app .* it was "refs\/heads\/main"/),
        expect.stringMatching(/^ProjectSettings "web" .* the tags of project acme\/web-app .* it was \["team:web","tier:1"\]/),
        expect.stringMatching(
          /^ProjectTags "mobile-tags" .* the tag "pci" of project acme\/mobile-app .* Before this stack managed it, it was absent\..*aliases: \[\{ name: "mobile-tags" \}\]/,
        ),
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
    it("says nothing of a value found as declared in a stack's first up (no resource with state met in the run)", async () => {
      const { outs } = await settings.create(await checked(settings, { ...web, primaryBranch: "main", resourceName: "web" }));
      expect(outs.originalPrimaryBranch).toBeUndefined();
      expect(notices.map((n) => n.message)).toEqual([
        expect.stringMatching(/^ProjectSettings "web" and maybe other resources of this run found values already as declared/),
      ]);
    });

    it("records only what the resource changed: a value found as declared has nothing to put back", async () => {
      inStackWithHistory();
      const inputs = await checked(settings, { ...web, primaryBranch: "main", tags: ["pci"], resourceName: "web" });
      const { outs } = await settings.create(inputs);
      expect(outs).toMatchObject({ originalTags: ["team:web", "tier:1"], managedFields: ["primaryBranch", "tags"] });
      expect(outs.originalPrimaryBranch).toBeUndefined();
      expect(notices.map((n) => n.message)).toEqual([
        expect.stringMatching(
          /the primaryBranch of project acme\/web-app \(deployment acme\) was already as declared, .*\(originalPrimaryBranch stays unset\)/,
        ),
      ]);
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
      const created = await scans.create(
        await checked(scans, {
          deploymentSlug: "acme",
          projectName: "acme/mobile-app",
          diffScan: { enabled: true },
          fullScan: { enabled: true },
          resourceName: "s",
        }),
      );
      const onlyFull = await checked(scans, {
        deploymentSlug: "acme",
        projectName: "acme/mobile-app",
        fullScan: { enabled: true },
        resourceName: "s",
      });
      expect(await scans.diff(created.outs, onlyFull)).toMatchObject({ changes: true });
      const updated = await scans.update(created.id, created.outs, onlyFull);
      expect(updated.outs).toMatchObject({ managedFields: ["fullScan"], originalFullScan: { enabled: false } });
      expect(updated.outs.originalDiffScan).toBeUndefined();
      forgetProcessMemory();
      await scans.delete(created.id, updated.outs);
      expect(live("acme/mobile-app").managedScanConfig).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: false } });
    });

    it("reads state written before managedFields existed by its originals", async () => {
      const oldState = {
        ...web,
        tags: ["x"],
        primaryBranch: "refs/heads/main",
        defaultBranch: "refs/heads/main",
        originalTags: ["team:web", "tier:1"],
      };
      const read = await settings.read("acme/acme/web-app", oldState);
      expect(read.inputs).toEqual({ ...web, tags: ["team:web", "tier:1"] });
      expect(await settings.diff(oldState, { ...web, tags: ["x"] })).toMatchObject({ changes: false });
      // A dynamic state that predates the meta inputs is updated once to hold them; a native state never holds them.
      expect(await settings.diff(oldState, { ...web, tags: ["x"], resourceName: "web" })).toMatchObject({
        changes: traits.metaInState,
        replaces: [],
      });
    });
  });

  describe("tags several ProjectTags declare", () => {
    it("stay when one of them is deleted while another of the stack still declares them", async () => {
      const a = await tags.create(await checked(tags, { ...web, tags: ["shared", "a"], resourceName: "tags-a" }));
      const bInputs = await checked(tags, { ...web, tags: ["shared", "b"], resourceName: "tags-b" });
      const b = await tags.create(bInputs);
      expect(b.outs.addedTags).toEqual(["b", "shared"]); // tags-a added "shared" in this run: the stack's own
      forgetProcessMemory(); // the next `up`: tags-a is gone from the program, tags-b is unchanged
      await checked(tags, bInputs);
      expect(await tags.diff(b.outs, bInputs)).toMatchObject({ changes: false });
      await tags.delete(a.id, a.outs);
      expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan", "shared", "b"]);
      expect(warnings()).toEqual([
        expect.stringMatching(
          /^ProjectTags "tags-a" was deleted and left the tag "shared" of project acme\/web-app \(deployment acme\) to ProjectTags "tags-b", which declares it\./,
        ),
      ]);
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
      const old = await rules.create(
        await checked(rules, { ...evalRule, mode: "MODE_DISABLED", resourceName: "old", secretInputs: ["mode"], originalMode: null }),
      );
      forgetProcessMemory();
      await rules.create(
        await checked(rules, { ...evalRule, mode: "MODE_DISABLED", resourceName: "new", secretInputs: ["mode"], originalMode: null }),
      );
      await rules.delete(old.id, old.outs);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).not.toMatch(/MODE_DISABLED|MODE_COMMENT/);
      expect(warnings()[0]).toMatch(/declares \[secret\]\. Before this stack managed it, it was \[secret\]/);
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
      const error = await settings
        .create(await checked(settings, { deploymentSlug: "1", projectName: "acme/web-app", tags: ["a"] }))
        .catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        /deployment "1" does not exist for this token \(its deployments: "acme" \(id 1\)\); deploymentSlug takes the deployment's slug, not its numeric id/,
      );
      expect(writes()).toEqual([]);
    });

    it("refuses a ManagedScan that declares neither toggle", async () => {
      const { failures } = await scans.check({ ...web });
      expect(failures).toEqual([
        { property: "diffScan", reason: "diffScan: declare diffScan, fullScan or both: a ManagedScan without either manages nothing" },
      ]);
    });
  });

  describe("defects found in review, each a regression test", () => {
    const newRun = () => forgetProcessMemory();

    it("a ProjectTags removed while a ProjectSettings starts declaring the whole set leaves the tags that set holds", async () => {
      const a = await tags.create(await checked(tags, { ...web, tags: ["x"], resourceName: "web-tags" }));
      newRun();
      await settings.create(await checked(settings, { ...web, tags: ["x", "y"], resourceName: "web" }));
      await tags.delete(a.id, a.outs);
      expect(live("acme/web-app").tags).toEqual(["x", "y", "managed-scan"]); // the system tag stays, as on the service
      expect(warnings()).toEqual([
        expect.stringMatching(
          /^ProjectTags "web-tags" was deleted and left the tag "x" .* to ProjectSettings "web", which was created in this run/,
        ),
      ]);
    });

    it("a ProjectSettings whose tag set ProjectTags take over puts back the set it found plus the tags they declare", async () => {
      const s = await settings.create(await checked(settings, { ...web, tags: ["a", "b"], resourceName: "web" }));
      newRun();
      await tags.create(await checked(tags, { ...web, tags: ["c"], resourceName: "web-tags" }));
      await settings.delete(s.id, s.outs);
      expect(live("acme/web-app").tags).toEqual(["team:web", "tier:1", "c", "managed-scan"]);
      expect(notices.map((n) => n.message)).toContainEqual(
        expect.stringMatching(
          /ProjectSettings "web" was deleted: it put back the tags of project acme\/web-app .* it found, and kept "c", which ProjectTags of the stack declare/,
        ),
      );
    });

    it("a tag released by one ProjectTags and declared by another created later in the run ends present", async () => {
      const a = await tags.create(await checked(tags, { ...web, tags: ["x", "y"], resourceName: "tags-a" }));
      newRun();
      await tags.update(a.id, a.outs, await checked(tags, { ...web, tags: ["y"], resourceName: "tags-a" }));
      const d = await tags.create(await checked(tags, { ...web, tags: ["x"], resourceName: "tags-d" }));
      expect(live("acme/web-app").tags).toContain("x");
      expect(d.outs.addedTags).toEqual(["x"]);
    });

    it("a rename that also changes the value says truthfully what the new resource recorded and what its destroy will do", async () => {
      const old = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "a" }));
      newRun();
      const renamed = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_MONITOR", resourceName: "b" }));
      expect(renamed.outs.originalMode).toBe("MODE_BLOCK");
      await rules.delete(old.id, old.outs);
      expect(liveRule().policyMode).toBe("MODE_MONITOR");
      expect(warnings()[0]).toMatch(
        /to PolicyRuleMode "b", which was created in this run and declares MODE_MONITOR\. Before this stack managed it, it was MODE_COMMENT\. PolicyRuleMode "b" recorded MODE_BLOCK, the value it found, as its original, so destroying it will put MODE_BLOCK back, not MODE_COMMENT\./,
      );
    });

    it("tells apart children of the same name under different parents", async () => {
      await checked(rules, {
        ...evalRule,
        mode: "MODE_BLOCK",
        resourceName: "eval",
        resourceParent: "urn:pulumi:dev::p::acme:AppSec::appsec",
      });
      const { failures } = await rules.check({
        ...evalRule,
        mode: "MODE_MONITOR",
        resourceName: "eval",
        resourceParent: "urn:pulumi:dev::p::acme:Platform::platform",
      });
      // The native front end knows the parent's type only (the engine's URN), which tells them apart too.
      const childOf = (type: string, name: string) => (traits.parentNames ? `${type} "${name}"` : `an ${type}`);
      expect(failures?.[0]?.reason).toMatch(
        new RegExp(
          `^PolicyRuleMode "eval" \\(child of ${childOf("acme:Platform", "platform")}\\) declares mode of .*, ` +
            `which PolicyRuleMode "eval" \\(child of ${childOf("acme:AppSec", "appsec")}\\) declares too`,
        ),
      );
    });

    it("pins the primary branch when the program goes from None to the default branch's name", async () => {
      const inputs = await checked(settings, { ...web, primaryBranch: "None", resourceName: "web" });
      const created = await settings.create(inputs);
      expect(live("acme/web-app").primaryBranch).toBeNull();
      const pinned = await checked(settings, { ...web, primaryBranch: "main", resourceName: "web" });
      expect(await settings.diff(created.outs, pinned)).toMatchObject({ changes: true });
      const updated = await settings.update(created.id, created.outs, pinned);
      expect(live("acme/web-app").primaryBranch).toBe("refs/heads/main");
      expect(updated.outs.followsDefaultBranch).toBeUndefined();
      expect(await settings.diff(updated.outs, pinned)).toMatchObject({ changes: false });
    });

    it("says a ProjectTags stopped declaring a tag, not that it was deleted, when another resource keeps it", async () => {
      const a = await tags.create(await checked(tags, { ...web, tags: ["x", "y"], resourceName: "tags-a" }));
      newRun();
      await checked(tags, { ...web, tags: ["x"], resourceName: "tags-b" });
      await tags.update(a.id, a.outs, await checked(tags, { ...web, tags: ["y"], resourceName: "tags-a" }));
      expect(live("acme/web-app").tags).toContain("x");
      expect(warnings()).toEqual([
        expect.stringMatching(/^ProjectTags "tags-a" stopped declaring a tag and left the tag "x" .* to ProjectTags "tags-b"/),
      ]);
    });

    it("sets the value an unchanged holder declares when the service has the deleted resource's value", async () => {
      // "b" wrote MONITOR in an earlier run while "a" (which declares BLOCK) was refused; now "b" is removed.
      const b = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_MONITOR", resourceName: "b" }));
      newRun();
      const aInputs = await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "a" });
      const aState = { ...aInputs, mode: "MODE_BLOCK", originalMode: "MODE_COMMENT" };
      expect(await rules.diff(aState, aInputs)).toMatchObject({ changes: false });
      await rules.delete(b.id, b.outs);
      expect(liveRule().policyMode).toBe("MODE_BLOCK");
      expect(warnings()[0]).toMatch(
        /^PolicyRuleMode "b" was deleted and set the mode of .* to MODE_BLOCK, which PolicyRuleMode "a" declares and its state holds, but the service no longer had\./,
      );
      expect(warnings()[0]).toMatch(/PolicyRuleMode "a" has recorded MODE_COMMENT, which destroying it will put back\./);
    });

    it("names no property, and prints no value, when a secret input is invalid (the engine would print the property's value)", async () => {
      const { failures } = await rules.check({ ...evalRule, mode: "BLOCK", resourceName: "r", secretInputs: ["mode"] });
      expect(failures).toEqual([
        { property: "", reason: "mode: [secret]: must be one of MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED" },
      ]);
      await checked(tags, { ...web, tags: ["x"], resourceName: "t" });
      const conflict = await settings.check({ ...web, tags: ["codename"], resourceName: "s", secretInputs: ["tags"] });
      expect(conflict.failures).toEqual([{ property: "", reason: expect.stringMatching(/^ProjectSettings "s" declares tags of/) }]);
    });

    it("reads back, without drift, exactly the inputs the class passed, metadata and secret placeholders included", async () => {
      for (const [calls, declared] of [
        [rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "r", secretInputs: ["mode"], originalMode: null }],
        [
          settings,
          {
            ...web,
            primaryBranch: "None",
            tags: ["pci"],
            resourceName: "s",
            resourceParent: "urn:pulumi:dev::p::acme:Team::web",
            secretInputs: ["tags"],
            originalTags: null,
          },
        ],
        [tags, { deploymentSlug: "acme", projectName: "acme/mobile-app", tags: ["x"], resourceName: "t", restoreOnDelete: false }],
        [scans, { deploymentSlug: "acme", projectName: "acme/mobile-app", fullScan: { enabled: true }, resourceName: "m" }],
      ] as const) {
        newRun();
        const inputs = await checked(calls, declared);
        const { id, outs } = await calls.create(inputs);
        newRun();
        expect((await calls.read(id, outs)).inputs).toEqual(inputs);
      }
    });

    it("gives each resource its own error when one failed read is shared by many", async () => {
      const missing = ["one", "two", "three"].map((name) => ({
        deploymentId: "1",
        policyId: "999",
        rulePath: `a.${name}`,
        mode: "MODE_BLOCK",
        resourceName: name,
      }));
      const errors = await Promise.all(
        missing.map(async (declared) =>
          rules.create(await checked(rules, declared)).then(
            () => "",
            (e: Error) => e.message,
          ),
        ),
      );
      for (const [i, message] of errors.entries()) {
        expect(message).toMatch(new RegExp(`^PolicyRuleMode a\\.${missing[i]!.resourceName} in policy 999: policy 999 does not exist`));
        expect(message.match(/PolicyRuleMode a\./g)).toHaveLength(1);
      }
    });
  });

  describe("defects found in the second review", () => {
    it("names no property when the ProjectTags side of a conflict is the secret one", async () => {
      await checked(settings, { ...web, tags: ["a"], resourceName: "s" });
      const { failures } = await tags.check({ ...web, tags: ["codename"], resourceName: "t", secretInputs: ["tags"] });
      expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^ProjectTags "t" declares tags of/) }]);
    });

    it("drops from the outputs an input the program no longer declares (restoreOnDelete), so the next diff is quiet", async () => {
      const created = await rules.create(
        await checked(rules, { ...evalRule, mode: "MODE_BLOCK", restoreOnDelete: false, resourceName: "r" }),
      );
      const without = await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "r" });
      expect(await rules.diff(created.outs, without)).toMatchObject({ changes: true });
      const updated = await rules.update(created.id, created.outs, without);
      expect(updated.outs).not.toHaveProperty("restoreOnDelete");
      expect(updated.outs).toMatchObject({ originalMode: "MODE_COMMENT", severity: "SEVERITY_HIGH" });
      expect(await rules.diff(updated.outs, without)).toMatchObject({ changes: false });
    });

    it("says what the renamed resource recorded when the service drifted back to the original before the rename", async () => {
      const old = await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "a" }));
      liveRule().policyMode = "MODE_COMMENT"; // reverted by hand
      forgetProcessMemory();
      await rules.create(await checked(rules, { ...evalRule, mode: "MODE_BLOCK", resourceName: "b" }));
      await rules.delete(old.id, old.outs);
      expect(warnings()[0]).toMatch(
        /PolicyRuleMode "b" recorded MODE_COMMENT as its original too, so destroying it will put MODE_COMMENT back\./,
      );
    });
  });

  describe("defects found in the second user trial", () => {
    it("two ProjectTags adding one new tag in a run both count it as added, whichever reads the project second", async () => {
      const a = await tags.create(await checked(tags, { ...web, tags: ["shared", "a"], resourceName: "tags-a" }));
      const b = await tags.create(await checked(tags, { ...web, tags: ["shared", "b"], resourceName: "tags-b" }));
      expect([a.outs.addedTags, b.outs.addedTags]).toEqual([
        ["shared", "a"],
        ["b", "shared"],
      ]);
      expect(notices).toEqual([]);
    });

    it("keeps ProjectTags.projectTags an output of the class", async () => {
      await pulumi.runtime.setMocks({ newResource: (args) => ({ id: args.name, state: args.inputs }), call: () => ({}) });
      const resource = new ProjectTags("t", { ...web, tags: ["x"] });
      expect(pulumi.Output.isInstance(resource.projectTags)).toBe(true);
    });
  });
});

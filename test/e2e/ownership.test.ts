/**
 * Ownership through the real CLI, with the packed package: what users do with Pulumi that breaks
 * naive providers. Renames without an alias, re-adoption after `pulumi state delete`, fields
 * dropped from the program, tags shared by several ProjectTags, and two resources declaring one
 * field (issue 8, cases 1 to 5). After each, the service is as the program declares, a refreshed
 * preview shows no change, and no original in state is one this stack wrote.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace, urnOf } from "../support/program";

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const rule = `{ deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${EVAL}" }`;
const web = `{ deploymentSlug: "acme", projectName: "acme/web-app" }`;
const mobile = `{ deploymentSlug: "acme", projectName: "acme/mobile-app" }`;

const emulators = useEmulators({ preset: "demo" });
let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await emulators.start();
});

const project = (name: string) => emulator.state().projects.find((p) => p.name === name)!;
const evalMode = () =>
  emulator
    .state()
    .policies.find((p) => p.id === SAST_POLICY_ID)!
    .rules.find((r) => r.path === EVAL)!.policyMode;
const writes = () => emulator.requests().filter((r) => r.method !== "GET");

describe("a rename without an alias", () => {
  /** The program, its resources named with `suffix`, each with an alias to its name without it when `aliased`. */
  const resources = (suffix: string, aliased = false) => {
    const opts = (name: string) => (aliased ? `, { aliases: [{ name: "${name}" }] }` : "");
    return program(`
new semgrep.PolicyRuleMode("block-eval${suffix}", { ...${rule}, mode: "MODE_BLOCK" }${opts("block-eval")});
new semgrep.ProjectSettings("web${suffix}", { ...${web}, primaryBranch: "develop", tags: ["team:web", "owner:appsec"] }${opts("web")});
new semgrep.ProjectTags("mobile-tags${suffix}", { ...${mobile}, tags: ["pci"] }${opts("mobile-tags")});
`);
  };

  it("leaves the service as the program declares, and says what changed owner, the originals and the alias to add", async () => {
    const workspace = await programWorkspace(emulator, resources(""));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(evalMode()).toBe("MODE_BLOCK");

    workspace.write(resources("-renamed"));
    const up = printed(await workspace.run(["up", "--yes"]));
    expect(evalMode()).toBe("MODE_BLOCK");
    // managed-scan: the system tag of a project with managed scans, which the service keeps whatever a write sends.
    expect(project("acme/web-app")).toMatchObject({
      primaryBranch: "refs/heads/develop",
      tags: ["team:web", "owner:appsec", "managed-scan"],
    });
    expect(project("acme/mobile-app").tags).toEqual(["pci"]);
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);

    expect(up).toContain(
      'warning: PolicyRuleMode "block-eval" was deleted and left the mode of rule python.lang.security.audit.eval-detected.eval-detected in policy 10 (deployment 1) ' +
        'to PolicyRuleMode "block-eval-renamed", which was created in this run and declares MODE_BLOCK. Before this stack managed it, it was MODE_COMMENT. ' +
        'PolicyRuleMode "block-eval-renamed" found the value as it declares it and recorded no original, so destroying it will leave the value as it is.',
    );
    expect(up).toContain('give it `aliases: [{ name: "block-eval" }]` (in a YAML program');
    expect(up).toMatch(
      /ProjectSettings "web" was deleted and left the primaryBranch of project acme\/web-app \(deployment acme\) to ProjectSettings "web-renamed", which was created in this run and declares "refs\/heads\/develop"\. Before this stack managed it, it was "refs\/heads\/main"/,
    );
    expect(up).toMatch(
      /ProjectSettings "web" was deleted and left the tags of project acme\/web-app .* Before this stack managed it, it was \["team:web","tier:1"\]/,
    );
    expect(up).toMatch(
      /ProjectTags "mobile-tags" was deleted and left the tag "pci" of project acme\/mobile-app .* Before this stack managed it, it was absent\..*aliases: \[\{ name: "mobile-tags" \}\]/,
    );

    // The renamed resources claim no original they cannot know: none was recorded.
    const state = await workspace.resources();
    expect(state["block-eval-renamed"]!.outputs.originalMode).toBeUndefined();
    expect(state["web-renamed"]!.outputs).not.toHaveProperty("originalPrimaryBranch");
    expect(state["mobile-tags-renamed"]!.outputs.addedTags).toEqual([]);
  }, 180_000);

  it("keeps the originals, and makes no request, when the rename has an alias", async () => {
    const workspace = await programWorkspace(emulator, resources(""));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const before = emulator.requests().length;
    workspace.write(resources("-renamed", true));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(emulator.requests().length).toBe(before);
    const state = await workspace.resources();
    expect(Object.keys(state).sort()).toEqual(["block-eval-renamed", "mobile-tags-renamed", "web-renamed"]);
    expect(state["block-eval-renamed"]!.outputs).toMatchObject({ originalMode: "MODE_COMMENT", resourceName: "block-eval-renamed" });
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(evalMode()).toBe("MODE_COMMENT");
    expect(project("acme/web-app")).toMatchObject({ primaryBranch: "refs/heads/main", tags: ["team:web", "tier:1", "managed-scan"] });
    expect(project("acme/mobile-app").tags).toEqual([]);
  }, 180_000);
});

describe("re-adopting what this stack set", () => {
  it("after `pulumi state delete` and `up`, records no original and says why", async () => {
    // Another resource of the stack, which stays (and comes first): the run meets state of the
    // stack, so the note prints (a stack's first up says nothing: settling-and-notes.test.ts).
    const workspace = await programWorkspace(
      emulator,
      program(`new semgrep.ProjectTags("stays", { ...${mobile}, tags: ["stays"] });
new semgrep.PolicyRuleMode("block-eval", { ...${rule}, mode: "MODE_BLOCK" });`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await workspace.run(["state", "delete", urnOf("PolicyRuleMode", "block-eval"), "--yes"]);
    // As on another machine (the whole create dropped its journal already).
    rmSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep"), { recursive: true, force: true });
    const up = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(up).toMatch(
      /PolicyRuleMode "block-eval": the mode of rule .* was already as declared, so there is nothing to put back on delete \(originalMode stays unset\)\. If this stack set it \(in an interrupted `pulumi up`, before `pulumi state delete`.*this resource cannot know what was there before/,
    );
    const state = await workspace.resources();
    expect(state["block-eval"]!.outputs).not.toHaveProperty("originalMode");
    // Destroy claims nothing: it leaves the mode rather than "restoring" the one this stack set.
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(writes().filter((r) => r.operation === "policies.updateRuleMode")).toHaveLength(1);
  }, 180_000);
});

describe("a field removed from the program", () => {
  it("is no longer touched, not by that up and not by destroy", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`
new semgrep.ProjectSettings("web", { ...${web}, primaryBranch: "develop", tags: ["x"] });
new semgrep.ManagedScan("mobile-scans", { ...${mobile}, diffScan: { enabled: true }, fullScan: { enabled: true } });
`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(project("acme/web-app").tags).toEqual(["x", "managed-scan"]);

    workspace.write(
      program(`
new semgrep.ProjectSettings("web", { ...${web}, primaryBranch: "develop" });
new semgrep.ManagedScan("mobile-scans", { ...${mobile}, fullScan: { enabled: true } });
`),
    );
    const writesBefore = writes().length;
    const up = await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(/~ 2 updated/);
    expect(writes().length).toBe(writesBefore);
    const state = await workspace.resources();
    expect(state.web!.outputs).toMatchObject({ managedFields: ["primaryBranch"], originalPrimaryBranch: "refs/heads/main" });
    expect(state.web!.outputs).not.toHaveProperty("originalTags");
    expect(state["mobile-scans"]!.outputs).not.toHaveProperty("originalDiffScan");

    // Someone else changes what the stack no longer manages; destroy leaves it.
    project("acme/web-app").tags = ["set-by-someone-else"];
    project("acme/mobile-app").managedScanConfig.diff_scan.enabled = true;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(project("acme/web-app")).toMatchObject({ tags: ["set-by-someone-else"], primaryBranch: "refs/heads/main" });
    expect(project("acme/mobile-app").managedScanConfig).toEqual({ diff_scan: { enabled: true }, full_scan: { enabled: false } });
  }, 180_000);
});

describe("two ProjectTags sharing a tag", () => {
  it("keep it when one of them is removed, and the other's state stays true", async () => {
    const both = program(`
new semgrep.ProjectTags("compliance", { ...${mobile}, tags: ["shared", "soc2"] });
new semgrep.ProjectTags("ownership", { ...${mobile}, tags: ["shared", "owner:appsec"] });
`);
    const workspace = await programWorkspace(emulator, both);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(project("acme/mobile-app").tags.sort()).toEqual(["owner:appsec", "shared", "soc2"]);

    workspace.write(program(`new semgrep.ProjectTags("ownership", { ...${mobile}, tags: ["shared", "owner:appsec"] });`));
    const up = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(project("acme/mobile-app").tags.sort()).toEqual(["owner:appsec", "shared"]);
    expect(up).toMatch(
      /ProjectTags "compliance" was deleted and left the tag "shared" of project acme\/mobile-app \(deployment acme\) to ProjectTags "ownership", which declares it\./,
    );
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
  }, 180_000);
});

describe("one field declared twice", () => {
  const cases: Array<[string, string, RegExp]> = [
    // The engine checks resources in the order their registrations arrive, not always the program's.
    [
      "two PolicyRuleMode on one rule",
      `new semgrep.PolicyRuleMode("block-eval", { ...${rule}, mode: "MODE_BLOCK" });\nnew semgrep.PolicyRuleMode("monitor-eval", { ...${rule}, mode: "MODE_MONITOR" });`,
      /PolicyRuleMode "(block|monitor)-eval" declares mode of rule python\.lang\.security\.audit\.eval-detected\.eval-detected in policy 10 \(deployment 1\), which PolicyRuleMode "(?!\1)(block|monitor)-eval" declares too/,
    ],
    [
      "two ProjectSettings on one project's branch",
      `new semgrep.ProjectSettings("web", { ...${web}, primaryBranch: "main" });\nnew semgrep.ProjectSettings("web-release", { ...${web}, primaryBranch: "release" });`,
      /ProjectSettings "(web|web-release)" declares primaryBranch of project acme\/web-app \(deployment acme\), which ProjectSettings "(?!\1")(web|web-release)" declares too/,
    ],
    [
      "ProjectSettings tags beside a ProjectTags",
      `new semgrep.ProjectSettings("web", { ...${web}, tags: ["team:web"] });\nnew semgrep.ProjectTags("web-pci", { ...${web}, tags: ["pci"] });`,
      /(ProjectTags "web-pci" declares tags of project acme\/web-app \(deployment acme\), which ProjectSettings "web" declares too|ProjectSettings "web" declares tags of project acme\/web-app \(deployment acme\), which ProjectTags "web-pci" declares too)/,
    ],
  ];

  it.each(cases)(
    "%s fails at preview, naming both resources and the object, with no request",
    async (_name, body, message) => {
      const workspace = await programWorkspace(emulator, program(body));
      const preview = await workspace.run(["preview"], { allowFailure: true });
      expect(preview.status).not.toBe(0);
      expect(printed(preview)).toMatch(message);
      expect(emulator.requests()).toEqual([]);
    },
    120_000,
  );

  it("in an up without preview, the later resource is refused before its own write", async () => {
    const workspace = await programWorkspace(emulator, program(cases[0]![1]));
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    const [, refused] = printed(up).match(cases[0]![2])!;
    expect(writes().map((r) => r.operation)).toEqual(["policies.updateRuleMode"]);
    expect(evalMode()).toBe(refused === "block" ? "MODE_MONITOR" : "MODE_BLOCK");
    expect(Object.keys(await workspace.resources())).toEqual([refused === "block" ? "monitor-eval" : "block-eval"]);
  }, 120_000);

  it("when one declaration takes an output known only once the other is applied, preview cannot tell, and up refuses the later resource before its write", async () => {
    // The project's name comes from the other resource's live answer (here its numeric id, looked up).
    const body = `
const web = new semgrep.ProjectSettings("web", { ...${web}, primaryBranch: "main" });
new semgrep.ProjectSettings("web-release", { deploymentSlug: "acme", projectName: web.projectId.apply((id) => ({ 101: "acme/web-app" })[id]), primaryBranch: "release" });
`;
    const workspace = await programWorkspace(emulator, program(body));
    await workspace.run(["preview"]);
    const up = await workspace.run(["up", "--yes"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(
      /ProjectSettings "web-release" declares primaryBranch of project acme\/web-app \(deployment acme\), which ProjectSettings "web" declares too/,
    );
    expect(project("acme/web-app").primaryBranch).toBe("refs/heads/main");
    expect(writes()).toEqual([]); // "web" found its branch as declared; "web-release" never wrote
  }, 120_000);
});

describe("what users found (each a regression test)", () => {
  it("tells apart components' children of the same name, and refuses their conflict at preview", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`
class Team extends pulumi.ComponentResource {
  constructor(type, name, mode, opts) {
    super(type, name, {}, opts);
    new semgrep.PolicyRuleMode("eval", { ...${rule}, mode }, { parent: this });
    this.registerOutputs({});
  }
}
new Team("acme:AppSec", "appsec", "MODE_BLOCK");
new Team("acme:Platform", "platform", "MODE_MONITOR");
`),
    );
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toMatch(
      /PolicyRuleMode "eval" \(child of acme:(AppSec "appsec"|Platform "platform")\) declares mode of rule .*, which PolicyRuleMode "eval" \(child of acme:(AppSec "appsec"|Platform "platform")\) declares too/,
    );
    expect(emulator.requests()).toEqual([]);
  }, 120_000);

  it("after a conflict written by an up without preview, removing one side leaves the service as the other declares", async () => {
    const a = `new semgrep.PolicyRuleMode("a", { ...${rule}, mode: "MODE_BLOCK" });`;
    const workspace = await programWorkspace(emulator, program(a));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    workspace.write(program(`new semgrep.PolicyRuleMode("b", { ...${rule}, mode: "MODE_MONITOR" });\n${a}`));
    expect((await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true })).status).not.toBe(0);
    workspace.write(program(a));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(evalMode()).toBe("MODE_BLOCK");
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
  }, 180_000);

  it("a rename that also changes the value says what the renamed resource recorded, and its destroy does as said", async () => {
    const workspace = await programWorkspace(emulator, program(`new semgrep.PolicyRuleMode("a", { ...${rule}, mode: "MODE_BLOCK" });`));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    workspace.write(program(`new semgrep.PolicyRuleMode("b", { ...${rule}, mode: "MODE_MONITOR" });`));
    const up = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(evalMode()).toBe("MODE_MONITOR");
    expect(up).toContain(
      'PolicyRuleMode "b" recorded MODE_BLOCK, the value it found, as its original, so destroying it will put MODE_BLOCK back, not MODE_COMMENT.',
    );
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(evalMode()).toBe("MODE_BLOCK");
  }, 180_000);

  it("a ProjectSettings' tag set taken over by a ProjectTags: the set it found comes back, with the ProjectTags' tags", async () => {
    const workspace = await programWorkspace(emulator, program(`new semgrep.ProjectSettings("web", { ...${web}, tags: ["a", "b"] });`));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    workspace.write(program(`new semgrep.ProjectTags("web-tags", { ...${web}, tags: ["c"] });`));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(project("acme/web-app").tags).toEqual(["team:web", "tier:1", "c", "managed-scan"]);
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(project("acme/web-app").tags).toEqual(["team:web", "tier:1", "managed-scan"]);
  }, 180_000);
});

describe("components", () => {
  it("with several children, one of which takes another's output, go through preview, up, refresh and destroy", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`
class Team extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("acme:Team", name, {}, opts);
    const settings = new semgrep.ProjectSettings(name + "-settings", { ...${web}, primaryBranch: "develop" }, { parent: this });
    new semgrep.ProjectTags(name + "-tags", { deploymentSlug: "acme", projectName: settings.projectName, tags: ["team:" + name] }, { parent: this });
    new semgrep.PolicyRuleMode(name + "-eval", { ...${rule}, mode: "MODE_BLOCK" }, { parent: this });
    this.registerOutputs({});
  }
}
new Team("web");
`),
    );
    await workspace.run(["preview"]);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(project("acme/web-app")).toMatchObject({ primaryBranch: "refs/heads/develop", tags: ["team:web", "tier:1", "managed-scan"] });
    expect(evalMode()).toBe("MODE_BLOCK");
    const state = await workspace.resources();
    expect(state["web-eval"]!.outputs.resourceParent).toBe("urn:pulumi:test::e2e::acme:Team::web");
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(project("acme/web-app")).toMatchObject({ primaryBranch: "refs/heads/main", tags: ["team:web", "tier:1", "managed-scan"] });
    expect(evalMode()).toBe("MODE_COMMENT");
  }, 180_000);
});

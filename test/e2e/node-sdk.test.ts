/**
 * Issue 25's proof for the generated Node.js SDK `@pulumi-semgrep/semgrep`, through the real CLI
 * against the emulator (demo preset), with the native plugin installed from its release tarball:
 *  - the SDK compiles with its own tsconfig, and a JS program using it (four kinds and a data
 *    source) converges: up, a preview with `--expect-no-changes`, destroy putting everything back;
 *  - a TypeScript stack of the dynamic classes (`pulumi-semgrep`) moves to the SDK's classes with
 *    no alias written (schema.json gives each SDK resource the alias of its dynamic class), or
 *    with the alias written as well; and back, with no alias written (the classes give each
 *    resource the SDK's type as an alias): the preview shows no create and no delete, no request
 *    writes, the state keeps every original, and destroy restores the service
 *    (docs/guides/moving-to-the-sdk.md).
 * The SDK is packed once for the file by the release's own step, dry run, and installed from that
 * tarball (test/support/node-sdk.ts); examples/nodejs-sdk runs as CI's example job runs it, through
 * the example runner (test/tools/example.mjs: a copy with the SDK installed by npm from the same step's tarball).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators, writesSince } from "../support/emulator";
import { installPlugin, packedPlugin } from "../support/native-plugin";
import { REPO } from "../tools/plugin-pack.mjs";
import { installSdk, type PackedSdk, packNodeSdk, PROGRAM_TSCONFIG, SDK_PACKAGE, typeCheck } from "../support/node-sdk";
import { printed, type StateResource, stateOf } from "../support/program";
import { pulumiWorkspace } from "../support/pulumi";
import { prepareExample } from "../tools/example.mjs";

const emulators = useEmulators({ preset: "demo" });

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const EXEC = "python.lang.security.audit.exec-detected.exec-detected";
const OPEN = "python.lang.best-practice.open-never-closed.open-never-closed";
const DYNAMIC = "pulumi-nodejs:dynamic/semgrep:";
const NATIVE = "semgrep:index:";

let sdk: PackedSdk;
let consumer: string | undefined;
beforeAll(async () => {
  sdk = await packNodeSdk();
  if (sdk.tarball) consumer = installSdk(sdk.tarball);
}, 300_000);

/** What the stack can change and destroy put back: each project's tags, branch and scans, each rule's mode. */
function liveOf(emulator: RunningEmulator) {
  const state = emulator.state();
  return {
    projects: Object.fromEntries(
      state.projects.map((p) => [p.name, { tags: [...p.tags].sort(), primaryBranch: p.primaryBranch, scans: p.managedScanConfig }]),
    ),
    modes: Object.fromEntries(state.policies.flatMap((p) => p.rules.map((r) => [`${p.id}/${r.path}`, r.policyMode]))),
  };
}

/**
 * A stack `test` of project `e2e` in a directory whose node_modules is the SDK's consumer project,
 * with the plugin installed, running `files` (index.js or index.ts). Credentials from the
 * environment, or from the stack's config (`semgrep:url`, secret `semgrep:token`) with `config`.
 */
async function sdkWorkspace(
  emulator: RunningEmulator,
  files: Record<string, string>,
  credentials: "environment" | "config" = "environment",
) {
  if (!consumer) throw new Error(`the SDK was not packed: ${sdk.refused}`);
  const env =
    credentials === "environment"
      ? { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token }
      : { SEMGREP_APP_URL: "", SEMGREP_APP_TOKEN: "" };
  const workspace = await pulumiWorkspace(
    { "Pulumi.yaml": "name: e2e\nruntime: nodejs\n", "package.json": '{"name":"e2e"}', "tsconfig.json": PROGRAM_TSCONFIG, ...files },
    env,
    join(consumer, "node_modules"),
  );
  if (credentials === "config")
    await workspace.run(["config", "set-all", "--plaintext", `semgrep:url=${emulator.url}`, "--secret", `semgrep:token=${emulator.token}`]);
  await installPlugin(workspace);
  return {
    ...workspace,
    native: stateOf(workspace, NATIVE),
    dynamic: stateOf(workspace, DYNAMIC),
    write: (name: string, text: string) => writeFileSync(join(workspace.dir, name), text),
  };
}

describe("the generated Node.js SDK", () => {
  it("compiles with its own tsconfig and packs as the release publishes it (release.mjs nodejs-sdk, dry run)", () => {
    expect(sdk.refused).toBeUndefined();
    expect(sdk.tarball).toMatch(/pulumi-semgrep-semgrep-\d+\.\d+\.\d+\.tgz$/);
  });

  it("runs a JS program through the CLI and the plugin: up, a no-change preview, destroy putting everything back", async () => {
    const emulator = await emulators.start();
    const before = liveOf(emulator);
    const index = `const pulumi = require("@pulumi/pulumi");
const semgrep = require("${SDK_PACKAGE}");
new semgrep.ProjectSettings("web", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "refs/heads/release", tags: ["team:web", "tier:0"] });
const tags = new semgrep.ProjectTags("payments-tags", { deploymentSlug: "acme", projectName: "acme/payments-api", tags: ["owner:appsec"] });
new semgrep.PolicyRuleModes("sast", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: { "${EVAL}": "MODE_BLOCK", "${EXEC}": "MODE_MONITOR" } });
new semgrep.ManagedScan("infra", { deploymentSlug: "acme", projectName: "acme/infra", diffScan: { enabled: true } });
const policies = semgrep.getPoliciesOutput({ deploymentId: "1" });
exports.firstPolicy = policies.policies[0].name;
exports.added = tags.addedTags;
`;
    const workspace = await sdkWorkspace(emulator, { "index.js": index });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const live = liveOf(emulator);
    // Sorted: the declared tags and the system tag the service keeps on a project with managed scans.
    expect(live.projects["acme/web-app"]).toMatchObject({
      primaryBranch: "refs/heads/release",
      tags: ["managed-scan", "team:web", "tier:0"],
    });
    expect(live.projects["acme/payments-api"]!.tags).toContain("owner:appsec");
    expect(live.projects["acme/infra"]!.scans.diff_scan).toEqual({ enabled: true });
    expect(live.modes[`${SAST_POLICY_ID}/${EVAL}`]).toBe("MODE_BLOCK");
    expect(live.modes[`${SAST_POLICY_ID}/${EXEC}`]).toBe("MODE_MONITOR");
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toEqual({ firstPolicy: emulator.state().policies[0]!.name, added: ["owner:appsec"] });
    const state = await workspace.native.resources();
    expect(Object.keys(state).sort()).toEqual(["infra", "payments-tags", "sast", "web"]);

    const mark = emulator.requests().length;
    const preview = await workspace.run(["preview", "--expect-no-changes"]);
    expect(printed(preview)).toMatch(/Resources: 5 unchanged/);
    expect(writesSince(emulator, mark)).toEqual([]);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(liveOf(emulator)).toEqual(before);
  });
});

describe("examples/nodejs-sdk (the README's TypeScript program)", () => {
  it("runs as shipped, by CI's steps (test/tools/example.mjs): up blocks the rule, adds the tag and exports the policies; a no-change preview; destroy puts both back", async () => {
    const emulator = await emulators.start();
    const before = liveOf(emulator);
    const example = await prepareExample(join(REPO, "examples", "nodejs-sdk"), { emulator, pluginTarball: await packedPlugin() });
    try {
      await example.step("up");
      const live = liveOf(emulator);
      expect(live.modes[`${SAST_POLICY_ID}/${EVAL}`]).toBe("MODE_BLOCK");
      expect(before.modes[`${SAST_POLICY_ID}/${EVAL}`]).not.toBe("MODE_BLOCK");
      expect(live.projects["acme/web-app"]!.tags).toEqual([...before.projects["acme/web-app"]!.tags, "owner:appsec"].sort());
      const outputs = JSON.parse((await example.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
      expect(outputs).toEqual({
        policies: emulator
          .state()
          .policies.filter((p) => p.deploymentId === 1)
          .map((p) => p.name),
      });

      const mark = emulator.requests().length;
      await example.step("preview");
      expect(writesSince(emulator, mark)).toEqual([]);
      await example.step("destroy");
      expect(liveOf(emulator)).toEqual(before);
      expect(example.changed()).toEqual([]);
    } finally {
      example.remove();
    }
  });
});

/**
 * The same stack in TypeScript: `semgrep` from `from`, each resource named with `suffix` and given
 * `options` (a text that may name its `kind` and its `name` without the suffix).
 */
function typescriptProgram(from: string, options: (kind: string, name: string) => string = () => "", suffix = "") {
  const args = (kind: string, name: string) =>
    `${JSON.stringify(name + suffix)}, ${RESOURCES[name]}${options(kind, name) ? `, ${options(kind, name)}` : ""}`;
  return `import * as pulumi from "@pulumi/pulumi";
import * as semgrep from "${from}";
new semgrep.ProjectSettings(${args("ProjectSettings", "web")});
new semgrep.ProjectTags(${args("ProjectTags", "payments-tags")});
new semgrep.PolicyRuleModes(${args("PolicyRuleModes", "sast")});
new semgrep.PolicyRuleMode(${args("PolicyRuleMode", "open")});
new semgrep.ManagedScan(${args("ManagedScan", "infra")});
`;
}

/** Each resource's arguments, by name. */
const RESOURCES: Record<string, string> = {
  web: `{ deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "refs/heads/release", tags: ["team:web", "tier:0"] }`,
  "payments-tags": `{ deploymentSlug: "acme", projectName: "acme/payments-api", tags: pulumi.secret(["owner:appsec"]) }`,
  sast: `{ deploymentId: "1", policyId: "${SAST_POLICY_ID}", modes: { "${EVAL}": "MODE_BLOCK", "${EXEC}": "MODE_MONITOR" } }`,
  open: `{ deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "${OPEN}", mode: pulumi.secret("MODE_BLOCK") }`,
  infra: `{ deploymentSlug: "acme", projectName: "acme/infra", diffScan: { enabled: true } }`,
};

const NAMES = ["infra", "open", "payments-tags", "sast", "web"];

/** What each resource recorded of what it found: the values destroy puts back. */
function originalsOf(resources: Record<string, StateResource>) {
  return Object.fromEntries(
    Object.entries(resources).map(([name, r]) => [
      name,
      Object.fromEntries(Object.entries(r.outputs).filter(([key]) => key.startsWith("original") || key === "addedTags")),
    ]),
  );
}

/** The emulator with the rules of the stack in known modes (the demo has them all in policy 10). */
async function startedEmulator() {
  const emulator = await emulators.start();
  const rules = emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
  expect(rules.map((r) => r.path)).toEqual(expect.arrayContaining([EVAL, EXEC, OPEN]));
  return emulator;
}

describe("moving a TypeScript stack between the dynamic classes and the SDK", () => {
  it.each([
    {
      move: "to the SDK with no alias written (schema.json gives every resource the dynamic class's type as an alias)",
      from: "pulumi-semgrep",
      to: SDK_PACKAGE,
      options: () => "",
      previewed: /Resources: 6 unchanged/,
    },
    {
      move: "to the SDK with the alias written on each resource as well (a program moved before the schema had it)",
      from: "pulumi-semgrep",
      to: SDK_PACKAGE,
      options: (kind: string) => `{ aliases: [{ type: "${DYNAMIC}${kind}" }] }`,
      previewed: /Resources: 6 unchanged/,
    },
    {
      move: "back from the SDK to the dynamic classes with no alias written (the classes give each resource the SDK's type as an alias)",
      from: SDK_PACKAGE,
      to: "pulumi-semgrep",
      options: () => "",
      // The classes' own bookkeeping inputs (`resourceName`), which the plugin's state lacks: an update that writes nothing.
      previewed: /~ 5 to update\s+1 unchanged/,
    },
    {
      move: "to the SDK and renamed in the same up, with an alias naming the old name and type together",
      from: "pulumi-semgrep",
      to: SDK_PACKAGE,
      options: (kind: string, name: string) => `{ aliases: [{ name: "${name}", type: "${DYNAMIC}${kind}" }] }`,
      suffix: "-v2",
      previewed: /Resources: 6 unchanged/,
    },
  ])(
    "$move: the preview shows no create and no delete, no write, every original kept, destroy restores",
    async ({ from, to, options, suffix = "", previewed }) => {
      const [old, now] = to === SDK_PACKAGE ? [DYNAMIC, NATIVE] : [NATIVE, DYNAMIC];
      const emulator = await startedEmulator();
      const before = liveOf(emulator);
      const workspace = await sdkWorkspace(emulator, { "index.ts": typescriptProgram(from) }, "config");
      expect(typeCheck(workspace.dir)).toEqual({ status: 0, output: "" });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      const declared = liveOf(emulator);
      expect(declared).not.toEqual(before);
      const first = await stateOf(workspace, old).resources({ showSecrets: true });
      expect(Object.keys(first).sort()).toEqual(NAMES);
      const originals = originalsOf(first);
      expect(originals.sast).toEqual({ originals: { MODE_COMMENT: [EVAL], MODE_DISABLED: [EXEC] } });
      expect(originals.web).toMatchObject({ originalPrimaryBranch: "refs/heads/main" });

      workspace.write("index.ts", typescriptProgram(to, options, suffix));
      expect(typeCheck(workspace.dir)).toEqual({ status: 0, output: "" });
      const mark = emulator.requests().length;
      const preview = printed(await workspace.run(["preview", "--diff"]));
      expect(preview).not.toMatch(/to create|to delete|to replace/);
      expect(preview).toMatch(previewed);
      const up = printed(await workspace.run(["up", "--yes"]));
      expect(up).toMatch(new RegExp(previewed.source.replace("to update", "updated")));
      expect(up).not.toContain("warning:");
      expect(writesSince(emulator, mark)).toEqual([]);
      expect(liveOf(emulator)).toEqual(declared);
      expect(await stateOf(workspace, old).resources()).toEqual({});
      // Each resource as its old name had it.
      const asBefore = (resources: Record<string, StateResource>) =>
        Object.fromEntries(Object.entries(resources).map(([name, r]) => [name.slice(0, name.length - suffix.length), r]));
      const moved = asBefore(await stateOf(workspace, now).resources({ showSecrets: true }));
      expect(Object.keys(moved).sort()).toEqual(NAMES);
      expect(originalsOf(moved)).toEqual(originals);
      // The other front end's bookkeeping stays in the outputs until a refresh, which finds no change.
      await workspace.run(["refresh", "--yes", "--expect-no-changes"]);
      const refreshed = asBefore(await stateOf(workspace, now).resources({ showSecrets: true }));
      if (now === NATIVE) for (const name of NAMES) expect(Object.keys(refreshed[name]!.outputs), name).not.toContain("__provider");
      expect(originalsOf(refreshed)).toEqual(originals);
      await workspace.run(["preview", "--expect-no-changes"]);

      await workspace.run(["destroy", "--yes", "--skip-preview"]);
      expect(liveOf(emulator)).toEqual(before);
    },
  );
});

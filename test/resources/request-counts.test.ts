/**
 * Requests per create/read/update/delete of each resource type: the minimum the API allows.
 * Also the shared rule listing: refreshing 200 PolicyRuleMode resources of one 5,000-rule policy
 * lists the policy once (3 pages of 2,000), not 200 times.
 */
import { describe, expect, it, vi } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { useEmulator } from "../support/emulator";
import { checked, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "large" });
useProviderAgainst(env);

/** `METHOD operation` of every request since the last call. */
function take(): string[] {
  const taken = env.requests().map((r) => `${r.method} ${r.operation}`);
  env.emulator.requests().length = 0;
  return taken;
}

type Row = [
  kind: Parameters<typeof provider>[0],
  declared: Record<string, unknown>,
  changed: Record<string, unknown>,
  expected: Record<"create" | "read" | "update" | "delete", string[]>,
];
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

const rows: Row[] = [
  [
    "ProjectSettings",
    {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "develop",
      tags: ["a"],
      managedScanConfig: { fullScan: { enabled: false } },
    },
    { tags: ["a", "b"] },
    {
      create: ["GET projects.get", "PATCH projects.update"],
      read: ["GET projects.get"],
      update: ["PATCH projects.update"],
      delete: ["PATCH projects.update"],
    },
  ],
  [
    "ProjectTags",
    { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["a"] },
    { tags: ["a", "b"] },
    {
      create: ["GET projects.get", "PUT projects.addTags"],
      read: ["GET projects.get"],
      update: ["PUT projects.addTags"],
      delete: ["DELETE projects.removeTags"],
    },
  ],
  [
    "ManagedScan",
    { deploymentSlug: "acme", projectName: "acme/mobile-app", diffScan: { enabled: true } },
    { fullScan: { enabled: true } },
    {
      create: ["GET projects.get", "PATCH projects.updateManagedScans"],
      read: ["GET projects.get"],
      update: ["PATCH projects.updateManagedScans"],
      delete: ["PATCH projects.updateManagedScans"],
    },
  ],
  [
    "PolicyRuleMode",
    { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: EVAL, mode: "MODE_DISABLED" },
    { mode: "MODE_COMMENT" },
    {
      create: ["GET policies.listRules", "GET policies.listRules", "GET policies.listRules", "PUT policies.updateRuleMode"],
      read: ["GET policies.listRules", "GET policies.listRules", "GET policies.listRules"],
      update: ["PUT policies.updateRuleMode"],
      delete: ["PUT policies.updateRuleMode"],
    },
  ],
  [
    "SbomExport",
    { deploymentId: "1", repositoryId: "101", ref: "refs/heads/main" },
    {},
    { create: ["POST sbom.createExport", "GET sbom.getExport"], read: ["GET sbom.getExport"], update: [], delete: [] },
  ],
];

describe("requests per operation", () => {
  it.each(rows)("%s", async (kind, declared, changed, expected) => {
    const calls = provider(kind);
    const inputs = await checked(calls, declared);
    const { id, outs } = await calls.create(inputs);
    expect(take()).toEqual(expected.create);
    forgetProcessMemory(); // reads happen in `pulumi refresh`, a new provider process
    const read = await calls.read(id, outs);
    expect(take()).toEqual(expected.read);
    const news = await checked(calls, { ...declared, ...changed });
    const updated = Object.keys(changed).length ? (await calls.update(id, read.props!, news)).outs : read.props!;
    expect(take()).toEqual(expected.update);
    await calls.delete(id, updated);
    expect(take()).toEqual(expected.delete);
  });

  it("writes nothing to create or delete resources that declare what is already there", async () => {
    const rule = env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules[0]!;
    const unchanged: Array<[Parameters<typeof provider>[0], Record<string, unknown>]> = [
      [
        "ProjectSettings",
        {
          deploymentSlug: "acme",
          projectName: "acme/web-app",
          primaryBranch: "main",
          tags: ["tier:1", "team:web"],
          managedScanConfig: { diffScan: { enabled: true } },
        },
      ],
      ["ProjectTags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["tier:1"] }],
      ["ManagedScan", { deploymentSlug: "acme", projectName: "acme/web-app", diffScan: { enabled: true }, fullScan: { enabled: true } }],
      ["PolicyRuleMode", { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: rule.path, mode: rule.policyMode }],
    ];
    for (const [kind, declared] of unchanged) {
      const calls = provider(kind);
      const { id, outs } = await calls.create(await checked(calls, declared));
      await calls.delete(id, outs);
    }
    expect(take().filter((r) => !r.startsWith("GET "))).toEqual([]);
  });

  it("makes no request to check or diff", async () => {
    for (const [kind, declared, changed] of rows) {
      const calls = provider(kind);
      await calls.diff(await checked(calls, declared), await checked(calls, { ...declared, ...changed }));
    }
    expect(take()).toEqual([]);
  });
});

describe("refreshing 200 PolicyRuleMode resources of one policy", () => {
  it("lists the 5,000-rule policy once: 3 requests", async () => {
    const rules = env.emulator
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.slice(0, 200);
    const calls = provider("PolicyRuleMode");
    const states = rules.map((r) => ({ deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: r.path, mode: r.policyMode }));
    forgetProcessMemory(); // a fresh provider process, as `pulumi refresh` starts
    take();
    const reads = await Promise.all(states.map((s) => calls.read(`1/${SAST_POLICY_ID}/${s.rulePath}`, s)));
    expect(reads.every((r, i) => r.props?.mode === states[i]!.mode)).toBe(true);
    expect(take()).toEqual(["GET policies.listRules", "GET policies.listRules", "GET policies.listRules"]);
  });
});

describe("a phase longer than a minute", () => {
  it("lists a policy once however long the run, kept right by its own writes", async () => {
    const [first, second] = env.emulator
      .state()
      .policies.find((p) => p.id === SAST_POLICY_ID)!
      .rules.filter((r) => r.policyMode !== "MODE_BLOCK");
    const found = second!.policyMode; // the emulator's rule object changes with the write
    const calls = provider("PolicyRuleMode");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await calls.create(await checked(calls, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: first!.path, mode: "MODE_BLOCK" }));
      vi.setSystemTime(Date.now() + 10 * 60_000); // ten minutes into the same update phase
      const { outs } = await calls.create(
        await checked(calls, { deploymentId: "1", policyId: SAST_POLICY_ID, rulePath: second!.path, mode: "MODE_BLOCK" }),
      );
      expect(outs.originalMode).toBe(found);
    } finally {
      vi.useRealTimers();
    }
    expect(take()).toEqual([
      "GET policies.listRules",
      "GET policies.listRules",
      "GET policies.listRules",
      "PUT policies.updateRuleMode",
      "PUT policies.updateRuleMode",
    ]);
  });
});

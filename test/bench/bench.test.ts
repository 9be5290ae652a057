/**
 * `npm run bench` at a small size, in the test suite: the entry itself (`node
 * test/bench/bench.mjs`), with its default flags but the sizes, so that every stack it runs by
 * default runs here through the same code: the v1 stack (with the engine floor and the run at a
 * 30% fault rate, and beside it the same stack as a YAML program through the installed package's
 * plugin pulumi-resource-semgrep), the v2 stack, and rule modes at scale (every rule of the policy as one
 * PolicyRuleModes with a selector, beside one PolicyRuleMode per rule). A default that breaks
 * (as `select: {}` did once check refused it) fails here, not first in a manual run.
 *
 * Through the real CLI, every phase of every stack makes exactly the fewest requests the API
 * allows (preview none, a no-change up none), destroy puts everything back, and at a 30% fault
 * rate the v1 stack converges to the same state. The YAML program through the plugin makes the
 * same requests as the Node.js program through the dynamic provider, phase by phase and operation
 * by operation (the same handlers serve both), and its destroy restores as well. The v2 stack (one DetectionPolicy with 100
 * disabled rules, 5 RemediationPolicy): reads, dry runs and writes each at the minimum in every
 * phase, no write at preview, noop-up or refresh, one for change-one, and destroy leaves both
 * bundles exactly as it found them. Adopt (the preset cut to 5 projects and 2,001 rules per v1
 * policy, so that the largest policy's listing takes two pages): the bin reads at the minimum,
 * operation by operation, and the generated project's first up makes only its reads (0 writes).
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, beforeAll, describe, expect, inject, it } from "vitest";
import { interleave, PHASES, spread, upAgainstFloor } from "./bench-core.mjs";
import { minimumV2Requests, V2_PHASES } from "./bench-v2.mjs";
import { type CommandRun, runCommand } from "../support/run-command";

/** The sizes, and one measured up each (the ups again for medians are `npm run bench`'s); every other flag is left at its default. */
const SMALL = {
  "up-runs": 1,
  projects: 3,
  "sast-rules": 6,
  "secrets-rules": 3,
  "v2-disabled": 100,
  "v2-remediation": 5,
  "modes-rules": 50,
  "modes-singles": 20,
  "adopt-projects": 5,
  "adopt-rules": 2001,
  "projects-scale": 30,
  "access-teams": 5,
  "access-members": 4,
};

interface Phase {
  requests: number;
  wallSeconds: number;
  writes: number;
  minimumRequests: number;
}
interface V1Phase extends Phase {
  operations: Record<string, number>;
}
interface Column {
  wallSeconds: number;
  cpuSeconds?: number;
}
interface ModesStack {
  rules: number;
  phases: Record<string, Phase>;
  stateBytes: number;
  upApplied: boolean;
  destroyRestored: boolean;
}
interface BenchResult {
  phases: Record<string, V1Phase>;
  destroyRestoredEverything: boolean;
  stateBytesPerResource: number;
  native?: {
    phases: Record<string, V1Phase>;
    destroyRestoredEverything: boolean;
    requestDifferences: string[];
    stateBytesPerResource: number;
  };
  comparison?: {
    phases: Record<string, { requests: number | { dynamic: number; native: number }; dynamic: Column; native: Column }>;
    state: Record<"dynamic" | "native", { stateBytesPerResource: number; stackTraceBytesPerResource: number }>;
    requestsIdentical: boolean;
  };
  floorPhases?: Record<string, Phase>;
  engineFloorRatio?: number;
  upVsFloor?: UpVsFloor;
  repeats: Record<string, unknown[]>;
  faults?: { converged: boolean; identicalToFaultFree: boolean; sbomExportsStarted: number; retries: number };
  v2: {
    phases: Record<string, Phase & { reads: number; dryRuns: number }>;
    minimum: Record<string, { reads: number; dryRuns: number; writes: number; requests: number }>;
    changeOneApplied: boolean;
    destroyRestoredBundles: boolean;
  };
  modes?: { bulk: ModesStack; individual: ModesStack[] };
  adopt: {
    policyRules: number[];
    adopt: AdoptStep & { files: number; written: { path: string }[] };
    firstUp: AdoptStep & { resources: number };
    serviceUnchanged: boolean;
  };
  projectsAtScale?: ProjectsAtScale;
  access?: {
    teams: number;
    memberships: number;
    adopt: AdoptStep & { wallSeconds: number; cpuSeconds?: number; summary: string };
    firstUp: AdoptStep & { wallSeconds: number; cpuSeconds?: number; resources: number };
    serviceUnchanged: boolean;
  };
}
interface ScalePhase extends Phase {
  cpuSeconds?: number;
}
interface ProjectsAtScale {
  projects: number;
  forms: Array<{
    form: string;
    skipCheckpoints: boolean;
    adopt: Phase & { cpuSeconds?: number };
    phases: Record<string, ScalePhase>;
    /** The checkpoint's bytes (compact), and `pulumi stack export`'s (indented). */
    stateBytes: number;
    exportBytes: number;
    changeLanded: boolean;
    othersUnchanged: boolean;
  }>;
  rules: Array<{ rules: number; skipCheckpoints: boolean; phases: Record<string, ScalePhase>; stateBytes: number; upApplied: boolean }>;
}
interface Spread {
  median: number;
  min: number;
  max: number;
  samples: number[];
}
interface UpVsFloor {
  runs: number;
  dynamic: { wallSeconds: Spread; cpuSeconds?: Spread };
  floor: { wallSeconds: Spread; cpuSeconds?: Spread };
  native?: { wallSeconds: Spread; cpuSeconds?: Spread };
  ratio: Record<string, { wall?: number; cpu?: number }>;
}
interface AdoptStep {
  requests: number;
  writes: number;
  minimumRequests: number;
  operations: Record<string, { requests: number; minimum: number }>;
}

/** Runs `node test/bench/bench.mjs` as `npm run bench` does (after the build the suite has made): its exit status and output. */
const runBenchEntry = (args: string[]) => runCommand(process.execPath, [join(__dirname, "bench.mjs"), ...args]);

describe("npm run bench, small", () => {
  let run: CommandRun;
  let written: BenchResult | undefined;
  /** The result the entry wrote (also when it exited 1 for a missed minimum, so that the tests below say which). */
  const result = (): BenchResult => written ?? assert.fail("the benchmark wrote no result: see the first test's output");

  beforeAll(async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bench-")), "bench.json");
    const sizes = Object.entries(SMALL).flatMap(([flag, value]) => [`--${flag}`, String(value)]);
    run = await runBenchEntry([...sizes, "--installed", inject("installedPackageDir"), "--out", out]);
    if (existsSync(out)) written = JSON.parse(readFileSync(out, "utf8")) as BenchResult;
  }, 900_000);

  it("runs every stack of the default run and exits 0, nothing above the minimum", () => {
    expect(run.status, run.output).toBe(0);
    expect(run.output).not.toMatch(/above the minimum|FAILED/);
    const { floorPhases, faults, modes, native } = result();
    expect(floorPhases).toBeDefined();
    expect(faults).toBeDefined();
    expect(native).toBeDefined();
    expect(modes?.individual.map((stack) => stack.rules)).toEqual([SMALL["modes-singles"]]);
  });

  it("v1: at the minimum in every phase, restores on destroy, and converges under faults", () => {
    const v1 = result();
    const phase = (name: string) => v1.phases[name]!;
    for (const name of PHASES) expect({ name, requests: phase(name).requests }).toEqual({ name, requests: phase(name).minimumRequests });
    expect(phase("preview").requests).toBe(0);
    expect(phase("noop-up").writes).toBe(0);
    expect(phase("refresh").writes).toBe(0);
    expect(v1.destroyRestoredEverything).toBe(true);
    // About 4.1 KB at these sizes (the stack's own entries spread over 19 resources). What this
    // guards against is a provider closure serialized into each resource's state (tens of KB each),
    // not a few bytes more of outputs (the system tag `managed-scan` added 47 bytes in all).
    expect(v1.stateBytesPerResource).toBeLessThan(5000);
    expect(v1.faults).toMatchObject({ converged: true, identicalToFaultFree: true, sbomExportsStarted: 1 });
    expect(v1.faults!.retries).toBeGreaterThan(0);
  });

  it("v1 against the engine floor: each up's median and spread (one run here), the ratio of the medians in engineFloorRatio", () => {
    const v1 = result();
    const upVsFloor = v1.upVsFloor!;
    expect(upVsFloor.runs).toBe(1);
    expect(v1.repeats).toEqual({ dynamic: [], native: [] }); // no up again at one run
    const ups = { dynamic: v1.phases.up!, floor: v1.floorPhases!.up!, native: v1.native!.phases.up! };
    for (const [name, up] of Object.entries(ups)) {
      const wall = up.wallSeconds as number;
      expect({ name, wall: upVsFloor[name as keyof typeof ups]!.wallSeconds }).toEqual({
        name,
        wall: { median: wall, min: wall, max: wall, samples: [wall] },
      });
      expect(upVsFloor[name as keyof typeof ups]!.cpuSeconds!.samples).toHaveLength(1);
    }
    const ratio = (name: "dynamic" | "native") => Number(((ups[name].wallSeconds as number) / ups.floor.wallSeconds).toFixed(2));
    expect(upVsFloor.ratio.dynamic!.wall).toBe(ratio("dynamic"));
    expect(upVsFloor.ratio.native!.wall).toBe(ratio("native"));
    expect(v1.engineFloorRatio).toBe(upVsFloor.ratio.dynamic!.wall);
    expect(run.output).toMatch(/up against the engine floor, 1 run\(s\) each, interleaved: median \(min-max\)/);
  });

  it("v1 native: the YAML program through the plugin makes the dynamic column's requests, operation by operation, in every phase; restores on destroy", () => {
    const v1 = result();
    const native = v1.native!;
    for (const name of PHASES) {
      const [dynamic, plugin] = [v1.phases[name]!, native.phases[name]!];
      expect({ name, operations: plugin.operations }).toEqual({ name, operations: dynamic.operations });
      expect({ name, requests: plugin.requests, writes: plugin.writes }).toEqual({
        name,
        requests: dynamic.minimumRequests,
        writes: dynamic.writes,
      });
    }
    expect(native.requestDifferences).toEqual([]);
    expect(native.destroyRestoredEverything).toBe(true);
    expect(native.stateBytesPerResource).toBeLessThan(5000);
    // The two-column table: one request figure per phase, each column's wall and CPU seconds measured.
    const { comparison } = v1;
    expect(comparison?.requestsIdentical).toBe(true);
    for (const name of PHASES) {
      const row = comparison!.phases[name]!;
      expect(row.requests).toBe(v1.phases[name]!.requests);
      for (const column of [row.dynamic, row.native])
        expect(column).toEqual({ wallSeconds: expect.any(Number), cpuSeconds: expect.any(Number) });
    }
    expect(comparison!.state.native.stateBytesPerResource).toBe(native.stateBytesPerResource);
  });

  it("v2: reads, dry runs and writes at the minimum in every phase; destroy restores the bundles exactly", () => {
    const v2 = result().v2;
    for (const name of V2_PHASES) {
      const { reads, dryRuns, writes, requests } = v2.phases[name]!;
      expect({ name, reads, dryRuns, writes, requests }).toEqual({ name, ...v2.minimum[name] });
    }
    // The minimum, spelled out for this size: 2 bundles, 6 resources.
    expect(Object.fromEntries(V2_PHASES.map((name) => [name, v2.minimum[name]!.requests]))).toEqual({
      preview: 2 + 6,
      up: 2 + 6 + 6,
      "noop-up": 2 + 6,
      "change-one": 2 * (2 + 6) + 1,
      refresh: 2,
      destroy: 2 + 6,
    });
    expect(v2.phases["noop-up"]!.writes).toBe(0);
    expect(v2.changeOneApplied).toBe(true);
    expect(v2.destroyRestoredBundles).toBe(true);
  });

  it("rule modes: every rule of the policy as one PolicyRuleModes, and one PolicyRuleMode per rule, each at the minimum in every phase; destroy restores every mode", () => {
    const modes = result().modes!;
    for (const stack of [modes.bulk, ...modes.individual]) {
      for (const [name, phase] of Object.entries(stack.phases)) {
        expect({ name, requests: phase.requests }).toEqual({ name, requests: phase.minimumRequests });
      }
      expect(stack.phases["noop-up"]!.requests).toBe(0);
      expect(stack.upApplied).toBe(true);
      expect(stack.destroyRestored).toBe(true);
    }
    expect(modes.bulk.rules).toBe(SMALL["modes-rules"]); // the whole (cut) policy, selected
    expect(modes.bulk.phases["change-one"]!.writes).toBe(1);
    expect(modes.bulk.phases.refresh!.requests).toBe(1); // one listing of the 50-rule policy
    expect(modes.bulk.stateBytes).toBeLessThan(modes.individual[0]!.stateBytes); // 50 rules in one resource, against 20 resources
  });

  it("adopt: reads at the minimum, operation by operation; the generated project's first up makes only its reads", () => {
    const { adopt, firstUp, policyRules, serviceUnchanged } = result().adopt;
    for (const step of [adopt, firstUp]) {
      for (const [name, made] of Object.entries(step.operations))
        expect({ name, requests: made.requests }).toEqual({ name, requests: made.minimum });
    }
    // The minimum, spelled out for this size: 5 projects, v1 policies of 2,001, 400 and 40 rules.
    expect(policyRules).toEqual([2001, 400, 40]);
    expect(Object.fromEntries(Object.entries(adopt.operations).map(([name, made]) => [name, made.requests]))).toEqual({
      "deployments.list": 1,
      "projects.list": 1,
      "projects.get": 5,
      "policies.list": 1,
      "policies.listRules": 2 + 1 + 1,
      "policiesV2.getDetectionPolicySummary": 1, // answered 403 DEPLOYMENT_NOT_MIGRATED
    });
    expect(adopt.writes).toBe(0);
    expect(adopt.written.map((f) => f.path)).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "index.ts",
      "package.json",
      "policies/default-sast-policy.ts",
      "policies/default-secrets-policy.ts",
      "policies/strict-sast-pilot.ts",
      "projects.ts",
      "tsconfig.json",
    ]);
    expect(firstUp.resources).toBe(5 + 3);
    expect(firstUp.requests).toBe(5 + 4);
    expect(firstUp.writes).toBe(0);
    expect(serviceUnchanged).toBe(true);
  });

  it("one ProjectSettings per project and one ProjectSettingsSet, with and without skipped checkpoints: adopt, first up, no-change up, preview, one-project change, each at the minimum", () => {
    const scale = result().projectsAtScale!;
    expect(scale.projects).toBe(SMALL["projects-scale"]);
    expect(scale.forms.map((f) => [f.form, f.skipCheckpoints])).toEqual([
      ["one-per-project", false],
      ["one-per-project", true],
      ["set", false],
      ["set", true],
    ]);
    for (const run of scale.forms) {
      // adopt: the deployments, one page of projects (30: short, the last), each project's own read.
      expect(run.adopt).toMatchObject({ requests: 1 + 1 + 30, minimumRequests: 32, writes: 0 });
      // The set lists the projects (one short page) where single resources read each one alone; both read each project's switches at the first up.
      const set = run.form === "set";
      expect(Object.fromEntries(Object.entries(run.phases).map(([name, p]) => [name, [p.requests, p.writes]]))).toEqual({
        "first-up": [set ? 1 + 30 : 30, 0],
        "noop-up": [0, 0],
        preview: [0, 0],
        "change-one": [set ? 3 : 1, 1],
      });
      for (const p of Object.values(run.phases)) expect(p.requests).toBe(p.minimumRequests);
      expect(run.stateBytes).toBeGreaterThan(0);
      expect(run.exportBytes).toBeGreaterThan(run.stateBytes); // the export indents what the checkpoint holds compact
      expect(run.changeLanded && run.othersUnchanged).toBe(true);
    }
  });

  it("the single-rule curve at each --modes-singles size, with and without skipped checkpoints, at the minimum", () => {
    const { rules } = result().projectsAtScale!;
    expect(rules.map((r) => [r.rules, r.skipCheckpoints])).toEqual([
      [SMALL["modes-singles"], false],
      [SMALL["modes-singles"], true],
    ]);
    for (const run of rules) {
      expect(run.upApplied).toBe(true);
      for (const p of Object.values(run.phases)) expect(p.requests).toBe(p.minimumRequests);
      expect(run.phases["noop-up"]!.requests + run.phases.preview!.requests).toBe(0);
    }
  });

  it("the access settings: adopt of the teams (cut), settings, rule and admins, then the first up: each operation at the minimum, no write, seconds measured", () => {
    const access = result().access!;
    expect([access.teams, access.memberships]).toEqual([SMALL["access-teams"], SMALL["access-teams"] * SMALL["access-members"]]);
    expect(access.adopt.summary).toContain(`${SMALL["access-teams"]} Team, 1 DeploymentSettings, 1 NotificationRule, 2 UserRole`);
    for (const step of [access.adopt, access.firstUp]) {
      for (const [operation, made] of Object.entries(step.operations))
        expect({ operation, ...made }).toEqual({ operation, requests: made.minimum, minimum: made.minimum });
      expect(step.writes).toBe(0);
      expect(step.wallSeconds).toBeGreaterThan(0);
      expect(step.cpuSeconds).toEqual(expect.any(Number));
    }
    // One page of members and one of repositories per team, in adopt and in the first up alike.
    expect(access.adopt.operations["teams.members"]!.requests).toBe(SMALL["access-teams"]);
    expect(access.firstUp.operations["teams.repositories"]!.requests).toBe(SMALL["access-teams"]);
    expect(access.firstUp.resources).toBe(SMALL["access-teams"] + 4);
    expect(access.serviceUnchanged).toBe(true);
  });
});

describe("the up against the floor, measured interleaved", () => {
  it("runs the steps round by round, each once per round in the order given (up, floor, up; up, floor, up)", async () => {
    const ran: string[] = [];
    const step = (name: string) => async (round: number) => {
      ran.push(`${name} ${round}`);
      return round;
    };
    const results = await interleave(3, [
      ["dynamic", step("dynamic")],
      ["floor", step("floor")],
      ["native", step("native")],
    ]);
    expect(ran).toEqual(["dynamic 0", "floor 0", "native 0", "dynamic 1", "floor 1", "native 1", "dynamic 2", "floor 2", "native 2"]);
    expect(results).toEqual({ dynamic: [0, 1, 2], floor: [0, 1, 2], native: [0, 1, 2] });
  });

  it("reports the median and the spread of each, and the ratio of the medians, not of one run", () => {
    expect(spread([17.5, 10.4, 11])).toEqual({ median: 11, min: 10.4, max: 17.5, samples: [17.5, 10.4, 11] });
    expect(spread([3, 1, 2, 10])).toMatchObject({ median: 2.5, min: 1, max: 10 });
    const figures = upAgainstFloor({
      dynamic: [20, 14, 15].map((wallSeconds, i) => ({ wallSeconds, cpuSeconds: [9, 8, 10][i]! })),
      floor: [17.5, 10.4, 10].map((wallSeconds) => ({ wallSeconds, cpuSeconds: 4 })),
    });
    expect(figures.runs).toBe(3);
    expect(figures.dynamic!.wallSeconds.median).toBe(15);
    expect(figures.floor!.wallSeconds).toMatchObject({ median: 10.4, min: 10, max: 17.5 });
    expect(figures.ratio).toEqual({ dynamic: { wall: 1.44, cpu: 2.25 } }); // 15 / 10.4 and 9 / 4
  });
});

describe("the v2 minimum", () => {
  it("a DetectionPolicy found as declared writes nothing at up and has nothing to put back", () => {
    const live = { disabled: ["a", "b", "c"], remediation: [{ slug: "existing" }] };
    const minimum = minimumV2Requests(live, { disabled: ["c", "b", "a"], remediation: [{ slug: "new" }] }, ["b", "a"]);
    expect(minimum.up).toEqual({ reads: 2, dryRuns: 2, writes: 1, requests: 5 });
    expect(minimum.destroy).toEqual({ reads: 1, dryRuns: 0, writes: 1, requests: 2 });
    expect(() => minimumV2Requests(live, { disabled: ["a"], remediation: [{ slug: "existing" }] }, [])).toThrow(/must be new: existing/);
  });
});

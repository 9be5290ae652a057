/**
 * The benchmark at a small size, in the test suite: through the real CLI, every phase makes
 * exactly the fewest requests the API allows (preview none, a no-change up none), destroy puts
 * everything back, and at a 30% fault rate the stack converges to the same state. The v2 stack
 * (one DetectionPolicy with 100 disabled rules, 5 RemediationPolicy) likewise: reads, dry runs
 * and writes each at the minimum in every phase, no write at preview, noop-up or refresh, one
 * for change-one, and destroy leaves both bundles exactly as it found them.
 */
import { describe, expect, inject, it } from "vitest";
import { PHASES, runBench } from "./bench-core.mjs";
import { runBenchModes } from "./bench-modes.mjs";
import { minimumV2Requests, runBenchV2, V2_PHASES } from "./bench-v2.mjs";

describe("benchmark, small", () => {
  it("is at the minimum in every phase, restores on destroy, and converges under faults", async () => {
    const result = await runBench({
      installedDir: inject("installedPackageDir"),
      preset: "large",
      projects: 3,
      rules: [6, 3],
      faultRate: 0.3,
      floor: false,
    });
    const phase = (name: string) => result.phases[name]!;
    for (const name of PHASES) expect({ name, requests: phase(name).requests }).toEqual({ name, requests: phase(name).minimumRequests });
    expect(phase("preview").requests).toBe(0);
    expect(phase("noop-up").writes).toBe(0);
    expect(phase("refresh").writes).toBe(0);
    expect(result.destroyRestoredEverything).toBe(true);
    expect(result.stateBytesPerResource).toBeLessThan(4096);
    expect(result.faults).toMatchObject({ converged: true, identicalToFaultFree: true, sbomExportsStarted: 1 });
    expect(result.faults!.retries).toBeGreaterThan(0);
  }, 300_000);

  it("v2: reads, dry runs and writes at the minimum in every phase; destroy restores the bundles exactly", async () => {
    const result = await runBenchV2({ installedDir: inject("installedPackageDir"), disabled: 100, remediation: 5 });
    for (const name of V2_PHASES) {
      const { reads, dryRuns, writes, requests } = result.phases[name]!;
      expect({ name, reads, dryRuns, writes, requests }).toEqual({ name, ...result.minimum[name] });
    }
    // The minimum, spelled out for this size: 2 bundles, 6 resources.
    expect(Object.fromEntries(V2_PHASES.map((name) => [name, result.minimum[name]!.requests]))).toEqual({
      preview: 2 + 6,
      up: 2 + 6 + 6,
      "noop-up": 2 + 6,
      "change-one": 2 * (2 + 6) + 1,
      refresh: 2,
      destroy: 2 + 6,
    });
    expect(result.phases["noop-up"]!.writes).toBe(0);
    expect(result.changeOneApplied).toBe(true);
    expect(result.destroyRestoredBundles).toBe(true);
  }, 300_000);

  it("v2 minimum: a DetectionPolicy found as declared writes nothing at up and has nothing to put back", () => {
    const live = { disabled: ["a", "b", "c"], remediation: [{ slug: "existing" }] };
    const minimum = minimumV2Requests(live, { disabled: ["c", "b", "a"], remediation: [{ slug: "new" }] }, ["b", "a"]);
    expect(minimum.up).toEqual({ reads: 2, dryRuns: 2, writes: 1, requests: 5 });
    expect(minimum.destroy).toEqual({ reads: 1, dryRuns: 0, writes: 1, requests: 2 });
    expect(() => minimumV2Requests(live, { disabled: ["a"], remediation: [{ slug: "existing" }] }, [])).toThrow(/must be new: existing/);
  });

  it("rule modes: one PolicyRuleModes and one PolicyRuleMode per rule each at the minimum in every phase; destroy restores every mode", async () => {
    const result = await runBenchModes({ installedDir: inject("installedPackageDir"), bulkRules: 50, singles: [20] });
    for (const stack of [result.bulk, ...result.individual]) {
      for (const [name, phase] of Object.entries(stack.phases)) {
        expect({ name, requests: phase.requests }).toEqual({ name, requests: phase.minimumRequests });
      }
      expect(stack.phases["noop-up"]!.requests).toBe(0);
      expect(stack.destroyRestored).toBe(true);
    }
    expect(result.bulk.phases["change-one"]!.writes).toBe(1);
    expect(result.bulk.phases.refresh!.requests).toBe(3); // one listing of the 5,000-rule policy
    expect(result.bulk.stateBytes).toBeLessThan(result.individual[0]!.stateBytes); // 50 rules in one resource, against 20 resources
  }, 300_000);
});

/**
 * The benchmark at a small size, in the test suite: through the real CLI, every phase makes
 * exactly the fewest requests the API allows (preview none, a no-change up none), destroy puts
 * everything back, and at a 30% fault rate the stack converges to the same state.
 */
import { describe, expect, inject, it } from "vitest";
import { PHASES, runBench } from "./bench-core.mjs";

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
});

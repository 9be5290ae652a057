/**
 * The README's recovery paragraph: after a SIGKILL, recovered on another machine (no journal of
 * originals), "a PolicyRuleModes' `destroy` names every rule it leaves". Found by trying issue 34
 * as a user: it does so only when the resource recorded at least one original. A `pulumi up`
 * killed after its last rule write landed (the engine recorded nothing) leaves every rule already
 * as declared, so the recovery `up` records no original at all, and `destroy` puts nothing back
 * and names nothing (provider/core/handlers/policy-rule-modes.ts `delete` returns when
 * `originals` is empty; `noteLeftByDelete` runs only inside `restore`). Reproduced here without
 * a race: the state the killed run left is made by `pulumi state delete` after a whole `up`, the
 * journal removed (another machine), then the recovery `up` and `destroy`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { printedWithoutPathWarnings, TYPE_PREFIX, yamlWorkspace } from "../support/yaml-program";

const program = `resources:
  low:
    type: semgrep:index:PolicyRuleModes
    properties: { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: [SEVERITY_LOW] }, mode: MODE_MONITOR }
`;

describe("a PolicyRuleModes whose rules were all set by a run that recorded nothing", { timeout: 240_000 }, () => {
  it("destroy names every rule it leaves changed", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const modes = () =>
        new Map(
          emulator
            .state()
            .policies.find((p) => p.id === SAST_POLICY_ID)!
            .rules.map((r) => [r.path, r.policyMode]),
        );
      const before = modes();
      const workspace = await yamlWorkspace(program, {
        config: { "semgrep:url": emulator.url },
        secrets: { "semgrep:token": emulator.token },
      });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      // What a CLI killed after the last write leaves: the rules set, the stack without the resource.
      await workspace.run(["state", "delete", "--yes", `urn:pulumi:test::e2e::${TYPE_PREFIX}PolicyRuleModes::low`]);
      // Recovered on another machine: the journal, which would restore every rule here, is not there.
      rmSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep"), { recursive: true, force: true });
      await workspace.run(["up", "--yes", "--skip-preview"]); // the README's recovery (nothing to cancel or clear here)
      const destroyed = await workspace.run(["destroy", "--yes", "--skip-preview"]);
      const left = [...modes()].filter(([path, mode]) => before.get(path) !== mode).map(([path]) => path);
      expect(left.length).toBeGreaterThan(0); // the stack's rules stay changed, as the docs say
      const said = printedWithoutPathWarnings(destroyed);
      expect(said).toContain(`PolicyRuleModes "low" leaves`);
      for (const path of left) expect(said, `destroy names ${path}`).toContain(path);
    } finally {
      await emulator.close();
    }
  });
});

/**
 * Promise 4 where two resources meet: a PolicyRuleModes whose `modes` is a secret and a selector
 * PolicyRuleModes matching the same rule are refused before either writes, and no run prints the
 * secret rule path, whichever of the two prints the refusal. The selector cannot know the path is
 * secret from its own inputs: the secrecy travels with the other resource's claim (redact.ts
 * claimSecrets). Through both front ends, with previews (in which the order of checks varies) and
 * with `up --skip-preview`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator, STRICT_POLICY_ID } from "../../provider/emulator";
import { writesSince } from "../support/emulator";
import { program, programWorkspace } from "../support/program";
import type { PulumiWorkspace } from "../support/pulumi";
import { yamlWorkspace } from "../support/yaml-program";

/** A SEVERITY_HIGH rule of the demo preset's strict policy: the selector below matches it. */
const SECRET_RULE = "python.lang.security.audit.exec-detected.exec-detected";

const typescript = program(`
new semgrep.PolicyRuleModes("secret-modes", { deploymentId: "1", policyId: "${STRICT_POLICY_ID}", modes: pulumi.secret({ "${SECRET_RULE}": "MODE_BLOCK" }) });
new semgrep.PolicyRuleModes("sast-select", { deploymentId: "1", policyId: "${STRICT_POLICY_ID}", select: { severities: ["SEVERITY_HIGH"] }, mode: "MODE_COMMENT" });
`);

const yaml = `resources:
  secret-modes:
    type: semgrep:index:PolicyRuleModes
    properties: { deploymentId: "1", policyId: "${STRICT_POLICY_ID}", modes: { fn::secret: { ${SECRET_RULE}: MODE_BLOCK } } }
  sast-select:
    type: semgrep:index:PolicyRuleModes
    properties: { deploymentId: "1", policyId: "${STRICT_POLICY_ID}", select: { severities: [SEVERITY_HIGH] }, mode: MODE_COMMENT }
`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo" });
});
afterAll(async () => emulator?.close());

const frontEnds: Array<[string, () => Promise<PulumiWorkspace>]> = [
  ["TypeScript (dynamic classes)", () => programWorkspace(emulator, typescript)],
  ["YAML (plugin)", () => yamlWorkspace(yaml, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } })],
];

describe.each(frontEnds)("a secret `modes` and a selector over the same rule, %s", (_name, open) => {
  it("are refused in 3 previews and 2 `up --skip-preview`, with no write and no output naming the secret rule", async () => {
    const workspace = await open();
    const since = emulator.requests().length;
    const runs = [["preview"], ["preview"], ["preview"], ["up", "--yes", "--skip-preview"], ["up", "--yes", "--skip-preview"]];
    for (const args of runs) {
      const result = await workspace.run([...args, "--non-interactive"], { allowFailure: true });
      const printed = result.stdout + result.stderr;
      expect(result.status, `${args.join(" ")} was refused`).not.toBe(0);
      expect(printed, `${args.join(" ")} names the conflict`).toMatch(/declares (the mode of|too)|another resource declares/);
      expect(printed, `${args.join(" ")} prints the secret rule path`).not.toContain(SECRET_RULE);
    }
    expect(writesSince(emulator, since)).toEqual([]);
    const state = (await workspace.run(["stack", "export"])).stdout;
    expect(state).not.toContain(SECRET_RULE);
  });
});

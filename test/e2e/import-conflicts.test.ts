/**
 * `pulumi import` through the native plugin of an object one of whose values another resource of
 * the stack already declares. The guide (docs/guides/other-languages-and-import.md) promises "an
 * import that the stack could not hold is refused before it lands", and does so for a
 * DetectionPolicyException beside a DetectionPolicy declaring `exceptions`
 * (test/e2e/yaml-import.test.ts). Found by trying issue 34 as a user: the same holds for a
 * PolicyRuleMode whose rule a selector PolicyRuleModes of the stack matches, and for a
 * ProjectSettings (whose import declares the project's whole tag list) beside a ProjectTags of that
 * project. Both imports land, marked `protect: true`, and the next preview fails on the conflict,
 * leaving the user to `pulumi state unprotect` and `pulumi state delete` the import.
 */
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { writesSince } from "../support/emulator";
import { printedWithoutPathWarnings, TYPE_PREFIX, yamlWorkspace } from "../support/yaml-program";

const TOKEN = "import-conflicts-token-5c1f";
/** A SEVERITY_HIGH rule of the demo preset's SAST policy, in MODE_COMMENT before the stack. */
const EVAL_RULE = "python.lang.security.audit.eval-detected.eval-detected";

const program = `resources:
  high:
    type: semgrep:index:PolicyRuleModes
    properties: { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { severities: [SEVERITY_HIGH] }, mode: MODE_BLOCK }
  web-tags:
    type: semgrep:index:ProjectTags
    properties: { deploymentSlug: acme, projectName: acme/web-app, tags: [trial] }
`;

describe("pulumi import of an object a value of which another resource of the stack declares", { timeout: 240_000 }, () => {
  it("is refused before anything is recorded, naming the other resource: a PolicyRuleMode under a selector, a ProjectSettings beside a ProjectTags", async () => {
    const emulator = await startEmulator({ preset: "demo", token: TOKEN, retryAfterSeconds: 0 });
    try {
      const workspace = await yamlWorkspace(program, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": TOKEN } });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      const mark = emulator.requests().length;

      const rule = await workspace.run(
        ["import", `${TYPE_PREFIX}PolicyRuleMode`, "imported-eval", `1/${SAST_POLICY_ID}/${EVAL_RULE}`, "--yes", "--out", "rule.yaml"],
        { allowFailure: true },
      );
      const settings = await workspace.run(
        ["import", `${TYPE_PREFIX}ProjectSettings`, "imported-web", "acme/acme/web-app", "--yes", "--out", "settings.yaml"],
        { allowFailure: true },
      );

      // Today both land (exit 0, protected) and the next preview fails naming the conflict.
      const resources = Object.keys(await workspace.resources()).sort();
      expect(resources, `${printedWithoutPathWarnings(rule)}\n${printedWithoutPathWarnings(settings)}`).toEqual(["high", "web-tags"]);
      expect(rule.status).not.toBe(0);
      expect(printedWithoutPathWarnings(rule)).toContain('PolicyRuleModes "high"');
      expect(settings.status).not.toBe(0);
      expect(printedWithoutPathWarnings(settings)).toContain('ProjectTags "web-tags"');
      expect(writesSince(emulator, mark)).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});

/**
 * The field kinds beside destroy-names-left-rules.test.ts: after a SIGKILL recovered on another
 * machine (no journal of originals), a resource whose values a killed run set finds them as
 * declared and records no original, and `destroy` leaves them. It must name each value it leaves
 * (`[secret]` for a secret), with the remedy: a ProjectSettings (branch, secret tags), a
 * ManagedScan, a ProjectTags and a PolicyRuleMode. Without a race: the state a killed run leaves
 * is made by `pulumi state delete` after a whole `up`, the journal directory removed (another
 * machine), then the recovery `up` and `destroy`, which makes no request beyond its put-backs
 * (none here).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_DEPLOYMENT, startEmulator, STRICT_POLICY_ID } from "../../provider/emulator";
import { printedWithoutPathWarnings, yamlUrnOf, yamlWorkspace } from "../support/yaml-program";

const SECRET_TAG = "wf:secret-left";

describe("values a run that recorded nothing set, destroyed after a recovery on another machine", { timeout: 240_000 }, () => {
  it("destroy names each value it leaves, by resource, and the remedy once; a secret one as [secret]", async () => {
    const emulator = await startEmulator({ preset: "demo" });
    try {
      const strict = () => emulator.state().policies.find((p) => p.id === STRICT_POLICY_ID)!;
      const rule = strict().rules.find((r) => r.policyMode !== "MODE_COMMENT")!;
      const project = (name: string) => emulator.state().projects.find((p) => p.name === name)!;
      const slug = DEMO_DEPLOYMENT.slug;
      const program = `resources:
  web:
    type: semgrep:index:ProjectSettings
    properties: { deploymentSlug: ${slug}, projectName: acme/web-app, primaryBranch: refs/heads/release, tags: { fn::secret: [team:web, "${SECRET_TAG}"] } }
  mobile-scans:
    type: semgrep:index:ManagedScan
    properties: { deploymentSlug: ${slug}, projectName: acme/mobile-app, diffScan: { enabled: true } }
  mobile-tags:
    type: semgrep:index:ProjectTags
    properties: { deploymentSlug: ${slug}, projectName: acme/mobile-app, tags: [owner:appsec] }
  comment:
    type: semgrep:index:PolicyRuleMode
    properties: { deploymentId: "${DEMO_DEPLOYMENT.id}", policyId: "${STRICT_POLICY_ID}", rulePath: ${rule.path}, mode: MODE_COMMENT }
`;
      const workspace = await yamlWorkspace(program, {
        config: { "semgrep:url": emulator.url },
        secrets: { "semgrep:token": emulator.token },
      });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      // What a CLI killed after the last write leaves: the values set, the stack without the resources.
      for (const [kind, name] of [
        ["ProjectSettings", "web"],
        ["ManagedScan", "mobile-scans"],
        ["ProjectTags", "mobile-tags"],
        ["PolicyRuleMode", "comment"],
      ]) {
        await workspace.run(["state", "delete", "--yes", yamlUrnOf(kind!, name!)]);
      }
      // Recovered on another machine: no journal of originals.
      rmSync(join(workspace.env.XDG_STATE_HOME!, "pulumi-semgrep"), { recursive: true, force: true });
      await workspace.run(["up", "--yes", "--skip-preview"]);
      const mark = emulator.requests().length;
      const destroyed = await workspace.run(["destroy", "--yes", "--skip-preview"]);
      const writes = emulator
        .requests()
        .slice(mark)
        .filter((r) => r.method !== "GET");
      expect(writes).toHaveLength(0); // nothing recorded, nothing put back

      // Left as the killed run set them (the test's premise).
      expect(project("acme/web-app").primaryBranch).toBe("refs/heads/release");
      expect(project("acme/web-app").tags).toContain(SECRET_TAG);
      expect(project("acme/mobile-app").managedScanConfig.diff_scan.enabled).toBe(true);
      expect(project("acme/mobile-app").tags).toContain("owner:appsec");
      expect(strict().rules.find((r) => r.path === rule.path)!.policyMode).toBe("MODE_COMMENT");

      const said = printedWithoutPathWarnings(destroyed);
      expect(said).toContain('ProjectSettings "web" leaves 2 values it manages as they are');
      expect(said).toContain('primaryBranch: "refs/heads/release"');
      expect(said).toContain("tags: [secret]");
      expect(said).not.toContain(SECRET_TAG);
      expect(said).toContain('ManagedScan "mobile-scans" leaves 1 value it manages as it is');
      expect(said).toMatch(/diffScan: \{ ?"enabled": ?true ?\}/);
      expect(said).toContain('ProjectTags "mobile-tags" leaves 1 tag it manages as it is');
      expect(said).toContain('"owner:appsec"');
      expect(said).toContain('PolicyRuleMode "comment" leaves 1 value it manages as it is');
      expect(said).toContain("mode: MODE_COMMENT");
      // The remedy once for the run, not once per resource, under Diagnostics.
      const diagnostics = destroyed.stdout.slice(destroyed.stdout.indexOf("Diagnostics:"));
      expect(diagnostics.match(/see docs\/guides\/interrupted-runs\.md/g)).toHaveLength(1);
    } finally {
      await emulator.close();
    }
  });
});

/** Presets are deterministic and sized as documented; `--data` persists state atomically. */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { buildPreset, SAST_POLICY_ID, SECRETS_POLICY_ID, startEmulator } from "../../provider/emulator";

describe("presets", () => {
  it("gives the same ids every time", () => {
    const ids = (state: ReturnType<typeof buildPreset>) => ({
      projects: state.projects.map((p) => `${p.id}:${p.name}`),
      rules: state.policies.flatMap((p) => p.rules.map((r) => `${r.id}:${r.path}:${r.policyMode}`)),
      scans: state.scans.map((s) => `${s.id}:${s.repositoryId}:${s.branch}`),
      repositories: state.repositories.map((r) => `${r.id}:${r.archived}:${r.lockfiles.length}`),
      dependencies: state.repositories.flatMap((r) =>
        r.lockfiles.flatMap((l) => l.dependencies.map((d) => `${d.name}:${d.ecosystem}:${d.transitivity}:${d.licensePolicySetting}`)),
      ),
    });
    expect(ids(buildPreset("demo", 1))).toEqual(ids(buildPreset("demo", 2)));
    expect(ids(buildPreset("large", 1))).toEqual(ids(buildPreset("large", 2)));
  });

  it("demo: the documented projects, two default policies with a few hundred rules in mixed modes, scans and dependencies", () => {
    const demo = buildPreset("demo");
    expect(demo.deployments).toEqual([{ id: 1, slug: "acme", name: "Acme Corp" }]);
    expect(demo.projects.slice(0, 3).map((p) => p.name)).toEqual(["acme/web-app", "acme/payments-api", "acme/mobile-app"]);
    const sast = demo.policies.find((p) => p.id === SAST_POLICY_ID)!;
    expect(sast).toMatchObject({ isDefault: true, productType: "PRODUCT_TYPE_SAST" });
    expect(demo.policies.find((p) => p.id === SECRETS_POLICY_ID)).toMatchObject({ isDefault: true, productType: "PRODUCT_TYPE_SECRETS" });
    expect(sast.rules.length).toBeGreaterThanOrEqual(200);
    expect(new Set(sast.rules.map((r) => r.policyMode))).toEqual(new Set(["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"]));
    for (const rule of sast.rules) expect(rule.path).toMatch(/^[\w-]+(\.[\w-]+)+$/);
    expect(new Set(sast.rules.map((r) => r.path)).size).toBe(sast.rules.length);
    expect(demo.scans.length).toBeGreaterThanOrEqual(200);
    expect(new Set(demo.scans.map((s) => s.branch)).size).toBeGreaterThanOrEqual(3);
    expect(demo.repositories.length).toBeGreaterThanOrEqual(12);
  });

  it("large: about 5,000 rules in one policy, 2,000 scans, 300 repositories", () => {
    const large = buildPreset("large");
    expect(large.policies.find((p) => p.id === SAST_POLICY_ID)!.rules).toHaveLength(5000);
    expect(large.scans).toHaveLength(2000);
    expect(large.repositories.filter((r) => !r.archived)).toHaveLength(300);
    expect(large.repositories.filter((r) => r.archived)).toHaveLength(10);
  });

  it("dependencies: an ecosystem, a transitivity and a license-policy outcome each; archived repositories beside the projects'", () => {
    const demo = buildPreset("demo");
    const deps = demo.repositories.flatMap((r) =>
      r.lockfiles.flatMap((l) => l.dependencies.map((d) => ({ ...d, lockfilePath: l.lockfilePath }))),
    );
    expect(new Set(deps.map((d) => d.ecosystem))).toEqual(new Set(["npm", "pypi", "maven", "gomod", "gem", "cargo"]));
    expect(new Set(deps.map((d) => d.transitivity))).toEqual(new Set(["DIRECT", "TRANSITIVE", "UNKNOWN_TRANSITIVITY"]));
    for (const d of deps) expect(d.transitivity === "UNKNOWN_TRANSITIVITY").toBe(d.lockfilePath.endsWith("requirements.txt"));
    for (const d of deps) {
      const outcome =
        { "GPL-3.0-only": "LICENSE_POLICY_SETTING_BLOCK", WTFPL: "LICENSE_POLICY_SETTING_COMMENT" }[d.license] ??
        "LICENSE_POLICY_SETTING_ALLOW";
      expect(d.licensePolicySetting).toBe(outcome);
    }
    const archived = demo.repositories.filter((r) => r.archived);
    expect(archived.map((r) => r.name)).toEqual(["acme/legacy-monolith", "acme/old-website"]);
    expect(demo.repositories.filter((r) => !r.archived).map((r) => r.id)).toEqual(demo.projects.map((p) => p.id));
    for (const repo of archived) expect(demo.projects.some((p) => p.id === repo.id || p.name === repo.name)).toBe(false);
  });
});

describe("--data", () => {
  it("loads the file at start and persists every change there atomically", async () => {
    const dir = mkdtempSync(join(tmpdir(), "semgrep-emulator-"));
    const file = join(dir, "state.json");
    const first = await startEmulator({ dataFile: file });
    const client = new SemgrepClient({ baseUrl: first.url, token: first.token, env: {} });
    await client.projects.addTags("acme", "acme/web-app", ["persisted"]);
    await client.policies.updateRuleMode(1, SAST_POLICY_ID, {
      rulePath: "python.lang.security.audit.eval-detected.eval-detected",
      policyMode: "MODE_MONITOR",
    });
    await client.close();
    await first.close();
    expect(readdirSync(dir)).toEqual(["state.json"]);
    expect(JSON.parse(readFileSync(file, "utf8")).projects[0].tags).toContain("persisted");

    const second = await startEmulator({ dataFile: file });
    const again = new SemgrepClient({ baseUrl: second.url, token: second.token, env: {} });
    expect((await again.projects.get("acme", "acme/web-app")).tags).toContain("persisted");
    const [rule] = await again.policies.listRules(1, SAST_POLICY_ID).toArray(1);
    expect(rule?.policyMode).toBe("MODE_MONITOR");
    await again.close();
    await second.close();
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });
});

/**
 * What the native plugin adds over the dynamic provider, through the real CLI with a YAML program
 * and the plugin installed as a user installs it: the provider's config checked at preview, and
 * a function's secret results kept secret in the stack.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import { installPlugin } from "../support/native-plugin";
import { pulumiWorkspace } from "../support/pulumi";

const env = useEmulator({ preset: "demo" });
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

/** A YAML program of one PolicyRuleMode, and `extra` YAML after it. */
const yamlProgram = (extra = "") => `name: native-surface
runtime: yaml
resources:
  eval:
    type: semgrep:index:PolicyRuleMode
    properties:
      deploymentId: "1"
      policyId: "10"
      rulePath: ${EVAL}
      mode: MODE_BLOCK
${extra}`;

async function workspaceOf(program: string) {
  const workspace = await pulumiWorkspace(
    { "Pulumi.yaml": program },
    { SEMGREP_APP_TOKEN: env.emulator.token, SEMGREP_APP_URL: env.emulator.url },
  );
  await installPlugin(workspace);
  return workspace;
}

describe("the native plugin through the CLI", () => {
  it("refuses a semgrep:url that is not an address at preview, naming url, before any request", async () => {
    const workspace = await workspaceOf(yamlProgram());
    await workspace.run(["config", "set", "semgrep:url", "semgrep dot dev"]);
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/url.*semgrep:url "semgrep dot dev" is not an address/);
    expect(env.requests()).toEqual([]);
  });

  it("keeps a scan's author secret in the stack's outputs and state", async () => {
    const scan = env.emulator.state().scans.find((s) => typeof s.meta.commit_author_email === "string" && s.meta.commit_author_email)!;
    const email = scan.meta.commit_author_email as string;
    const workspace = await workspaceOf(
      yamlProgram(`variables:
  scan:
    fn::invoke:
      function: semgrep:index:getScan
      arguments:
        deploymentId: "1"
        scanId: ${scan.id}
outputs:
  author: \${scan.meta.commitAuthorEmail}
  scanId: \${scan.id}
`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    // YAML makes every value read from a result holding a secret a secret: the scan's id too.
    expect(outputs).toEqual({ author: "[secret]", scanId: "[secret]" });
    const shown = JSON.parse((await workspace.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    expect(shown).toEqual({ author: email, scanId: scan.id });
    expect((await workspace.run(["stack", "export"])).stdout).not.toContain(email);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
  }, 240_000);
});

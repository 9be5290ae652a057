/**
 * getProjects through the real CLI, in a YAML program served by the native plugin, against a
 * deployment of 3,000 projects (the large preset's 300 ten times over): what a selector picks,
 * read from the project listing alone.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";
import { installPlugin } from "../support/native-plugin";
import { pulumiWorkspace } from "../support/pulumi";

const env = useEmulator({ preset: "large", projects: 3000 });

const program = `name: get-projects
runtime: yaml
variables:
  everyThird:
    fn::invoke:
      function: semgrep:index:getProjects
      arguments:
        deploymentSlug: acme
        select:
          namePatterns: ["acme/*-3"]
          exclude: ["acme/web-app-3"]
  payments:
    fn::invoke:
      function: semgrep:index:getProjects
      arguments:
        deploymentSlug: acme
        select:
          namePatterns: ["acme/payments-*"]
          tags: ["tier:0"]
outputs:
  everyThird: \${everyThird.names}
  payments: \${payments.names}
  firstPaymentsBranch: \${payments.projects[0].primaryBranch}
`;

describe("getProjects in a YAML program", () => {
  it("lists what a selector picks among 3,000 projects, reading the listing only", async () => {
    const workspace = await pulumiWorkspace(
      { "Pulumi.yaml": program },
      { SEMGREP_APP_TOKEN: env.emulator.token, SEMGREP_APP_URL: env.emulator.url },
    );
    await installPlugin(workspace);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout) as {
      everyThird: string[];
      payments: string[];
      firstPaymentsBranch: string;
    };
    expect(outputs.everyThird).toHaveLength(299);
    expect(outputs.everyThird).not.toContain("acme/web-app-3");
    expect(outputs.everyThird.every((name) => /^acme\/[^/]*-3$/.test(name))).toBe(true);
    expect(outputs.payments).toEqual(Array.from({ length: 10 }, (_, k) => `acme/payments-api-${k}`).sort());
    expect(outputs.firstPaymentsBranch).toBe("refs/heads/main");
    // Two invokes, each 3,000 projects: a full page, then the empty one that ends the listing.
    expect(env.requests("projects.list")).toHaveLength(4);
    expect(env.requests("projects.get")).toHaveLength(0);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
  }, 240_000);
});

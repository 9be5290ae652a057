/**
 * The generated files as text (provider/adopt/render.ts), for a small plan: one rule per line in
 * the policies' data files (a one-rule change is a one-line diff), notes as wrapped comments,
 * and the same bytes for the same plan.
 */
import { describe, expect, it } from "vitest";
import { planAdoption } from "../../provider/adopt/plan";
import type { LiveDeployment } from "../../provider/adopt/read";
import { type RenderContext, renderProject } from "../../provider/adopt/render";
import { policy, project, rule } from "../../provider/client/schemas";

const CONTEXT: RenderContext = { version: "1.2.3", pulumiRange: "^3.200.0", command: "pulumi-semgrep adopt --deployment acme" };

const RULES: [string, string][] = [
  ["python.lang.security.audit.eval-detected.eval-detected", "MODE_BLOCK"],
  ["javascript.browser.security.insecure-document-method.insecure-document-method", "MODE_COMMENT"],
  ["go.lang.security.audit.net.use-tls.use-tls", "MODE_MONITOR"],
  ["not-a-rule-path", "MODE_BLOCK"],
];

/** A deployment of two projects (one with a tag the resource refuses) and one v1 policy of four rules (one not declarable). */
function live(order: "as-listed" | "reversed" = "as-listed"): LiveDeployment {
  const arrange = <T>(items: T[]) => (order === "reversed" ? [...items].reverse() : items);
  const projects = arrange([
    project.parse({
      id: 1,
      name: "acme/web-app",
      tags: ["tier:1", "team:web"],
      default_branch: "refs/heads/main",
      primary_branch: "refs/heads/main",
    }),
    project.parse({ id: 2, name: "acme/legacy", tags: [" padded"], default_branch: "refs/heads/main", primary_branch: "refs/heads/trunk" }),
  ]);
  const rules = arrange(RULES.map(([path, policyMode], index) => rule.parse({ id: String(index), path, policyMode })));
  return {
    deployment: { id: "1", slug: "acme" },
    projects,
    policies: [{ policy: policy.parse({ id: "10", name: "Default SAST Policy", slug: "default-sast-policy" }), rules }],
  };
}

const render = (order?: "as-listed" | "reversed") => renderProject(planAdoption(live(order)), CONTEXT).files;

describe("renderProject", () => {
  it("writes the project's files, and nothing outside them", () => {
    expect(Object.keys(render())).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "index.ts",
      "package.json",
      "policies/default-sast-policy.ts",
      "projects.ts",
      "tsconfig.json",
    ]);
    const packageJson = JSON.parse(render()["package.json"]!) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies).toEqual({ "@pulumi/pulumi": "^3.200.0", "pulumi-semgrep": "1.2.3" });
  });

  it("a policy's data file holds one rule per line, sorted by path; the rule left out is a comment", () => {
    const text = render()["policies/default-sast-policy.ts"]!;
    const body = text.slice(text.indexOf("export const modes: Record<string, PolicyMode> = {\n"));
    const lines = body.split("\n").slice(1, -2);
    expect(body.split("\n").at(-2)).toBe("};");
    expect(lines).toEqual([
      '  "go.lang.security.audit.net.use-tls.use-tls": "MODE_MONITOR",',
      '  "javascript.browser.security.insecure-document-method.insecure-document-method": "MODE_COMMENT",',
      '  "python.lang.security.audit.eval-detected.eval-detected": "MODE_BLOCK",',
    ]);
    expect(text).toContain('// rule "not-a-rule-path" left out: not a rule path PolicyRuleModes takes\n');
    // index.ts reads the map from the data file.
    expect(render()["index.ts"]).toContain(
      'new PolicyRuleModes("default-sast-policy", { deploymentId, policyId: "10", modes: policy10.modes });',
    );
  });

  it("notes become comments wrapped at 100 columns, words whole, saying the whole note", () => {
    const text = render()["projects.ts"]!;
    const comments = text.split("\n").filter((line) => line.trimStart().startsWith("//") && line.startsWith("    "));
    expect(comments.length).toBeGreaterThan(2);
    for (const line of comments) expect(line.length).toBeLessThanOrEqual(100);
    const said = comments.map((line) => line.trim().slice(3)).join(" ");
    expect(said).toContain("primaryBranch left out: refs/heads/main is also the default branch, and the service does not say whether");
    expect(said).toContain('tags left out: the live value [" padded"] cannot be declared (a tag must not start or end with white space)');
    // The project pinned to another branch declares it; the refused tags are not declared.
    expect(text).toContain('primaryBranch: "refs/heads/trunk",');
    expect(text).toContain('tags: ["team:web", "tier:1"],');
    expect(text.match(/^\s+tags:/gm)).toHaveLength(1);
  });

  it("a quoted value stays whole in a wrapped comment: a tag's leading white space is not lost at a line break", () => {
    const long = `team:${"x".repeat(80)}`;
    const plan = planAdoption({
      deployment: { id: "1", slug: "acme" },
      projects: [
        project.parse({
          id: 1,
          name: "acme/a",
          tags: [" padded", long],
          default_branch: "refs/heads/main",
          primary_branch: "refs/heads/x",
        }),
      ],
    });
    const text = renderProject(plan, CONTEXT).files["projects.ts"]!;
    expect(text).toContain(`    // ${JSON.stringify([" padded", long])}\n`);
  });

  it("the same bytes for the same plan, whatever order the service listed things in", () => {
    const first = render();
    expect(render()).toEqual(first);
    expect(render("reversed")).toEqual(first);
    expect(Object.values(first).join("")).not.toMatch(/undefined|NaN|\[object Object\]/);
  });
});

/**
 * Smaller promises of issue 21, case 7, through the real CLI against the emulator: a resource
 * that states a default explicitly settles (a second `up` writes nothing), a selector that
 * matches no rule says so, a refused connection fails fast with one clear line, the data
 * sources take a secret token, the "already as declared" note prints only where it matters, and
 * a DetectionPolicy list change says what it adds and removes.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace, urnOf } from "../support/program";

const { start: emulator } = useEmulators();

/** The write requests (anything but a read or a dry run) made since `from`, an index into the request log. */
const writesSince = (emulator: RunningEmulator, from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter((r) => r.method !== "GET" && !r.operation?.startsWith("policiesV2.dryRun"));

describe("a RemediationPolicy stating a condition's default mode", () => {
  it("settles: a second up writes nothing and a preview shows no change", async () => {
    const v2 = await emulator({ preset: "demo", policiesV2: true });
    const workspace = await programWorkspace(
      v2,
      program(`
new semgrep.RemediationPolicy("explicit-any", {
  deploymentId: "1", slug: "explicit-any", policyName: "Explicit any",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"], mode: "any" }] },
  actions: [{ type: "pr_comment" }],
});`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const from = v2.requests().length;
    await workspace.run(["preview", "--expect-no-changes"]);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(v2, from)).toEqual([]);
  });
});

describe("a PolicyRuleModes selector that matches no rule", () => {
  it("warns at up, and at the preview of a change to it, naming the criteria and the values the policy's rules have", async () => {
    const v1 = await emulator({ preset: "demo" });
    const selecting = (language: string) =>
      program(
        `new semgrep.PolicyRuleModes("typo", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", select: { languages: ["${language}"] }, mode: "MODE_BLOCK" });`,
      );
    const workspace = await programWorkspace(v1, selecting("pythn"));
    const warning = (language: string) =>
      new RegExp(
        `warning: PolicyRuleModes "typo": select \\{"languages":\\["${language}"\\]\\} matches no rule of policy \\d+ \\(deployment 1, \\d+ rules\\), ` +
          `so it sets no rule to MODE_BLOCK: no rule has language "${language}" \\(the policy's rules have: [^)]*python`,
      );
    expect(printed(await workspace.run(["up", "--yes", "--skip-preview"]))).toMatch(warning("pythn"));
    // An unchanged selector says nothing more, and its preview reads nothing.
    const from = v1.requests().length;
    expect(printed(await workspace.run(["preview"]))).not.toMatch(/matches no rule/);
    expect(v1.requests().slice(from)).toEqual([]);
    workspace.write(selecting("pyhton"));
    expect(printed(await workspace.run(["preview"]))).toMatch(warning("pyhton"));
  });
});

describe("a wrong port in semgrep:url", () => {
  it("fails fast, after at most one retry, with one line naming the address and semgrep:url, and no stack trace", async () => {
    const v1 = await emulator({ preset: "demo" });
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const workspace = await programWorkspace(
      v1,
      program(
        `new semgrep.PolicyRuleMode("eval", { deploymentId: "1", policyId: "${SAST_POLICY_ID}", rulePath: "python.lang.security.audit.eval-detected.eval-detected", mode: "MODE_BLOCK" });
new semgrep.RemediationPolicy("v2", { deploymentId: "1", slug: "v2", policyName: "V2", filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] }, actions: [{ type: "pr_comment" }] });`,
      ),
      { credentials: "none" },
    );
    const address = `http://127.0.0.1:${closed}`;
    await workspace.run(["config", "set", "semgrep:url", address]);
    await workspace.run(["config", "set", "--secret", "semgrep:token", v1.token]);
    for (const args of [["preview"], ["up", "--yes", "--skip-preview"]]) {
      const run = await workspace.run(args, { allowFailure: true });
      expect(run.status).not.toBe(0);
      const text = run.stdout + run.stderr;
      expect(printed(run)).toMatch(
        new RegExp(
          `connection refused \\(ECONNREFUSED\\)( after 2 attempts)? \\(${address.replace(/\./g, "\\.")}, from semgrep:url\\): nothing listens at that address; check the address in semgrep:url`,
        ),
      );
      expect(printed(run)).not.toMatch(/after ([3-9]|\d\d) attempts/);
      // Each request's retries are logged ("attempt 2 in 300 ms"): one at most, where a reset gets 8.
      const attempts = [...text.matchAll(/semgrep: retrying .* attempt (\d+) in/g)].map((m) => Number(m[1]));
      expect(attempts.length).toBeGreaterThan(0);
      expect(Math.max(...attempts)).toBe(2);
      expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // no stack frame
    }
  });
});

describe("the note on a value found already as declared", () => {
  it("says nothing in a stack's first up, and speaks (in good grammar) when the stack re-adopts after `pulumi state delete`", async () => {
    const v2 = await emulator({ preset: "demo", policiesV2: true });
    const workspace = await programWorkspace(
      v2,
      program(`
new semgrep.RemediationPolicy("stays", {
  deploymentId: "1", slug: "stays", policyName: "Stays",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] }, actions: [{ type: "pr_comment" }],
});
new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", rulesets: ["p/default", "p/owasp-top-ten"] });`),
    );
    const first = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    // No note per resource; one line says what a first up cannot tell from a killed one.
    expect(first).not.toMatch(/already as declared, so there is nothing to put back/);
    expect(first).toContain('DetectionPolicy "code" and maybe other resources of this run found values already as declared');
    await workspace.run(["state", "delete", urnOf("DetectionPolicy", "code"), "--yes"]);
    const again = printed(await workspace.run(["up", "--yes", "--skip-preview"]));
    expect(again).toMatch(
      /DetectionPolicy "code": the rulesets of .* were already as declared, so there is nothing to put back on delete \(originals\.rulesets stays unset\)\. If this stack set them/,
    );
  });
});

describe("a DetectionPolicy list change", () => {
  it("notes at preview what each list adds and removes (a few named) and what the dry run says applying deletes", async () => {
    const v2 = await emulator({ preset: "demo", policiesV2: true });
    const disabled = (names: string[]) =>
      program(`new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", disabled: ${JSON.stringify(names)} });`);
    const many = Array.from({ length: 30 }, (_, i) => `acme.rules.noisy-${String(i).padStart(2, "0")}`);
    const workspace = await programWorkspace(v2, disabled(many));
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const fewer = [...many.slice(0, 10), "acme.rules.new-a", "acme.rules.new-b"];
    workspace.write(disabled(fewer));
    const preview = printed(await workspace.run(["preview"]));
    expect(preview).toContain(
      'DetectionPolicy "code": the change of disabled adds 2 (acme.rules.new-a, acme.rules.new-b) and removes 20 ' +
        "(acme.rules.noisy-10, acme.rules.noisy-11, acme.rules.noisy-12, acme.rules.noisy-13, acme.rules.noisy-14 and 15 more).",
    );

    // Declaring exceptions that leave out another team's entries: the service's dry run says what goes.
    const [kept, ...others] = v2.state().detectionPolicies.find((p) => p.product === "code")!.exceptions;
    expect(others.length).toBeGreaterThan(0);
    const { project, ...rest } = kept!;
    const declaredException = { ...rest, ...(project !== undefined ? { projectName: project } : {}) };
    workspace.write(
      program(
        `new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", disabled: ${JSON.stringify(fewer)}, exceptions: [${JSON.stringify(declaredException)}] });`,
      ),
    );
    const dropping = printed(await workspace.run(["preview"]));
    expect(dropping).toMatch(
      new RegExp(
        `Semgrep's dry run of the declared bundle reports that applying it deletes ${others.length} exceptions?: ${others[0]!.rule.replace(/\./g, "\\.")}`,
      ),
    );
  });
});

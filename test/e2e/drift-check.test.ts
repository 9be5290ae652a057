/**
 * The day-2 workflow of examples/drift-check: its scheduled GitHub Actions workflow runs
 * `pulumi preview --refresh --expect-no-changes --diff` (through pulumi/actions). Here the command
 * is derived from the workflow file itself and run through the real CLI against the emulator: it
 * passes on a clean stack, and after changes made outside the program (a tag removed, a managed
 * scan switched off, a rule's mode changed, as someone would in the web UI) it fails and names
 * each drifted value, writing nothing; destroy then leaves the service as it was. The workflow's
 * own test fails if someone weakens it (no refresh, changes allowed, no diff).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { SemgrepClient } from "../../provider/client";
import { type RunningEmulator, SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed } from "../support/program";
import { pulumiWorkspace } from "../support/pulumi";

const EXAMPLE = join(__dirname, "../../examples/drift-check");
const WORKFLOW = ".github/workflows/drift-check.yml";

interface WorkflowStep {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<string, { steps: WorkflowStep[]; defaults?: { run?: { "working-directory"?: string } } }>;
}

const workflow = () => parse(readFileSync(join(EXAMPLE, WORKFLOW), "utf8")) as Workflow;

/** The workflow's one job and its pulumi/actions step. */
function pulumiStep(parsed: Workflow) {
  const [job, ...others] = Object.values(parsed.jobs);
  expect(others).toEqual([]);
  const steps = job!.steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
  expect(steps).toHaveLength(1);
  return { job: job!, step: steps[0]! };
}

/**
 * The `pulumi` arguments the workflow's pulumi/actions step amounts to: its command and the flags
 * its inputs turn on (pulumi/actions v6 passes `refresh`, `expect-no-changes` and `diff` to the
 * CLI as `--refresh`, `--expect-no-changes` and `--diff`).
 */
function commandOfWorkflow(): string[] {
  const inputs = pulumiStep(workflow()).step.with ?? {};
  const flags = { refresh: "--refresh", "expect-no-changes": "--expect-no-changes", diff: "--diff" } as const;
  return [String(inputs.command), ...Object.entries(flags).flatMap(([input, flag]) => (inputs[input] === true ? [flag] : []))];
}

const SQL_INJECTION = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw";

/**
 * Sets three values the program declares outside it, as someone would in the web UI (a tag
 * added, a managed scan switched off, a rule's mode weakened), or sets them back (`undo`).
 */
async function outOfBand(emulator: RunningEmulator, change: "drift" | "undo"): Promise<void> {
  const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
  const drift = change === "drift";
  try {
    // The demo's acme/payments-api has ["team:payments", "pci", "tier:0", "managed-scan"]: a tag added goes last, after the
    // system tag, so that removing it again keeps the order (a tag of the declared ones removed and added back would not).
    if (drift) await client.projects.addTags("acme", "acme/payments-api", ["hotfix"]);
    else await client.projects.removeTags("acme", "acme/payments-api", ["hotfix"]);
    await client.projects.updateManagedScans("acme", "acme/web-app", { full_scan: { enabled: !drift } });
    await client.policies.updateRuleMode("1", SAST_POLICY_ID, {
      rulePath: SQL_INJECTION,
      policyMode: drift ? "MODE_MONITOR" : "MODE_BLOCK",
    });
  } finally {
    await client.close();
  }
}

const emulators = useEmulators({ preset: "demo" });

describe("examples/drift-check", () => {
  it("the workflow runs a refreshed preview that fails on any change and prints the diff, daily and by hand", () => {
    const parsed = workflow();
    const { job, step } = pulumiStep(parsed);
    expect(Number(/^pulumi\/actions@v(\d+)/.exec(step.uses!)?.[1])).toBeGreaterThanOrEqual(6);
    expect(step.with).toMatchObject({ command: "preview", refresh: true, "expect-no-changes": true, diff: true });
    expect(commandOfWorkflow()).toEqual(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(step.with!["stack-name"]).toMatch(/^\$\{\{ *(vars|secrets)\.\w+ *\}\}$/);
    // The program's dependencies are installed (from the lock file) before the preview, in the directory it previews.
    const steps = job.steps.map((s) => s.run ?? s.uses);
    expect(steps.indexOf("npm ci")).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf("npm ci")).toBeLessThan(job.steps.indexOf(step));
    expect(job.defaults?.run?.["working-directory"]).toBe(step.with!["work-dir"]);
    expect(parsed.on).toHaveProperty("workflow_dispatch");
    expect(parsed.on.schedule).toEqual([{ cron: expect.stringMatching(/^\S+ \S+ \* \* \*$/) }]);
    expect(parsed.env).toEqual({
      PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
      SEMGREP_APP_TOKEN: "${{ secrets.SEMGREP_APP_TOKEN }}",
    });
  });

  it("the workflow's command passes on a clean stack and fails naming each value changed out of band, with reads only", async () => {
    const emulator = await emulators.start();
    const snapshot = () =>
      JSON.stringify({
        projects: emulator.state().projects,
        policies: emulator.state().policies.map((p) => p.rules.map((r) => r.policyMode)),
      });
    const before = snapshot();
    const files = Object.fromEntries(["Pulumi.yaml", "package.json", "index.ts"].map((f) => [f, readFileSync(join(EXAMPLE, f), "utf8")]));
    const credentials = { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token };
    const workspace = await pulumiWorkspace(files, credentials, join(inject("installedPackageDir"), "node_modules"));
    const requestsSince = (mark: number) => emulator.requests().slice(mark);
    const writesSince = (mark: number) =>
      requestsSince(mark)
        .filter((r) => r.method !== "GET")
        .map((r) => r.operation);
    const check = commandOfWorkflow();

    // Declared as live, as `adopt` writes it: the first `up` writes nothing.
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(writesSince(0)).toEqual([]);

    let mark = emulator.requests().length;
    const clean = await workspace.run(check, { allowFailure: true });
    expect(clean.status, printed(clean)).toBe(0);
    // Reads only, at their minimum: each project once, the policy's rules listed once.
    expect(
      requestsSince(mark)
        .map((r) => r.operation)
        .sort(),
    ).toEqual(["policies.listRules", "projects.get", "projects.get"]);

    await outOfBand(emulator, "drift");
    mark = emulator.requests().length;
    const drifted = await workspace.run(check, { allowFailure: true });
    const output = printed(drifted);
    expect(drifted.status, output).not.toBe(0);
    expect(writesSince(mark)).toEqual([]);
    expect(output).toContain("error: no changes were expected for preview but changes were proposed");
    expect(output).toContain("Resources: ~ 3 to update 1 unchanged");
    // Each drifted value, named: the refresh shows the live value, the update the declared one it would put back.
    expect(output).toMatch(
      /ProjectSettings::acme-payments-api\] --outputs:-- ~ tags : \[ \[0\]: "team:payments" \[1\]: "pci" \[2\]: "tier:0" \[3\]: "managed-scan" \+ \[4\]: "hotfix" \]/,
    );
    expect(output).toMatch(
      /ProjectSettings::acme-payments-api\] [^[]*~ tags: \[ \[0\]: "team:payments" \[1\]: "pci" \[2\]: "tier:0" - \[3\]: "hotfix" \]/,
    );
    expect(output).toContain("~ fullScan: { ~ enabled: true => false }");
    expect(output).toContain("~ fullScan: { ~ enabled: false => true }");
    // The update of web-app shows only what drifted: its tags, live with the system tag, are as
    // declared. The engine prints the updates as they end: next comes another resource, or the summary.
    expect(output).toMatch(
      /ProjectSettings::acme-web-app\] ~ managedScanConfig: \{ diffScan: \{ enabled: true \} ~ fullScan: \{ ~ enabled: false => true \} \} (~ |Resources:)/,
    );
    expect(output).toContain(`~ deviations : { + ${SQL_INJECTION}: "MODE_MONITOR" }`);
    expect(output).toContain(
      `1 rule is not as it left it (found by refresh, or left by a failed or interrupted run): ${SQL_INJECTION} (now MODE_MONITOR)`,
    );

    // Set back outside the program too: the preview saved nothing, so destroy finds the state of the `up`.
    await outOfBand(emulator, "undo");
    expect(snapshot()).toBe(before);
    mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(writesSince(mark)).toEqual([]);
    expect(snapshot()).toBe(before);
  }, 120_000);
});

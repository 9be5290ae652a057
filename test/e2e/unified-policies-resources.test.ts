/**
 * DetectionPolicy, DetectionPolicyException and RemediationPolicy through the real CLI against a
 * deployment on unified policies (the emulator's `--policies-v2`, demo preset): what users do with
 * them (adopt, update, drift behind the stack's back, destroy), what must stop a run before any
 * write (conflicts, the service's own validation, static checks), parallel creates beside another
 * writer, `X.get`, renames, dropped fields and `restoreOnDelete: false`; with the requests each
 * phase makes.
 */
import { describe, expect, it } from "vitest";
import { remediationPolicyInput, SemgrepClient, StateVersionConflictError } from "../../provider/client";
import { type RunningEmulator, SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const { start: migrated } = useEmulators({ preset: "demo", policiesV2: true });

const EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const OPEN = "python.lang.best-practice.open-never-closed.open-never-closed";
const ASSIGNED = "javascript.lang.best-practice.assigned-undefined.assigned-undefined";
const INSECURE_DOC = "javascript.browser.security.insecure-document-method.insecure-document-method";
const NOISY = "python.lang.maintainability.useless-ifelse.useless-if-body";

/** The emulator's bundles, deep-copied: what a test compares before and after. */
const bundles = (emulator: RunningEmulator) =>
  structuredClone({ detection: emulator.state().detectionPolicies, remediation: emulator.state().remediationPolicies });
const code = (emulator: RunningEmulator) => emulator.state().detectionPolicies.find((p) => p.product === "code")!;
const remediation = (emulator: RunningEmulator, slug: string) => emulator.state().remediationPolicies.find((p) => p.slug === slug);

/** The requests made since `from` (an index into the request log), by kind. */
function requestsSince(emulator: RunningEmulator, from: number) {
  const log = emulator.requests().slice(from);
  return {
    reads: log.filter((r) => r.method === "GET").length,
    dryRuns: log.filter((r) => r.operation?.startsWith("policiesV2.dryRun")).length,
    writes: log.filter((r) => r.method === "PUT").length,
    other: log.filter((r) => r.method !== "GET" && r.method !== "PUT" && !r.operation?.startsWith("policiesV2.dryRun")).length,
  };
}

/** A person changing the code bundle in Semgrep's UI: read, edit, apply with the version read. */
async function editCodeBundle(emulator: RunningEmulator, edit: (disabled: string[]) => string[]) {
  const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
  const live = await client.policiesV2.getDetectionPolicy(1, "code");
  const bundle = { ...live.bundle, disabled: edit(live.bundle.disabled ?? []) };
  await client.policiesV2.applyDetectionPolicy(1, "code", bundle, { ifMatch: live.state_version });
}

/**
 * A person adding remediation policies in Semgrep's UI, one after another, until `done`: each a
 * read and an apply with the version read, read again when another writer got in first.
 * Resolves with the slugs added and the number of attempts (each one read and one apply).
 */
async function personAddingPolicies(emulator: RunningEmulator, done: () => boolean) {
  const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
  const added: string[] = [];
  let attempts = 0;
  while (!done()) {
    attempts++;
    const slug = `person-${added.length}`;
    const live = await client.policiesV2.getRemediationPolicies(1);
    const policy = {
      slug,
      name: `Added by a person ${added.length}`,
      filters: { mode: "all", conditions: [{ type: "severity", values: ["low"] }] },
      actions: [{ type: "pr_comment" }],
    };
    try {
      const policies = [...live.bundle.policies.map(remediationPolicyInput), policy];
      await client.policiesV2.applyRemediationPolicies(1, { policies }, { ifMatch: live.state_version });
      added.push(slug);
    } catch (error) {
      if (!(error instanceof StateVersionConflictError)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { added, attempts };
}

const TEAM_PROGRAM = program(`
const deploymentId = "1";
new semgrep.DetectionPolicy("code", { deploymentId, product: "code", disabled: [${JSON.stringify(OPEN)}, ${JSON.stringify(ASSIGNED)}, ${JSON.stringify(NOISY)}] });
new semgrep.DetectionPolicy("secrets", { deploymentId, product: "secrets", disabled: [] });
new semgrep.DetectionPolicyException("web-app-eval", {
  deploymentId, product: "code", exceptionType: "exclude", projectName: "acme/web-app", rule: ${JSON.stringify(EVAL)}, ruleType: "rule",
});
new semgrep.RemediationPolicy("comment-high", {
  deploymentId, slug: "comment-high-severity", policyName: "Comment on high and critical findings",
  filters: { mode: "any", conditions: [{ type: "severity", values: ["high", "critical"] }] },
  actions: [{ type: "pr_comment" }],
});
new semgrep.RemediationPolicy("secrets-to-security", {
  deploymentId, slug: "secrets-to-security", policyName: "Secrets to #security",
  filters: { mode: "all", conditions: [{ type: "product", values: ["secrets"] }] },
  actions: [{ type: "slack_app", config: { channel: "#security" } }],
});
`);

describe("unified-policies resources through the real CLI", () => {
  it("adopt, no-change up, drift + refresh + up, destroy restoring every bundle exactly; the requests of each phase", async () => {
    const emulator = await migrated();
    const before = bundles(emulator);
    const workspace = await programWorkspace(emulator, TEAM_PROGRAM);

    // Preview: one read per bundle (code, secrets, remediation) and one dry run per resource; no write.
    let mark = emulator.requests().length;
    const preview = await workspace.run(["preview"]);
    expect(printed(preview)).toMatch(/\+ 6 to create/);
    expect(requestsSince(emulator, mark)).toEqual({ reads: 3, dryRuns: 5, writes: 0, other: 0 });

    // Up without its preview: the same reads and dry runs in `check`, then one write per resource.
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(requestsSince(emulator, mark)).toEqual({ reads: 3, dryRuns: 5, writes: 5, other: 0 });
    expect(code(emulator).disabled).toEqual([ASSIGNED, OPEN, NOISY].sort());
    expect(code(emulator).rulesets).toEqual(before.detection[0]!.rulesets); // not declared: sent back as found
    expect(code(emulator).exceptions).toContainEqual({ exceptionType: "exclude", project: "acme/web-app", rule: EVAL, ruleType: "rule" });
    expect(emulator.state().detectionPolicies.find((p) => p.product === "secrets")!.disabled).toEqual([]);
    expect(remediation(emulator, "comment-high-severity")!.name).toBe("Comment on high and critical findings");
    expect(remediation(emulator, "secrets-to-security")).toBeDefined();
    expect(remediation(emulator, SYSTEM_REMEDIATION_SLUG)).toBeDefined(); // the system-managed policy is never touched
    const state = await workspace.resources();
    expect(state["code"]!.outputs).toMatchObject({ managedFields: ["disabled"], originals: { disabled: before.detection[0]!.disabled } });
    expect(state["web-app-eval"]!.id).toBe(`1/code/project/${encodeURIComponent("acme/web-app")}/rule/${EVAL}`);

    // A no-change up: reads and dry runs (the service's validation), no write.
    mark = emulator.requests().length;
    const again = await workspace.run(["up", "--yes"]);
    expect(printed(again)).not.toMatch(/updated|created|deleted/);
    expect(requestsSince(emulator, mark)).toMatchObject({ writes: 0, other: 0 });

    // Someone re-disables a rule and drops the team's exception in the UI: refresh reports it, up corrects it.
    await editCodeBundle(emulator, (disabled) => [...disabled.filter((r) => r !== NOISY), INSECURE_DOC]);
    mark = emulator.requests().length;
    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    expect(requestsSince(emulator, mark)).toEqual({ reads: 3, dryRuns: 0, writes: 0, other: 0 }); // one read per bundle, shared by its resources
    const refreshed = await workspace.resources();
    expect(refreshed["code"]!.outputs.disabled).toEqual(expect.arrayContaining([INSECURE_DOC]));
    const drifted = await workspace.run(["preview", "--diff"]);
    expect(printed(drifted)).toMatch(/~ 1 to update/);
    expect(printed(drifted)).toContain(INSECURE_DOC);
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(requestsSince(emulator, mark).writes).toBe(1);
    expect(code(emulator).disabled).toEqual([ASSIGNED, OPEN, NOISY].sort());

    // Destroy puts back every bundle exactly as found.
    mark = emulator.requests().length;
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(requestsSince(emulator, mark)).toMatchObject({ writes: 5, dryRuns: 0, other: 0 });
    expect(bundles(emulator)).toEqual(before);
  }, 240_000);

  it("a DetectionPolicyException checked after a DetectionPolicy that declares the exceptions is refused naming its rule, not a value-less `exceptions`", async () => {
    const emulator = await migrated();
    // dependsOn: the exception is registered, and checked, once the policy's step is done.
    const workspace = await programWorkspace(
      emulator,
      program(`
const policy = new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", exceptions: [] });
new semgrep.DetectionPolicyException("team-exception", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/web-app", rule: ${JSON.stringify(EVAL)}, ruleType: "rule",
}, { dependsOn: [policy] });`),
    );
    for (const [args, writes] of [
      [["preview"], 0],
      [["up", "--yes", "--skip-preview"], 1], // the DetectionPolicy's own write, before the exception's check
    ] as const) {
      const mark = emulator.requests().length;
      const refused = await workspace.run([...args], { allowFailure: true });
      expect(refused.status).not.toBe(0);
      const said = printed(refused);
      expect(said).toContain(
        'DetectionPolicyException "team-exception" declares exceptions of the code detection policy of deployment 1, which DetectionPolicy "code" declares too',
      );
      // The engine prints the value of the property a check failure names: the exception's rule, which this resource declares.
      expect(said).toContain(`property rule value {${EVAL}} has a problem`);
      expect(said).not.toContain("<nil>");
      expect(requestsSince(emulator, mark).writes).toBe(writes);
    }
    expect(code(emulator).exceptions).toEqual([]); // the DetectionPolicy's list: the exception was never added

    // A rule given as a secret: the failure names no property (dispatch.ts), so the engine prints no value.
    workspace.write(
      program(`
const policy = new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", exceptions: [] });
new semgrep.DetectionPolicyException("team-exception", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/web-app", rule: pulumi.secret(${JSON.stringify(EVAL)}), ruleType: "rule",
}, { dependsOn: [policy] });`),
    );
    const secret = await workspace.run(["preview"], { allowFailure: true });
    expect(secret.status).not.toBe(0);
    expect(printed(secret)).toContain('DetectionPolicyException "team-exception" declares exceptions of the code detection policy');
    expect(printed(secret)).toContain("resource 'team-exception' has a problem");
    expect(printed(secret)).not.toContain(EVAL);
  }, 240_000);

  it("a conflict, the service's validation and a static error each fail preview and up, naming resource and field, with no write", async () => {
    const emulator = await migrated();
    const before = bundles(emulator);
    const workspace = await programWorkspace(
      emulator,
      program(`
new semgrep.DetectionPolicy("code", { deploymentId: "1", product: "code", exceptions: [] });
new semgrep.DetectionPolicyException("team-exception", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/web-app", rule: ${JSON.stringify(EVAL)}, ruleType: "rule",
});`),
    );
    const conflict = await workspace.run(["preview"], { allowFailure: true });
    expect(conflict.status).not.toBe(0);
    expect(printed(conflict)).toMatch(
      // whichever the engine checks second is refused, naming the other
      /(DetectionPolicy "code"|DetectionPolicyException "team-exception") declares exceptions of the code detection policy of deployment 1, which (DetectionPolicyException "team-exception"|DetectionPolicy "code") declares too/,
    );

    // The service's own validation (the dry run's validation_errors): a project the deployment lacks.
    workspace.write(
      program(`
new semgrep.DetectionPolicyException("typo", {
  deploymentId: "1", product: "code", exceptionType: "exclude", projectName: "acme/web-ap", rule: ${JSON.stringify(EVAL)}, ruleType: "rule",
});`),
    );
    const invalid = await workspace.run(["preview"], { allowFailure: true });
    expect(invalid.status).not.toBe(0);
    expect(printed(invalid)).toMatch(/DetectionPolicyException "typo"/);
    expect(printed(invalid)).toContain("projectName");
    expect(printed(invalid)).toContain("acme/web-ap");
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toContain("acme/web-ap");

    // What the OpenAPI states statically stops at check, before any request.
    workspace.write(
      program(`
new semgrep.RemediationPolicy("block-only", {
  deploymentId: "1", slug: "block-only", policyName: "Block only",
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "block" }],
});`),
    );
    const mark = emulator.requests().length;
    const statically = await workspace.run(["preview"], { allowFailure: true });
    expect(statically.status).not.toBe(0);
    expect(printed(statically)).toMatch(/actions.*a block action needs a pr_comment action in the same policy/);
    expect(emulator.requests().slice(mark)).toEqual([]);

    expect(emulator.requests().filter((r) => r.method === "PUT")).toEqual([]);
    expect(bundles(emulator)).toEqual(before);
    expect(await workspace.resources()).toEqual({});
  }, 240_000);

  it("20 RemediationPolicy resources created in one up beside a person editing the bundle: no policy lost, destroy removes exactly its own", async () => {
    const emulator = await migrated();
    const before = bundles(emulator);
    const slugs = Array.from({ length: 20 }, (_, i) => `team-${i}-critical`);
    const workspace = await programWorkspace(
      emulator,
      program(`
for (const slug of ${JSON.stringify(slugs)}) {
  new semgrep.RemediationPolicy(slug, {
    deploymentId: "1", slug, policyName: "Critical findings of " + slug,
    filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
    actions: [{ type: "pr_comment" }, { type: "block" }],
  });
}`),
    );
    let upDone = false;
    const person = personAddingPolicies(emulator, () => upDone);
    const mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview", "--parallel", "20"]).finally(() => (upDone = true));
    const { added: personAdded, attempts } = await person;
    expect(personAdded.length).toBeGreaterThan(0);
    const live = emulator.state().remediationPolicies.map((p) => p.slug);
    expect(live).toEqual(expect.arrayContaining([...slugs, ...personAdded, ...before.remediation.map((p) => p.slug)]));
    // The provider's requests: one read of the bundle and 20 dry runs in check, then one write per
    // policy from the shared read kept fresh by each write's answer, plus a re-read and a retry
    // for each write the person got in before (a 409).
    const log = emulator.requests().slice(mark);
    const count = (test: (r: (typeof log)[number]) => boolean) => log.filter(test).length;
    const theirs409 = attempts - personAdded.length;
    const ours409 = count((r) => r.method === "PUT" && r.status === 409) - theirs409;
    expect(count((r) => r.method === "PUT" && r.status === 200)).toBe(20 + personAdded.length);
    expect(count((r) => r.method === "GET") - attempts).toBe(1 + ours409);
    expect(count((r) => r.operation === "policiesV2.dryRunRemediationPolicies")).toBe(20);

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(
      emulator
        .state()
        .remediationPolicies.map((p) => p.slug)
        .sort(),
    ).toEqual([...before.remediation.map((p) => p.slug), ...personAdded].sort());
  }, 240_000);

  it("X.get of each kind, renames with and without alias, a field dropped from the program, restoreOnDelete: false", async () => {
    const emulator = await migrated();
    const before = bundles(emulator);
    const original = (slug: string) => before.remediation.find((p) => p.slug === slug)!;
    const EXEC = "python.lang.security.audit.exec-detected.exec-detected";
    const stack = (names: { code: string; slack: string; alias: boolean; rules: boolean; restorePager: boolean }) =>
      program(`
const aliases = (name) => (${names.alias} ? { aliases: [{ name }] } : {});
new semgrep.DetectionPolicy(${JSON.stringify(names.code)}, {
  deploymentId: "1", product: "code", disabled: [${JSON.stringify(NOISY)}],
  ${names.rules ? `rules: ["acme.extra-rule"],` : ""}
}, aliases("code"));
new semgrep.RemediationPolicy(${JSON.stringify(names.slack)}, {
  deploymentId: "1", slug: "secrets-to-slack", policyName: "Secrets to #security",
  filters: { mode: "all", conditions: [{ type: "product", values: ["secrets"] }] },
  actions: [{ type: "slack_app", config: { channel: "#security" } }],
});
new semgrep.RemediationPolicy("pager", {
  deploymentId: "1", slug: "secrets-pager", policyName: "Page on secrets",
  filters: { mode: "all", conditions: [{ type: "product", values: ["secrets"] }] },
  actions: [{ type: "webhook", config: { url: "https://pager.example/hook" } }],
  restoreOnDelete: ${names.restorePager},
});
exports.secretsDisabled = semgrep.DetectionPolicy.get("secrets-read", "1/secrets").disabled;
exports.commentName = semgrep.RemediationPolicy.get("comment-read", "1/comment-high-severity").policyName;
exports.legacyException = semgrep.DetectionPolicyException.get("legacy-read", "1/code/project_tag/legacy%20systems/rule/${EXEC}").exceptionType;
`);
    const workspace = await programWorkspace(
      emulator,
      stack({ code: "code", slack: "slack", alias: false, rules: true, restorePager: true }),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await workspace.run(["stack", "output", "--json"])).stdout);
    expect(outputs).toEqual({
      secretsDisabled: before.detection.find((p) => p.product === "secrets")!.disabled,
      commentName: original("comment-high-severity").name,
      legacyException: "exclude",
    });
    expect(code(emulator).rules).toEqual(["acme.extra-rule"]);

    // Renamed with an alias: the same resource, nothing written.
    workspace.write(stack({ code: "code-bundle", slack: "slack", alias: true, rules: true, restorePager: true }));
    let mark = emulator.requests().length;
    await workspace.run(["up", "--yes"]);
    expect(requestsSince(emulator, mark).writes).toBe(0);

    // Renamed without an alias: a create (adopting what the stack set) then a delete that must not undo it.
    workspace.write(stack({ code: "code-bundle", slack: "slack-renamed", alias: true, rules: true, restorePager: true }));
    const renamed = await workspace.run(["up", "--yes"]);
    expect(printed(renamed)).toMatch(/\+ 1 created/);
    expect(printed(renamed)).toMatch(/- 1 deleted/);
    expect(remediation(emulator, "secrets-to-slack")!.name).toBe("Secrets to #security");
    // The new resource found the policy as it declares it: it records nothing (destroy will leave the
    // policy), and the old one's warning gives what was there before this stack, and the alias to add.
    expect((await workspace.resources())["slack-renamed"]!.outputs).toMatchObject({ created: false });
    expect((await workspace.resources())["slack-renamed"]!.outputs.original).toBeUndefined();
    expect(printed(renamed)).toContain('the policy named "Secrets to #appsec-alerts"');
    expect(printed(renamed)).toContain('give it `aliases: [{ name: "slack" }]`');

    // `rules` dropped from the program: no longer touched by update or by destroy; restoreOnDelete: false only forgets.
    workspace.write(stack({ code: "code-bundle", slack: "slack-renamed", alias: true, rules: false, restorePager: false }));
    mark = emulator.requests().length;
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(requestsSince(emulator, mark).writes).toBe(0);
    expect((await workspace.resources())["code-bundle"]!.outputs.originals).toEqual({ disabled: before.detection[0]!.disabled });

    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(code(emulator).disabled).toEqual(before.detection[0]!.disabled);
    expect(code(emulator).rules).toEqual(["acme.extra-rule"]); // no longer managed: left as the stack last set it
    expect(remediation(emulator, "secrets-to-slack")!.name).toBe("Secrets to #security"); // as the warning said
    expect(remediation(emulator, "secrets-pager")).toMatchObject({ name: "Page on secrets" }); // forgotten, not removed
  }, 240_000);
});

/** DetectionPolicy, DetectionPolicyException and RemediationPolicy provider methods against the emulator (Policies V2). */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { SYSTEM_REMEDIATION_SLUG } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { checked, inStackWithHistory, notices, provider, useProviderAgainst } from "../support/provider";

const env = useEmulator({ preset: "demo", policiesV2: true });
useProviderAgainst(env);

const detection = provider("DetectionPolicy");
const exception = provider("DetectionPolicyException");
const remediation = provider("RemediationPolicy");
const code = () => env.emulator.state().detectionPolicies.find((p) => p.product === "code")!;
const policy = (slug: string) => env.emulator.state().remediationPolicies.find((p) => p.slug === slug);
const writes = () => env.requests().filter((r) => r.method === "PUT");
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

describe("DetectionPolicy", () => {
  it("applies the declared fields only, records what it found, and puts it back on delete", async () => {
    const before = structuredClone(code());
    const inputs = await checked(detection, { deploymentId: 1, product: "code", disabled: [EVAL] });
    const { id, outs } = await detection.create(inputs);
    expect(id).toBe("1/code");
    expect(code().disabled).toEqual([EVAL]);
    expect(code().rulesets).toEqual(before.rulesets);
    expect(code().exceptions).toEqual(before.exceptions);
    expect(outs).toMatchObject({ disabled: [EVAL], managedFields: ["disabled"], originals: { disabled: before.disabled } });
    expect(outs.stateVersion).toEqual(expect.any(String));
    expect(await detection.diff(outs, inputs)).toMatchObject({ changes: false });
    await detection.delete(id, outs);
    expect(code()).toEqual(before);
  });

  it("compares lists as sets and keeps the declared order in the outputs", async () => {
    const rulesets = [...code().rulesets].reverse();
    const inputs = await checked(detection, { deploymentId: "1", product: "code", rulesets });
    const { outs } = await detection.create(inputs);
    expect(writes()).toHaveLength(0);
    expect(outs.rulesets).toEqual(rulesets);
    expect(await detection.diff(outs, inputs)).toMatchObject({ changes: false });
  });

  it("refuses rulesets for secrets and an exception with two scopes, naming the field, before any request", async () => {
    const secrets = await detection.check({ deploymentId: "1", product: "secrets", rulesets: ["p/default"] });
    expect(secrets.failures).toEqual([expect.objectContaining({ property: "rulesets", reason: expect.stringContaining("no rulesets") })]);
    const both = await detection.check({
      deploymentId: "1",
      product: "code",
      exceptions: [{ exceptionType: "exclude", projectName: "a/b", projectTagName: "t", rule: EVAL, ruleType: "rule" }],
    });
    expect(both.failures?.[0]?.reason).toContain("exactly one of projectName and projectTagName");
    expect(env.requests()).toHaveLength(0);
  });

  it("reports drift on read and converges on update", async () => {
    const inputs = await checked(detection, { deploymentId: "1", product: "code", rules: ["acme.rule-one"] });
    const { id, outs } = await detection.create(inputs);
    code().rules = ["acme.someone-else"];
    forgetProcessMemory(); // a refresh runs in a new provider process
    const read = await detection.read(id, outs);
    expect(read.props?.rules).toEqual(["acme.someone-else"]);
    expect(read.inputs?.rules).toEqual(["acme.someone-else"]);
    expect(await detection.diff(read.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    await detection.update(id, read.props!, inputs);
    expect(code().rules).toEqual(["acme.rule-one"]);
  });

  it("a DetectionPolicy declaring exceptions and a DetectionPolicyException on the same product conflict at check", async () => {
    await checked(detection, { deploymentId: "1", product: "code", exceptions: [], resourceName: "all" });
    const result = await exception.check({
      deploymentId: "1",
      product: "code",
      exceptionType: "exclude",
      projectName: "acme/web-app",
      rule: EVAL,
      ruleType: "rule",
      resourceName: "one",
    });
    expect(result.failures?.[0]?.reason).toMatch(
      /DetectionPolicyException "one" declares exceptions of the code detection policy of deployment 1, which DetectionPolicy "all" declares too/,
    );
  });
});

describe("DetectionPolicyException", () => {
  const declared = {
    deploymentId: "1",
    product: "code",
    exceptionType: "exclude",
    projectTagName: "legacy systems",
    rule: EVAL,
    ruleType: "rule",
  };

  it("the service's refusal of its project names projectName, the resource's own field, with no write", async () => {
    const { projectTagName: _, ...rest } = declared;
    const result = await exception.check({ ...rest, projectName: "acme/no-such-project" });
    expect(result.failures).toEqual([
      expect.objectContaining({ property: "projectName", reason: expect.stringContaining('no project "acme/no-such-project"') }),
    ]);
    expect(writes()).toHaveLength(0);
  });

  it("adds its exception beside the others and removes it on delete; the id survives spaces and slashes", async () => {
    const before = structuredClone(code().exceptions);
    const { id, outs } = await exception.create(await checked(exception, declared));
    expect(id).toBe(`1/code/project_tag/legacy%20systems/rule/${EVAL}`);
    expect(outs).toMatchObject({ added: true });
    expect(code().exceptions).toHaveLength(before.length + 1);
    const alone = await exception.read(id, {});
    expect(alone).toMatchObject({ id, props: { exceptionType: "exclude", projectTagName: "legacy systems" } });
    await exception.delete(id, outs);
    expect(code().exceptions).toEqual(before);
  });

  it("adopts an exception found as declared and leaves it on delete", async () => {
    const found = {
      ...declared,
      projectName: "acme/payments-api",
      projectTagName: undefined,
      rule: "python.flask.security.audit.debug-enabled.debug-enabled",
    };
    inStackWithHistory();
    const { id, outs } = await exception.create(await checked(exception, found));
    expect(id).toBe("1/code/project/acme%2Fpayments-api/rule/python.flask.security.audit.debug-enabled.debug-enabled");
    expect(outs).toMatchObject({ added: false });
    expect(writes()).toHaveLength(0);
    expect(notices.map((n) => n.message).join("\n")).toContain("already as declared");
    notices.length = 0;
    await exception.delete(id, outs);
    expect(code().exceptions.some((e) => e.project === "acme/payments-api")).toBe(true);
    // It names the exception it leaves, and its type (a killed run may have added it: no journal on another machine).
    const left = notices.map((n) => n.message).join("\n");
    expect(left).toContain("leaves 1 value it manages as it is: it found it already as declared and recorded no original");
    expect(left).toMatch(/\n {4}exception .*acme\/payments-api.*python\.flask\.security\.audit\.debug-enabled\.debug-enabled.*: /);
  });
});

describe("RemediationPolicy", () => {
  const declared = {
    deploymentId: "1",
    slug: "block-critical-secrets",
    policyName: "Block critical secrets",
    filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
    actions: [{ type: "pr_comment" }, { type: "block" }],
  };

  it("creates a policy, then removes it on delete", async () => {
    const { id, outs } = await remediation.create(await checked(remediation, declared));
    expect(id).toBe("1/block-critical-secrets");
    expect(policy("block-critical-secrets")).toMatchObject({ name: "Block critical secrets", active: true });
    expect(outs).toMatchObject({ policyName: "Block critical secrets", active: true, filters: declared.filters });
    expect(outs.original).toBeUndefined();
    await remediation.delete(id, outs);
    expect(policy("block-critical-secrets")).toBeUndefined();
  });

  it("adopts a policy with its slug and puts it back on delete", async () => {
    const before = structuredClone(policy("comment-high-severity"));
    const inputs = await checked(remediation, { ...declared, slug: "comment-high-severity", policyName: "Renamed" });
    const { id, outs } = await remediation.create(inputs);
    expect(policy("comment-high-severity")?.name).toBe("Renamed");
    expect(outs.original).toMatchObject({ name: "Comment on high-severity findings" });
    await remediation.delete(id, outs);
    expect(policy("comment-high-severity")).toEqual(before);
  });

  it("put back on delete: only the fields it declares (a description it never declared stays as a person set it)", async () => {
    const before = structuredClone(policy("comment-high-severity"))!;
    const { id, outs } = await remediation.create(await checked(remediation, { ...declared, slug: "comment-high-severity" }));
    policy("comment-high-severity")!.description = "Edited in the UI";
    forgetProcessMemory(); // destroy runs in a new provider process
    await remediation.delete(id, outs);
    expect(policy("comment-high-severity")).toEqual({ ...before, description: "Edited in the UI" });
  });

  it("a policy found already as declared records nothing, says so, and delete leaves it", async () => {
    const first = await remediation.create(await checked(remediation, declared));
    forgetProcessMemory(); // e.g. after `pulumi state delete`, a new run
    inStackWithHistory();
    const again = await remediation.create(await checked(remediation, declared));
    expect(again.outs).toMatchObject({ created: false });
    expect(again.outs.original).toBeUndefined();
    expect(notices.map((n) => n.message).join("\n")).toMatch(
      /policy block-critical-secrets .* was already as declared, so there is nothing to put back/,
    );
    notices.length = 0;
    await remediation.delete(again.id, again.outs);
    expect(policy("block-critical-secrets")).toMatchObject({ name: "Block critical secrets" });
    const left = notices.map((n) => n.message).join("\n");
    expect(left).toContain("leaves 1 value it manages as it is: it found it already as declared and recorded no original");
    expect(left).toContain("\n    policy block-critical-secrets");
    expect(first.outs).toMatchObject({ created: true });
  });

  it("a write whose answer was lost, then met another writer, still records that it created the policy", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["lost"], operations: ["policiesV2.applyRemediationPolicies"], maxFaults: 1 });
    // A person edits the bundle between the lost answer and the retry, so the client cannot confirm
    // the write as its own: the provider re-reads and finds its own policy already there.
    const person = (async () => {
      while (!env.requests().some((r) => r.fault === "lost")) await new Promise((resolve) => setTimeout(resolve, 2));
      policy("secrets-to-slack")!.description = "Edited in the UI";
    })();
    const { id, outs } = await remediation.create(await checked(remediation, declared));
    await person;
    expect(outs).toMatchObject({ created: true });
    expect(outs.original).toBeUndefined();
    await remediation.delete(id, outs);
    expect(policy(declared.slug)).toBeUndefined();
    expect(policy("secrets-to-slack")!.description).toBe("Edited in the UI");
  });

  it("refuses block without pr_comment at check, and a reserved slug from the service's dry run", async () => {
    const block = await remediation.check({ ...declared, actions: [{ type: "block" }] });
    expect(block.failures?.[0]).toMatchObject({ property: "actions", reason: expect.stringContaining("pr_comment") });
    const reserved = await remediation.check({ ...declared, slug: SYSTEM_REMEDIATION_SLUG });
    expect(reserved.failures?.length ?? 0).toBeGreaterThan(0);
    expect(writes()).toHaveLength(0);
  });

  it("20 policies created at once all land: writes are serialized and retried, never lost", async () => {
    const all = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        remediation.create(await checked(remediation, { ...declared, slug: `parallel-${i}`, policyName: `Parallel ${i}` })),
      ),
    );
    expect(all.map((r) => r.id)).toHaveLength(20);
    for (let i = 0; i < 20; i++) expect(policy(`parallel-${i}`)?.name).toBe(`Parallel ${i}`);
    // One read of the bundle (the checks' shared one) plus one write each.
    expect(env.requests("policiesV2.getRemediationPolicies")).toHaveLength(1);
    expect(writes()).toHaveLength(20);
  });
});

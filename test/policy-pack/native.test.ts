/**
 * The policy pack over the native plugin's resources (`semgrep:index:<Kind>`): every policy
 * recognises them as it does the dynamic ones, a resource moved from one type to the other by an
 * alias is the same resource, and the inputs the engine marks secret (which `@pulumi/policy`
 * unwraps, and for which a native resource carries no `secretInputs`) print `[secret]`: the last
 * through `@pulumi/policy`'s own analyze handler, fed the wire form the engine sends.
 */
import { createRequire } from "node:module";
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ResourceKind } from "../../provider/core/kinds";
import { POLICIES } from "../../provider/policy-pack/pack";
import { criticalFindingsBlock } from "../../provider/policy-pack/policies/critical-findings-block";
import { criticalRulesNotWeakened } from "../../provider/policy-pack/policies/critical-rules-not-weakened";
import { diffScansEnabled } from "../../provider/policy-pack/policies/diff-scans-enabled";
import { protectedRulesNotDisabled } from "../../provider/policy-pack/policies/protected-rules-not-disabled";
import { restoreOnDelete } from "../../provider/policy-pack/policies/restore-on-delete";
import { forgetProgram } from "../../provider/policy-pack/program";
import { kindOf, nativeTypeToken, typeToken } from "../../provider/policy-pack/resources";
import { markedSecretInputs } from "../../provider/policy-pack/secret-marks";
import { listenForStack, setStackState, type StackState } from "../../provider/policy-pack/stack-state";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw";
const HIGH_EVAL = "python.lang.security.audit.eval-detected.eval-detected";
const policy = { deploymentId: "1", policyId: "10" };
const credentials = () => ({ token: env.emulator.token, url: env.emulator.url });
const PROTECTED = { protectedRules: [HIGH_EVAL], protectedPacks: ["p/default"] };
const nativeUrn = (kind: ResourceKind, name: string) => `urn:pulumi:test::yaml::${nativeTypeToken(kind)}::${name}`;
const dynamicUrn = (kind: ResourceKind, name: string) => `urn:pulumi:test::yaml::${typeToken(kind)}::${name}`;
afterEach(() => {
  setStackState(undefined);
  forgetProgram();
});

type Violation = string | { message: string; enforcementLevel?: string };
type Policy = { validateResource?: unknown; validateStack?: unknown };

/** The violations one resource validation of a native resource reports. */
async function violations(policy: Policy, kind: ResourceKind, props: Record<string, unknown>, config: object = {}): Promise<Violation[]> {
  const reported: Violation[] = [];
  const args = { type: nativeTypeToken(kind), name: "r", urn: nativeUrn(kind, "r"), props, getConfig: () => config };
  await (policy.validateResource as (a: ResourceValidationArgs, r: ReportViolation) => Promise<void> | void)(
    args as unknown as ResourceValidationArgs,
    ((v: Violation) => void reported.push(v)) as unknown as ReportViolation,
  );
  return reported;
}

/** A program resource: its native URN, and the URNs it was known by before (its aliases). */
interface ProgramEntry {
  kind: ResourceKind;
  name: string;
  props: Record<string, unknown>;
  aliases?: string[];
}

/** One run of `policy` over a native program (resource validations, then the stack validation) with `state` as the last state. */
async function run(policy: Policy, state: StackState, program: ProgramEntry[], config: object): Promise<Violation[]> {
  setStackState(state);
  const reported: Violation[] = [];
  const report = ((v: Violation) => void reported.push(v)) as unknown as ReportViolation;
  const getConfig = () => config;
  const asArgs = (r: ProgramEntry) => ({
    type: nativeTypeToken(r.kind),
    name: r.name,
    urn: nativeUrn(r.kind, r.name),
    props: r.props,
    opts: { aliases: r.aliases ?? [] },
    getConfig,
  });
  for (const r of program)
    await (policy.validateResource as (a: ResourceValidationArgs, rep: ReportViolation) => Promise<void>)(
      asArgs(r) as unknown as ResourceValidationArgs,
      report,
    );
  const resources = program.map((r) => asArgs(r) as unknown as PolicyResource);
  await (policy.validateStack as (a: StackValidationArgs, rep: ReportViolation) => Promise<void>)(
    { resources, getConfig } as unknown as StackValidationArgs,
    report,
  );
  return reported;
}

describe("type tokens", () => {
  it("a kind is recognised under the dynamic and the native token, nothing else", () => {
    expect(kindOf("semgrep:index:PolicyRuleModes")).toBe("PolicyRuleModes");
    expect(kindOf("pulumi-nodejs:dynamic/semgrep:PolicyRuleModes")).toBe("PolicyRuleModes");
    for (const other of ["semgrep:index:getPolicyRules", "pulumi:providers:semgrep", "semgrep:other:PolicyRuleMode", "aws:s3:Bucket"])
      expect(kindOf(other)).toBeUndefined();
  });
});

describe("each policy over native resources", () => {
  it("critical-rules-not-weakened: a critical rule put into a weak mode fails, by PolicyRuleMode and by PolicyRuleModes", async () => {
    const single = await violations(
      criticalRulesNotWeakened,
      "PolicyRuleMode",
      { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_MONITOR" },
      credentials(),
    );
    expect(single).toEqual([
      `PolicyRuleMode "r" sets mode MODE_MONITOR on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule: rules of severity SEVERITY_CRITICAL may not be put into MODE_MONITOR or MODE_DISABLED.`,
    ]);
    const modes = await violations(
      criticalRulesNotWeakened,
      "PolicyRuleModes",
      { ...policy, modes: { [CRITICAL_SQL]: "MODE_DISABLED" } },
      credentials(),
    );
    expect(modes).toEqual([expect.stringContaining(`sets modes[${JSON.stringify(CRITICAL_SQL)}] MODE_DISABLED on rule ${CRITICAL_SQL}`)]);
    expect(
      await violations(criticalRulesNotWeakened, "PolicyRuleMode", { ...policy, rulePath: HIGH_EVAL, mode: "MODE_MONITOR" }, credentials()),
    ).toEqual([]);
  });

  it("protected-rules-not-disabled: a DetectionPolicy disabling, or a DetectionPolicyException excluding, a protected rule fails", async () => {
    expect(await violations(protectedRulesNotDisabled, "DetectionPolicy", { product: "code", disabled: [HIGH_EVAL] }, PROTECTED)).toEqual([
      `DetectionPolicy "r" disables rule ${HIGH_EVAL} (disabled[0]): it is a protected rule (protectedRules).`,
    ]);
    const exclude = { exceptionType: "exclude", projectName: "acme/web-app", rule: "p/default", ruleType: "pack" };
    expect(await violations(protectedRulesNotDisabled, "DetectionPolicyException", exclude, PROTECTED)).toHaveLength(1);
  });

  it("diff-scans-enabled, restore-on-delete and critical-findings-block see native resources too", async () => {
    expect(await violations(diffScansEnabled, "ManagedScan", { projectName: "a/b", diffScan: { enabled: false } })).toHaveLength(1);
    expect(
      await violations(restoreOnDelete, "PolicyRuleMode", { ...policy, rulePath: HIGH_EVAL, mode: "MODE_BLOCK", restoreOnDelete: false }),
    ).toHaveLength(1);
    const reported: unknown[] = [];
    const remediation = {
      type: nativeTypeToken("RemediationPolicy"),
      name: "warn",
      props: { slug: "warn", actions: [{ type: "pr_comment" }] },
    };
    await criticalFindingsBlock.validateStack({ resources: [remediation] } as unknown as StackValidationArgs, (v: unknown) =>
      reported.push(v),
    );
    expect(reported).toEqual([
      expect.stringContaining('The stack declares 1 RemediationPolicy resource ("warn") and none blocks critical findings'),
    ]);
  });
});

describe("what a run puts back, from a native stack's state", () => {
  const blockSql = (type: string, urn: string) => ({
    urn,
    type,
    inputs: { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_BLOCK" },
    outputs: { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_BLOCK", originalMode: "MODE_MONITOR" },
  });

  it("a native PolicyRuleMode removed from the program puts back its weak original: a violation", async () => {
    const state = { resources: [blockSql(nativeTypeToken("PolicyRuleMode"), nativeUrn("PolicyRuleMode", "block-sql"))] };
    expect(await run(criticalRulesNotWeakened, state, [], credentials())).toEqual([
      expect.stringContaining(
        `PolicyRuleMode "block-sql" is removed from the program: its delete puts back MODE_MONITOR on rule ${CRITICAL_SQL}`,
      ),
    ]);
  });

  it("a resource moved from the dynamic type to the native one by an alias is kept, not removed", async () => {
    const old = dynamicUrn("PolicyRuleMode", "block-sql");
    const state = { resources: [blockSql(typeToken("PolicyRuleMode"), old)] };
    const moved = { kind: "PolicyRuleMode" as const, name: "block-sql", props: { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_BLOCK" } };
    expect(await run(criticalRulesNotWeakened, state, [{ ...moved, aliases: [old] }], credentials())).toEqual([]);
    // Without the alias the old resource is deleted (and puts back), whatever the new one declares.
    forgetProgram();
    const withoutAlias = await run(
      criticalRulesNotWeakened,
      state,
      [{ ...moved, props: { ...moved.props, rulePath: HIGH_EVAL } }],
      credentials(),
    );
    expect(withoutAlias).toEqual([expect.stringContaining('PolicyRuleMode "block-sql" is removed from the program')]);
  });

  it("a PolicyRuleMode the program now declares as a PolicyRuleModes (an alias of its type) is updated, not replaced: modes: {} with restoreOnDelete: false puts nothing back", async () => {
    const old = nativeUrn("PolicyRuleMode", "block-sql");
    const state = { resources: [blockSql(nativeTypeToken("PolicyRuleMode"), old)] };
    const folded = (extra: Record<string, unknown>) => ({
      kind: "PolicyRuleModes" as const,
      name: "block-sql",
      props: { ...policy, modes: {}, ...extra },
      aliases: [old],
    });
    expect(await run(criticalRulesNotWeakened, state, [folded({ restoreOnDelete: false })], credentials())).toEqual([]);
    forgetProgram();
    // restoreOnDelete left at true: the update puts back the rule's original, and says so as an update.
    expect(await run(criticalRulesNotWeakened, state, [folded({})], credentials())).toEqual([
      expect.stringContaining(
        `PolicyRuleModes "block-sql" no longer manages rule ${CRITICAL_SQL} (policy 10, deployment 1) (dropped from modes, excluded, or no longer selected): the update puts back MODE_MONITOR`,
      ),
    ]);
  });

  it("protected-rules-not-disabled: a native DetectionPolicy removed puts back a disabled protected rule; moved by an alias it is kept", async () => {
    const detection = (type: string, urn: string) => ({
      urn,
      type,
      inputs: { product: "code", disabled: [] },
      outputs: { product: "code", disabled: [], originals: { disabled: [HIGH_EVAL] } },
    });
    const removed = { resources: [detection(nativeTypeToken("DetectionPolicy"), nativeUrn("DetectionPolicy", "code"))] };
    expect(await run(protectedRulesNotDisabled, removed, [], PROTECTED)).toEqual([
      `DetectionPolicy "code" is removed from the program: its delete puts back the disabled rules it found, which disable ${HIGH_EVAL}: it is a protected rule (protectedRules).`,
    ]);
    const old = dynamicUrn("DetectionPolicy", "code");
    const moved = { resources: [detection(typeToken("DetectionPolicy"), old)] };
    const program = [{ kind: "DetectionPolicy" as const, name: "code", props: { product: "code", disabled: [] }, aliases: [old] }];
    expect(await run(protectedRulesNotDisabled, moved, program, PROTECTED)).toEqual([]);
  });
});

// ---- Secret inputs of native resources, through @pulumi/policy's own analyze handler. ----

const SECRET = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

describe("the engine's secret marks", () => {
  it("name the inputs that are, or hold, a secret value", () => {
    const properties = {
      deploymentId: "1",
      mode: SECRET("MODE_MONITOR"),
      modes: { [CRITICAL_SQL]: SECRET("MODE_DISABLED") },
      select: { severities: ["a"] },
    };
    expect(markedSecretInputs(properties)).toEqual(["mode", "modes"]);
    expect(markedSecretInputs({ disabled: [HIGH_EVAL, SECRET("x")], product: "code" })).toEqual(["disabled"]);
  });
});

/** The pack's analyzer service as `@pulumi/policy` registers it (wrapped by the pack's own hooks), without a listening port. */
interface Service {
  analyze(
    call: { request: unknown },
    callback: (error: unknown, response?: { getDiagnosticsList(): { getMessage(): string; getPolicyname(): string }[] }) => void,
  ): void;
  configure(call: { request: unknown }, callback: (error: unknown) => void): void;
}
const fromPolicy = createRequire(require.resolve("@pulumi/policy"));
const analyzerProto = fromPolicy("@pulumi/pulumi/proto/analyzer_pb") as Record<
  string,
  new () => Record<string, (...a: unknown[]) => unknown>
>;
const { Struct } = fromPolicy("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(v: object): unknown } };

let service: Service;
beforeAll(async () => {
  const grpc = fromPolicy("@grpc/grpc-js") as { Server: { prototype: Record<string, unknown> } };
  // Keep the service the pack registers; open no port.
  grpc.Server.prototype.addService = (_: unknown, impl: Service) => {
    service = impl;
  };
  grpc.Server.prototype.bindAsync = () => undefined;
  listenForStack(process.cwd()); // the pack's hooks, as servePolicyPack installs them
  const { PolicyPack } = await import("@pulumi/policy");
  new PolicyPack("semgrep", { policies: POLICIES });
  const config = new analyzerProto.ConfigureAnalyzerRequest!();
  const entries: [string, object][] = [
    ["critical-rules-not-weakened", credentials()],
    ["protected-rules-not-disabled", PROTECTED],
  ];
  for (const [name, properties] of entries) {
    const entry = new analyzerProto.PolicyConfig!();
    entry.setEnforcementlevel!(1); // mandatory
    entry.setProperties!(Struct.fromJavaScript(properties));
    (config.getPolicyconfigMap!() as Map<string, unknown>).set(name, entry);
  }
  await new Promise<void>((resolve, reject) => service.configure({ request: config }, (e) => (e ? reject(e as Error) : resolve())));
});

/** The messages the pack reports for one resource, sent as the engine sends it (secret values in their wire form). */
async function analyze(kind: ResourceKind, properties: object): Promise<string[]> {
  const request = new analyzerProto.AnalyzeRequest!();
  request.setType!(nativeTypeToken(kind));
  request.setUrn!(nativeUrn(kind, "r"));
  request.setName!("r");
  request.setProperties!(Struct.fromJavaScript(properties));
  request.setOptions!(new analyzerProto.AnalyzerResourceOptions!());
  const response = await new Promise<Parameters<Parameters<Service["analyze"]>[1]>[1]>((resolve, reject) =>
    service.analyze({ request }, (error, answer) => (error ? reject(error as Error) : resolve(answer))),
  );
  // @pulumi/policy puts the policy's description on the message's first line.
  return response!.getDiagnosticsList().map((d) => `${d.getPolicyname()}: ${d.getMessage().split("\n").at(-1)}`);
}

describe("secret inputs of native resources, as the engine sends them", () => {
  it("a PolicyRuleMode's secret mode is not printed, and the weakened critical rule still fails", async () => {
    const messages = await analyze("PolicyRuleMode", { ...policy, rulePath: CRITICAL_SQL, mode: SECRET("MODE_MONITOR") });
    expect(messages).toEqual([
      // The secret text is hidden where the program's value stands; the pack's own list of weak
      // modes stays whole (hidden there, the missing one would be the secret).
      `critical-rules-not-weakened: PolicyRuleMode "r" sets mode [secret] on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule: rules of severity SEVERITY_CRITICAL may not be put into MODE_MONITOR or MODE_DISABLED.`,
    ]);
  });

  it("a PolicyRuleModes with a secret entry of modes prints neither the rule's path nor its mode", async () => {
    const messages = await analyze("PolicyRuleModes", { ...policy, modes: { [CRITICAL_SQL]: SECRET("MODE_DISABLED") } });
    expect(messages).toEqual([
      expect.stringContaining('critical-rules-not-weakened: PolicyRuleModes "r" sets modes [secret] on rule [secret]'),
    ]);
    expect(messages.join("\n")).not.toContain(CRITICAL_SQL);
  });

  it("a DetectionPolicy's secret disabled list prints [secret] in place of the protected rule", async () => {
    const messages = await analyze("DetectionPolicy", { product: "code", disabled: SECRET([HIGH_EVAL]) });
    expect(messages).toEqual([
      'protected-rules-not-disabled: DetectionPolicy "r" disables rule [secret] (disabled[0]): it is a protected rule (protectedRules).',
    ]);
    expect(messages.join("\n")).not.toContain("eval-detected");
  });

  it("plain inputs stay as they are (nothing secret, nothing hidden)", async () => {
    const messages = await analyze("PolicyRuleMode", { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_DISABLED" });
    expect(messages).toEqual([expect.stringContaining(`sets mode MODE_DISABLED on rule ${CRITICAL_SQL}`)]);
  });
});

// Through the real CLI: test/e2e/policy-pack-native.test.ts runs a YAML program's weakened and
// secret-mode PolicyRuleMode with the pack. Still to write there:
describe("through the real CLI with the native plugin (not yet in test/e2e)", () => {
  it.todo("a DetectionPolicy with `disabled: { fn::secret: [<protected rule>] }`: fails, the rule's path in no message");
  it.todo(
    "moving a TS PolicyRuleMode to YAML with `aliases: [{ type: pulumi-nodejs:dynamic/semgrep:PolicyRuleMode }]` passes (not a removal)",
  );
  it.todo("removing a YAML PolicyRuleMode whose recorded original is weak fails the preview (the pack reads the native stack's state)");
});

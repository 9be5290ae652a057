/**
 * The stack-level half of the pack's two mandatory policies (what a run puts back, from the
 * stack's last state), its failures, and the config it takes: called as `@pulumi/policy` calls
 * them, against the emulator for severities.
 */
import type { PolicyResource, ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { afterEach, describe, expect, it } from "vitest";
import { criticalRulesNotWeakened } from "../../provider/policy-pack/policies/critical-rules-not-weakened";
import { protectedRulesNotDisabled } from "../../provider/policy-pack/policies/protected-rules-not-disabled";
import { forgetProgram } from "../../provider/policy-pack/program";
import { typeToken } from "../../provider/policy-pack/resources";
import { credentialsFrom } from "../../provider/policy-pack/severities";
import { exportState, setStackState, type StackState } from "../../provider/policy-pack/stack-state";
import type { ResourceKind } from "../../provider/core/kinds";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const CRITICAL_SQL = "python.django.security.injection.sql.sql-injection-using-raw.sql-injection-using-raw";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
const urn = (kind: ResourceKind, name: string) => `urn:pulumi:test::e2e::${typeToken(kind)}::${name}`;
afterEach(() => {
  setStackState(undefined);
  forgetProgram();
});

type Violation = string | { message: string; enforcementLevel?: string };
/** One run of `policy` over `program` (resource validations, then the stack validation) with `state` as the stack's last state. */
async function run(
  policy: typeof criticalRulesNotWeakened | typeof protectedRulesNotDisabled,
  state: StackState,
  program: { kind: ResourceKind; name: string; props: Record<string, unknown> }[],
  config: object,
): Promise<Violation[]> {
  setStackState(state);
  const reported: Violation[] = [];
  const report = ((v: Violation) => void reported.push(v)) as unknown as ReportViolation;
  const getConfig = () => config;
  for (const r of program) {
    const args = { type: typeToken(r.kind), name: r.name, urn: urn(r.kind, r.name), props: r.props, getConfig };
    await (policy.validateResource as (a: ResourceValidationArgs, rep: ReportViolation) => Promise<void>)(
      args as unknown as ResourceValidationArgs,
      report,
    );
  }
  const resources = program.map(
    (r) => ({ urn: urn(r.kind, r.name), type: typeToken(r.kind), props: r.props }) as unknown as PolicyResource,
  );
  await policy.validateStack({ resources, getConfig } as unknown as StackValidationArgs, report);
  return reported;
}
const credentials = () => ({ token: env.emulator.token, url: env.emulator.url });
const policy = { deploymentId: "1", policyId: "10" };
const blockSql = {
  urn: urn("PolicyRuleMode", "block-sql"),
  type: typeToken("PolicyRuleMode"),
  inputs: { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_BLOCK" },
  outputs: { ...policy, rulePath: CRITICAL_SQL, mode: "MODE_BLOCK", originalMode: "MODE_MONITOR", severity: "SEVERITY_CRITICAL" },
};

describe("critical-rules-not-weakened: what the run puts back", () => {
  it("a removed resource's weak original on a critical rule is a violation, unless another resource sets the rule or restoreOnDelete is false", async () => {
    const removed = await run(criticalRulesNotWeakened, { resources: [blockSql] }, [], credentials());
    expect(removed).toEqual([
      `PolicyRuleMode "block-sql" is removed from the program: its delete puts back MODE_MONITOR on rule ${CRITICAL_SQL} (policy 10, deployment 1), a SEVERITY_CRITICAL rule: rules of severity SEVERITY_CRITICAL may not be put into MODE_MONITOR or MODE_DISABLED. Keep a resource that sets the rule's mode (e.g. a PolicyRuleMode with MODE_BLOCK) in the same change.`,
    ]);
    const moved = await run(
      criticalRulesNotWeakened,
      { resources: [blockSql] },
      [
        {
          kind: "PolicyRuleModes",
          name: "all",
          props: { ...policy, select: { rulePathPrefixes: ["python.django."] }, mode: "MODE_BLOCK" },
        },
      ],
      credentials(),
    );
    expect(moved).toEqual([]);
    const kept = { ...blockSql, inputs: { ...blockSql.inputs, restoreOnDelete: false } };
    expect(await run(criticalRulesNotWeakened, { resources: [kept] }, [], credentials())).toEqual([]);
    expect(env.requests().map((r) => r.operation)).toEqual(["policies.listRules"]); // one listing for the run
  });

  it("a rule a PolicyRuleModes drops is put back by its update, unless the program now gives it restoreOnDelete: false", async () => {
    const bulk = {
      urn: urn("PolicyRuleModes", "bulk"),
      type: typeToken("PolicyRuleModes"),
      inputs: { ...policy, modes: { [CRITICAL_SQL]: "MODE_BLOCK" } },
      outputs: { ...policy, modes: { [CRITICAL_SQL]: "MODE_BLOCK" }, originals: { MODE_MONITOR: [CRITICAL_SQL] } },
    };
    const emptied = (extra: object) => [{ kind: "PolicyRuleModes" as const, name: "bulk", props: { ...policy, modes: {}, ...extra } }];
    const dropped = await run(criticalRulesNotWeakened, { resources: [bulk] }, emptied({}), credentials());
    expect(dropped).toEqual([expect.stringContaining(`PolicyRuleModes "bulk" no longer manages rule ${CRITICAL_SQL}`)]);
    expect(await run(criticalRulesNotWeakened, { resources: [bulk] }, emptied({ restoreOnDelete: false }), credentials())).toEqual([]);
  });

  it("a secret select (here its exclude) never prints its texts: the put-back of the excluded rule, and the rules it matches, are redacted", async () => {
    const props = { ...policy, select: { rulePathPrefixes: ["python.django."] }, mode: "MODE_BLOCK" };
    const critMany = {
      urn: urn("PolicyRuleModes", "crit-many"),
      type: typeToken("PolicyRuleModes"),
      inputs: props,
      outputs: { ...props, originals: { MODE_MONITOR: [CRITICAL_SQL] } },
    };
    const secretSelect = { ...props, select: { ...props.select, exclude: [CRITICAL_SQL] }, secretInputs: ["select"] };
    const excluded = await run(
      criticalRulesNotWeakened,
      { resources: [critMany] },
      [{ kind: "PolicyRuleModes", name: "crit-many", props: secretSelect }],
      credentials(),
    );
    expect(excluded).toEqual([expect.stringContaining('PolicyRuleModes "crit-many" no longer manages rule [secret] (policy 10')]);
    expect(JSON.stringify(excluded)).not.toContain("sql-injection-using-raw");
    const weakened = await run(
      criticalRulesNotWeakened,
      { resources: [] },
      [{ kind: "PolicyRuleModes", name: "crit-many", props: { ...secretSelect, mode: "MODE_MONITOR" } }],
      credentials(),
    );
    expect(weakened).toEqual([
      expect.stringMatching(/of a protected severity: \d+ SEVERITY_CRITICAL rules? \(paths not shown: select is secret\)/),
    ]);
    expect(JSON.stringify(weakened)).not.toMatch(/python\.django/);
  });

  it("fails closed without the state, and on secret originals of a removed resource; a changed one is advisory", async () => {
    const blind = await run(
      criticalRulesNotWeakened,
      { error: "`pulumi stack export --stack o/p/s` failed: no access" },
      [],
      credentials(),
    );
    expect(blind).toEqual([
      expect.stringMatching(
        /^this policy cannot read the stack's last state, .*: `pulumi stack export --stack o\/p\/s` failed: no access\./,
      ),
    ]);
    const secretModes = {
      urn: urn("PolicyRuleModes", "secret"),
      type: typeToken("PolicyRuleModes"),
      inputs: { ...policy, modes: SECRET, secretInputs: ["modes"] },
      outputs: { originals: SECRET },
    };
    const removed = await run(criticalRulesNotWeakened, { resources: [secretModes] }, [], credentials());
    expect(removed).toEqual([
      expect.stringContaining('PolicyRuleModes "secret" is removed, and the modes it recorded to put back are secret in the state'),
    ]);
    const changed = await run(
      criticalRulesNotWeakened,
      { resources: [secretModes] },
      [{ kind: "PolicyRuleModes", name: "secret", props: { ...policy, modes: { [CRITICAL_SQL]: "MODE_BLOCK" }, secretInputs: ["modes"] } }],
      credentials(),
    );
    expect(changed).toEqual([
      { message: expect.stringContaining("is changed, and the modes it recorded"), urn: secretModes.urn, enforcementLevel: "advisory" },
    ]);
  });

  it("reads the state with `pulumi stack export`, and a failure is one line", async () => {
    const state = await exportState({ organization: "organization", project: "no-such-project", stack: "nowhere" }, "/");
    expect(state).toEqual({
      error: expect.stringMatching(/^`pulumi stack export --stack organization\/no-such-project\/nowhere` failed: /),
    });
  });
});

describe("protected-rules-not-disabled: rulesets and what a removed DetectionPolicy puts back", () => {
  const config = { protectedRules: ["python.django.security.injection."], protectedPacks: ["p/default"] };
  const detection = (originals: object) => ({
    urn: urn("DetectionPolicy", "code"),
    type: typeToken("DetectionPolicy"),
    inputs: { deploymentId: "1", product: "code", rulesets: ["p/default"], disabled: [] },
    outputs: { rulesets: ["p/default"], disabled: [], originals },
  });
  it("a protected pack left out of rulesets, and a delete that puts back rulesets without it or a disabled protected rule, are violations", async () => {
    const dropped = await run(
      protectedRulesNotDisabled,
      { resources: [] },
      [{ kind: "DetectionPolicy", name: "code", props: { deploymentId: "1", product: "code", rulesets: ["p/python"] } }],
      config,
    );
    expect(dropped).toEqual([expect.stringContaining('DetectionPolicy "code" declares rulesets without p/default')]);
    const removed = await run(
      protectedRulesNotDisabled,
      { resources: [detection({ rulesets: ["p/python"], disabled: [CRITICAL_SQL] })] },
      [],
      config,
    );
    expect(removed).toEqual([
      'DetectionPolicy "code" is removed from the program: its delete puts back the rulesets it found, without p/default: it is a protected pack (protectedPacks).',
      `DetectionPolicy "code" is removed from the program: its delete puts back the disabled rules it found, which disable ${CRITICAL_SQL}: it matches the protected prefix "python.django.security.injection." (protectedRules).`,
    ]);
    expect(await run(protectedRulesNotDisabled, { resources: [detection({ rulesets: ["p/default"] })] }, [], config)).toEqual([]);
    // Nothing protected: nothing to read.
    expect(await run(protectedRulesNotDisabled, { error: "no state" }, [], {})).toEqual([]);
  });
});

describe("the pack's config", () => {
  it("severities and weakModes take only known values; url takes …/api/v1", () => {
    const properties = criticalRulesNotWeakened.configSchema!.properties as Record<string, { items?: { enum?: string[] } }>;
    expect(properties.severities!.items!.enum).toContain("SEVERITY_CRITICAL");
    expect(properties.weakModes!.items!.enum).toEqual(["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"]);
    expect(credentialsFrom({ token: "t", url: "https://semgrep.dev/api/v1/" }, {})).toEqual({
      token: "t",
      tokenSource: "the token of the policy's config",
      url: "https://semgrep.dev",
      urlSource: "the url of the policy's config",
    });
  });

  it("without token and url, reads the environment in the provider's order: SEMGREP_APP_* first, then SEMGREP_API_TOKEN / SEMGREP_URL", () => {
    const fallbacks = { SEMGREP_API_TOKEN: "api", SEMGREP_URL: "http://cli.example" };
    expect(credentialsFrom({}, fallbacks)).toEqual({
      token: "api",
      tokenSource: "SEMGREP_API_TOKEN",
      url: "http://cli.example",
      urlSource: "SEMGREP_URL",
    });
    expect(credentialsFrom({}, { ...fallbacks, SEMGREP_APP_TOKEN: "app", SEMGREP_APP_URL: "http://app.example" })).toMatchObject({
      token: "app",
      tokenSource: "SEMGREP_APP_TOKEN",
      url: "http://app.example",
    });
    expect(credentialsFrom({}, { SEMGREP_URL: "http://cli.example" })).toBeUndefined();
  });
});

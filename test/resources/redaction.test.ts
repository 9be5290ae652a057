/** The runtime's safeguard (provider/core/runtime/redact.ts): the texts of secret inputs never leave in a message. */
import { describe, expect, it } from "vitest";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { claimSecrets, redacted, redactorFor as redactorForGiven, secretTexts } from "../../provider/core/runtime/redact";

type Props = Record<string, unknown>;
/** Properties whose `secretInputs` names their secret inputs, as the dynamic classes pass them. */
const given = (props: Props) => ({ props, secretInputs: (props.secretInputs as string[] | undefined) ?? [] });
const redactorFor = (kind: Parameters<typeof redactorForGiven>[0], list: Props[]) => redactorForGiven(kind, list.map(given));

describe("redaction of secret inputs", () => {
  const jira = {
    deploymentId: "1",
    slug: "to-jira",
    actions: [{ type: "jira", config: { project_id: "SECPROJ-77", credential_slug: "jira-main" } }],
    filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
    secretInputs: ["actions"],
  };

  it("hides a secret jira config.project_id the service's message quotes, and leaves the rest", () => {
    const redact = redactorFor("RemediationPolicy", [jira]);
    expect(redact('policies[0].actions[0].config.project_id: no Jira project "SECPROJ-77" for credential jira-main')).toBe(
      'policies[0].actions[0].config.project_id: no Jira project "[secret]" for credential [secret]',
    );
    // Not secret here: the filters' values stay readable, and a field name (project_id) is no secret.
    expect(redact("critical findings")).toBe("critical findings");
  });

  it("hides the keys of a secret map (rule paths) but not field names, nor a secret inside a longer word", () => {
    const props = { modes: { "acme.internal.x": "MODE_BLOCK" }, select: { exclude: ["all"] }, secretInputs: ["modes", "select"] };
    expect(secretTexts("PolicyRuleModes", props)).toEqual(expect.arrayContaining(["acme.internal.x", "MODE_BLOCK", "all"]));
    expect(secretTexts("PolicyRuleModes", props)).not.toContain("exclude");
    const redact = redactorFor("PolicyRuleModes", [props]);
    expect(redact("modes.acme.internal.x is MODE_BLOCK; all allowed")).toBe("modes.[secret] is [secret]; [secret] allowed");
  });

  it("hides the outputs derived from a secret input (an original mode), in olds as in news", () => {
    const olds = { mode: "MODE_DISABLED", originalMode: "MODE_COMMENT", secretInputs: ["mode"] };
    const redact = redactorFor("PolicyRuleMode", [olds, { mode: "MODE_BLOCK" }]);
    expect(redact("was MODE_COMMENT, now MODE_DISABLED, then MODE_BLOCK")).toBe("was [secret], now [secret], then MODE_BLOCK");
  });
});

describe("claimed secrets, hidden whichever resource's message names them", () => {
  it("hides another resource's secret values, plausible words included, and keeps the API's own words readable", () => {
    forgetProcessMemory();
    claimSecrets(given({ tags: ["secrets", "npm", "pci-zone"], secretInputs: ["tags"] }));
    claimSecrets(given({ modes: { "python.lang.exec": "MODE_BLOCK" }, secretInputs: ["modes"] }));
    // Outside any call (no resource of its own), and inside another resource's call alike.
    const message = 'tags "secrets", "npm", "pci-zone"; rule python.lang.exec goes MODE_BLOCK; secretsmanager stays';
    const expected = 'tags "[secret]", "[secret]", "[secret]"; rule [secret] goes MODE_BLOCK; secretsmanager stays';
    expect(redacted(message)).toBe(expected);
    expect(redactorFor("PolicyRuleMode", [{ rulePath: "a.b", mode: "MODE_COMMENT" }])(message)).toBe(expected);
    forgetProcessMemory();
    expect(redacted(message)).toBe(message);
  });

  it("does not claim an original derived from a secret input: what the service had is no secret of the program", () => {
    forgetProcessMemory();
    claimSecrets(
      given({ primaryBranch: "refs/heads/release-x", originalPrimaryBranch: "refs/heads/main", secretInputs: ["primaryBranch"] }),
    );
    expect(redacted("refs/heads/release-x was refs/heads/main")).toBe("[secret] was refs/heads/main");
    forgetProcessMemory();
  });
});

/**
 * The plugin's secret outputs of a NotificationRule whose webhook URL comes from the service, not
 * from the program: an adopted rule declared without `config` (its live config a webhook URL), or
 * one whose declared config is plain while the rule it replaced (`original`) held a URL. The URL
 * must be stored encrypted as when the program gives it (issue 36: values that hold URLs or
 * tokens are secrets in outputs unless declared plain).
 */
import { describe, expect, it } from "vitest";
import { implicitSecrets } from "../../provider/core/kinds";
import { identityFromUrn, secretOutputs } from "../../provider/native/context";

const URN = "urn:pulumi:dev::p::semgrep:index:NotificationRule::soc";
const HOOK = { url: "https://hooks.example/T0KEN" };
const secretsOf = (declared: Record<string, unknown>, outputs: Record<string, unknown>) =>
  secretOutputs(
    "NotificationRule",
    { ...declared, ...outputs },
    identityFromUrn(URN, implicitSecrets("NotificationRule", declared)),
    declared,
  );

describe("NotificationRule secret outputs (plugin)", () => {
  const base = { deploymentId: "1", name: "Critical findings to the SOC", channel: "CHANNEL_WEBHOOK" };

  it("holds a live webhook URL as a secret when the program declares no config", () => {
    const declared = { ...base, enabled: false };
    const original = { ...base, config: HOOK, policySlugs: [], enabled: true, sendScanCompletion: false, useNetworkBroker: false };
    expect(secretsOf(declared, { config: HOOK, original, enabled: false })).toEqual(expect.arrayContaining(["config", "original"]));
  });

  it("holds the replaced rule's URL (original) as a secret when the declared config is plain", () => {
    const declared = { ...base, channel: "CHANNEL_EMAIL", config: { to: "soc@acme.example" } };
    const original = { ...base, config: HOOK, policySlugs: [], enabled: true, sendScanCompletion: false, useNetworkBroker: false };
    const secrets = secretsOf(declared, { config: declared.config, original });
    expect(secrets).toContain("original");
    expect(secrets).not.toContain("config");
  });

  it("keeps plain a config the program declares plain (plainConfigKeys), and one with no URL", () => {
    const declared = { ...base, config: HOOK, plainConfigKeys: ["url"] };
    expect(secretsOf(declared, { config: HOOK })).not.toContain("config");
    expect(secretsOf({ ...base, config: { to: "a@b" } }, { config: { to: "a@b" } })).toEqual([]);
  });
});

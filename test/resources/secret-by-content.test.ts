/**
 * The dynamic classes' secret outputs of an input secret by content (`secretWhen`: a
 * NotificationRule's config with a webhook URL) when the URL comes from the service, not from the
 * program: a rule adopted without `config` reads the live config back, and the rule it replaced
 * (`original`) may hold a URL whatever the program declares. A dynamic provider cannot return
 * secrets, so the class asks the engine to store those outputs encrypted (additionalSecretOutputs).
 */
import { describe, expect, it } from "vitest";
import { resourceOptions } from "../../provider/dynamic/resources/meta";

const secretOutputsOf = (args: Record<string, unknown>) => resourceOptions("NotificationRule", "soc", args).additionalSecretOutputs ?? [];

describe("NotificationRule's outputs secret by content (dynamic classes)", () => {
  const base = { deploymentId: "1", name: "Critical findings to the SOC", channel: "CHANNEL_WEBHOOK" };

  it("stores the live config and the replaced rule encrypted when the program declares no config", () => {
    expect(secretOutputsOf({ ...base, enabled: false })).toEqual(expect.arrayContaining(["config", "original"]));
  });

  it("stores the replaced rule encrypted whatever the program declares, and leaves a declared config to its own secrecy", () => {
    const secret = secretOutputsOf({ ...base, config: { to: "soc@acme.example" } });
    expect(secret).toContain("original");
    expect(secret).not.toContain("config");
  });

  it("adds nothing for a kind without such an input", () => {
    expect(
      resourceOptions("UserRole", "u", { deploymentId: "1", userId: "103", role: "ORG_ROLE_MEMBER" }).additionalSecretOutputs,
    ).toBeUndefined();
  });
});

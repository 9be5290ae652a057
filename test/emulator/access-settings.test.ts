/**
 * The emulator's product-configuration and notification-rule operations (experimental) straight
 * over HTTP: their validation and error answers, as a careful reading of Semgrep's OpenAPI implies
 * them (provider/emulator/products.ts and notification-rules.ts say why each), the `demo` preset's
 * configuration and rule, and a state file written before either existed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPreset, type RunningEmulator, startEmulator } from "../../provider/emulator";
import { PRESET_WEBHOOK_URL } from "../../provider/emulator/presets";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const BASE = "/api/agent/deployments/1";

interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: string; code?: string };
}

async function call(method: string, path: string, body?: unknown, on: RunningEmulator = env.emulator): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${on.token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(on.url + BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const products = async () => (await call("GET", "/products")).body.products as Record<string, Record<string, unknown>>;

describe("the product configuration", () => {
  it("serves the demo preset's configuration: SAST, SCA and Secrets on, PR blocking and the malware firewall on, no AI code sharing", async () => {
    const config = await products();
    expect(config.sast).toMatchObject({ enabled: true, triagePermission: "TRIAGE_PERMISSION_REQUEST" });
    expect(config.sca).toMatchObject({ enabled: true, blockPrEnabled: true, malwareFirewallEnabled: true });
    expect(config.secrets).toMatchObject({ enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" });
    expect(config.ai).toMatchObject({ legacy_allow_openai_code_sharing: false, mdr_enabled: false });
  });

  it("replaces the whole configuration on PUT: a field left out is reset, the read-only mdr_enabled kept", async () => {
    env.emulator.state().productConfigs[0]!.ai.mdr_enabled = true;
    const answer = await call("PUT", "/products", { sca: { enabled: true } });
    expect(answer.status).toBe(200);
    const config = await products();
    expect(config.sca).toMatchObject({ enabled: true, blockPrEnabled: false, malwareFirewallEnabled: false });
    expect(config.sast).toMatchObject({ enabled: false, ai_autofix: { enabled: false, min_confidence: 0 } });
    expect(config.ai).toMatchObject({ mdr_enabled: true });
  });

  it.each([
    ["writes the read-only ai.mdr_enabled", { ai: { mdr_enabled: true } }, /ai\.mdr_enabled: is read-only/],
    [
      "gives a triage permission the OpenAPI does not list",
      { sast: { triagePermission: "TRIAGE_PERMISSION_ALL" } },
      /sast\.triagePermission/,
    ],
    ["sends a field the OpenAPI does not name", { sca: { blockPRs: true } }, /sca/],
    ["names another deployment in the body", { deploymentId: 2 }, /does not match the path/],
  ])("refuses a PUT that %s (400), changing nothing", async (_what, body, message) => {
    const before = await products();
    const answer = await call("PUT", "/products", body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(message);
    expect(await products()).toEqual(before);
  });

  it("answers 404 for a deployment it does not have", async () => {
    const response = await fetch(`${env.emulator.url}/api/agent/deployments/9/products`, {
      headers: { authorization: `Bearer ${env.emulator.token}` },
    });
    expect(response.status).toBe(404);
  });
});

describe("notification rules", () => {
  const rule = (over: Record<string, unknown> = {}) => ({
    notificationRule: {
      name: "New",
      channel: "CHANNEL_WEBHOOK",
      config: { url: "https://hooks.example/new" },
      policy_slugs: ["comment-high-severity"],
      ...over,
    },
  });

  it("lists the demo preset's webhook rule for critical findings", async () => {
    const answer = await call("POST", "/actions/list", {});
    expect(answer.body.notification_rules).toEqual([
      {
        id: 5001,
        channel: "CHANNEL_WEBHOOK",
        config: { url: PRESET_WEBHOOK_URL },
        is_enabled: true,
        name: "Critical findings to the SOC",
        policy_slugs: ["block-critical-high-confidence"],
        use_network_broker: false,
        config_error: "",
        send_scan_completion: false,
      },
    ]);
  });

  it("creates a rule with the documented defaults (enabled, scan completion sent) and a new id", async () => {
    const answer = await call("POST", "/actions", rule());
    expect(answer.status).toBe(200);
    expect(answer.body.notification_rule).toMatchObject({
      id: 5002,
      is_enabled: true,
      send_scan_completion: true,
      use_network_broker: false,
    });
  });

  it.each([
    ["a channel the OpenAPI does not list", rule({ channel: "CHANNEL_PAGER" }), 400, undefined, /channel/],
    ["a webhook without config.url", rule({ config: {} }), 400, undefined, /config\.url must be an http\(s\) URL/],
    ["a webhook whose url is not http(s)", rule({ config: { url: "ftp://x.example" } }), 400, undefined, /config\.url/],
    ["a Slack webhook without config.url", rule({ channel: "CHANNEL_SLACK_WEBHOOK", config: {} }), 400, undefined, /config\.url/],
    ["a policy slug that names no remediation policy", rule({ policy_slugs: ["nope"] }), 400, "UNKNOWN_POLICY_SLUG", /nope/],
    ["the name of an existing rule", rule({ name: "Critical findings to the SOC" }), 409, "ALREADY_EXISTS", /already exists/],
    ["the read-only config_error", rule({ config_error: "x" }), 400, undefined, /config_error/],
    ["the service's id", rule({ id: 7 }), 400, undefined, /id/],
  ])("refuses a rule with %s, creating nothing", async (_what, body, status, code, message) => {
    const answer = await call("POST", "/actions", body);
    expect(answer.status).toBe(status);
    if (code) expect(answer.body.code).toBe(code);
    expect(answer.body.error).toMatch(message);
    expect(env.emulator.state().notificationRules).toHaveLength(1);
  });

  it("replaces a rule whole, keeping its id; a rule may keep its own name", async () => {
    const answer = await call("PUT", "/actions/5001", rule({ name: "Critical findings to the SOC", is_enabled: false }));
    expect(answer.status).toBe(200);
    expect(answer.body.notification_rule).toMatchObject({ id: 5001, is_enabled: false, policy_slugs: ["comment-high-severity"] });
  });

  it("answers 404 for a rule id the deployment does not have, on replace, delete and test", async () => {
    expect((await call("PUT", "/actions/999", rule())).status).toBe(404);
    expect((await call("DELETE", "/actions/999")).status).toBe(404);
    expect((await call("POST", "/actions/999/test", {})).status).toBe(404);
  });

  it("deletes a rule and answers it as it was; tests one", async () => {
    expect((await call("POST", "/actions/5001/test", {})).body).toEqual({ success: true, errorDetail: "" });
    const answer = await call("DELETE", "/actions/5001");
    expect(answer.body.notification_rule).toMatchObject({ id: 5001, name: "Critical findings to the SOC" });
    expect((await call("POST", "/actions/list", {})).body.notification_rules).toEqual([]);
  });

  it("cuts the list to optionalLimit (there is no cursor to ask for more) and filters by channel", async () => {
    await call("POST", "/actions", rule({ name: "Second" }));
    expect(((await call("POST", "/actions/list", { options: { optionalLimit: 1 } })).body.notification_rules as unknown[]).length).toBe(1);
    const email = await call("POST", "/actions/list", { filters: { channel: "CHANNEL_EMAIL" } });
    expect(email.body.notification_rules).toEqual([]);
  });
});

it("loads a state file written before the product configuration and notification rules existed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-access-"));
  const { productConfigs: _p, notificationRules: _n, ...older } = buildPreset("demo");
  const file = join(dir, "state.json");
  writeFileSync(file, JSON.stringify(older));
  const emulator = await startEmulator({ dataFile: file });
  try {
    expect((await call("GET", "/products", undefined, emulator)).status).toBe(200);
    expect((await call("POST", "/actions/list", {}, emulator)).status).toBe(200);
  } finally {
    await emulator.close();
  }
});

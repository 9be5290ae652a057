/**
 * Per-call options (`signal`, `timeoutMs`, `maxRetries`), taken by every client method as its last
 * argument, and an injected dispatcher for unit tests that only need canned answers.
 */
import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  InvalidRequestError,
  SemgrepClient,
} from "../../provider/client";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });

describe("signal", () => {
  it("aborts a request in flight with APIUserAbortError", async () => {
    env.emulator.setFaults({ latencyMs: 2_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await env
      .client()
      .policies.list(1, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ operation: "policies.list", method: "GET", path: "/api/v1/deployments/1/policies" });
    expect(env.requests("policies.list")).toHaveLength(1);
  });

  it("aborts the wait before a retry, and sends nothing once aborted", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["503"] });
    const client = env.client({ retryBaseDelayMs: 10_000, maxRetryDelayMs: 10_000 });
    const controller = new AbortController();
    const call = client.projects.get("acme", "acme/web-app", { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expect(env.requests("projects.get")).toHaveLength(1);
    await expect(client.projects.get("acme", "acme/web-app", { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(env.requests("projects.get")).toHaveLength(1);
  });

  it("reaches every page of a listing", async () => {
    const controller = new AbortController();
    const rules = env.client().policies.listRules(1, SAST_POLICY_ID, { limit: 100 }, { signal: controller.signal });
    const seen: string[] = [];
    const read = (async () => {
      for await (const rule of rules) {
        seen.push(rule.path);
        if (seen.length === 150) controller.abort();
      }
    })();
    await expect(read).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(200); // the second page was already read; the third was never sent
    expect(env.requests("policies.listRules")).toHaveLength(2);
  });
});

describe("timeoutMs and maxRetries", () => {
  it("maxRetries of one call overrides the client's", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["503"] });
    const error = await env
      .client({ maxRetries: 5 })
      .deployments.list({ maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 1 });
    expect(env.requests("deployments.list")).toHaveLength(1);
  });

  it("timeoutMs of one call overrides the client's", async () => {
    env.emulator.setFaults({ latencyMs: 1_000 });
    const error = await env
      .client({ timeoutMs: 30_000 })
      .deployments.list({ timeoutMs: 50, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("refuses options it cannot use, naming them, before any request", async () => {
    const error = await env
      .client()
      .deployments.list({ maxRetries: -1, timeoutMs: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues).toEqual([
      "options.maxRetries: must be a whole number, 0 or more (got -1)",
      "options.timeoutMs: must be a number of ms above 0 (got 0)",
    ]);
    expect(env.requests()).toEqual([]);
  });
});

describe("an injected dispatcher", () => {
  it("answers from canned replies without a server, and stays open after the client closes", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const answer = { deployments: [{ id: 7, name: "X", slug: "x" }] };
    agent.get("https://semgrep.example").intercept({ path: "/api/v1/deployments", method: "GET" }).reply(200, answer).times(2);
    const options = { baseUrl: "https://semgrep.example", token: "t", env: {}, dispatcher: agent };
    const first = new SemgrepClient(options);
    expect(await first.deployments.list()).toEqual(answer.deployments);
    await first.close();
    // The dispatcher is the caller's: closing a client leaves it usable.
    expect(await new SemgrepClient(options).deployments.list()).toEqual(answer.deployments);
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});

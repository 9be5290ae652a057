/** Retries, backoff, Retry-After, timeouts, and what the final error says of a request that is not idempotent. */
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, InternalServerError, RateLimitError, SemgrepClient } from "../../provider/client";
import { SAST_POLICY_ID, startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo", seed: 7 });

const sbomRequest = { repositoryId: "101", ref: "refs/heads/main" } as const;

describe("under injected faults (--fault-rate 0.3)", () => {
  it("completes every operation, and the request log shows the retries", async () => {
    env.emulator.setFaults({ faultRate: 0.3 });
    const lines: string[] = [];
    const client = env.client({ log: (line) => lines.push(line), maxRetries: 8 });
    const rules = await client.policies.listRules(1, SAST_POLICY_ID).toArray();
    const scans = await client.scans.search(1).toArray();
    const tags = await Promise.all(Array.from({ length: 20 }, (_, i) => client.projects.addTags("acme", "acme/mobile-app", [`t${i}`])));

    expect(rules).toHaveLength(320);
    expect(scans).toHaveLength(300);
    expect(tags.at(-1)).toBeDefined();
    expect((await client.projects.get("acme", "acme/mobile-app")).tags).toHaveLength(20);

    const log = env.requests();
    const faulted = log.filter((r) => r.fault);
    expect(faulted.length).toBeGreaterThan(0);
    expect(new Set(faulted.map((r) => r.fault))).toEqual(new Set(["429", "503", "drop"]));
    expect(lines.length).toBeGreaterThanOrEqual(faulted.length - 1);
    for (const line of lines)
      expect(line).toMatch(/^semgrep: retrying \S+ \((GET|POST|PUT|PATCH|DELETE) \/api\/v1\/\S+\) after .+: attempt \d+ in \d+ ms$/);
  });
});

describe("which failures are retried", () => {
  it("retries a refused connection once only (a wrong port), with a message naming the address and where it was set", async () => {
    const closed = await startEmulator({ preset: "demo" });
    const url = closed.url;
    await closed.close();
    const lines: string[] = [];
    const client = new SemgrepClient({
      baseUrl: url,
      baseUrlSource: "semgrep:url",
      token: "t",
      env: {},
      maxRetries: 8,
      log: (l) => lines.push(l),
    });
    const error = await client.deployments.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).attempts).toBe(2);
    expect(lines).toHaveLength(1);
    expect((error as Error).message).toContain(
      `connection refused (ECONNREFUSED) after 2 attempts (${url}, from semgrep:url): nothing listens at that address; check the address in semgrep:url`,
    );
  });

  it("retries an idempotent request after a dropped connection", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["drop"] });
    const error = await env
      .client({ maxRetries: 2 })
      .projects.get("acme", "acme/web-app")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).attempts).toBe(3);
    expect(env.requests()).toHaveLength(3);
  });

  it("gives up after the bounded attempts with the last status", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["503"] });
    const error = await env
      .client({ maxRetries: 3 })
      .policies.list(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, attempts: 4, serviceMessage: "(an HTML error page)" });
    expect(env.requests()).toHaveLength(4);
  });

  it("retries starting an SBOM export like any request, and says in the final error that one may have started", async () => {
    for (const kind of ["drop", "503"] as const) {
      env.emulator.reset();
      env.emulator.setFaults({ faultRate: 1, kinds: [kind] });
      const error = await env
        .client({ maxRetries: 2 })
        .sbom.createExport(1, sbomRequest)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(kind === "drop" ? APIConnectionError : InternalServerError);
      expect((error as Error).message).toMatch(
        /The request may have reached the service before it failed: an SBOM export may already have started$/,
      );
      expect(env.requests()).toHaveLength(3);
    }
  });

  it("starts the export once a retry gets through, even when an earlier answer was lost (the export may then be started twice)", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["lost"] });
    const client = env.client({ maxRetries: 4 });
    const pending = client.sbom.createExport(1, sbomRequest);
    // Let two attempts be handled with their answers lost, then let the third answer arrive.
    while (env.requests().length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    env.emulator.setFaults({ faultRate: 0 });
    const { taskToken } = await pending;
    expect(env.emulator.state().sbomExports.map((j) => j.taskToken)).toContain(taskToken);
    // Every attempt started an export: those whose answers were lost, and the one answered.
    const lost = env.requests().filter((r) => r.fault === "lost").length;
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(env.emulator.state().sbomExports).toHaveLength(lost + 1);
    // An idempotent write in the same situation is simply sent again, with one outcome.
    env.emulator.reset();
    env.emulator.setFaults({ faultRate: 1, kinds: ["lost"] });
    await env
      .client({ maxRetries: 2 })
      .projects.addTags("acme", "acme/mobile-app", ["once"])
      .catch(() => undefined);
    expect(env.requests()).toHaveLength(3);
    expect(env.emulator.state().projects.find((p) => p.name === "acme/mobile-app")!.tags).toEqual(["once"]);
  });

  it("does not claim an export may have started when every attempt was refused with 429", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["429"] });
    const error = await env
      .client({ maxRetries: 2 })
      .sbom.createExport(1, sbomRequest)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).not.toMatch(/may already have started/);
    expect(env.requests()).toHaveLength(3);
    expect(env.emulator.state().sbomExports).toHaveLength(0);
    env.emulator.setFaults({ faultRate: 0 });
    await env.client().sbom.createExport(1, sbomRequest);
    expect(env.emulator.state().sbomExports).toHaveLength(1);
  });

  it("does not claim an export may have started when the connection was refused every time (it never reached the service)", async () => {
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const lines: string[] = [];
    const client = new SemgrepClient({ baseUrl: url, token: "t", env: {}, maxRetries: 2, retryBaseDelayMs: 1, log: (l) => lines.push(l) });
    const error = await client.sbom.createExport(1, sbomRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).message).toContain("ECONNREFUSED");
    expect((error as APIConnectionError).message).toContain(`(${url}, from baseUrl)`);
    expect((error as APIConnectionError).message).not.toMatch(/may already have started/);
    expect(lines).toHaveLength(1); // a refused connection is retried once only
    await client.close();
  });
});

describe("timeouts", () => {
  it("abandons an attempt after the per-request timeout and retries it", async () => {
    env.emulator.setFaults({ latencyMs: 400 });
    const error = await env
      .client({ timeoutMs: 100, maxRetries: 1 })
      .policies.list(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ attempts: 2, operation: "policies.list" });
    expect(env.requests()).toHaveLength(2);
  });
});

describe("Retry-After", () => {
  it("honours the emulator's Retry-After on an injected 429", async () => {
    env.emulator.setFaults({ faultRate: 1, kinds: ["429"], retryAfterSeconds: 1 });
    const lines: string[] = [];
    const error = await env
      .client({ maxRetries: 1, maxRetryDelayMs: 5000, log: (l) => lines.push(l) })
      .policies.list(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(lines).toEqual([expect.stringMatching(/after status 429: attempt 2 in 1000 ms$/)]);
  });
});

/** The retry policy's pure parts: what is retried, how long to wait. */
import { describe, expect, it } from "vitest";
import { isRetryableConnectionError, isRetryableStatus, retryAfterMs, retryDelayMs } from "../../provider/client/retry";

describe("retryAfterMs", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  it("reads seconds, an HTTP date and retry-after-ms", () => {
    expect(retryAfterMs({ "retry-after": "2" }, now)).toBe(2000);
    expect(retryAfterMs({ "retry-after": "0.5" }, now)).toBe(500);
    expect(retryAfterMs({ "retry-after": "Sat, 21 Nov 2026 12:00:30 GMT" }, now)).toBe(30_000);
    expect(retryAfterMs({ "retry-after-ms": "7", "retry-after": "9" }, now)).toBe(7);
  });
  it("ignores what it cannot read, and dates in the past wait nothing", () => {
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "Sat, 21 Nov 2026 11:00:00 GMT" }, now)).toBe(0);
  });
});

describe("retryDelayMs", () => {
  it("doubles from the base with jitter in the upper half, capped", () => {
    expect(retryDelayMs(1, 100, 10_000, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(1, 100, 10_000, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(4, 100, 10_000, undefined, () => 1)).toBe(800);
    expect(retryDelayMs(20, 100, 10_000, undefined, () => 1)).toBe(10_000);
  });
  it("uses the service's Retry-After, capped", () => {
    expect(retryDelayMs(1, 100, 10_000, 2000)).toBe(2000);
    expect(retryDelayMs(1, 100, 10_000, 60_000)).toBe(10_000);
  });
});

describe("what is retried", () => {
  const error = (code: string) => Object.assign(new Error(code), { code });
  it("retries 429, 502, 503, 504 of idempotent requests, only 429 of the rest", () => {
    expect([429, 502, 503, 504, 500, 404].map((s) => isRetryableStatus(s, true))).toEqual([true, true, true, true, false, false]);
    expect([429, 502, 503, 504].map((s) => isRetryableStatus(s, false))).toEqual([true, false, false, false]);
  });
  it("retries resets and timeouts of idempotent requests, only never-sent failures of the rest", () => {
    expect(isRetryableConnectionError(error("ECONNRESET"), true)).toBe(true);
    expect(isRetryableConnectionError(new Error("x", { cause: error("UND_ERR_SOCKET") }), true)).toBe(true);
    expect(isRetryableConnectionError(error("ECONNRESET"), false)).toBe(false);
    expect(isRetryableConnectionError(error("ETIMEDOUT"), false)).toBe(false);
    expect(isRetryableConnectionError(error("ECONNREFUSED"), false)).toBe(true);
    expect(isRetryableConnectionError(new Error("no code"), true)).toBe(false);
  });
});

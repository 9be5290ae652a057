/** The retry policy's pure parts: what is retried, how long to wait. */
import { describe, expect, it } from "vitest";
import {
  isRetryableConnectionError,
  isRetryableStatus,
  isTlsError,
  mayHaveBeenProcessed,
  retryAfterMs,
  retryDelayMs,
} from "../../provider/client/retry";

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
  it("retries 429, 502, 503 and 504, nothing else", () => {
    expect([429, 502, 503, 504, 500, 404, 400].map(isRetryableStatus)).toEqual([true, true, true, true, false, false, false]);
  });
  it("retries resets, timeouts and connections never made, looking through causes", () => {
    expect(isRetryableConnectionError(error("ECONNRESET"))).toBe(true);
    expect(isRetryableConnectionError(new Error("x", { cause: error("UND_ERR_SOCKET") }))).toBe(true);
    expect(isRetryableConnectionError(error("ETIMEDOUT"))).toBe(true);
    expect(isRetryableConnectionError(error("ECONNREFUSED"))).toBe(true);
    expect(isRetryableConnectionError(error("EPROTO"))).toBe(false);
    expect(isRetryableConnectionError(new Error("no code"))).toBe(false);
  });
  it("knows which failed connections may still have been processed", () => {
    expect(mayHaveBeenProcessed(error("ECONNRESET"))).toBe(true);
    expect(mayHaveBeenProcessed(error("ETIMEDOUT"))).toBe(true);
    expect(mayHaveBeenProcessed(new Error("no code"))).toBe(true);
    expect(mayHaveBeenProcessed(error("ECONNREFUSED"))).toBe(false);
    expect(mayHaveBeenProcessed(new Error("x", { cause: error("ENOTFOUND") }))).toBe(false);
  });
  it("recognizes a TLS failure (an https address of a plain http server)", () => {
    expect(isTlsError(error("ERR_SSL_WRONG_VERSION_NUMBER"))).toBe(true);
    expect(
      isTlsError(new Error("fetch failed", { cause: new Error("C0:error:0A00010B:SSL routines:ssl3_get_record:wrong version number") })),
    ).toBe(true);
    expect(isTlsError(error("ECONNRESET"))).toBe(false);
  });
});

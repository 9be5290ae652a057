/**
 * http:// carries the token in clear: it is accepted only to a loopback address (a local emulator),
 * and refused anywhere else where the address is configured, before any request, naming where it
 * came from and the remedy: the client's own option, SEMGREP_APP_URL, SEMGREP_URL, the provider's
 * `semgrep:url` at configure (both front ends), a data source's `url` option and adopt's `--url`
 * (test/adopt/cli.test.ts). The emulator here listens on every interface, and the refused address
 * is this machine's own non-loopback one where it has one: without the refusal, the requests
 * would reach it.
 */
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidBaseUrlError, SemgrepClient } from "../../provider/client";
import { configureCredentials } from "../../provider/core/runtime/credentials";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { getPolicies } from "../../provider/functions";

let emulator: RunningEmulator;
/** `http://<this machine's non-loopback address>:<the emulator's port>`, or a name no one serves when the machine has none. */
let outside: string;

beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo", host: "0.0.0.0" });
  const port = new URL(emulator.url).port;
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal);
  outside = lan ? `http://${lan.address}:${port}` : "http://semgrep.invalid";
});
afterAll(() => emulator?.close());

const refusal = (source: string, url: string) =>
  new RegExp(
    `^${source} "${url.replace(/[.:/]/g, "\\$&")}/" must start with https://: http:// would send the token in clear, so it is accepted only for a loopback address \\(127\\.0\\.0\\.0/8, ::1, localhost\\), such as a local emulator\\. Use https://`,
  );

/** What `work` throws (or rejects with). */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("http:// only to a loopback address", () => {
  it("the client refuses it at construction from each source, naming the source and https://", async () => {
    const token = emulator.token;
    const sources: [string, () => SemgrepClient][] = [
      ["baseUrl", () => new SemgrepClient({ token, baseUrl: outside, env: {} })],
      ["semgrep:url", () => new SemgrepClient({ token, baseUrl: outside, baseUrlSource: "semgrep:url", env: {} })],
      ["SEMGREP_APP_URL", () => new SemgrepClient({ env: { SEMGREP_APP_TOKEN: token, SEMGREP_APP_URL: outside } })],
      ["SEMGREP_URL", () => new SemgrepClient({ env: { SEMGREP_API_TOKEN: token, SEMGREP_URL: outside } })],
    ];
    for (const [source, construct] of sources) {
      const error = await thrown(construct);
      expect(error, source).toBeInstanceOf(InvalidBaseUrlError);
      expect((error as Error).message).toMatch(refusal(source, outside));
    }
    expect(emulator.requests()).toEqual([]);
  });

  it("the provider's configure refuses semgrep:url (either front end), a data source its url option and SEMGREP_URL, before any request", async () => {
    expect(() => configureCredentials({ token: emulator.token, url: outside })).toThrow(refusal("semgrep:url", outside));
    const viaOption = await thrown(() => getPolicies({ deploymentId: "1" }, { url: outside, token: emulator.token }));
    expect((viaOption as Error).message).toMatch(refusal("the url invoke option", outside));
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { SEMGREP_APP_URL: "", SEMGREP_URL: outside, SEMGREP_APP_TOKEN: emulator.token });
      const viaEnv = await thrown(() => getPolicies({ deploymentId: "1" }));
      expect((viaEnv as Error).message).toMatch(refusal("SEMGREP_URL", outside));
    } finally {
      process.env = saved;
    }
    expect(emulator.requests()).toEqual([]);
  });

  it("loopback addresses pass: 127.0.0.0/8, [::1], localhost; https:// anywhere", async () => {
    const port = new URL(emulator.url).port;
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "[::1]"])
      expect(new SemgrepClient({ token: "t", baseUrl: `http://${host}:${port}`, env: {} }).baseUrl).toBe(`http://${host}:${port}`);
    expect(new SemgrepClient({ token: "t", baseUrl: "https://semgrep.example", env: {} }).baseUrl).toBe("https://semgrep.example");
    expect(() => configureCredentials({ url: `http://localhost:${port}` })).not.toThrow();
    configureCredentials({});
    const client = new SemgrepClient({ token: emulator.token, baseUrl: `http://127.0.0.1:${port}`, env: {} });
    expect(await client.policies.list(1)).toHaveLength(3);
    await client.close();
  });
});

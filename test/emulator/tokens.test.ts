/** The emulator's accepted tokens from code: `token`, `tokens`, both, and the default. */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";

let running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

async function emulatorWith(options: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

/** The status of one read of the deployment's projects with `token`. */
async function statusWith(emulator: RunningEmulator, token: string): Promise<number> {
  const answer = await fetch(`${emulator.url}/api/v1/deployments/acme/projects`, { headers: { authorization: `Bearer ${token}` } });
  await answer.arrayBuffer();
  return answer.status;
}

describe("accepted tokens", () => {
  it("accepts `token` and every one of `tokens`, and refuses any other with 401", async () => {
    const emulator = await emulatorWith({ token: "first", tokens: ["second", "third"] });
    expect(emulator.token).toBe("first");
    expect(emulator.tokens).toEqual(["first", "second", "third"]);
    for (const token of ["first", "second", "third"]) expect(await statusWith(emulator, token)).toBe(200);
    for (const token of ["emulator-token", "fourth", "Second"]) expect(await statusWith(emulator, token)).toBe(401);
    // Every token sees the same deployment: a write with one is read back with another.
    const put = await fetch(`${emulator.url}/api/v1/deployments/acme/projects/acme%2Fweb-app/tags`, {
      method: "PUT",
      headers: { authorization: "Bearer second", "content-type": "application/json" },
      body: JSON.stringify(["rotated"]),
    });
    expect(put.status).toBe(200);
    const read = await fetch(`${emulator.url}/api/v1/deployments/acme/projects/acme%2Fweb-app`, {
      headers: { authorization: "Bearer third" },
    });
    expect(((await read.json()) as { project: { tags: string[] } }).project.tags).toContain("rotated");
  });

  it("keeps the single `token` option and the default as they were", async () => {
    const single = await emulatorWith({ token: "only" });
    expect(single.tokens).toEqual(["only"]);
    expect([await statusWith(single, "only"), await statusWith(single, "emulator-token")]).toEqual([200, 401]);
    const fallback = await emulatorWith({});
    expect([fallback.token, await statusWith(fallback, "emulator-token")]).toEqual(["emulator-token", 200]);
    const listOnly = await emulatorWith({ tokens: ["a", "b", "a"] });
    expect(listOnly.tokens).toEqual(["a", "b"]);
    expect(await statusWith(listOnly, "emulator-token")).toBe(401);
  });

  it("refuses an empty token, which would accept a bare `Bearer `", async () => {
    await expect(startEmulator({ tokens: ["a", ""] })).rejects.toThrow(/token cannot be empty/);
  });
});

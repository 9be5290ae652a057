/** The `pulumi-semgrep-emulator` command: flags, the address line, clean stop on signals. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, inject, it } from "vitest";

const CLI = join(__dirname, "../../dist/emulator/cli.js");
let child: ChildProcess | undefined;
afterEach(() => child?.kill("SIGKILL"));

/** Starts the command and resolves with the address from its first line. */
function start(args: string[]): Promise<string> {
  child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    lines.once("line", (line) => {
      const url = /(http:\/\/\S+)/.exec(line)?.[1];
      if (url) resolve(url);
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child!.once("exit", (code) => reject(new Error(`exited with ${code}`)));
  });
}

function exited(): Promise<number | null> {
  return new Promise((resolve) => child!.once("exit", (code) => resolve(code)));
}

describe("pulumi-semgrep-emulator", () => {
  it("serves with the given token, persists to --data, and stops cleanly on SIGTERM", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "semgrep-cli-")), "state.json");
    const url = await start([
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--token",
      "t0ken",
      "--data",
      file,
      "--preset",
      "demo",
      "--fault-rate",
      "0",
      "--latency-ms",
      "1",
    ]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const denied = await fetch(`${url}/api/v1/deployments`, { headers: { authorization: "Bearer emulator-token" } });
    expect(denied.status).toBe(401);
    const added = await fetch(`${url}/api/v1/deployments/acme/projects/acme%2Fweb-app/tags`, {
      method: "PUT",
      headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
      body: JSON.stringify(["from-cli"]),
    });
    expect(added.status).toBe(200);
    // Without --policies-v2 the deployment still uses v1 policies: Policies V2 answers 403.
    const v2 = await fetch(`${url}/api/policies/v2/deployments/1/vocab`, { headers: { authorization: "Bearer t0ken" } });
    expect({ status: v2.status, body: await v2.json() }).toMatchObject({ status: 403, body: { code: "DEPLOYMENT_NOT_MIGRATED" } });
    const exit = exited();
    child!.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).projects[0].tags).toContain("from-cli");
  });

  it("--omit-empty leaves out default values but required fields; --policies-v2 answers the v1 policy operations 410", async () => {
    const url = await start(["--omit-empty", "--policies-v2", "--detection-products", "code"]);
    const get = (path: string) => fetch(`${url}/api/v1${path}`, { headers: { authorization: "Bearer emulator-token" } });
    const mobile = await get("/deployments/acme/projects/acme%2Fmobile-app");
    const { project } = (await mobile.json()) as { project: Record<string, unknown> };
    expect(project.tags).toEqual([]); // required by the OpenAPI: kept
    expect(project.managed_scan_config).toEqual({ diff_scan: {}, full_scan: {} }); // `enabled: false` left out
    for (const path of ["/deployments/1/policies", "/deployments/1/policies/10"]) {
      const gone = await get(path);
      expect({ status: gone.status, body: await gone.json() }).toMatchObject({ status: 410, body: { code: "DEPLOYMENT_MIGRATED" } });
    }
    // The Policies V2 operations answer; --detection-products leaves out the products not named.
    const v2 = (product: string) =>
      fetch(`${url}/api/policies/v2/deployments/1/detection-policy/${product}`, { headers: { authorization: "Bearer emulator-token" } });
    expect((await v2("code")).status).toBe(200);
    const secrets = await v2("secrets");
    expect({ status: secrets.status, body: await secrets.json() }).toMatchObject({ status: 404, body: { code: "PRODUCT_NOT_ENABLED" } });
  });

  it("--dry-run-refusals: a dry run of an invalid bundle answers 400 with its code, as --help says", async () => {
    const url = await start(["--policies-v2", "--dry-run-refusals"]);
    const dryRun = await fetch(`${url}/api/policies/v2/deployments/1/detection-policy/code:dryRun`, {
      method: "POST",
      headers: { authorization: "Bearer emulator-token", "content-type": "application/json" },
      body: JSON.stringify({
        bundle: { exceptions: [{ exception_type: "exclude", project: "acme/nope", rule: "a.b", rule_type: "rule" }] },
      }),
    });
    expect({ status: dryRun.status, body: await dryRun.json() }).toMatchObject({
      status: 400,
      body: { code: "UNKNOWN_REFERENCE", missing_references: [{ type: "project", value: "acme/nope" }] },
    });
    const help = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(help.stdout).toMatch(/--dry-run-refusals Policies V2 dry runs answer in the live service's other form/);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(
      /POST \/_emulator\/faults .* concurrent-write \(another client's apply lands just before a Policies V2 apply/,
    );
  });

  it("--token given twice accepts both tokens for every request, and still refuses an unknown one with 401", async () => {
    const url = await start(["--token", "old-token", "--token", "new-token"]);
    const as = (token: string) => fetch(`${url}/api/v1/deployments/1/policies`, { headers: { authorization: `Bearer ${token}` } });
    const old = await as("old-token");
    const rotated = await as("new-token");
    expect([old.status, rotated.status]).toEqual([200, 200]);
    expect(await rotated.json()).toEqual(await old.json()); // the same deployments and policies
    for (const token of ["emulator-token", "other", "old-token new-token"]) expect((await as(token)).status).toBe(401);
    const help = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(/--token TOKEN an accepted bearer token .* give it more than once to accept several/);
  });

  it("stops cleanly on SIGINT", async () => {
    await start(["--port", "0", "--preset", "large"]);
    const exit = exited();
    child!.kill("SIGINT");
    expect(await exit).toBe(0);
  });

  it("is installed as the package's bin, pulumi-semgrep-emulator", () => {
    const bin = join(inject("installedPackageDir"), "node_modules/.bin/pulumi-semgrep-emulator");
    const result = spawnSync(bin, ["--help"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${join(process.execPath, "..")}:${process.env.PATH}` },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/--fault-rate R/);
    expect(result.stdout.replace(/\s+/g, " ")).toMatch(
      /Without it the deployment still uses v1 policies, and every Policies V2 operation answers 403 with the error code DEPLOYMENT_NOT_MIGRATED/,
    );
  });

  it("refuses unknown flags and bad values in one line naming the flag and pointing at --help, status 2", () => {
    for (const [args, names] of [
      [["--nope"], "unknown option --nope"],
      [["--port"], "--port needs a value"],
      [["--fault-rate", "1.5"], '--fault-rate: "1.5" is not valid'],
      [["--preset", "huge"], "--preset must be one of demo, large"],
      [["--port", "http"], '--port: "http" is not valid'],
      [["--detection-products", "code,sca"], '--detection-products: "sca" is not one of'],
      [["--token", "a", "--token", ""], "--token: a token cannot be empty"],
    ] as const) {
      // A flag taken by mistake starts the emulator: the timeout ends it and the test fails.
      const result = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 20_000 });
      expect({ args, status: result.status, stdout: result.stdout, lines: result.stderr.trimEnd().split("\n") }).toEqual({
        args,
        status: 2,
        stdout: "",
        lines: [expect.stringContaining(`pulumi-semgrep-emulator: ${names}`)],
      });
      expect(result.stderr.trimEnd()).toMatch(/ \(pulumi-semgrep-emulator --help lists the options\)$/);
    }
  });
});

/**
 * Smaller cases through the real CLI (issue 8, cases 10 to 12): `primaryBranch: "None"` is sent
 * even where the primary branch already equals the default one; a `semgrep:url` or
 * SEMGREP_APP_URL the client cannot use is named in the error; a deployment id given as the slug,
 * a ManagedScan without toggles and `opts.import` each get an error that says what is wrong.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator } from "../../provider/emulator";
import { useEmulators } from "../support/emulator";
import { printed, program, programWorkspace } from "../support/program";

const emulators = useEmulators({ preset: "demo" });
let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await emulators.start();
});

const tags = program(`new semgrep.ProjectTags("web-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["x"] });`);

describe('primaryBranch: "None"', () => {
  it("makes the project follow its default branch even when the primary branch already equals it", async () => {
    expect(emulator.state().projects.find((p) => p.name === "acme/web-app")!.primaryBranch).toBe("refs/heads/main");
    const workspace = await programWorkspace(
      emulator,
      program(`new semgrep.ProjectSettings("web", { deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "None" });`),
    );
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(emulator.state().projects.find((p) => p.name === "acme/web-app")!.primaryBranch).toBeNull();
    expect((await workspace.resources()).web!.outputs).toMatchObject({ followsDefaultBranch: true, primaryBranch: "refs/heads/main" });
    await workspace.run(["preview", "--refresh", "--expect-no-changes"]);
  }, 120_000);
});

describe("the environment names of Semgrep's own tools", () => {
  it("SEMGREP_API_TOKEN and SEMGREP_URL alone serve the provider and the data sources; a refused token is named by where it came from", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`
const tags = new semgrep.ProjectTags("web-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["x"] });
exports.tags = semgrep.getProjectOutput({ deploymentSlug: "acme", projectName: "acme/web-app" }, { dependsOn: [tags] }).tags;`),
      { credentials: "none" },
    );
    const fallbacks = { SEMGREP_API_TOKEN: emulator.token, SEMGREP_URL: emulator.url };
    await workspace.run(["up", "--yes", "--skip-preview"], { env: fallbacks });
    expect(emulator.state().projects.find((p) => p.name === "acme/web-app")!.tags).toContain("x");
    expect(JSON.parse((await workspace.run(["stack", "output", "tags", "--json", "--show-secrets"])).stdout)).toContain("x");
    await workspace.run(["preview", "--refresh", "--expect-no-changes"], { env: fallbacks });

    const refused = await workspace.run(["preview", "--refresh"], {
      allowFailure: true,
      env: { ...fallbacks, SEMGREP_API_TOKEN: "not-the-token" },
    });
    expect(refused.status).not.toBe(0);
    expect(printed(refused)).toMatch(/Check the token \(from SEMGREP_API_TOKEN\): it is missing, unknown or revoked/);
    expect(emulator.requests().filter((r) => r.method !== "GET")).toHaveLength(1); // the one tag added
  }, 180_000);
});

describe("an address the client cannot use", () => {
  const cases: Array<[string, (url: string) => string, RegExp]> = [
    [
      "with the API's path",
      (url) => `${url}/api/v1`,
      /semgrep:url "http:\/\/127\.0\.0\.1:\d+\/api\/v1" must be the service's address without a path \(e\.g\. https:\/\/semgrep\.dev, not …\/api\/v1\): the client adds \/api\/v1 itself/,
    ],
    [
      "without a scheme",
      (url) => url.replace("http://", ""),
      /semgrep:url "127\.0\.0\.1:\d+" is not an address: give the scheme and host, e\.g\. https:\/\/semgrep\.dev/,
    ],
    [
      "http:// to a machine other than this one (the token would travel in clear)",
      (url) => url.replace("127.0.0.1", "semgrep.invalid"),
      /semgrep:url "http:\/\/semgrep\.invalid:\d+\/" must start with https:\/\/: http:\/\/ would send the token in clear, so it is accepted only for a loopback address \(127\.0\.0\.0\/8, ::1, localhost\), such as a local emulator\. Use https:\/\/semgrep\.invalid:\d+\//,
    ],
    [
      "https for a plain http server",
      (url) => url.replace("http:", "https:"),
      /no TLS connection could be made to https:\/\/127\.0\.0\.1:\d+, from semgrep:url; is it an http:\/\/ address\? Check semgrep:url/,
    ],
  ];

  it.each(cases)(
    "semgrep:url %s is named in the error",
    async (_name, address, message) => {
      const workspace = await programWorkspace(emulator, tags, { credentials: "none" });
      await workspace.run(["config", "set", "--secret", "semgrep:token", emulator.token]);
      await workspace.run(["config", "set", "semgrep:url", address(emulator.url)]);
      const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      expect(up.status).not.toBe(0);
      expect(printed(up)).toMatch(message);
      expect(printed(up)).not.toMatch(/Web API access/);
      expect(emulator.requests()).toEqual([]);
    },
    120_000,
  );

  it("SEMGREP_APP_URL is named in the error of a data source", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`exports.policy = semgrep.getPolicyOutput({ deploymentId: "1", isDefault: true, productType: "PRODUCT_TYPE_SAST" }).name;`),
    );
    const up = await workspace.run(["up", "--yes", "--skip-preview"], {
      allowFailure: true,
      env: { SEMGREP_APP_URL: `${emulator.url}/orgs/acme` },
    });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toMatch(/SEMGREP_APP_URL "http:\/\/127\.0\.0\.1:\d+\/orgs\/acme" must be the service's address without a path/);
  }, 120_000);
});

describe("input errors that say what is wrong", () => {
  it("a deployment id given as the slug: the deployment does not exist", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`new semgrep.ProjectTags("web-tags", { deploymentSlug: "1", projectName: "acme/web-app", tags: ["x"] });`),
    );
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(printed(up)).toContain(
      `deployment "1" does not exist for this token (its deployments: "acme" (id 1)); deploymentSlug takes the deployment's slug, not its numeric id`,
    );
    expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  }, 120_000);

  it("a ManagedScan with neither toggle fails at preview", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(`new semgrep.ManagedScan("scans", { deploymentSlug: "acme", projectName: "acme/web-app" });`),
    );
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toContain("declare diffScan, fullScan or both: a ManagedScan without either manages nothing");
    expect(emulator.requests()).toEqual([]);
  }, 120_000);

  it("opts.import is refused with a message that explains adoption", async () => {
    const workspace = await programWorkspace(
      emulator,
      program(
        `new semgrep.ProjectTags("web-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: ["x"] }, { import: "acme/acme/web-app" });`,
      ),
    );
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(printed(preview)).toContain('ProjectTags "web-tags": opts.import cannot work for dynamic resources such as this one');
    expect(printed(preview)).toContain("creating the resource adopts the object that already exists");
    expect(printed(preview)).not.toContain("toJavaScript");
    expect(emulator.requests()).toEqual([]);
  }, 120_000);
});

/**
 * The engine's own dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, as
 * `pulumi up` drives it: Configure with a secret token, Check, Diff, Create, Read, Update, Delete,
 * and preview unknowns. Runs from the project where the packed package is installed.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
const dir = inject("installedPackageDir");
const load = createRequire(join(dir, "package.json"));
const grpc = load("@grpc/grpc-js");
const services = load("@pulumi/pulumi/proto/provider_grpc_pb");
const messages = load("@pulumi/pulumi/proto/provider_pb");
const { Struct } = load("google-protobuf/google/protobuf/struct_pb");
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const secret = (value: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const EVAL = "python.lang.security.audit.eval-detected.eval-detected";

type Props = Record<string, unknown>;
let host: ChildProcess;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine's gRPC stubs are generated JavaScript without types
let client: Record<string, (request: unknown, callback: (error: Error | null, response: any) => void) => void>;
let providers: Record<string, string>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine's gRPC stubs are generated JavaScript without types
function call<T = any>(method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method]!.call(client, request, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

const struct = (value: Props) => Struct.fromJavaScript(value);
const urn = (kind: string, name = "r") => `urn:pulumi:test::host::pulumi-nodejs:dynamic/semgrep:${kind}::${name}`;

async function check(kind: string, news: Props, olds: Props = {}) {
  const request = new messages.CheckRequest();
  request.setUrn(urn(kind));
  request.setOlds(struct(olds));
  request.setNews(struct({ ...news, __provider: providers[kind] }));
  const response = await call("check", request);
  return {
    inputs: response.getInputs().toJavaScript() as Props,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine's gRPC stubs are generated JavaScript without types
    failures: response.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
  };
}

async function create(kind: string, inputs: Props) {
  const request = new messages.CreateRequest();
  request.setUrn(urn(kind));
  request.setProperties(struct(inputs));
  const response = await call("create", request);
  return { id: response.getId() as string, outs: response.getProperties().toJavaScript() as Props };
}

async function read(kind: string, id: string, props: Props) {
  const request = new messages.ReadRequest();
  request.setId(id);
  request.setUrn(urn(kind));
  request.setProperties(struct(props));
  const response = await call("read", request);
  return {
    id: response.getId() as string,
    props: response.getProperties()?.toJavaScript() as Props,
    inputs: response.getInputs()?.toJavaScript() as Props | undefined,
  };
}

async function diff(kind: string, id: string, olds: Props, news: Props) {
  const request = new messages.DiffRequest();
  request.setId(id);
  request.setUrn(urn(kind));
  request.setOlds(struct(olds));
  request.setNews(struct(news));
  const response = await call("diff", request);
  return { changes: response.getChanges() as number, replaces: response.getReplacesList() as string[] };
}

async function update(kind: string, id: string, olds: Props, news: Props) {
  const request = new messages.UpdateRequest();
  request.setId(id);
  request.setUrn(urn(kind));
  request.setOlds(struct(olds));
  request.setNews(struct(news));
  return (await call("update", request)).getProperties().toJavaScript() as Props;
}

async function remove(kind: string, id: string, props: Props) {
  const request = new messages.DeleteRequest();
  request.setId(id);
  request.setUrn(urn(kind));
  request.setProperties(struct(props));
  await call("delete", request);
}

/** Starts the host as the engine does (a new one per `pulumi` command) and configures it. */
async function startHost(): Promise<void> {
  (client as unknown as { close(): void } | undefined)?.close();
  host?.kill();
  // No SEMGREP_APP_* in the host's environment: the token must come from Configure.
  const { SEMGREP_APP_TOKEN: _t, SEMGREP_APP_URL: _u, ...hostEnv } = process.env;
  host = spawn(process.execPath, [load.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:1"], {
    cwd: dir,
    env: { ...hostEnv, PULUMI_NODEJS_PROJECT: "host", PULUMI_NODEJS_STACK: "test" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => createInterface({ input: host.stdout! }).once("line", resolve));
  client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const configure = new messages.ConfigureRequest();
  configure.setArgs(struct({ "semgrep:token": secret(env.emulator.token), "semgrep:url": env.emulator.url }));
  await call("configure", configure);
}

beforeAll(async () => {
  providers = JSON.parse(
    execFileSync(process.execPath, [join(__dirname, "../fixtures/print-providers.js")], { cwd: dir, encoding: "utf8" }),
  );
  await startHost();
}, 60_000);

afterAll(() => {
  (client as unknown as { close(): void } | undefined)?.close();
  host?.kill();
});

describe("through the dynamic-provider host", () => {
  it("checks: failures name the property; unknowns pass", async () => {
    const bad = await check("PolicyRuleMode", { deploymentId: "1", policyId: "x", rulePath: EVAL, mode: "MODE_LOUD" });
    expect(bad.failures).toEqual([
      { property: "policyId", reason: expect.stringContaining("digits only") },
      { property: "mode", reason: expect.stringContaining("must be one of") },
    ]);
    const preview = await check("ProjectSettings", { deploymentSlug: "acme", projectName: UNKNOWN, tags: [UNKNOWN] });
    expect(preview.failures).toEqual([]);
    expect(env.requests()).toEqual([]);
  });

  it("creates, reads, diffs, updates and deletes a ProjectSettings with the configured secret token", async () => {
    const { inputs } = await check("ProjectSettings", {
      deploymentSlug: "acme",
      projectName: "acme/web-app",
      primaryBranch: "develop",
      tags: ["a"],
    });
    const created = await create("ProjectSettings", inputs);
    expect(created.id).toBe("acme/acme/web-app");
    expect(created.outs).toMatchObject({
      primaryBranch: "refs/heads/develop",
      tags: ["a", "managed-scan"], // the project's whole set: the service keeps its system tag
      originalTags: ["team:web", "tier:1"],
      __provider: providers.ProjectSettings,
    });
    expect(JSON.stringify(created.outs)).not.toContain(env.emulator.token);

    env.emulator.state().projects[0]!.tags.push("by-hand");
    await startHost(); // `pulumi refresh` starts a new provider process
    const refreshed = await read("ProjectSettings", created.id, created.outs);
    expect(refreshed.props.tags).toEqual(["a", "managed-scan", "by-hand"]);
    expect(refreshed.inputs).toMatchObject({ tags: ["a", "by-hand"] });

    const changed = await diff("ProjectSettings", created.id, refreshed.props, { ...inputs, __provider: providers.ProjectSettings });
    expect(changed).toEqual({ changes: 2, replaces: [] }); // DIFF_SOME
    const outs = await update("ProjectSettings", created.id, refreshed.props, { ...inputs, __provider: providers.ProjectSettings });
    expect(outs.tags).toEqual(["a", "managed-scan"]);

    const replaced = await diff("ProjectSettings", created.id, outs, {
      ...inputs,
      projectName: UNKNOWN,
      __provider: providers.ProjectSettings,
    });
    expect(replaced).toEqual({ changes: 2, replaces: ["projectName"] });

    await remove("ProjectSettings", created.id, outs);
    expect(env.emulator.state().projects[0]).toMatchObject({
      tags: ["team:web", "tier:1", "managed-scan"],
      primaryBranch: "refs/heads/main",
    });
  });

  it("reports a rule not in the policy as a create error naming both", async () => {
    const { inputs } = await check("PolicyRuleMode", {
      deploymentId: "1",
      policyId: SAST_POLICY_ID,
      rulePath: "no.such.rule",
      mode: "MODE_BLOCK",
    });
    await expect(create("PolicyRuleMode", inputs)).rejects.toThrow(/rule "no\.such\.rule" is not in policy 10 of deployment 1/);
  });
});

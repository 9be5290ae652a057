/**
 * The plugin as the engine starts it: the packed package's `dist/native/main.js` in a process of
 * its own, given the engine's flags and address. Its first line of stdout is the port it serves
 * on, and the messages it has for the person running `pulumi` go to the engine's address.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import packageJson from "../../package.json";
import { useEmulator } from "../support/emulator";
import { plainOf, rpcOf, struct, typeOf, urnOf } from "../support/native";

const env = useEmulator({ preset: "demo" });

/** A stand-in for the engine: its Log service, recording what the plugin sends. */
const logged: Array<{ severity: number; message: string; urn: string }> = [];
const engine = new grpc.Server();
let plugin: ChildProcess;
let firstLine: string;
let client: ResourceProviderClient;

beforeAll(async () => {
  engine.addService(EngineService, {
    log: (call: grpc.ServerUnaryCall<LogRequest, Empty>, done: grpc.sendUnaryData<Empty>) => {
      logged.push({ severity: call.request.getSeverity(), message: call.request.getMessage(), urn: call.request.getUrn() });
      done(null, new Empty());
    },
  });
  const enginePort = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  const main = join(inject("installedPackageDir"), "node_modules", "pulumi-semgrep", "dist", "native", "main.js");
  // As the engine starts a resource plugin: its flags, then its own address.
  plugin = spawn(process.execPath, [main, "--logtostderr", "-v=9", `127.0.0.1:${enginePort}`], {
    env: { ...process.env, SEMGREP_APP_URL: env.emulator.url, SEMGREP_APP_TOKEN: env.emulator.token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: plugin.stdout! }).once("line", resolve);
    plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
  });
  client = new ResourceProviderClient(`127.0.0.1:${firstLine}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  client?.close();
  plugin?.kill();
  engine.forceShutdown();
});

it("prints its port as its first line and serves the protocol there, with the package's version", async () => {
  expect(firstLine).toMatch(/^\d+$/);
  expect((await rpcOf(client).getPluginInfo(new Empty())).getVersion()).toBe(packageJson.version);
});

it("takes the engine's address among its arguments and sends its messages there", async () => {
  const rpc = rpcOf(client);
  await rpc.configure(new proto.ConfigureRequest().setAcceptsecrets(true));
  // A stack's first up finding a value already as declared (the inputs as Check returns them): a note for the person running `pulumi`.
  const created = await rpc.create(
    new proto.CreateRequest()
      .setUrn(urnOf("ProjectSettings", "web"))
      .setType(typeOf("ProjectSettings"))
      .setProperties(struct({ deploymentSlug: "acme", projectName: "acme/web-app", primaryBranch: "refs/heads/main" })),
  );
  expect(created.getId()).toBe("acme/acme/web-app");
  expect(plainOf(created.getProperties())).toMatchObject({ primaryBranch: "refs/heads/main" });
  await expect
    .poll(() => logged.map((l) => l.message))
    .toContainEqual(expect.stringMatching(/^ProjectSettings "web" .*already as declared/));
});

/**
 * `npm run plugin:pack`: the release tarballs of `pulumi-resource-semgrep` have the names and
 * files the Pulumi CLI expects, the launcher of one extracted far from any node_modules starts
 * the plugin (its first line is the port it serves on, where it answers GetPluginInfo and
 * GetSchema) or says why it cannot, `pulumi plugin
 * install --file` takes a tarball, and the npm package's bin starts the same plugin. Runs against
 * dist/ (`npm run build` first); packs once for the file.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { GetSchemaRequest, GetSchemaResponse } from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { installPlugin, packedPlugin, packedTarballs, PLUGIN_VERSION } from "../support/native-plugin";
import { pulumiWorkspace } from "../support/pulumi";

const TARGETS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"];
/** schema.json is committed, and plugin:pack refuses to build without it. */
const WITH_SCHEMA = true;
const posix = process.platform !== "win32";

/** `tar -tvzf`: each entry's name and permission string (an independent reader of our writer's output). */
function entries(tarball: string): Record<string, string> {
  const listing = execFileSync("tar", ["-tvzf", tarball], { encoding: "utf8" }).trim().split("\n");
  return Object.fromEntries(listing.map((line) => [line.split(/\s+/).at(-1)!, line.split(/\s+/)[0]!]));
}

/** A new directory in the system's temporary directory, after checking no node_modules is above it. */
function isolatedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (let up = dir; up !== dirname(up); up = dirname(up)) {
    if (existsSync(join(up, "node_modules")))
      throw new Error(`${up} has a node_modules: the test would not prove the bundle self-contained`);
  }
  return dir;
}

interface Started {
  /** The first line of stdout, when the process printed one before exiting. */
  line?: string;
  /** The exit status, when it exited before printing a line. */
  status?: number | null;
  stderr: () => string;
  stop: () => void;
}

/** Starts `command`; resolves at its first line of stdout (it keeps running) or at its exit. */
function start(command: string, env: NodeJS.ProcessEnv): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const common = { stderr: () => stderr, stop: () => child.kill() };
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("\n")) resolve({ line: stdout.split("\n")[0], ...common });
    });
    child.once("error", reject);
    // "close", not "exit": a process that exits at once may still have its stderr to deliver.
    child.once("close", (status) => resolve({ status, ...common }));
  });
}

/** The plugin's answer to GetPluginInfo (its version) and GetSchema, on the port it printed. */
async function askPlugin(port: string): Promise<{ version: string; schema?: string }> {
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <T>(method: (done: (error: grpc.ServiceError | null, value: T) => void) => void) =>
    new Promise<T>((resolve, reject) => method((error, value) => (error ? reject(error) : resolve(value))));
  try {
    const info = await call<PluginInfo>((done) => client.getPluginInfo(new Empty(), done));
    const schema = WITH_SCHEMA
      ? (await call<GetSchemaResponse>((done) => client.getSchema(new GetSchemaRequest(), done))).getSchema()
      : undefined;
    return { version: info.getVersion(), schema };
  } finally {
    client.close();
  }
}

/** Node 24 (the one running the tests) first on the PATH, as a user's `node` is. */
const withNode = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter) });

describe("npm run plugin:pack", () => {
  let tarballs: string[];
  beforeAll(async () => {
    tarballs = await packedTarballs();
  }, 60_000);

  it("writes one tarball per OS and architecture, named as `pulumi plugin install` expects", () => {
    expect(tarballs.map((t) => basename(t)).sort()).toEqual(
      TARGETS.map((t) => `pulumi-resource-semgrep-v${PLUGIN_VERSION}-${t}.tar.gz`).sort(),
    );
  });

  it("puts the bundle, its start file, the launcher for the OS and schema.json (when generated) in each", () => {
    for (const tarball of tarballs) {
      const windows = tarball.includes("-windows-");
      const launcher = windows ? "pulumi-resource-semgrep.cmd" : "pulumi-resource-semgrep";
      const listed = entries(tarball);
      expect(Object.keys(listed).sort(), basename(tarball)).toEqual(
        [launcher, "start.js", "pulumi-resource-semgrep.js", "package.json", "LICENSE", ...(WITH_SCHEMA ? ["schema.json"] : [])].sort(),
      );
      expect(listed[launcher], `${basename(tarball)}: ${launcher} is executable`).toMatch(/^-rwxr-xr-x/);
    }
  });

  describe.runIf(posix)("the linux launcher, extracted where no node_modules is above it", () => {
    let launcher: string;
    beforeAll(async () => {
      const dir = isolatedDir("pulumi-semgrep-plugin-");
      execFileSync("tar", ["-xzf", await packedPlugin(), "-C", dir]);
      launcher = join(dir, "pulumi-resource-semgrep");
    });

    it("starts the plugin, which prints the port it serves on as its first line and answers there", async () => {
      const started = await start(launcher, withNode());
      try {
        expect(started.line).toMatch(/^\d+$/);
        const answers = await askPlugin(started.line!);
        expect(answers.version).toBe(PLUGIN_VERSION);
        if (WITH_SCHEMA) expect(JSON.parse(answers.schema!)).toMatchObject({ name: "semgrep" });
        expect(started.stderr()).toBe("");
      } finally {
        started.stop();
      }
    });

    it("says that Node.js 22 is needed when no node is on the PATH", async () => {
      const started = await start(launcher, { ...process.env, PATH: isolatedDir("pulumi-semgrep-empty-path-") });
      expect(started.line).toBeUndefined();
      expect(started.status).toBe(1);
      expect(started.stderr()).toBe(
        "pulumi-resource-semgrep: needs Node.js 22 or newer on PATH, and no node was found (https://nodejs.org)\n",
      );
    });

    it("says which node is too old when the one on the PATH is older than 22", async () => {
      // A `node` that reports 20.11.0: the real one with its version replaced before start.js runs.
      const fake = isolatedDir("pulumi-semgrep-old-node-");
      writeFileSync(
        join(fake, "old-version.cjs"),
        'Object.defineProperty(process, "versions", { value: { ...process.versions, node: "20.11.0" } });\n' +
          'Object.defineProperty(process, "version", { value: "v20.11.0" });\n',
      );
      writeFileSync(join(fake, "node"), `#!/bin/sh\nexec "${process.execPath}" --require "${join(fake, "old-version.cjs")}" "$@"\n`);
      chmodSync(join(fake, "node"), 0o755);
      const started = await start(launcher, { ...process.env, PATH: [fake, process.env.PATH ?? ""].join(delimiter) });
      expect(started.line).toBeUndefined();
      expect(started.status).toBe(1);
      expect(started.stderr()).toBe(
        `pulumi-resource-semgrep: needs Node.js 22 or newer on PATH; ${process.execPath} is v20.11.0 (https://nodejs.org)\n`,
      );
    });
  });

  it("is installed by `pulumi plugin install resource semgrep <version> --file <tarball>`", async () => {
    const workspace = await pulumiWorkspace({ "Pulumi.yaml": "name: plugin-install\nruntime: yaml\n" });
    await installPlugin(workspace);
    const listed = JSON.parse((await workspace.run(["plugin", "ls", "--json"])).stdout) as {
      name: string;
      kind: string;
      version: string;
    }[];
    expect(listed.map(({ name, kind, version }) => ({ name, kind, version }))).toContainEqual({
      name: "semgrep",
      kind: "resource",
      version: PLUGIN_VERSION,
    });
    const installed = join(workspace.env.PULUMI_HOME!, "plugins", `resource-semgrep-v${PLUGIN_VERSION}`);
    const launcher = join(installed, posix ? "pulumi-resource-semgrep" : "pulumi-resource-semgrep.cmd");
    expect(statSync(launcher).mode & 0o111, "the installed launcher is executable").not.toBe(0);
  });
});

describe.runIf(posix)("the npm package's bin pulumi-resource-semgrep", () => {
  it("is an executable that starts the plugin, as `npm install pulumi-semgrep` puts it", async () => {
    const bin = join(inject("installedPackageDir"), "node_modules", ".bin", "pulumi-resource-semgrep");
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    const started = await start(bin, withNode());
    try {
      expect(started.line).toMatch(/^\d+$/);
      expect((await askPlugin(started.line!)).version).toBe(PLUGIN_VERSION);
      expect(started.stderr()).toBe("");
    } finally {
      started.stop();
    }
  });
});

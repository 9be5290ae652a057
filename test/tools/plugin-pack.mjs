#!/usr/bin/env node
// `npm run plugin:pack`: the release tarballs of the native provider plugin,
// `pulumi-resource-semgrep-v<version>-<os>-<arch>.tar.gz` for linux, darwin and windows on amd64
// and arm64, written into dist/plugins/ (or `--out DIR`). Each holds one self-contained bundle of
// dist/native/main.js (run `npm run build` first; the npm script does), `schema.json`, a
// package.json (the plugin reads its version there), LICENSE and a launcher named as the Pulumi
// CLI looks for a plugin executable: `pulumi-resource-semgrep` (a POSIX shell script) on linux and
// darwin, `pulumi-resource-semgrep.cmd` on windows (the CLI tries `.exe`, then `.cmd`:
// getCandidateExtensions in pulumi's sdk/go/common/workspace/plugins.go). Node.js >= 22 on the
// user's PATH is the one requirement; the launcher says so when it is missing or older. The
// bundle is the same for every target (pure JavaScript): the tarballs differ in the launcher.
// Prints the tarballs' paths, one a line; sizes go to stderr.
import * as esbuild from "esbuild";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { readCommandLine } from "./command-line.mjs";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const PLUGIN = "pulumi-resource-semgrep";
export const TARGETS = ["linux", "darwin", "windows"].flatMap((os) => ["amd64", "arm64"].map((arch) => ({ os, arch })));
/** The bundle's name in a tarball; `start.js` loads it once Node's version is checked. */
export const BUNDLE = `${PLUGIN}.js`;
const MIN_NODE = 22;

const log = (msg) => process.stderr.write(`[plugin:pack] ${msg}\n`);

/** `pulumi-resource-semgrep-v0.1.0-linux-amd64.tar.gz` */
export const tarballName = (version, os, arch) => `${PLUGIN}-v${version}-${os}-${arch}.tar.gz`;

// What the bundle leaves out of @pulumi/pulumi: modules its main module loads at start-up that
// only a Pulumi *program* uses: closure serialization (which loads a whole TypeScript compiler,
// 9.7 MB, through typescript-shim), the code-path walk over node_modules (@npmcli/arborist and
// the npm registry client behind it) and the Automation API. A call into one of them throws,
// naming it.
const LEFT_OUT = /[\\/]@pulumi[\\/]pulumi[\\/](typescript-shim|runtime[\\/]closure[\\/]codePaths|automation[\\/]index)\.js$/;
const LEFT_OUT_MODULE = (path) => `const name = ${JSON.stringify(path.replace(/^.*node_modules[\\/]/, ""))};
module.exports = new Proxy({}, {
  get(_, key) {
    if (typeof key !== "string" || key === "__esModule" || key === "then") return undefined;
    return () => { throw new Error(name + " (" + key + ") is left out of the pulumi-resource-semgrep bundle"); };
  },
});`;

/** Where the bundle says @pulumi/pulumi is: `require.resolve` of it must not throw in a bundle. */
const BUNDLED_PULUMI = "/<bundled>/@pulumi/pulumi";

/**
 * The repository's code loads @pulumi/pulumi's protocol stubs and gRPC library through
 * `createRequire(require.resolve("@pulumi/pulumi"))`, so that the SDK's own copy of
 * @grpc/grpc-js is used whatever the npm layout. A bundler cannot follow that; in the bundle,
 * `require.resolve("@pulumi/pulumi…")` answers a marker path and `createRequire` of a path under
 * it answers, from a table of static `require`s, the stubs (every `proto/*.js`), @grpc/grpc-js
 * and google-protobuf's well-known types: one copy of each, shared with the SDK's code.
 */
function bundledPulumiRequire() {
  const protoDir = join(REPO, "node_modules/@pulumi/pulumi/proto");
  const stubs = readdirSync(protoDir).filter((f) => f.endsWith(".js"));
  const entries = [
    ...stubs.map((f) => [`./proto/${f.replace(/\.js$/, "")}`, `@pulumi/pulumi/proto/${f}`]),
    ["@grpc/grpc-js", "@grpc/grpc-js"],
    ["google-protobuf", "google-protobuf"],
    ...["struct_pb", "empty_pb", "any_pb"].map((f) => [`google-protobuf/google/protobuf/${f}`, `google-protobuf/google/protobuf/${f}.js`]),
  ];
  return `const real = require("node:module");
const BUNDLED = ${JSON.stringify(BUNDLED_PULUMI)};
const table = {
${entries.map(([key, spec]) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(spec)}),`).join("\n")}
};
const key = (id) => id.replace(/^@pulumi\\/pulumi\\//, "./").replace(/\\.js$/, "");
function createRequire(from) {
  if (!String(from).startsWith(BUNDLED)) return real.createRequire(from);
  const load = (id) => {
    const found = table[key(id)];
    if (!found) throw new Error(id + " is not in the pulumi-resource-semgrep bundle (add it in test/tools/plugin-pack.mjs)");
    return found();
  };
  load.resolve = (id) => BUNDLED + "/" + id;
  return load;
}
module.exports = { ...real, createRequire };
`;
}

/** `require.resolve`, everywhere in the bundle: @pulumi/pulumi's answer is the marker path. */
const RESOLVE_SHIM = `import { createRequire } from "node:module";
export function __semgrepResolve(id, options) {
  if (id === "@pulumi/pulumi" || id.startsWith("@pulumi/pulumi/")) return ${JSON.stringify(BUNDLED_PULUMI)} + id.slice("@pulumi/pulumi".length);
  return createRequire(__filename).resolve(id, options);
}
`;

/** The esbuild plugin applying the two rules above. */
const pulumiInBundle = {
  name: "pulumi-in-bundle",
  setup(build) {
    build.onLoad({ filter: LEFT_OUT }, (args) => ({ contents: LEFT_OUT_MODULE(args.path), loader: "js" }));
    // `node:module` as the repository's own code imports it (not as node_modules' code does).
    build.onResolve({ filter: /^(node:)?module$/ }, (args) =>
      args.namespace === "file" && !/[\\/]node_modules[\\/]/.test(args.importer) && args.importer !== ""
        ? { path: "node:module", namespace: "bundled-module" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "bundled-module" }, () => ({
      contents: bundledPulumiRequire(),
      loader: "js",
      resolveDir: REPO,
    }));
    build.onResolve({ filter: /^semgrep-resolve-shim$/ }, () => ({ path: "semgrep-resolve-shim", namespace: "resolve-shim" }));
    build.onLoad({ filter: /.*/, namespace: "resolve-shim" }, () => ({ contents: RESOLVE_SHIM, loader: "js", resolveDir: REPO }));
  },
};

/** One bundle of the plugin's entry, with everything it loads but Node's own modules. */
export async function bundle(outfile, entry = join(REPO, "dist/native/main.js")) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (\`npm run plugin:pack\` does)`);
  const shim = join(dirname(outfile), ".resolve-shim.js");
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(shim, 'export { __semgrepResolve } from "semgrep-resolve-shim";\n');
  try {
    await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      target: `node${MIN_NODE}`,
      format: "cjs",
      // Whitespace and syntax only: names stay, so a stack trace from a user still reads.
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: "none",
      define: { "require.resolve": "__semgrepResolve" },
      inject: [shim],
      plugins: [pulumiInBundle],
      absWorkingDir: REPO,
      logLevel: "warning",
    });
  } finally {
    rmSync(shim, { force: true });
  }
}

/** Checks Node's version before loading the bundle (whose syntax an old Node may not parse). */
const START_JS = `"use strict";
// Started by the launcher: checks that this Node.js can run the plugin, then loads it.
var major = Number(process.versions.node.split(".")[0]);
if (!(major >= ${MIN_NODE})) {
  process.stderr.write("${PLUGIN}: needs Node.js ${MIN_NODE} or newer on PATH; " + process.execPath + " is " + process.version + " (https://nodejs.org)\\n");
  process.exit(1);
}
require("./${BUNDLE}");
`;

/** The POSIX launcher (linux, darwin): `node` from PATH, or a clear message. */
const SH_LAUNCHER = `#!/bin/sh
# ${PLUGIN}: the Semgrep provider plugin for Pulumi, run by the Node.js (>= ${MIN_NODE}) on PATH.
if ! command -v node >/dev/null 2>&1; then
  echo "${PLUGIN}: needs Node.js ${MIN_NODE} or newer on PATH, and no node was found (https://nodejs.org)" >&2
  exit 1
fi
exec node "$(dirname "$0")/start.js" "$@"
`;

/** The Windows launcher: Pulumi runs \`${PLUGIN}.cmd\` when there is no \`.exe\`. */
const CMD_LAUNCHER = [
  "@echo off",
  `rem ${PLUGIN}: the Semgrep provider plugin for Pulumi, run by the Node.js (>= ${MIN_NODE}) on PATH.`,
  "where node >nul 2>nul",
  "if errorlevel 1 (",
  `  echo ${PLUGIN}: needs Node.js ${MIN_NODE} or newer on PATH, and no node was found - https://nodejs.org 1>&2`,
  "  exit /b 1",
  ")",
  'node "%~dp0start.js" %*',
  "exit /b %errorlevel%",
  "",
].join("\r\n");

/** A file of a tarball. */
const file = (name, data, mode = 0o644) => ({ name, data: typeof data === "string" ? Buffer.from(data) : data, mode });

/** The package.json beside the bundle: the plugin reports its version from it (GetPluginInfo). */
function pluginPackageJson() {
  const { name, version, description, license, homepage, repository } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  return `${JSON.stringify({ name, version, description, license, homepage, repository, private: true }, null, 2)}\n`;
}

/** The files of one target's tarball. */
export function tarballFiles(os, bundleData, schema) {
  const launcher = os === "windows" ? file(`${PLUGIN}.cmd`, CMD_LAUNCHER, 0o755) : file(PLUGIN, SH_LAUNCHER, 0o755);
  return [
    launcher,
    file("start.js", START_JS),
    file(BUNDLE, bundleData),
    file("package.json", pluginPackageJson()),
    ...(schema ? [file("schema.json", schema)] : []),
    file("LICENSE", readFileSync(join(REPO, "LICENSE"))),
  ];
}

/**
 * A POSIX ustar archive of regular files (names under 100 bytes), as Go's archive/tar (the
 * Pulumi CLI's plugin install) and every tar read it: no tar program needed, same on every OS.
 */
export function tar(files, mtime) {
  const blocks = [];
  for (const { name, data, mode } of files) {
    if (Buffer.byteLength(name) >= 100) throw new Error(`tar: name too long: ${name}`);
    const header = Buffer.alloc(512);
    const octal = (n, offset, length) => header.write(n.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
    header.write(name, 0, 100, "utf8");
    octal(mode, 100, 8);
    octal(0, 108, 8); // uid
    octal(0, 116, 8); // gid
    octal(data.length, 124, 12);
    octal(mtime, 136, 12);
    header.write("        ", 148, 8, "ascii"); // the checksum counts itself as spaces
    header.write("0", 156, 1, "ascii"); // a regular file
    header.write("ustar\u000000", 257, 8, "ascii");
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Pulumi's names for this machine's OS and architecture (`windows`, `amd64`), as in a tarball's name. */
export function pulumiPlatform() {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return { os, arch };
}

/** Of the tarballs `pack` wrote, this machine's; throws naming it when it is not among them. */
export function tarballForHere(tarballs, version) {
  const { os, arch } = pulumiPlatform();
  const name = tarballName(version, os, arch);
  const found = tarballs.find((p) => p.endsWith(name));
  if (!found) throw new Error(`plugin:pack wrote no ${name}`);
  return found;
}

/** Bundles once, then writes one tarball per target into `outDir`; returns their paths. */
export async function pack(outDir = join(REPO, "dist/plugins")) {
  const started = Date.now();
  const { version } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  rmSync(outDir, { recursive: true, force: true });
  const bundleFile = join(outDir, "bundle", BUNDLE);
  await bundle(bundleFile);
  const bundleData = readFileSync(bundleFile);
  const schemaFile = join(REPO, "schema.json");
  // A plugin without its schema fails every YAML program (GetSchema): no tarball without it.
  if (!existsSync(schemaFile)) throw new Error(`${schemaFile} is missing: run \`npm run schema\` first`);
  const schema = readFileSync(schemaFile);
  const mtime = Math.floor(Number(process.env.SOURCE_DATE_EPOCH ?? Date.now() / 1000));
  const written = [];
  for (const { os, arch } of TARGETS) {
    const path = join(outDir, tarballName(version, os, arch));
    writeFileSync(path, gzipSync(tar(tarballFiles(os, bundleData, schema), mtime), { level: 9 }));
    written.push(path);
  }
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
  log(`bundle ${kb(bundleData.length)}; each tarball ${kb(statSync(written[0]).size)}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = readCommandLine({
    command: "npm run plugin:pack",
    about: `Writes the release tarballs of the native provider plugin, ${tarballName("<version>", "<os>", "<arch>")},
for linux, darwin and windows on amd64 and arm64: each holds one self-contained bundle of
dist/native/main.js (the npm script builds first), schema.json, a package.json, LICENSE and a
launcher named as the Pulumi CLI looks for a plugin executable. Node.js >= ${MIN_NODE} on the user's PATH is
the one requirement. Prints the tarballs' paths, one a line; sizes go to stderr.`,
    flags: {
      out: {
        type: "string",
        value: "DIR",
        help: "where to write the tarballs (emptied first)",
        defaultText: "the repository's dist/plugins",
      },
    },
  });
  try {
    const written = await pack(values.out === undefined ? undefined : resolve(values.out));
    process.stdout.write(written.map((p) => `${p}\n`).join(""));
  } catch (error) {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

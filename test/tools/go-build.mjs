// Building Go programs from the module proxy, for the tools the tests need and this machine cannot
// download: the Pulumi CLI and its language hosts (pulumi-cli.mjs), the SDK generator (sdk.mjs).
// Each program is built in a throw-away wrapper module that requires the one it comes from: the
// Pulumi modules carry `replace` directives, so `go install pkg@version` refuses them.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const log = (tag, msg) => process.stderr.write(`[${tag}] ${msg}\n`);

/** Runs `go`; throws when Go is not installed. */
export function go(args, options = {}) {
  const result = spawnSync("go", args, { encoding: "utf8", maxBuffer: 64 << 20, ...options });
  if (result.error) throw new Error(`go ${args.join(" ")}: ${result.error.message} (is Go installed and on PATH?)`);
  return result;
}

/** `go mod download -json` of one module version; undefined when the proxy does not serve it. */
export function download(module, version) {
  const result = go(["mod", "download", "-json", `${module}@${version}`], { env: { ...process.env, GOFLAGS: "-mod=mod" } });
  if (result.status !== 0) return undefined;
  const info = JSON.parse(result.stdout);
  return info.Error ? undefined : info;
}

/** `replace` lines of a module's go.mod that point at other modules (local paths are dropped). */
export function remoteReplaces(goModPath) {
  const text = readFileSync(goModPath, "utf8");
  const lines = [];
  for (const match of text.matchAll(/^replace\s+(?:\(\s*([\s\S]*?)\)|(.+))$/gm)) {
    for (const line of (match[1] ?? match[2]).split("\n").map((l) => l.trim())) {
      const [, target] = line.split("=>").map((s) => s?.trim());
      if (target && !target.startsWith(".") && !target.startsWith("/")) lines.push(`replace ${line}`);
    }
  }
  return lines;
}

/**
 * Builds one main package into `output` from a wrapper module in `workDir` that requires
 * `module@version` with that module's remote replaces. `sources` (file name → text) are main
 * packages of our own, built in the wrapper itself (then `pkg` is "."); `tags` are build tags.
 */
export function buildTool({ tag, workDir, module, version, pkg, output, ldflags = "-s -w", sources = {}, tags = [] }) {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const info = download(module, version);
  if (!info) throw new Error(`the module proxy does not serve ${module}@${version}`);
  writeFileSync(join(workDir, "go.mod"), ["module gotoolbuild", "", "go 1.24", "", ...remoteReplaces(info.GoMod), ""].join("\n"));
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(workDir, name), text);
  const env = { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
  const getTarget = pkg === "." ? `${module}@${version}` : `${pkg}@${version}`;
  const steps = [
    ["get", getTarget],
    ["build", "-trimpath", ...(tags.length ? ["-tags", tags.join(",")] : []), "-o", output, "-ldflags", ldflags, pkg],
  ];
  for (const args of steps) {
    log(tag, `go ${args.slice(0, 2).join(" ")} … (in ${workDir})`);
    const result = go(args, { cwd: workDir, env, stdio: ["ignore", "inherit", "pipe"] });
    if (result.status !== 0) throw new Error(`go ${args.join(" ")} failed:\n${result.stderr}`);
  }
}

/** The cache root for built tools: $PULUMI_SEMGREP_CACHE, else $XDG_CACHE_HOME/pulumi-semgrep, else ~/.cache/pulumi-semgrep. */
export function cacheRoot() {
  return process.env.PULUMI_SEMGREP_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-semgrep");
}

/**
 * A Go program of examples/ run through the real CLI, as a user runs it: the Go language host
 * `pulumi-language-go` beside `pulumi` (`npm run pulumi:cli` builds it) compiles it with the `go`
 * on the PATH, against the generated Go SDK of this repository (sdk/go/semgrep, by a `replace`
 * line added to the copy's go.mod, since no release of the module is published yet) and the
 * native plugin installed from its release tarball into the workspace's PULUMI_HOME.
 *
 * Modules come from the Go module proxy into the default module cache, and compiled packages go
 * to the default build cache (GOCACHE), both shared with every other Go build of this machine: a
 * cold compile of a Pulumi Go program (the SDK, gRPC, protobuf…) takes minutes on 2 cores, a warm
 * one seconds.
 */
import { appendFileSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { go } from "../tools/go-build.mjs";
import { GO_MODULE } from "../tools/sdk.mjs";
import { installPlugin } from "./native-plugin";
import { type PulumiWorkspace, pulumiWorkspace } from "./pulumi";
import { type ProgramWorkspace, stateOf } from "./program";
import { TYPE_PREFIX } from "./yaml-program";

const REPO = join(__dirname, "../..");

/** The go.mod line that points a program at this repository's generated Go SDK (`npm run sdk` writes it). */
const SDK_REPLACE = `replace ${GO_MODULE} => ${join(REPO, "sdk/go/semgrep")}`;

export type GoWorkspace = PulumiWorkspace & Pick<ProgramWorkspace, "exported" | "resources">;

/** `go version`, or an error saying that these tests need Go: a missing toolchain fails them rather than skipping them. */
export function goVersion(env: NodeJS.ProcessEnv = process.env): string {
  let problem: string;
  try {
    const result = go(["version"], { env }) as { status: number | null; stdout: string; stderr: string };
    if (result.status === 0) return result.stdout.trim();
    problem = result.stderr.trim();
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  throw new Error(
    `Go programs need Go: \`go version\` failed (${problem}). ` +
      "Install Go 1.25.11 or later (the go directive of examples/go and sdk/go/semgrep) and put `go` on the PATH (CI installs it); these tests fail rather than skip without it.",
  );
}

/** Runs `go ARGS` in `dir`; throws with its output when it fails. */
function goIn(dir: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = go(args, { cwd: dir, env }) as { status: number | null; stdout: string; stderr: string };
  if (result.status !== 0) throw new Error(`go ${args.join(" ")} in ${dir} failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * A stack `test` running `examples/<example>` (every file of it, copied), its go.mod pointed at
 * this repository's Go SDK and tidied (which writes go.sum), the plugin installed. GOFLAGS=-mod=mod
 * lets the language host's `go build` and `go list` update go.mod and go.sum as they need.
 * `env` goes to every CLI run.
 */
export async function goExampleWorkspace(example: string, env: Record<string, string> = {}): Promise<GoWorkspace> {
  goVersion();
  const source = join(REPO, "examples", example);
  const files = Object.fromEntries(readdirSync(source).map((name) => [name, readFileSync(join(source, name), "utf8")]));
  const workspace = await pulumiWorkspace(files, { GOFLAGS: "-mod=mod", ...env });
  // A Go program has no use for node_modules, and `go mod tidy` warns of the link.
  rmSync(join(workspace.dir, "node_modules"));
  appendFileSync(join(workspace.dir, "go.mod"), `\n${SDK_REPLACE}\n`);
  goIn(workspace.dir, ["mod", "tidy"], workspace.env);
  await installPlugin(workspace);
  return { ...workspace, ...stateOf(workspace, TYPE_PREFIX) };
}

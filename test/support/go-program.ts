/**
 * Go programs against this repository's generated Go SDK (sdk/go/semgrep, by a `replace` line in
 * go.mod, since no release of the module is published yet). The Go example itself runs through
 * the example runner (test/tools/example.mjs, which wires its go.mod the same way); this compiles
 * a program that has no stack to run in.
 *
 * Modules come from the Go module proxy into the default module cache, and compiled packages go
 * to the default build cache (GOCACHE), both shared with every other Go build of this machine: a
 * cold compile of a Pulumi Go program (the SDK, gRPC, protobuf…) takes minutes on 2 cores, a warm
 * one seconds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GO_SDK_REPLACE, goVersion } from "../tools/example-sdks.mjs";
import { go } from "../tools/go-build.mjs";

export { goVersion } from "../tools/example-sdks.mjs";

const REPO = join(__dirname, "../..");

/** Runs `go ARGS` in `dir`; throws with its output when it fails. */
function goIn(dir: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = go(args, { cwd: dir, env }) as { status: number | null; stdout: string; stderr: string };
  if (result.status !== 0) throw new Error(`go ${args.join(" ")} in ${dir} failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * What `go build` says of a main.go (empty when it compiles), in a module like examples/go's,
 * pointed at this repository's Go SDK: for the README's Go program, which has no stack to run in.
 */
export function goBuilds(mainGo: string): string {
  goVersion();
  const dir = mkdtempSync(join(tmpdir(), "pulumi-semgrep-go-build-"));
  try {
    const goMod = readFileSync(join(REPO, "examples", "go", "go.mod"), "utf8");
    writeFileSync(join(dir, "go.mod"), `${goMod}\n${GO_SDK_REPLACE}\n`);
    writeFileSync(join(dir, "main.go"), mainGo);
    const env = { ...process.env, GOFLAGS: "-mod=mod" };
    goIn(dir, ["mod", "tidy"], env);
    const result = go(["build", "-o", join(dir, "program"), "."], { cwd: dir, env }) as { status: number | null; stderr: string };
    return result.status === 0 ? "" : result.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

#!/usr/bin/env node
/**
 * `pulumi-resource-semgrep`: the native provider plugin the Pulumi engine starts for programs in
 * any language (YAML, Python, Go, C#, and TypeScript through a generated SDK). It serves the
 * engine's ResourceProvider protocol on a loopback port, which it prints as its first line.
 *
 * `--help` prints the usage and exits 0 without serving. Other flags are not refused, unlike the
 * package's other commands: they are the engine's (`--logtostderr`, `-v=N`, `--tracing URL`, and
 * whatever a later CLI adds), and a plugin that refused one would fail every program.
 */
import { asksForHelp } from "../cli/arguments";
import { startPlugin } from "./server";

const USAGE = `Usage: pulumi-resource-semgrep [ENGINE_ADDRESS] [engine flags]

The Pulumi provider plugin of pulumi-semgrep (resources semgrep:index:<Kind>): the Pulumi CLI
starts it for a program that uses the package semgrep, in YAML, Python, Go, C# or TypeScript
through the generated SDK; people do not run it. It serves the engine's ResourceProvider protocol
on a free loopback port, which it prints as its first line, until the engine stops it.

  ENGINE_ADDRESS     the engine's gRPC address (HOST:PORT), which the engine passes: the plugin
                     stops writing once that address is gone (default none)
  -h, --help         this text

Every other argument is the engine's (--logtostderr, -v=N, --tracing URL, ...): taken and ignored.
The token and the service's address come from the provider's configuration (semgrep:token,
semgrep:url), else SEMGREP_APP_TOKEN and SEMGREP_APP_URL. Install it with the npm package
(npm install -g pulumi-semgrep puts it on the PATH) or a release tarball
(pulumi plugin install resource semgrep <version> --file <tarball>).`;

const args = process.argv.slice(2);
if (asksForHelp(args)) {
  process.stdout.write(`${USAGE}\n`);
} else {
  startPlugin(args).catch((error: unknown) => {
    process.stderr.write(`pulumi-resource-semgrep: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

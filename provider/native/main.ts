#!/usr/bin/env node
/**
 * `pulumi-resource-semgrep`: the native provider plugin the Pulumi engine starts for programs in
 * any language (YAML, Python, Go, C#, and TypeScript through a generated SDK). It serves the
 * engine's ResourceProvider protocol on a loopback port, which it prints as its first line.
 */
import { startPlugin } from "./server";

startPlugin(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-semgrep: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

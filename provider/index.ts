/**
 * pulumi-semgrep: manage Semgrep AppSec Platform configuration as code with Pulumi.
 *
 * This entry point holds the public surface; the typed API client is also reachable as
 * `pulumi-semgrep/client` and the local API emulator as `pulumi-semgrep/emulator`.
 */
export * from "./client";

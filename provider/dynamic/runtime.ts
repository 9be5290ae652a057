/**
 * `pulumi-semgrep/dynamic`: what every resource's `__provider` shim calls in the provider process
 * (dynamic/shims). Loaded by package name, so old state runs the installed package's code. The
 * dispatch itself is the core's (core/runtime/dispatch.ts), which the native front end calls too.
 * Loading it makes the host's gRPC server report the engine's `Cancel` to the runtime (host-cancel.ts).
 */
import { watchHostCancel } from "./host-cancel";

watchHostCancel();

export { handlers, run } from "../core/runtime/dispatch";

/**
 * `pulumi-semgrep/dynamic`: what every resource's `__provider` shim calls in the provider process
 * (dynamic/shims). Loaded by package name, so old state runs the installed package's code. The
 * dispatch itself is the core's (core/runtime/dispatch.ts), which the native front end calls too;
 * a diff's result carries its field-by-field diff to the engine's host (./detailed-diff.ts).
 * Loading it makes the host's gRPC server report the engine's `Cancel` to the runtime (host-cancel.ts).
 */
import type { ResourceKind } from "../core/kinds";
import type { DiffResult } from "../core/runtime/handler";
import { run as dispatch } from "../core/runtime/dispatch";
import { withDetailedDiff } from "./detailed-diff";
import { watchHostCancel } from "./host-cancel";

watchHostCancel();

export { handlers } from "../core/runtime/dispatch";

type Props = Record<string, unknown>;

export async function run(kind: ResourceKind, method: Parameters<typeof dispatch>[1], args: unknown[]): Promise<unknown> {
  const result = await dispatch(kind, method, args);
  if (method !== "diff") return result;
  return withDetailedDiff(kind, args[1] as Props, args[2] as Props, result as DiffResult);
}

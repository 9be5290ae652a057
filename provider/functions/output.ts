/** The `getXOutput` twin of a `getX` function, as Pulumi's own providers shape them. */
import * as pulumi from "@pulumi/pulumi";
import type { SemgrepInvokeOptions } from "./client";

/** `T` with every top-level field a `pulumi.Input`. */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Runs `fn` once every input is known; during a preview with unknown inputs the result is unknown. */
export function outputForm<A, R>(fn: (args: A, opts?: SemgrepInvokeOptions) => Promise<R>) {
  return (args: Inputs<A>, opts?: SemgrepInvokeOptions): pulumi.Output<R> =>
    (pulumi.output(args) as unknown as pulumi.Output<A>).apply((resolved) => fn(resolved, opts));
}

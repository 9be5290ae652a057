/** The `getXOutput` twin of a `getX` function, as Pulumi's own providers shape them. */
import * as pulumi from "@pulumi/pulumi";
import type { SemgrepInvokeOptions, SemgrepInvokeOutputOptions } from "./client";

/**
 * The arguments of a `getX` as its `getXOutput` takes them: every field, at every depth, may be a
 * `pulumi.Input` (a value, a Promise or an Output), e.g. `filter.severities` from another
 * resource's output.
 */
export type OutputArgs<T> = { [K in keyof T]: pulumi.Input<InputValue<T[K]>> };
type InputValue<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? pulumi.Input<InputValue<U>>[]
    : T extends object
      ? OutputArgs<T>
      : T;

/**
 * Runs `fn` once every input is known and every resource in `dependsOn` exists (a custom
 * resource's id is known, a component's URN); during a preview with anything unknown the result
 * is unknown, and nothing is read.
 */
export function outputForm<A, R>(fn: (args: A, opts?: SemgrepInvokeOptions) => Promise<R>) {
  return (args: OutputArgs<A>, opts: SemgrepInvokeOutputOptions = {}): pulumi.Output<R> => {
    const { dependsOn, token, ...credentials } = opts;
    // pulumi.output resolves Inputs at every depth: what it yields is the plain `A`.
    const resolved = pulumi.output(args) as unknown as pulumi.Output<A>;
    // A token not known yet makes the result unknown, and nothing is read. The result holds
    // nothing of the token: a secret token does not make it a secret.
    const plainToken = pulumi.unsecret(pulumi.output(token));
    return pulumi
      .all([resolved, dependenciesReady(dependsOn), plainToken])
      .apply(([plain, , secret]) => fn(plain as A, { ...credentials, ...(secret === undefined ? {} : { token: secret }) }));
  };
}

/** An Output known once every resource of `dependsOn` exists. */
function dependenciesReady(dependsOn: SemgrepInvokeOutputOptions["dependsOn"]): pulumi.Output<unknown[]> {
  return pulumi.output(dependsOn ?? []).apply((deps) => {
    const resources = (Array.isArray(deps) ? deps : [deps]) as pulumi.Resource[];
    return pulumi.all(resources.map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn)));
  });
}

/**
 * What every resource class passes beside the program's arguments, and the options it refuses.
 * How the provider uses these inputs: provider/dynamic/resource-meta.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { DERIVED_OUTPUTS, type ResourceKind, valueInputs } from "../kinds";

/**
 * The resource's own name (the provider is never told it), the names of its value inputs given
 * as secrets, and, under the name of each output derived from a secret input, a secret `null`,
 * so that the engine stores that output encrypted. (Placeholders of inputs that are not secret
 * resolve to nothing and are left out: state stays small.)
 */
export function metaInputs(kind: ResourceKind, name: string, args: object): pulumi.Inputs {
  const arg = (input: string) => pulumi.output((args as Record<string, unknown>)[input]) as pulumi.Output<unknown>;
  const secretInputs = pulumi
    .output(Promise.all(valueInputs(kind).map(async (input) => ((await pulumi.isSecret(arg(input))) ? input : undefined))))
    .apply((names) => {
      const secret = names.filter((n): n is string => n !== undefined);
      return secret.length ? secret : undefined;
    });
  const placeholders = Object.entries(DERIVED_OUTPUTS[kind]).map(([output, source]) => [
    output,
    pulumi.all([arg(source), pulumi.isSecret(arg(source))]).apply(([, secret]) => (secret ? null : undefined)),
  ]);
  return { resourceName: name, secretInputs, ...Object.fromEntries(placeholders) };
}

/**
 * Refuses `opts.import`: the engine's dynamic-provider host cannot import (pulumi/pulumi#16175),
 * and fails deep inside with a message that helps no one.
 */
export function refuseImport(kind: ResourceKind, name: string, opts?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions | undefined {
  if (opts?.import !== undefined) {
    throw new Error(
      `${kind} ${JSON.stringify(name)}: opts.import cannot work for dynamic resources such as this one (pulumi/pulumi#16175; \`pulumi import\` neither). ` +
        "Leave it out: creating the resource adopts the object that already exists (it reads it, records what it finds, and applies only what you declare).",
    );
  }
  return opts;
}

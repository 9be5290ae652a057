/**
 * What every resource class passes beside the program's arguments, and the options it refuses.
 * How the provider uses these inputs: provider/core/runtime/resource-meta.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { DERIVED_OUTPUTS, KINDS, type ResourceKind, SHARED_SET_OUTPUTS, valueInputs } from "../../core/kinds";

/**
 * The resource's own name and its parent's URN (the provider is never told them), the names of
 * its value inputs given as secrets, and, under the name of each output derived from a secret
 * input, a secret `null`, so that the engine stores that output encrypted. (Placeholders of inputs
 * that are not secret resolve to nothing and are left out: state stays small.)
 */
export function metaInputs(kind: ResourceKind, name: string, args: object, opts?: pulumi.CustomResourceOptions): pulumi.Inputs {
  const arg = (input: string) => pulumi.output((args as Record<string, unknown>)[input]) as pulumi.Output<unknown>;
  const secretInputs = pulumi
    .output(Promise.all(valueInputs(kind).map(async (input) => ((await pulumi.isSecret(arg(input))) ? input : undefined))))
    .apply((names) => {
      const secret = names.filter((n): n is string => n !== undefined);
      return secret.length ? secret : undefined;
    });
  const secretArg = (input: string) => pulumi.all([arg(input), pulumi.isSecret(arg(input))]).apply(([, secret]) => secret);
  const placeholders = Object.entries(DERIVED_OUTPUTS[kind]).map(([output, sources]) => [
    output,
    pulumi.all(sources.map(secretArg)).apply((secrets) => (secrets.some(Boolean) ? null : undefined)),
  ]);
  // The parent's URN as a plain value: an Output of the parent would make the parent a dependency,
  // and a component as a dependency means waiting for all its children (two would wait for each
  // other). The stack itself is no parent worth naming.
  const parent = opts?.parent;
  const resourceParent = parent
    ? pulumi.output(
        new Promise<string | undefined>((resolve) =>
          parent.urn.apply((urn) => resolve(urn.includes("::pulumi:pulumi:Stack::") ? undefined : urn)),
        ),
      )
    : undefined;
  return { resourceName: name, resourceParent, secretInputs, ...Object.fromEntries(placeholders) };
}

/**
 * The options a resource registers with: the program's, with the outputs that hold a set shared
 * with other resources stored as secrets (provider/core/kinds: `sharedSet`), the generated SDK's
 * type of the kind as an alias, and `opts.import` refused: the engine's
 * dynamic-provider host cannot import (pulumi/pulumi#16175), and fails deep inside with a message
 * that helps no one.
 *
 * The alias is the mirror of the one schema.json gives every SDK resource: a stack moving back from
 * the SDK to these classes keeps each resource (its state and originals). Without it, the engine
 * would create the new resources in this process and delete the old ones in the plugin's, whose
 * deletes, not knowing the new ones hold the values, would put the originals back under them.
 */
export function resourceOptions(
  kind: ResourceKind,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions = {},
): pulumi.CustomResourceOptions {
  if (opts.import !== undefined) {
    throw new Error(
      `${kind} ${JSON.stringify(name)}: opts.import cannot work for dynamic ` +
        `resources such as this one (pulumi/pulumi#16175; \`pulumi import\` neither). ` +
        "Leave it out: creating the resource adopts the object that already exists " +
        "(it reads it, records what it finds, and applies only what you declare).",
    );
  }
  const given = args as Record<string, unknown>;
  const shared = SHARED_SET_OUTPUTS[kind].filter((output) => given[output] === undefined);
  // An input held as a secret for its value (declare.ts `secretWhen`) that the program leaves out:
  // its output, and those derived from it, hold the live value (a rule's config with its webhook
  // URL, and the rule recorded as found), which a dynamic provider cannot return as a secret.
  const inputs = KINDS[kind].inputs as Record<string, { secretWhen?: unknown }>;
  const live = Object.keys(inputs).filter((input) => inputs[input]!.secretWhen !== undefined && given[input] === undefined);
  const derived = Object.entries(DERIVED_OUTPUTS[kind]).flatMap(([output, sources]) =>
    sources.some((s) => live.includes(s)) ? [output] : [],
  );
  const secret = [...shared, ...live, ...derived];
  return {
    ...opts,
    aliases: [...(opts.aliases ?? []), { type: `semgrep:index:${kind}` }],
    ...(secret.length ? { additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secret] } : {}),
  };
}

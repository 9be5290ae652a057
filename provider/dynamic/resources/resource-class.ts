/**
 * The class of every resource kind, derived from the kind's declaration (provider/core/kinds): its
 * constructor takes the declared `ArgsOf`, its instances carry every declared output as a
 * `pulumi.Output`, and it has `get` and `isInstance`, as Pulumi's generated classes do. Each kind
 * exports the class this returns as is, typed by name (`export const X: ResourceClass<typeof xKind>
 * = resourceClass(...)`): not a subclass, since the engine stores the stack of every resource's
 * construction in state and a subclass adds a frame (about 150 bytes) to each resource; typed by
 * name, so that the emitted `.d.ts` refers to the declaration and keeps its doc comments.
 *
 * Why the class and the handlers are apart: the engine runs the provider in its own process and
 * stores a resource's `__provider` as code in state. That code (provider/dynamic/shims) must stay tiny and
 * reach the implementation by package name (`pulumi-semgrep/dynamic`), so the provider process
 * never loads the program's modules; the declaration is what both sides share.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, KindDeclaration, OutputsOf } from "../../core/kinds/declare";
import { propertyNames, type ResourceKind } from "../../core/kinds";
import { TYPE_MODULE } from "../shims/shim";
import { metaInputs, resourceOptions } from "./meta";

/** The declared outputs (inputs included) as the resource's `pulumi.Output` properties. */
export type OutputProperties<D extends KindDeclaration> = { readonly [K in keyof OutputsOf<D>]-?: pulumi.Output<OutputsOf<D>[K]> };

export interface ResourceClass<D extends KindDeclaration> {
  new (name: string, args: ArgsOf<D>, opts?: pulumi.CustomResourceOptions): pulumi.dynamic.Resource & OutputProperties<D>;
  /**
   * The existing object with this id, read into the stack without being managed: nothing is
   * written, and deleting the stack leaves it; no object with the id fails the run, naming it. The
   * id is the kind's id (see its reference page). The outputs are what the service reports: those
   * that record a program's declaration (`managedFields`, the `original…` ones, an SbomExport's
   * request) are unset.
   */
  get<C extends abstract new (...args: never[]) => unknown>(
    this: C,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): InstanceType<C>;
  /** Whether `obj` is a resource of this kind, even one created by another copy of this package. */
  isInstance<C extends abstract new (...args: never[]) => unknown>(this: C, obj: unknown): obj is InstanceType<C>;
}

/**
 * The program's arguments with each input the kind holds as a secret whenever its `secretWhen`
 * holds (a notification rule's config with a webhook URL) made a secret: a dynamic provider cannot
 * return secrets, so the input must be one for its outputs to be stored encrypted.
 */
function withImplicitSecrets(declaration: KindDeclaration, args: Record<string, unknown>): Record<string, unknown> {
  const implicit = Object.entries(declaration.inputs).filter(([name, field]) => field.secretWhen && args[name] !== undefined);
  if (!implicit.length) return args;
  const result = { ...args };
  for (const [name, field] of implicit) {
    const { given, holds } = field.secretWhen!;
    result[name] = pulumi
      .all(given.map((input) => pulumi.output(args[input])))
      .apply((values) => (holds(Object.fromEntries(given.map((input, i) => [input, values[i]]))) ? pulumi.secret(args[name]) : args[name]));
  }
  return result;
}

/** The class of the kind `declaration`, whose provider (a shim) is `provider`. */
export function resourceClass<D extends KindDeclaration<ResourceKind>>(
  declaration: D,
  provider: pulumi.dynamic.ResourceProvider,
): ResourceClass<D> {
  const kind = declaration.kind;
  const type = `pulumi-nodejs:dynamic/${TYPE_MODULE}:${kind}`;
  class Resource extends pulumi.dynamic.Resource {
    constructor(name: string, args: ArgsOf<D>, opts?: pulumi.CustomResourceOptions) {
      // Every output is registered (an absent input or an output the provider computes as
      // `undefined`), so that the instance has a property for each.
      const given = withImplicitSecrets(declaration, args as Record<string, unknown>);
      const registered = Object.fromEntries(propertyNames(kind).map((property) => [property, given[property]]));
      super(
        provider,
        name,
        { ...registered, ...metaInputs(kind, name, given, opts) },
        resourceOptions(kind, name, args, opts),
        TYPE_MODULE,
        kind,
      );
    }

    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
      // A dynamic resource given `opts.id` is read, not created: the engine calls `read(id, {})`.
      return new this(name, {} as ArgsOf<D>, { ...opts, id });
    }

    static override isInstance(obj: unknown): obj is Resource {
      return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === type;
    }
  }
  Object.defineProperty(Resource, "name", { value: kind });
  return Resource as unknown as ResourceClass<D>;
}

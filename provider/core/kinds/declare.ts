/**
 * How a resource kind is declared: once, in `provider/core/kinds/<kind>.ts`, as a Terraform provider
 * declares a resource's schema. Each input has its zod schema, its doc comment and whether a change
 * replaces the resource; each output its type and doc comment; the kind its id format and what it
 * does on the service. From that one declaration derive:
 *  - the public `XArgs` type and the resource class's outputs (provider/dynamic/resources/resource-class.ts;
 *    the doc comments written on the declaration's fields are the ones users' editors show);
 *  - the provider's `check` (the input schema) and `diff` (the field rules), and the handler types
 *    (provider/core/runtime/handler.ts), so that a handler returning an undeclared or wrongly typed
 *    output does not compile;
 *  - the reference pages in `docs/` (test/tools/docs.mjs).
 *
 * Declarations load in both processes: the program's (resource classes) and the provider's
 * (handlers). They import schemas only, never the handlers or the classes.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Stability } from "../../client/errors";

type Props = Record<string, unknown>;

/** One input of a kind. `Public` is the type programs write, when it is narrower than the schema's input. */
export interface InputField<S extends z.ZodType = z.ZodType, Public = z.input<S>> {
  readonly schema: S;
  /** A change of this input replaces the resource. */
  readonly replaces?: boolean;
  /** Whether the live value (the output of the same name) satisfies the declared one; default `covers` (diff.ts). */
  readonly equal?: (live: unknown, declared: unknown, olds: Props) => boolean;
  /**
   * `false`: not echoed in the outputs. The engine keeps the input in the resource's inputs; the
   * outputs keep what the provider needs of it instead (a large map stored once, not twice: a
   * ProjectSettingsSet's `projects`, whose outputs keep a digest per project). Not an output of
   * the class, the schema or the reference page.
   */
  readonly echoed?: false;
  /** Type-level only: what programs write (in a tuple, so that inferring it from an intersection keeps its `undefined`). */
  readonly __public?: [Public];
}

/** One output of a kind (beside its inputs, which are outputs too). */
export interface OutputField<T = unknown> {
  /**
   * Computed from this input (or these): stored as a secret when one of them is one (a dynamic
   * provider cannot return secrets).
   */
  readonly derivedFrom?: string | readonly string[];
  /**
   * Holds a whole set other resources may add to (a project's tags): stored as a secret, since
   * another resource's values may be secrets, unless this resource declares the input of the
   * same name (then the set is its own).
   */
  readonly sharedSet?: boolean;
  /** Type-level only: the output's type. */
  readonly __type?: T;
}

type InputRules = Pick<InputField, "replaces" | "equal">;

/** An input whose public type is the schema's input type. */
export function input<S extends z.ZodType>(schema: S, rules: InputRules = {}): InputField<S> {
  return { schema, ...rules };
}

/**
 * An input whose public type is written out (nested objects with doc comments of their own, or
 * deprecated spellings): `typedInput<SbomFormatVersionArgs>()(schema)`. The compiler checks that
 * what programs may write is what the schema takes.
 */
export function typedInput<Public>() {
  return <S extends z.ZodType<unknown, Public>>(schema: S, rules: InputRules = {}): InputField<S, Public> => ({ schema, ...rules });
}

/** The input `field`, not echoed in the outputs ({@link InputField.echoed}). */
export function notEchoed<F extends InputField>(field: F): F & { readonly echoed: false } {
  return { ...field, echoed: false };
}

export function output<T>(rules: Omit<OutputField<T>, "__type"> = {}): OutputField<T> {
  return rules;
}

/**
 * A field a resource manages with a recorded original, named by its path into the inputs and
 * outputs (`primaryBranch`, `managedScanConfig.diffScan`): the runtime derives from these its
 * values, originals, original outputs, refreshed inputs and dropped-field warnings
 * (provider/core/runtime/managed.ts), so a handler keeps only the API mapping. A field whose
 * input is required (a rule's `mode`) is always managed; an optional one when declared.
 */
export interface ManagedField {
  /** The path of the output that holds its original: `originalPrimaryBranch`, `originals.rulesets`. */
  readonly original: string;
  /** The input a refresh gives it, from the live outputs; default the live value at its path. */
  readonly refreshed?: (live: Props) => unknown;
  /**
   * Its original as read from the state (`state`, where another output may say what was found:
   * an exception the resource added, a policy it created), cleaned of what an older version
   * recorded; default as stored.
   */
  readonly fromState?: (stored: unknown, state: Props) => unknown;
}

/** What a resource records as the original of an object it added (an exception, a policy): there was none, and delete removes it. */
export const ABSENT = "absent";

export function managed(original: string, rules: Omit<ManagedField, "original"> = {}): ManagedField {
  return { original, ...rules };
}

/** What the kind does on the service, for its reference page: one sentence or a few per step. */
export interface ServiceBehaviour {
  create: string;
  update: string;
  delete: string;
  read: string;
  /** How an object that already exists is taken over, and what `X.get(name, id)` reads. */
  adoption: string;
}

export interface KindDeclaration<
  Kind extends string = string,
  I extends Record<string, InputField> = Record<string, InputField>,
  O extends Record<string, OutputField> = Record<string, OutputField>,
> {
  readonly kind: Kind;
  readonly inputs: I;
  readonly outputs: O;
  readonly id: {
    /** `<deploymentId>/<policyId>/<rulePath>` */
    readonly format: string;
    /**
     * The inputs that the id stands for, so that `read` works from the id alone (what the engine
     * does for `X.get(name, id)`); `undefined` when the id is not in this format.
     */
    readonly parse: (id: string) => Partial<InputsOf<I>> | undefined;
  };
  /** Rules across inputs, checked after each input's own schema. */
  readonly rules?: ReadonlyArray<KindRule<I>>;
  /**
   * The fields it manages with a recorded original, in the order of its `managedFields` output
   * (which lists the optional ones declared), each by its path (the path's first part is an
   * input and an output of the kind).
   */
  readonly managed?: Readonly<Record<string, ManagedField>>;
  readonly service: ServiceBehaviour;
  /**
   * The standing, in Semgrep's OpenAPI, of the API the kind uses, when it is not generally
   * available: said on its reference page, in the schema's description and in the README's list.
   */
  readonly stability?: Stability;
}

/** A rule across a kind's inputs: `message` against the input `path` unless `holds`. */
export interface KindRule<I extends Record<string, InputField>> {
  holds(declared: InputsOf<I>): boolean;
  readonly message: string;
  readonly path: keyof I & string;
}

/** Declares a kind; the type parameters are inferred, so the literal keeps every field's own type. */
export function defineKind<Kind extends string, I extends Record<string, InputField>, O extends Record<string, OutputField>>(
  declaration: KindDeclaration<Kind, I, O>,
): KindDeclaration<Kind, I, O> {
  return declaration;
}

// ---- Types derived from a declaration -------------------------------------------------------

type PublicOf<F> = F extends InputField<z.ZodType, infer Public> ? Public : never;
type CheckedOf<F> = F extends InputField<infer S> ? z.output<S> : never;
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `pulumi.Input` all the way down, as Pulumi's generated SDKs type nested arguments. */
export type DeepInput<T> = pulumi.Input<
  T extends string | number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer E>
      ? DeepInput<E>[]
      : { [K in keyof T]: DeepInput<T[K]> }
>;

/** Required keys stay required, keys whose type admits `undefined` become optional. */
type WithOptionals<T> = { [K in keyof T as K extends OptionalKeys<T> ? never : K]: T[K] } & {
  [K in keyof T as K extends OptionalKeys<T> ? K : never]?: T[K];
};

/** What programs pass to the resource class: every input, each a `pulumi.Input` all the way down. */
export type ArgsOf<D extends KindDeclaration> = Flatten<WithOptionals<{ [K in keyof D["inputs"]]: PublicOf<D["inputs"][K]> }>, true>;

/** The inputs as `check` returns them (normalized: ids as strings, bare branches as refs). */
export type InputsOf<I extends Record<string, InputField>> = Flatten<WithOptionals<{ [K in keyof I]: CheckedOf<I[K]> }>>;
export type CheckedInputs<D extends KindDeclaration> = InputsOf<D["inputs"]>;

/** The inputs not echoed in the outputs (`echoed: false`). */
type NotEchoed<D extends KindDeclaration> = {
  [K in keyof D["inputs"]]: D["inputs"][K] extends { echoed: false } ? K : never;
}[keyof D["inputs"]];

/**
 * Every output of the kind: its inputs as checked (but those not echoed), then the declared
 * outputs (a declared output wins over the input of its name).
 */
export type OutputsOf<D extends KindDeclaration> = Flatten<
  Omit<CheckedInputs<D>, keyof D["outputs"] | NotEchoed<D>> & WithOptionals<{ [K in keyof D["outputs"]]: OutputTypeOf<D["outputs"][K]> }>
>;
type OutputTypeOf<F> = F extends OutputField<infer T> ? T : never;

/**
 * One object type from an intersection, so that editors show it whole. With `deep`, each value
 * becomes a {@link DeepInput}. Homomorphic, so each property keeps its doc comment.
 */
type Flatten<T, Deep extends boolean = false> = { [K in keyof T]: Deep extends true ? ArgInput<Exclude<T[K], undefined>> : T[K] };
/** `pulumi.Input<string>` where that is all it is (what editors show), {@link DeepInput} for lists and objects; not distributed, so that a boolean stays `pulumi.Input<boolean>` (an `Output<boolean>` fits). */
type ArgInput<T> = [T] extends [string | number | boolean] ? pulumi.Input<T> : DeepInput<T>;

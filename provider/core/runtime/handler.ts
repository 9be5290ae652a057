/**
 * The dynamic-provider methods one resource kind implements, typed by its declaration
 * (provider/core/kinds): `create`, `read` and `update` return the declared outputs, so a handler that
 * returns an undeclared output (in an object literal) or one of the wrong type does not compile.
 */
import type { CheckedInputs, KindDeclaration, OutputsOf } from "../kinds/declare";
import type { CallContext, Secrecy } from "./call-context";
import type { Claim } from "./ownership";
import type { RuleSet } from "../handlers/rule-selectors";
import type { Props } from "./check";

/** The inputs as `check` returned them. */
export type Checked<D extends KindDeclaration> = CheckedInputs<D>;
/** What a handler returns as outputs: the declared ones (inputs included). */
export type Outputs<D extends KindDeclaration> = OutputsOf<D>;
/**
 * Outputs as stored (what `read`, `update`'s olds and `delete` see): any of them may be absent in
 * state written by an older build, or when the engine reads a resource by id alone (`X.get`).
 */
export type State<D extends KindDeclaration> = Partial<Outputs<D>> & Props;

/**
 * What the handlers return, in the core's own terms: the shapes both front ends turn into the
 * engine's (the dynamic host takes them as they are; the native server builds protocol messages).
 */
export interface CheckFailure {
  /** The input at fault (`""` for none: the engine prints the value of the property a failure names). */
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs?: Props;
  failures?: CheckFailure[];
}
export interface DiffResult {
  changes?: boolean;
  /** The inputs whose change replaces the resource. */
  replaces?: string[];
  stables?: string[];
  deleteBeforeReplace?: boolean;
}
export interface CreateResult<O = Props> {
  id: string;
  outs?: O;
}
export interface ReadResult<O = Props> {
  /** Empty when the object is gone (the engine drops the resource). */
  id?: string;
  props?: O;
  inputs?: Props;
}
export interface UpdateResult<O = Props> {
  outs?: O;
}
/** The provider's configuration as the dynamic host passes it to `configure`. */
export interface ConfigureRequest {
  config: { get(key: string): string | undefined };
}

/** One entry of an input the outputs do not echo (declare.ts `notEchoed`) that a diff changes. */
export interface ChangedEntry {
  input: string;
  /** The entry's key; none for the whole input (a value unknown at preview). */
  key?: string;
  kind: "add" | "delete" | "update";
}

export interface Handler<D extends KindDeclaration = KindDeclaration> {
  /**
   * For a kind with an input its outputs do not echo: the entries of that input a change of
   * `news` from the state `olds` adds, deletes or updates, from what the state keeps of them. The
   * dynamic front end's field-by-field diff names these (the engine hands it the old outputs, not
   * the old inputs), so that `preview --diff` shows the changed entries, not the whole input.
   */
  changedEntries?(olds: Props, news: Props): ChangedEntry[];

  /**
   * What a resource in this state (outputs, or the olds of a diff) recorded as the original of
   * each field it claims, by claim field (`null` for none): the dispatcher settles the resource's
   * claims with it after a create, an update or a diff that finds nothing to change
   * (ownership.ts settle), for the warnings of a delete that leaves a field to it. A kind whose
   * claims record no original of their own (one claim per rule) leaves it out.
   */
  recorded?(state: Props): Record<string, unknown>;
  /**
   * What a resource declaring `declared` claims (ownership.ts), from its inputs and which of them
   * are secrets: its `check` declares these, and an import is checked against the claims of the
   * stack's resources (native/import-refusals.ts), so a kind that declares its claims here has
   * its imports checked at no further cost. A value not known (a preview's, or a secret of the
   * exported state, which is ciphertext) makes no claim of its own.
   */
  claims?(declared: Props, secrecy: Secrecy): Claim[];
  /** The rules of one policy it declares (rule-selectors.ts), for the kinds a selector may overlap; undefined when not known. */
  rules?(declared: Props): RuleSet | undefined;
  /*
   * Each method gets the call's context last (call-context.ts): who the resource is, which inputs
   * are secrets, and its claims. The properties hold the kind's inputs and outputs only.
   */
  check(olds: Props, news: Props, ctx: CallContext): CheckResult | Promise<CheckResult>;
  diff(id: string, olds: State<D>, news: Checked<D>, ctx: CallContext): Promise<DiffResult>;
  create(inputs: Checked<D>, ctx: CallContext): Promise<CreateResult<Outputs<D>>>;
  read(id: string, props: State<D>, ctx: CallContext): Promise<ReadResult<State<D>>>;
  update(id: string, olds: State<D>, news: Checked<D>, ctx: CallContext): Promise<UpdateResult<Outputs<D>>>;
  delete(id: string, props: State<D>, ctx: CallContext): Promise<void>;
}

/**
 * The outputs a handler writes, checked by the compiler: each declared output with its type, and
 * no key the kind does not declare, spread ones included (a plain return type would let a spread
 * carry undeclared keys through). `const outputs = declaredOutputs<Kind>();` then `outputs({...})`.
 */
export function declaredOutputs<D extends KindDeclaration>() {
  return <T extends Outputs<D>>(outs: T & Record<Exclude<keyof T, keyof Outputs<D>>, never>): Outputs<D> => outs;
}

/**
 * The one safeguard that keeps secret inputs out of what the provider says (promise 4): every
 * method call runs in a scope that knows the texts of its resource's secret inputs (the string
 * leaves of each input the program gave as a secret, the keys of maps in them, and the outputs
 * derived from them), and every message that leaves the process through the runtime (an error,
 * a check failure, a notice) has each of those texts replaced by `[secret]`. A kind's own code
 * may redact more precisely; this catches what it forgets, including the service's messages
 * that quote a value (a dry run's validation errors).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as enums from "../../client/schemas/enums";
import { DERIVED_OUTPUTS, type ResourceKind } from "../kinds";
import type { Props } from "./check";
import { onForget } from "./process-memory";
import { secretInputsOf } from "./resource-meta";

export type Redact = (text: string) => string;

const SECRET = "[secret]";

/**
 * Shorter texts are left in messages: a secret `"1"` or `"no"` would erase every number and
 * word of them, and hides nothing a reader could not guess.
 */
const SHORTEST = 3;

/** A map key that names a field (`exclude`, `project_id`) rather than data (a rule path), which stays. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The string and number leaves of `value`, and the keys of its maps that are data. */
function texts(value: unknown, found: Set<string>): Set<string> {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) found.add(String(value));
  else if (Array.isArray(value)) for (const item of value) texts(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!FIELD_NAME.test(key)) found.add(key);
      texts(item, found);
    }
  }
  return found;
}

/**
 * The texts of `props`' secret inputs, and of the outputs derived from them (an original a
 * secret input replaced), in the forms they take in messages (as is, JSON-quoted, in a URL).
 */
export function secretTexts(kind: ResourceKind, props: Props, secret: readonly string[] = secretInputsOf(props)): string[] {
  if (!secret.length) return [];
  const sources = [
    ...secret,
    ...Object.entries(DERIVED_OUTPUTS[kind] ?? {})
      .filter(([, from]) => from.some((input) => secret.includes(input)))
      .map(([output]) => output),
  ];
  return textsOf(sources.map((name) => props[name]));
}

/** The texts of `values` (string leaves, keys that are data) in the forms they take in messages. */
export function textsOf(values: readonly unknown[]): string[] {
  const found = new Set<string>();
  for (const value of values) texts(value, found);
  const forms = [...found].flatMap((text) => [text, JSON.stringify(text).slice(1, -1), encodeURIComponent(text)]);
  return [...new Set(forms)].filter((text) => text.length >= SHORTEST);
}

/**
 * Replaces each of `secrets` in a text by `[secret]`, where it stands as a whole (not inside a
 * longer word: a secret `all` leaves `allowed` alone), the longest first.
 */
export function redactorOf(secrets: readonly string[]): Redact {
  if (!secrets.length) return (text) => text;
  const escaped = [...secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"));
  const pattern = new RegExp(`(?<![A-Za-z0-9_])(?:${escaped.join("|")})(?![A-Za-z0-9_])`, "g");
  return (text) => text.replace(pattern, SECRET);
}

/** Properties of a call (olds or news, inputs or state) with the names of their secret inputs. */
export interface Given {
  props: Props;
  secretInputs: readonly string[];
}

/**
 * The redactor for a method call given these properties (olds and news alike): the texts of the
 * call's own secret inputs, then those of every other resource's secret claims ({@link claimSecrets}).
 */
export function redactorFor(kind: ResourceKind, given: readonly Given[]): Redact {
  const own = redactorOf([...new Set(given.flatMap(({ props, secretInputs }) => secretTexts(kind, props, secretInputs)))]);
  return (text) => othersSecrets(own(text));
}

/**
 * The API's own words (`MODE_BLOCK`, `SEVERITY_HIGH`): a secret mode hides them in its own
 * resource's messages, but another resource's message that names the mode it sets itself, or
 * a list of the modes a policy forbids, leaks nothing by them and would make no sense without them.
 */
const VOCABULARY: ReadonlySet<string> = new Set(
  Object.values(enums)
    .flatMap((value) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []))
    // Only the API's UPPER_CASE words: "secrets", "code", "npm" or "rule" may well be a secret tag or branch.
    .filter((word) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(word)),
);

/**
 * The texts of the secret claims resources of this process made (their secret inputs: a secret
 * `modes` map's rule paths, a secret branch name), which every message hides whichever resource
 * prints it: a selector's conflict with a secret `modes` names a rule the other resource keeps
 * secret, and only the secret's owner knows that it is one. The secrecy travels with the claim.
 */
const claimed = new Set<string>();
let othersRedactor: Redact | undefined;
onForget(() => {
  claimed.clear();
  othersRedactor = undefined;
});

/**
 * Records the texts of a resource's secret inputs, what it declares and claims, as secrets every
 * message of the process hides (dispatch.ts calls it for every method call). Not the outputs
 * derived from them: an original is what the service had, which other resources may name.
 */
export function claimSecrets({ props, secretInputs }: Given): void {
  let added = false;
  for (const text of textsOf(secretInputs.map((input) => props[input]))) {
    if (VOCABULARY.has(text) || claimed.has(text)) continue;
    claimed.add(text);
    added = true;
  }
  if (added) othersRedactor = undefined;
}

/** `text` with every claimed secret of the process hidden. */
function othersSecrets(text: string): string {
  othersRedactor ??= redactorOf([...claimed]);
  return othersRedactor(text);
}

const scope = new AsyncLocalStorage<Redact>();

/** Runs `work` with `redact` applied to every notice it sends (notices.ts), through every await. */
export function withRedaction<T>(redact: Redact, work: () => T): T {
  return scope.run(redact, work);
}

/** `text` as the current method call may show it; outside a call, with the process's claimed secrets hidden. */
export function redacted(text: string): string {
  const redact = scope.getStore();
  return redact ? redact(text) : othersSecrets(text);
}

/** `error` with its message redacted (a new error, its cause the original, which is never printed), or itself when nothing changes. */
export function redactedError(error: unknown, redact: Redact): unknown {
  if (!(error instanceof Error)) return error;
  const message = redact(error.message);
  if (message === error.message) return error;
  const shown = new Error(message, { cause: error });
  shown.name = error.name;
  return shown;
}

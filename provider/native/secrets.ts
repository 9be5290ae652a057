/**
 * Secret values on the wire. A provider that accepts secrets (Configure's answer) gets each secret
 * input as an object carrying Pulumi's secret signature and the value, and returns a secret the
 * same way; anything derived from a secret must go back wrapped, or the engine stores it in plain
 * text. The handlers work on plain values: {@link unwrapSecrets} takes the wrappers off and says
 * which top-level properties held one (anywhere inside), {@link asSecret} puts one on.
 */
type Props = Record<string, unknown>;

/** Pulumi's special-value signature key and the secret signature (sdk/go/common/resource/sig). */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

export function isSecretWrapper(value: unknown): value is { value?: unknown } {
  return !!value && typeof value === "object" && (value as Props)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** `value` without secret wrappers at any depth, and whether it held one. */
function unwrap(value: unknown): { value: unknown; secret: boolean } {
  if (isSecretWrapper(value)) return { value: unwrap(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrap);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => [k, unwrap(v)] as const);
    return { value: Object.fromEntries(entries.map(([k, v]) => [k, v.value])), secret: entries.some(([, v]) => v.secret) };
  }
  return { value, secret: false };
}

/** The properties as plain values, and the names of those that were (or held) secrets. */
export function unwrapSecrets(props: Props): { plain: Props; secret: string[] } {
  const plain: Props = {};
  const secret: string[] = [];
  for (const [key, value] of Object.entries(props)) {
    const unwrapped = unwrap(value);
    plain[key] = unwrapped.value;
    if (unwrapped.secret) secret.push(key);
  }
  return { plain, secret };
}

/** `value` as a secret on the wire. */
export function asSecret(value: unknown): Props {
  return { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/** `props` with the values of `secret` (those present) wrapped as secrets. */
export function withSecrets(props: Props, secret: Iterable<string>): Props {
  const out = { ...props };
  for (const key of secret) if (out[key] !== undefined) out[key] = asSecret(out[key]);
  return out;
}

/**
 * JSON with every object's keys sorted (code-point order) and undefined values left out: the same
 * text for two values that differ only in key order, as a state the engine gives back does from
 * the outputs a call returned (it keeps keys in its own order).
 */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return JSON.stringify(canonical(value));
}

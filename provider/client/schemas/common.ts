/**
 * Building blocks for schemas that accept what the live service really sends
 * (documented in its public OpenAPI and client scripts): integers written as strings, ids as numbers or strings,
 * two timestamp forms, enum values newer than this package, and extra fields.
 */
import { z } from "zod";

/** An integer sent as a JSON number or as a string holding one (`"exit_code": "0"`). Output: number. */
export const looseInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, "expected an integer")
    .transform((s) => Number(s)),
]);

/** A number sent as a JSON number or a numeric string. Output: number. */
export const looseNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, "expected a number")
    .transform((s) => Number(s)),
]);

/** An id sent as a string or a number. Output: string, as ids are written in paths. */
export const looseId = z.union([
  z.string(),
  z
    .number()
    .int()
    .transform((n) => String(n)),
]);

/**
 * A timestamp in either form the service uses: `2020-11-18 23:28:12.391807+00:00` or
 * `2024-07-29T22:33:37.380293Z`. Kept as sent; {@link toDate} turns either into a Date.
 */
export const timestamp = z.string().refine((s) => !Number.isNaN(toDate(s).getTime()), "expected a timestamp");

/** Parses either timestamp form of the service. */
export function toDate(value: string): Date {
  // The space-separated form is ISO 8601 but for the separator; microseconds are dropped by Date.
  return new Date(value.includes("T") ? value : value.replace(" ", "T"));
}

/**
 * An enum read back from the service: the known values are typed, any newer value is accepted
 * as a plain string rather than failing the whole answer.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}

/*
 * Protobuf's JSON mapping leaves out fields at their default value (false, 0, "", empty lists),
 * and the OpenAPI marks almost nothing required: these read an absent field as its default.
 */
/** A boolean that may be left out: absent reads as false. */
export const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
/** A list that may be left out: absent reads as empty. */
export const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);
/** An integer that may be left out: absent reads as 0. */
export const count = looseInt.nullish().transform((v) => v ?? 0);
/** A string that may be left out: absent reads as "". */
export const text = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/** A string that must not be empty (after trimming). */
export const nonEmpty = z.string().trim().min(1, "must not be empty");

/**
 * A uint64 id as written in a path: digits (at most 20), given as a string or a non-negative
 * integer; output: the string. `wrongType` is said of any other value, `notDigits` of a string
 * that is not digits.
 */
export function uint64Id(messages: { wrongType: string; notDigits: string }) {
  return z
    .union([z.string(), z.number().int().nonnegative().transform(String)], { error: messages.wrongType })
    .pipe(z.string().regex(/^\d+$/, messages.notDigits).max(20, "must be at most 20 digits"));
}

/** A uint64 id as the client's methods take it (`deploymentId`, `policyId`, ...). */
export const numericId = uint64Id({ wrongType: "must be a numeric id (digits only)", notDigits: "must be a numeric id (digits only)" });

/** An optional list of enum values; a bad item is refused with a message that lists the values. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.array(z.enum(values, { error: `must be one of ${values.join(", ")}` })).optional();

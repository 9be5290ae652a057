/** Validation of data-source arguments: bad values are refused, naming the field, before any request. */
import { z } from "zod";
import { validateRequest } from "../client/transport";

/** The client's request validation, for a function's arguments (absent arguments read as `{}`). */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.output<S> {
  return validateRequest(fn, schema, args ?? {});
}

/** An optional list of enum values, with a message that lists them. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.array(z.enum(values, { error: `must be one of ${values.join(", ")}` })).optional();

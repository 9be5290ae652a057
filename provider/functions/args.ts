/** Validation of data-source arguments: bad values are refused, naming the field, before any request. */
import type { z } from "zod";
import { validateRequest } from "../client/transport";

/** The client's request validation, for a function's arguments (absent arguments read as `{}`). */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.output<S> {
  return validateRequest(fn, schema, args ?? {});
}

/** Shared with the client's request schemas, which refuse bad enum values the same way. */
export { oneOf } from "../client/schemas/common";

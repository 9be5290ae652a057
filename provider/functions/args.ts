/** Validation of data-source arguments: bad values are refused, naming the field, before any request. */
import type { z } from "zod";
import { InvalidRequestError } from "../client";
import { formatIssues } from "../client/transport";

export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) throw new InvalidRequestError(fn, formatIssues(parsed.error.issues));
  return parsed.data;
}

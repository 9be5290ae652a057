/**
 * Identifiers as users write them in resources and data sources, with messages that say what is
 * expected: a deployment slug, a project name, a numeric id given as a string or a number.
 */
import { z } from "zod";
import { uint64Id } from "./common";

const noEdgeSpace = (s: string) => s.trim() === s;

/** A deployment's slug, as in project paths (`acme`). */
export const deploymentSlug = z
  .string({ error: 'must be a string: the deployment\'s slug, e.g. "acme"' })
  .min(1, 'must not be empty: give the deployment\'s slug, e.g. "acme"')
  .max(128, "must be at most 128 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be a deployment slug: letters, digits, '.', '_' or '-', e.g. \"acme\"");

/** A project's name, typically `<organization>/<project>`. */
export const projectName = z
  .string({ error: 'must be a string: the project\'s name, e.g. "acme/web-app"' })
  .min(1, 'must not be empty: give the project\'s name, e.g. "acme/web-app"')
  .max(256, "must be at most 256 characters")
  .refine(noEdgeSpace, "must not start or end with white space")
  .refine((s) => !/[\s?#]/.test(s), "must not contain white space, '?' or '#'");

/** A deployment or policy id: digits, as a string or a number. */
export const id = (what: string) =>
  uint64Id({ wrongType: `must be the ${what} id: digits, e.g. "1"`, notDigits: `must be the ${what} id: digits only, e.g. "1"` });

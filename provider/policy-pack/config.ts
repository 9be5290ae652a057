/**
 * Each policy's configuration (`--policy-pack-config`): its JSON schema for the engine, which
 * fills in the defaults, and the check the engine does not make: a key the policy does not know
 * (a misspelt `severites` would otherwise leave the default silently in force).
 */
import type { PolicyConfigSchema, ReportViolation } from "@pulumi/policy";

/** One property of a policy's config schema (a JSON schema). */
type PolicyConfigJSONSchema = PolicyConfigSchema["properties"][string];

/**
 * A list of strings, with its default and doc; with `allowed`, the engine refuses any other value
 * before the run starts, naming the key and the allowed values (a misspelt `"CRITICAL"` would
 * otherwise match no rule and silently turn the policy off).
 */
export const stringList = (description: string, defaults: readonly string[] = [], allowed?: readonly string[]): PolicyConfigJSONSchema => ({
  type: "array",
  items: allowed ? { type: "string", enum: [...allowed] } : { type: "string" },
  default: [...defaults],
  description,
});

/** Every policy's config may set `enforcementLevel`; the engine handles it and it never reaches the policy. */
export const schemaOf = (properties: Record<string, PolicyConfigJSONSchema>): PolicyConfigSchema => ({ properties });

/** Policies that already reported their unknown keys in this run (one analyzer process per run). */
const reported = new Set<string>();

/**
 * Reports, once per run, the keys of `config` the policy's schema does not name, as a violation
 * of the policy itself: the config the user meant is not in force.
 */
export function reportUnknownKeys(policy: string, schema: PolicyConfigSchema, config: object, report: ReportViolation): void {
  const unknown = Object.keys(config).filter((key) => !(key in schema.properties));
  if (!unknown.length || reported.has(policy)) return;
  reported.add(policy);
  const known = ["enforcementLevel", ...Object.keys(schema.properties)].join(", ");
  report(
    `the config of policy ${policy} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which it does not know (known: ${known}).`,
  );
}

/** `config` with the schema's defaults under the keys it leaves out (the engine fills them too; a test harness may not). */
export function withDefaults<T>(schema: PolicyConfigSchema, config: object): T {
  const defaults = Object.entries(schema.properties).flatMap(([key, property]) => ("default" in property ? [[key, property.default]] : []));
  return { ...Object.fromEntries(defaults), ...config } as T;
}

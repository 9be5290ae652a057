/**
 * Semgrep's published OpenAPI, loaded for checking: which documented operation a request is,
 * whether the request has the documented shape (path and query parameters, body, no undeclared
 * field) and whether an answer has the shape of the operation's 200 schema.
 *
 * The file is Semgrep's own (`docs/public_v1.openapi.yaml` of the semgrep-docs repository), and it
 * has defects of its own, which {@link correctContract} repairs before anything is validated and
 * lists in `corrections`, so that a check never fails on the file's mistakes and never hides
 * ours. YAML is parsed as YAML 1.2, where `on` is a plain string.
 */
import { existsSync, readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { parse } from "yaml";

/**
 * `!!float 10000`: the v2 file tags integer literals (`maximum`, `default`) as floats, which YAML
 * 1.2's core schema does not resolve (it warns and keeps a string); they are read as the numbers
 * they are.
 */
const FLOAT_TAG = { tag: "tag:yaml.org,2002:float", resolve: (text: string) => Number(text) };

/** Where `.ci/run` and maintainers point the tiers at the OpenAPI files. */
export const OPENAPI_V1_ENV = "SEMGREP_OPENAPI_V1";
export const OPENAPI_V2_ENV = "SEMGREP_OPENAPI_V2";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonObject;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The documented path template, e.g. `/api/v1/deployments/{deploymentId}/policies`. */
  path: string;
  deprecated: boolean;
  parameters: Parameter[];
  /** `#/components/schemas/...` of the JSON request body, if the operation takes one. */
  requestSchema?: string;
  requestRequired: boolean;
  /** `#/components/schemas/...` of the 200 answer. */
  responseSchema?: string;
  /** Its standing, from its `x-badges` (`Beta`, `Experimental`); undefined when it has none. */
  stability?: "beta" | "experimental";
}

/** One request as it went over the wire, and its answer. */
export interface Exchange {
  method: string;
  /** Path and query as sent, e.g. `/api/v1/deployments/acme/projects/a%2Fb/tags?tags=x`. */
  url: string;
  /**
   * The request headers a documented operation may declare (`if-match`), by lower-case name;
   * never the token. Undefined where headers were not recorded, which skips their check.
   */
  headers?: Record<string, string>;
  /** Parsed JSON body; undefined when there was none. */
  body?: unknown;
  status: number;
  /** Parsed JSON answer; undefined when it was not JSON. */
  answer?: unknown;
}

export interface ContractOptions {
  /**
   * Whether a field the OpenAPI does not declare fails a check. True for what we send and what
   * our emulator answers; the live tier reports the live service's extra fields instead.
   */
  strict?: boolean;
}

/** Semgrep's OpenAPI, corrected, with validators for requests and answers. */
export class Contract {
  readonly operations: Operation[];
  /** What {@link correctContract} changed, one line per kind of defect with the places. */
  readonly corrections: string[];
  readonly #ajv: Ajv;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(
    readonly file: string,
    options: ContractOptions = {},
  ) {
    const doc = parse(readFileSync(file, "utf8"), { version: "1.2", customTags: (tags) => [...tags, FLOAT_TAG] }) as JsonObject;
    this.corrections = correctContract(doc);
    if (options.strict !== false) forbidUndeclaredFields(doc);
    this.operations = operationsOf(doc);
    this.#ajv = new Ajv({ strict: false, allErrors: true, formats: FORMATS });
    this.#ajv.addSchema(doc as object, "openapi");
  }

  /** The documented operation a request is, by method and path (most literal template first). */
  match(method: string, pathname: string): Operation | undefined {
    const candidates = this.operations.filter((op) => op.method === method.toUpperCase() && pathPattern(op.path).test(pathname));
    return candidates.sort((a, b) => literalLength(b.path) - literalLength(a.path))[0];
  }

  byId(operationId: string): Operation {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`${this.file} has no operation ${operationId}`);
    return op;
  }

  /**
   * Problems of a request against the documented operation: unknown operation, path and query
   * parameters (types, enums, undeclared ones) and the JSON body. Empty when it conforms.
   */
  checkRequest(exchange: Pick<Exchange, "method" | "url" | "body" | "headers">): string[] {
    const url = new URL(exchange.url, "http://contract");
    const op = this.match(exchange.method, url.pathname);
    if (!op) return [`${exchange.method} ${url.pathname} is not a documented operation`];
    const problems: string[] = [];
    const values = pathPattern(op.path).exec(url.pathname)?.groups ?? {};
    for (const param of op.parameters.filter((p) => p.in === "path")) {
      const raw = decodeURIComponent(values[param.name] ?? "");
      problems.push(...this.#checkValue(param.schema, queryValue(param.schema, [raw]), `path parameter ${param.name}`));
    }
    if (exchange.headers) {
      for (const param of op.parameters.filter((p) => p.in === "header")) {
        const value = exchange.headers[param.name.toLowerCase()];
        if (value === undefined) {
          if (param.required) problems.push(`header ${param.name} is required`);
        } else problems.push(...this.#checkValue(param.schema, value, `header ${param.name}`));
      }
    }
    const query = op.parameters.filter((p) => p.in === "query");
    for (const key of new Set(url.searchParams.keys())) {
      const param = query.find((p) => p.name === key);
      if (!param) problems.push(`query parameter ${key} is not documented`);
      else
        problems.push(...this.#checkValue(param.schema, queryValue(param.schema, url.searchParams.getAll(key)), `query parameter ${key}`));
    }
    for (const param of query.filter((p) => p.required && !url.searchParams.has(p.name)))
      problems.push(`query parameter ${param.name} is required`);
    if (exchange.body === undefined) {
      if (op.requestSchema && op.requestRequired) problems.push("the body is required");
    } else if (!op.requestSchema) {
      problems.push("the operation takes no body");
    } else {
      problems.push(...this.checkSchema(op.requestSchema, exchange.body, "body"));
    }
    return problems.map((p) => `${op.operationId}: ${p}`);
  }

  /** Problems of a 200 answer against the operation's documented answer. Empty when it conforms. */
  checkAnswer(op: Operation, answer: unknown): string[] {
    if (!op.responseSchema) return [`${op.operationId}: documents no 200 schema`];
    return this.checkSchema(op.responseSchema, answer, "answer").map((p) => `${op.operationId}: ${p}`);
  }

  /** The `example` a schema of the file gives (`#/components/schemas/...`), if any. */
  exampleOf(ref: string): unknown {
    return (this.#ajv.getSchema(`openapi${ref}`)?.schema as { example?: unknown } | undefined)?.example;
  }

  /** Problems of a value against a schema of the file (`#/components/schemas/...`). */
  checkSchema(ref: string, value: unknown, label: string): string[] {
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = this.#ajv.getSchema(`openapi${ref}`);
      if (!validate) throw new Error(`${this.file} has no schema ${ref}`);
      this.#validators.set(ref, validate);
    }
    return validate(value) ? [] : describeErrors(validate.errors ?? [], label);
  }

  #checkValue(schema: JsonObject, value: unknown, label: string): string[] {
    const validate = this.#ajv.compile(schema as object);
    return validate(value) ? [] : describeErrors(validate.errors ?? [], label);
  }
}

/**
 * The file named by an environment variable, or undefined when it is unset. A name that is set
 * but names no file is an error that says which variable to fix, never a tier silently skipped.
 */
export function contractFileFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[name];
  if (!file || file.trim() === "") return undefined;
  if (!existsSync(file))
    throw new Error(`${name} is set to ${file}, which does not exist: point it at Semgrep's OpenAPI file, or unset it`);
  return file;
}

// ---------------------------------------------------------------------------------------------
// Corrections of the file's own defects

/**
 * Repairs, in place, the defects of Semgrep's OpenAPI that would otherwise fail correct
 * requests and answers, and says what it changed:
 * - `required` lists name proto fields (`deployment_id`, `rule_path`) where the properties are
 *   camelCase, and the project answers require `projects` where the property is `project`:
 *   each entry is mapped to the property it means;
 * - in request bodies, fields that repeat a path parameter (`deploymentSlug`, `policyId`, ...)
 *   are bound from the path, as gRPC-gateway does, so they are not required in the body;
 * - `Project.tags`, `ListProject.tags`, `UpdateProjectRequest.tags` and
 *   `SearchScansRequest.statuses` are typed `string`/`integer` but carry `items`: they are arrays;
 * - `required` entries that name no property even so (`DeleteProjectResponse` requires
 *   `projects` and has only `project_name`), once path-bound ones are set aside: dropped, as no
 *   answer could have them;
 * - `ecosystem`, `transitivity`, `licensePolicySettings`, `products` and `statuses` carry a string
 *   `enum` at the array level (which no array can match) besides the one on `items`: dropped;
 * - the scan-meta key `on:` was read as a YAML 1.1 boolean when the file was generated and is
 *   written `true:`: renamed back to `on`;
 * - (v2) the request bodies of the Policies V2 operations require `deployment_id` and `product`,
 *   which are path parameters (`deploymentId`, `product`) and no property of the body: dropped
 *   from `required` as bound from the path;
 * - (v2) the two strict applies require the `If-Match` header in their description only: it is
 *   declared as the required header parameter it is.
 */
export function correctContract(doc: JsonObject): string[] {
  const found = {
    required: [] as string[],
    pathBound: [] as string[],
    ifMatch: [] as string[],
    arrays: [] as string[],
    arrayEnums: [] as string[],
    on: [] as string[],
    unmet: [] as string[],
  };
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  for (const [name, schema] of Object.entries(schemas)) {
    walkSchemas(schema as JsonObject, name, (node, where) => {
      const properties = node.properties as JsonObject | undefined;
      if (properties && "true" in properties && !("on" in properties)) {
        properties.on = properties.true!;
        delete properties.true;
        found.on.push(where);
      }
      if (node.items !== undefined && node.type !== "array") {
        node.type = "array";
        found.arrays.push(where);
      }
      if (node.type === "array" && Array.isArray(node.enum)) {
        delete node.enum;
        found.arrayEnums.push(where);
      }
      if (properties && Array.isArray(node.required)) {
        node.required = node.required.map((entry) => {
          const key = String(entry);
          if (key in properties) return key;
          const meant = propertyMeant(key, Object.keys(properties));
          if (meant) found.required.push(`${where}: ${key} → ${meant}`);
          return meant ?? key;
        });
      }
    });
  }
  for (const op of operationsOf(doc)) {
    if (!op.requestSchema) continue;
    const body = schemaAt(doc, op.requestSchema);
    const pathNames = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
    if (!Array.isArray(body.required)) continue;
    // A required entry names a path parameter as the property (`deploymentSlug`) or in its proto name (`deployment_id`).
    const properties = (body.properties ?? {}) as JsonObject;
    const bound = (entry: Json) =>
      pathNames.has(String(entry)) || (!(String(entry) in properties) && pathNames.has(camelCase(String(entry))));
    const kept = body.required.filter((r) => !bound(r));
    if (kept.length !== body.required.length) {
      found.pathBound.push(`${op.operationId} (${body.required.filter(bound).join(", ")})`);
      body.required = kept;
    }
  }
  for (const [name, schema] of Object.entries(schemas)) {
    walkSchemas(schema as JsonObject, name, (node, where) => {
      const properties = node.properties as JsonObject | undefined;
      if (!properties || !Array.isArray(node.required)) return;
      const unmet = node.required.filter((entry) => !(String(entry) in properties));
      if (unmet.length === 0) return;
      node.required = node.required.filter((entry) => String(entry) in properties);
      found.unmet.push(`${where} (${unmet.join(", ")})`);
    });
  }
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    for (const method of METHODS) {
      const op = (item as JsonObject)[method] as JsonObject | undefined;
      if (!op || !/Requires the current state_version in the If-Match header/.test(String(op.description ?? ""))) continue;
      const parameters = (op.parameters ?? []) as JsonObject[];
      if (parameters.some((p) => p.in === "header" && String(p.name).toLowerCase() === "if-match")) continue;
      parameters.push({
        name: "If-Match",
        in: "header",
        required: true,
        schema: { type: "string", minLength: 1 },
        description: "The bundle's current state_version.",
      });
      op.parameters = parameters;
      found.ifMatch.push(`${String(op.operationId)} (${method.toUpperCase()} ${path})`);
    }
  }
  const lines: string[] = [];
  const say = (what: string, places: string[]) => places.length && lines.push(`${what} (${places.length}): ${places.join("; ")}`);
  say("required entries in proto names mapped to their properties", found.required);
  say("body fields bound from the path no longer required in the body", found.pathBound);
  say("required entries naming no property dropped", found.unmet);
  say("If-Match, required in the description only, declared as a required header", found.ifMatch);
  say("schemas with items typed as arrays", found.arrays);
  say("array-level enums dropped (the items keep theirs)", found.arrayEnums);
  say("scan-meta key `true` renamed back to `on`", found.on);
  return lines;
}

const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `deployment_id` → `deploymentId`; `projects` → `project`: the property a required entry means. */
function propertyMeant(entry: string, properties: string[]): string | undefined {
  const camel = camelCase(entry);
  if (properties.includes(camel)) return camel;
  const singular = camel.replace(/s$/, "");
  return properties.includes(singular) ? singular : undefined;
}

/** Closes every object schema that lists its properties: a field it does not declare fails. */
function forbidUndeclaredFields(doc: JsonObject): void {
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  for (const [name, schema] of Object.entries(schemas)) {
    walkSchemas(schema as JsonObject, name, (node) => {
      if (node.properties && node.additionalProperties === undefined) node.additionalProperties = false;
    });
  }
}

/** Calls `visit` on a schema and every schema nested in it (properties, items, compositions). */
function walkSchemas(node: JsonObject, where: string, visit: (node: JsonObject, where: string) => void): void {
  visit(node, where);
  const properties = node.properties as JsonObject | undefined;
  for (const [key, child] of Object.entries(properties ?? {})) walkSchemas(child as JsonObject, `${where}.${key}`, visit);
  if (node.items && typeof node.items === "object" && !Array.isArray(node.items)) walkSchemas(node.items, `${where}[]`, visit);
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const child of (node[key] as JsonObject[] | undefined) ?? []) walkSchemas(child, where, visit);
  }
}

function schemaAt(doc: JsonObject, ref: string): JsonObject {
  let node: Json = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) node = (node as JsonObject)[part]!;
  return node as JsonObject;
}

// ---------------------------------------------------------------------------------------------
// Operations and paths

const METHODS = ["get", "put", "post", "patch", "delete"];

function operationsOf(doc: JsonObject): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    for (const method of METHODS) {
      const op = (item as JsonObject)[method] as JsonObject | undefined;
      if (!op) continue;
      const body = ((op.requestBody as JsonObject | undefined)?.content as JsonObject | undefined)?.["application/json"] as
        JsonObject | undefined;
      const ok = (((op.responses as JsonObject)["200"] as JsonObject | undefined)?.content as JsonObject | undefined)?.[
        "application/json"
      ] as JsonObject | undefined;
      operations.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        path,
        deprecated: op.deprecated === true,
        parameters: ((op.parameters as Json[] | undefined) ?? []) as unknown as Parameter[],
        requestSchema: (body?.schema as JsonObject | undefined)?.$ref as string | undefined,
        requestRequired: (op.requestBody as JsonObject | undefined)?.required === true,
        responseSchema: (ok?.schema as JsonObject | undefined)?.$ref as string | undefined,
        stability: stabilityOf(op["x-badges"]),
      });
    }
  }
  return operations;
}

/** An operation's stability from its `x-badges` (`[{"name": "Beta", ...}]`). */
function stabilityOf(badges: Json | undefined): Operation["stability"] {
  const names = Array.isArray(badges) ? badges.map((b) => String((b as JsonObject).name).toLowerCase()) : [];
  return names.includes("experimental") ? "experimental" : names.includes("beta") ? "beta" : undefined;
}

const patterns = new Map<string, RegExp>();

/** `/a/{b}/c` → `^/a/(?<b>[^/]+)/c$`: a path parameter is one encoded segment. */
function pathPattern(template: string): RegExp {
  let pattern = patterns.get(template);
  if (!pattern) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)");
    pattern = new RegExp(`^${source}$`);
    patterns.set(template, pattern);
  }
  return pattern;
}

function literalLength(template: string): number {
  return template.replace(/\{\w+\}/g, "").length;
}

/** A query parameter's raw values as the type its schema documents. */
function queryValue(schema: JsonObject, raw: string[]): unknown {
  const scalar = (type: Json | undefined, value: string): unknown => {
    if ((type === "integer" || type === "number") && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
    if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
    return value;
  };
  if (schema.type === "array") return raw.map((v) => scalar((schema.items as JsonObject | undefined)?.type, v));
  return raw.length === 1 ? scalar(schema.type, raw[0]!) : raw;
}

// ---------------------------------------------------------------------------------------------
// Formats and messages

const digits = /^-?\d+$/;
/** Both timestamp forms of the service: `2020-11-18 23:28:12.391807+00:00` and `2024-07-29T22:33:37Z`. */
const timestamp = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/i;

/**
 * The OpenAPI's formats. Integers of 64 bits travel as strings in JSON (the protobuf mapping), so
 * a string with an int64 format must hold digits; `enum`, `string` and `field-mask` are the
 * generator's labels and check nothing.
 */
const FORMATS = {
  int64: digits,
  int32: digits,
  "date-time": timestamp,
  float: true,
  double: true,
  enum: true,
  string: true,
  "field-mask": true,
} as const;

function describeErrors(errors: ErrorObject[], label: string): string[] {
  return errors.map((error) => {
    const where = `${label}${error.instancePath.replace(/\//g, ".")}`;
    if (error.keyword === "additionalProperties") return `${where}: field ${String(error.params.additionalProperty)} is not documented`;
    if (error.keyword === "enum") return `${where}: ${error.message} (${(error.params.allowedValues as unknown[]).join(", ")})`;
    return `${where}: ${error.message ?? error.keyword}`;
  });
}

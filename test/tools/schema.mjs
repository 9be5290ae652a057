// The Pulumi package schema, schema.json at the repository root: what the native plugin
// (pulumi-resource-semgrep) serves through GetSchema, what `pulumi package get-schema semgrep`
// prints, and what the SDKs of other languages are generated from. Generated, never written by
// hand: from the kinds' declarations (provider/core/kinds) and the data-source functions' argument and
// result types (the ones the plugin serves, provider/native/functions.ts FUNCTIONS), read as
// test/tools/docs.mjs reads them (types and doc comments from the TypeScript compiler, what exists
// only at run time from the built declarations in dist/).
//
//   node test/tools/schema.mjs          write schema.json (npm run schema)
//   node test/tools/schema.mjs --check  exit 1 naming each stale entry (npm run schema:check)
//
// The output depends on nothing but the sources: no dates, a fixed order, two-space JSON.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { readCommandLine } from "./command-line.mjs";
import {
  compile,
  docOf,
  DocsError,
  inputValueType,
  isLibrary,
  loadBuilt,
  outputValueType,
  REPO,
  resultType,
  functionStability,
  signatureOf,
  stabilityNote,
  tagOf,
} from "./docs.mjs";

export const SCHEMA_FILE = "schema.json";
const PACKAGE = "semgrep";
const WRITE_COMMAND = "npm run schema";
const GENERATOR = "test/tools/schema.mjs";
const token = (name) => `${PACKAGE}:index:${name}`;
/**
 * The type token the TypeScript classes (the dynamic provider, provider/dynamic/resources/resource-class.ts)
 * register a kind under. Every resource names it as an alias, so that a TypeScript stack moving to
 * the generated SDK keeps each resource's state and originals with no alias written in the program.
 */
const dynamicToken = (name) => `pulumi-nodejs:dynamic/${PACKAGE}:${name}`;
const ref = (name) => ({ $ref: `#/types/${token(name)}` });

/** Thrown when the schema cannot be generated: a property without a doc comment, a type it cannot express. */
export class SchemaError extends DocsError {}

/**
 * The package schema as an object, keys in a fixed order.
 *
 * @param {{ root?: string, sources?: Record<string, string> }} [options] `sources`: file contents
 *   to compile in place of those on disk, by path relative to `root` (what a test changes).
 * @returns {Record<string, any>}
 */
export function generateSchema({ root = REPO, sources = {} } = {}) {
  const api = compile(root, sources);
  const { KINDS } = loadBuilt(root, "core/kinds/index.js");
  const { FUNCTION_NAMES } = loadBuilt(root, "native/functions.js");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const context = { api, kinds: new Set(Object.keys(KINDS)), types: new Map(), problems: [] };
  const resources = Object.fromEntries(Object.keys(KINDS).map((kind) => [token(kind), resourceSpec(context, KINDS[kind])]));
  const functions = Object.fromEntries(FUNCTION_NAMES.map((name) => [token(name), functionSpec(context, name)]));
  if (context.problems.length) {
    throw new SchemaError(`${GENERATOR}: cannot generate ${SCHEMA_FILE}:\n${context.problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const types = Object.fromEntries([...context.types.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    name: PACKAGE,
    displayName: "Semgrep",
    description: pkg.description,
    keywords: [...pkg.keywords.filter((k) => k !== "dynamic-provider"), "category/utility", "kind/native"],
    homepage: pkg.homepage,
    license: pkg.license,
    repository: repositoryUrl(pkg),
    publisher: "pulumi-semgrep",
    version: pkg.version,
    pluginDownloadURL: "github://api.github.com/pulumi-semgrep/pulumi-semgrep",
    config: { variables: CREDENTIALS },
    provider: {
      description:
        "The provider of the Semgrep resources: the credentials and address of the Semgrep API. Set them as the stack's " +
        "`semgrep:token` (with `--secret`) and `semgrep:url`, or on an explicit provider; left out, the plugin reads the " +
        "environment at call time.",
      inputProperties: CREDENTIALS,
    },
    resources,
    functions,
    types,
    language: languages(pkg),
  };
}

/** The schema as the file holds it. */
export const schemaText = (schema) => `${JSON.stringify(schema, null, 2)}\n`;

/**
 * What differs between the generated schema and schema.json on disk, by entry
 * (`resources.semgrep:index:ProjectTags`, `version`): `[SCHEMA_FILE]` when the file is missing
 * or not JSON.
 */
export function compareSchema(schema, root = REPO) {
  const file = join(root, SCHEMA_FILE);
  if (!existsSync(file)) return [`${SCHEMA_FILE} (missing)`];
  const text = readFileSync(file, "utf8");
  if (text === schemaText(schema)) return [];
  let disk;
  try {
    disk = JSON.parse(text);
  } catch {
    return [`${SCHEMA_FILE} (not JSON)`];
  }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const differences = [];
  for (const key of new Set([...Object.keys(schema), ...Object.keys(disk)])) {
    const [mine, theirs] = [schema[key], disk[key]];
    if (same(mine, theirs)) continue;
    const mapped = ["resources", "functions", "types"].includes(key) && mine && theirs;
    if (!mapped) {
      differences.push(key);
      continue;
    }
    for (const entry of new Set([...Object.keys(mine), ...Object.keys(theirs)]))
      if (!same(mine[entry], theirs[entry])) differences.push(`${key}.${entry}`);
  }
  // Same content, other formatting.
  return differences.length ? differences : [`${SCHEMA_FILE} (formatting)`];
}

/** The message `npm run schema:check` prints for what compareSchema found. */
export function describeSchemaDifferences(differences) {
  return [
    `${SCHEMA_FILE} is out of date with the sources; stale:`,
    ...differences.map((d) => `  ${d}`),
    `Run \`${WRITE_COMMAND}\` and commit ${SCHEMA_FILE} (it is generated by ${GENERATOR}; do not edit it by hand).`,
  ].join("\n");
}

export function writeSchema(schema, root = REPO) {
  writeFileSync(join(root, SCHEMA_FILE), schemaText(schema));
}

const repositoryUrl = (pkg) =>
  String(pkg.repository?.url ?? pkg.repository)
    .replace(/^git\+/, "")
    .replace(/\.git$/, "");

// ---- Fixed parts ---------------------------------------------------------------------------

/** `semgrep:token` and `semgrep:url`: the stack's config, and an explicit provider's inputs. */
const CREDENTIALS = {
  token: {
    type: "string",
    secret: true,
    description:
      "Semgrep API token with Web API access (set it with `pulumi config set --secret semgrep:token`). When unset, the " +
      "plugin reads `SEMGREP_APP_TOKEN`, then `SEMGREP_API_TOKEN`, from its environment at call time.",
  },
  url: {
    type: "string",
    description:
      "Base address of the Semgrep API, e.g. `https://semgrep.dev` (the default) or a local emulator's address. When " +
      "unset, the plugin reads `SEMGREP_APP_URL`, then `SEMGREP_URL`, from its environment.",
  },
};

/** What each SDK generator needs: the package's name in each registry, and the README it ships. */
function languages(pkg) {
  const readme = (name, install) => sdkReadme(pkg, name, install);
  return {
    csharp: { rootNamespace: "PulumiSemgrep", packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
    go: {
      importBasePath: "github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep",
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
    nodejs: {
      packageName: "@pulumi-semgrep/semgrep",
      packageDescription: pkg.description, // npm shows it under the name; the generator writes none without it
      respectSchemaVersion: true,
      readme: readme("@pulumi-semgrep/semgrep", "npm install @pulumi-semgrep/semgrep"),
    },
    python: {
      packageName: "pulumi_semgrep",
      respectSchemaVersion: true,
      pyproject: { enabled: true },
      readme: readme("pulumi_semgrep", "pip install pulumi_semgrep"),
    },
  };
}

/** The README of a published SDK: what it is, what it needs beside it, where the docs are. */
const sdkReadme = (pkg, name, install) =>
  [
    `# ${name}`,
    "",
    `${pkg.description} Install it with \`${install}\`.`,
    "",
    "This SDK is generated from the schema of the native plugin `pulumi-resource-semgrep`, which serves its resources " +
      "and functions. Install the plugin of the same version: `pulumi plugin install resource semgrep " +
      `${pkg.version} --file <release tarball>\`, or let the CLI fetch it from the project's GitHub release. ` +
      "The plugin needs Node.js 22 or later on the PATH.",
    "",
    "Set the credentials with `pulumi config set --secret semgrep:token <token>` (and `semgrep:url` for another " +
      "address than https://semgrep.dev).",
    "",
    `Every resource's behaviour, ownership rules and examples in each language: ${pkg.homepage}`,
    "",
  ].join("\n");

// ---- Resources -----------------------------------------------------------------------------

function resourceSpec(context, declaration) {
  const { api, problems } = context;
  const { checker } = api;
  const kind = declaration.kind;
  const classSymbol = api.symbol(kind);
  const argsSymbol = api.symbol(`${kind}Args`);
  if (!classSymbol || !argsSymbol) {
    problems.push(`${kind}: provider/index.ts exports no ${!classSymbol ? `class ${kind}` : `type ${kind}Args`}`);
    return {};
  }
  const declaredInputs = Object.keys(declaration.inputs);
  const args = checker.getDeclaredTypeOfSymbol(argsSymbol);
  const inputProperties = {};
  const requiredInputs = [];
  for (const name of declaredInputs) {
    const property = checker.getPropertyOfType(args, name);
    if (!property) {
      problems.push(`${kind}: ${kind}Args has no \`${name}\`, which dist/kinds declares: rebuild`);
      continue;
    }
    const where = `${kind}: input \`${name}\``;
    const type = inputValueType(api, checker.getTypeOfSymbol(property));
    inputProperties[name] = propertySpec(context, property, type, { where, input: true, hint: `${kind}${capital(name)}` });
    if (declaration.inputs[name].replaces) inputProperties[name].replaceOnChanges = true;
    if (!(property.flags & ts.SymbolFlags.Optional)) requiredInputs.push(name);
  }

  const instance = checker.getDeclaredTypeOfSymbol(classSymbol);
  const properties = {};
  const required = [];
  // An input not echoed in the outputs (declare.ts `echoed: false`) is no output of the resource.
  const echoedInputs = declaredInputs.filter((name) => declaration.inputs[name].echoed !== false);
  for (const name of [...new Set([...echoedInputs, ...Object.keys(declaration.outputs)])]) {
    const property = checker.getPropertyOfType(instance, name);
    if (!property || (property.declarations ?? []).some(isLibrary)) {
      problems.push(`${kind}: class ${kind} has no output \`${name}\`, which dist/kinds declares: rebuild`);
      continue;
    }
    const where = `${kind}: output \`${name}\``;
    const type = outputValueType(api, checker.getTypeOfSymbol(property));
    const hint = `${kind}${capital(name)}`;
    // An input the kind does not declare again as an output holds the input as checked: typed as programs write it.
    const asInput = !(name in declaration.outputs) && checker.getPropertyOfType(args, name);
    properties[name] = asInput
      ? propertySpec(context, asInput, inputValueType(api, checker.getTypeOfSymbol(asInput)), { where, input: true, hint })
      : propertySpec(context, property, type, { where, input: false, hint });
    if (alwaysSecret(declaration, name)) properties[name].secret = true;
    if (!mayBeAbsent(type)) required.push(name);
  }
  return {
    description: resourceDescription(context, declaration, classSymbol),
    properties,
    required,
    inputProperties,
    requiredInputs,
    aliases: [{ type: dynamicToken(kind) }],
  };
}

/** A whole set other resources add to (a project's tags), when the resource has no input of its name: a secret in every state. */
const alwaysSecret = (declaration, name) => Boolean(declaration.outputs[name]?.sharedSet) && !(name in declaration.inputs);

/**
 * The class's doc comment (its TypeScript example left out), the id, and what create, update,
 * read and delete do on the service, as the declaration says.
 */
function resourceDescription({ api, problems }, declaration, classSymbol) {
  const { kind, id, service } = declaration;
  // `<a>/<b> (a note)`: the format, then what the note says of it.
  const [format, note] = id.format.split(/ (?=\()/);
  const summary = docOf(api, classSymbol);
  if (!summary) problems.push(`${kind}: the class has no doc comment (${declarationFile(api, classSymbol)})`);
  return [
    summary,
    ...(declaration.stability ? [stabilityNote(declaration.stability, `\`${kind}\``)] : []),
    "## Id",
    `\`${format}\`${note ? ` ${note}` : ""}: reading (refresh, import, a resource read by its id) works from the id alone.`,
    kind === "SbomExport"
      ? "An export job cannot be imported usefully: the service does not report what an export was asked for, so `pulumi import` declares none of its required inputs."
      : `Import an existing object with \`pulumi import ${token(kind)} <name> ${format}\`; an imported resource records no ` +
        "original (it found the value as declared), so `destroy` leaves the object as it is.",
    "## What it does on the service",
    [
      `- **Create**: ${service.create}`,
      `- **Update**: ${service.update}`,
      `- **Read** (refresh, import): ${service.read}`,
      `- **Delete**: ${service.delete}`,
    ].join("\n"),
    "## Adoption",
    service.adoption,
    // Rules across inputs (checked at preview, the error naming the input): the schema types each input alone.
    ...(declaration.rules?.length
      ? ["## Rules across inputs", declaration.rules.map((rule) => `- \`${rule.path}\`: ${rule.message}.`).join("\n")]
      : []),
  ].join("\n\n");
}

// ---- Functions -----------------------------------------------------------------------------

function functionSpec(context, name) {
  const { api, problems } = context;
  const { checker } = api;
  const fn = signatureOf(api, name);
  const args = fn?.parameters[0];
  if (!fn || !args) {
    problems.push(`${name}: provider/index.ts exports no function ${name}(args, opts)`);
    return {};
  }
  const summary = docOf(api, fn.symbol);
  if (!summary) problems.push(`${name}: no doc comment (${fn.file})`);
  const note = stabilityNote(functionStability(api, fn.symbol), `\`${name}\``);
  const description = [summary, note].filter(Boolean).join("\n\n");
  const hint = capital(name);
  const inputs = objectSpec(context, checker.getTypeFromTypeNode(args.typeNode), { where: `${name}: argument`, hint: `${hint}Args` });
  const result = resultType(api, fn.returns).type;
  const outputs = isObject(checker, result)
    ? objectSpec(context, result, { where: `${name}: result field`, hint: `${hint}Result` })
    : typeSpec(context, result, { where: `${name}: result`, hint: `${hint}Result` });
  return { description, inputs, outputs };
}

// ---- Types ---------------------------------------------------------------------------------

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const isNullish = (type) => Boolean(type.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void));
const membersOf = (type) => (type.isUnion() ? type.types : [type]);
/** Whether a value of this type may be null or left out (then never a required property). */
const mayBeAbsent = (type) => membersOf(type).some(isNullish);

function isObject(checker, type) {
  const members = membersOf(type).filter((m) => !isNullish(m));
  if (members.length !== 1) return false;
  const [only] = members;
  return (
    Boolean(only.flags & ts.TypeFlags.Object || only.isIntersection()) &&
    !checker.isArrayType(only) &&
    !checker.isTupleType(only) &&
    checker.getPropertiesOfType(only).length > 0
  );
}

/**
 * A property: its type, its doc comment (refused when there is none), `deprecationMessage` from
 * `@deprecated`, and the values of a closed set of strings where the doc comment does not name
 * each of them.
 */
function propertySpec(context, property, type, { where, input, hint }) {
  const { api, problems } = context;
  const description = docOf(api, property);
  if (!description) problems.push(`${where} has no doc comment (${declarationFile(api, property)})`);
  const spec = typeSpec(context, type, { where, input, hint });
  const values = spec.values ?? spec.items?.values ?? spec.additionalProperties?.values;
  for (const s of [spec, spec.items, spec.additionalProperties]) if (s) delete s.values;
  const missing = values?.filter((v) => !description.includes(`\`${v}\``) && !description.includes(`"${v}"`));
  const listed = missing?.length ? `One of ${values.map((v) => `\`${v}\``).join(", ")}.` : "";
  const deprecated = tagOf(api, property, "deprecated");
  return {
    ...spec,
    description: [description, listed].filter(Boolean).join(" "),
    // One line: the SDKs print it as a warning.
    ...(deprecated ? { deprecationMessage: deprecated.replace(/\s*\n\s*/g, " ") } : {}),
  };
}

function declarationFile(api, symbol) {
  const node = symbol.valueDeclaration ?? symbol.declarations?.[0];
  return node ? node.getSourceFile().fileName.slice(api.root.length + 1) : "provider";
}

/**
 * The schema type of a TypeScript type. `null` and `undefined` are left out (optional or nullable
 * is said by `required`); a string union is a string (its values, when closed, kept in `values`
 * for the description); `string | number` (an id that may be written as a number) is a string, the
 * form the provider normalizes it to; a record is a map; an object is a named type in `types`;
 * any other union is a `oneOf`.
 */
function typeSpec(context, type, { where, input = false, hint }) {
  const { api } = context;
  const { checker } = api;
  const plain = (t) => (input ? inputValueType(api, t) : t);
  const members = membersOf(plain(type))
    .map(plain)
    .flatMap(membersOf)
    .filter((m) => !isNullish(m));
  const stringy = (m) => m.flags & ts.TypeFlags.StringLike || (m.isIntersection() && m.types.some((t) => t.flags & ts.TypeFlags.String));
  if (!members.length) return { $ref: "pulumi.json#/Any" };
  if (members.every((m) => m.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
  if (members.every((m) => stringy(m) || m.flags & ts.TypeFlags.NumberLike) && members.some(stringy)) {
    const closed = members.every((m) => m.flags & ts.TypeFlags.StringLiteral);
    return closed ? { type: "string", values: members.map((m) => m.value) } : { type: "string" };
  }
  if (members.every((m) => m.flags & ts.TypeFlags.NumberLike)) return { type: "number" };
  if (members.length > 1) {
    return { oneOf: members.map((m, i) => typeSpec(context, m, { where, input, hint: `${hint}${i + 1}` })) };
  }
  const [only] = members;
  if (checker.isArrayType(only)) {
    const element = checker.getTypeArguments(only)[0];
    return { type: "array", items: typeSpec(context, element, { where: `${where}[]`, input, hint }) };
  }
  const index = checker.getIndexInfosOfType(only).find((info) => info.keyType.flags & ts.TypeFlags.String);
  if (index && checker.getPropertiesOfType(only).length === 0) {
    return { type: "object", additionalProperties: typeSpec(context, index.type, { where: `${where}{}`, input, hint }) };
  }
  if (isObject(checker, only)) return ref(namedType(context, only, { where, input, hint }));
  if (only.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
  context.problems.push(`${where}: cannot express \`${checker.typeToString(only)}\` in the schema`);
  return { $ref: "pulumi.json#/Any" };
}

/**
 * The properties of an object type, each with its doc comment, and those always present as
 * `required`.
 */
function objectSpec(context, type, { where, input = false, hint }) {
  const { checker } = context.api;
  const properties = {};
  const required = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const propertyType = checker.getTypeOfSymbol(property);
    properties[property.name] = propertySpec(context, property, propertyType, {
      where: `${where} \`${property.name}\``.replace(/` `/g, "."),
      input,
      hint: `${hint}${capital(property.name)}`,
    });
    const optional = property.flags & ts.SymbolFlags.Optional;
    if (!optional && !mayBeAbsent(input ? inputValueType(context.api, propertyType) : propertyType)) required.push(property.name);
  }
  return { properties, ...(required.length ? { required } : {}) };
}

/**
 * Registers an object type under the name of where its properties are declared (an interface, a
 * type alias, a zod schema's variable, or, for an object written inline, its container's name and
 * the property's), without the `Args`, `Output`, `Info` or `Schema` suffix (the SDKs add their
 * own) unless that would take a resource's name; or, when that says nothing, under the name of
 * where it is used. The input and output forms of one type share a name when they have the same
 * properties (required then where both require); otherwise an output form is `<Name>Result`.
 */
function namedType(context, type, { where, input, hint }) {
  const { checker } = context.api;
  const written = declaredName(checker.getPropertiesOfType(type));
  const stripped = written?.replace(/(?<=.)(Args|Output|Info|Schema)$/, "");
  const base = written ? (context.kinds.has(stripped) ? written : stripped) : hint;
  const spec = { type: "object", ...objectSpec(context, type, { where, input, hint: base }) };
  for (const name of [base, `${base}${input ? "Input" : "Result"}`]) {
    const known = context.types.get(token(name));
    const merged = known ? mergeForms(known, spec) : spec;
    if (merged) {
      context.types.set(token(name), merged);
      return name;
    }
  }
  context.problems.push(`${where}: no free name for type ${base}`);
  return base;
}

/** The name of the one place the properties are declared in, when they are declared in one named place. */
function declaredName(properties) {
  const names = new Set(
    properties.map((p) => {
      const node = p.valueDeclaration ?? p.declarations?.[0];
      return node ? containerName(node.parent) : undefined;
    }),
  );
  const [name] = names;
  return names.size === 1 && name ? name : undefined;
}

/** `interface X`, `type X = {…}`, `const x = z.object({…})`, or `X`'s property `p: {…}` (`XP`). */
function containerName(node) {
  if (!node) return undefined;
  if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node)) && node.name)
    return node.name.text;
  if (ts.isTypeLiteralNode(node)) {
    let up = node.parent;
    while (up && (ts.isArrayTypeNode(up) || ts.isUnionTypeNode(up) || ts.isParenthesizedTypeNode(up))) up = up.parent;
    if (up && ts.isTypeAliasDeclaration(up)) return up.name.text;
    if (up && ts.isPropertySignature(up) && ts.isIdentifier(up.name)) {
      const outer = containerName(up.parent);
      return outer ? `${outer.replace(/(?<=.)(Args|Output|Info|Schema)$/, "")}${capital(up.name.text)}` : undefined;
    }
    return undefined;
  }
  if (ts.isObjectLiteralExpression(node)) {
    let up = node.parent;
    while (up && (ts.isCallExpression(up) || ts.isPropertyAccessExpression(up) || ts.isAsExpression(up))) up = up.parent;
    if (up && ts.isVariableDeclaration(up) && ts.isIdentifier(up.name)) return capital(up.name.text);
  }
  return undefined;
}

/** One type for two forms with the same properties of the same types: required where both require. */
function mergeForms(a, b) {
  const shape = (spec) => JSON.stringify(Object.entries(spec.properties).map(([name, p]) => [name, { ...p, description: undefined }]));
  if (shape(a) !== shape(b)) return undefined;
  const properties = Object.fromEntries(
    Object.entries(a.properties).map(([name, p]) => [name, p.description ? p : { ...p, description: b.properties[name].description }]),
  );
  const required = (a.required ?? []).filter((name) => b.required?.includes(name));
  return { ...a, properties, ...(required.length ? { required } : {}) };
}

// ---- Command line --------------------------------------------------------------------------

function main({ check }) {
  let schema;
  try {
    schema = generateSchema();
  } catch (error) {
    if (!(error instanceof DocsError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (check) {
    const differences = compareSchema(schema);
    if (differences.length) {
      console.error(describeSchemaDifferences(differences));
      return 1;
    }
    console.log(`${SCHEMA_FILE} is up to date.`);
    return 0;
  }
  writeSchema(schema);
  const size = Buffer.byteLength(schemaText(schema));
  console.log(
    `Wrote ${SCHEMA_FILE}: ${Object.keys(schema.resources).length} resources, ${Object.keys(schema.functions).length} functions, ` +
      `${Object.keys(schema.types).length} types, ${size} bytes.`,
  );
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = readCommandLine({
    command: WRITE_COMMAND,
    about: `Writes ${SCHEMA_FILE}, the Pulumi package schema the native plugin serves and the SDKs are
generated from, from the kinds' declarations and the data-source functions' types; \`npm run
schema:check\` checks it. Reads the built declarations in dist/ (the npm scripts build first).`,
    flags: {
      check: {
        type: "boolean",
        default: false,
        help: "write nothing: exit 1 naming each stale entry (npm run schema:check passes it)",
      },
    },
  });
  process.exitCode = main(values);
}

/**
 * schema.json, the Pulumi package schema the native plugin serves (GetSchema) and the SDKs are
 * generated from, is generated (test/tools/schema.mjs, `npm run schema`): it must be what the
 * sources generate now, hold every kind and function with every declared input and output and its
 * doc comment, follow a change of a doc comment, and be a valid package schema by Pulumi's own
 * metaschema. Runs against dist/ (`npm test` builds first).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compareSchema, describeSchemaDifferences, generateSchema, SCHEMA_FILE, schemaText, writeSchema } from "../tools/schema.mjs";
import { REPO } from "../tools/docs.mjs";

type Declaration = { inputs: Record<string, { replaces?: boolean; echoed?: false }>; outputs: Record<string, unknown> };
const built = (path: string) => createRequire(join(REPO, "package.json"))(join(REPO, "dist", path)) as Record<string, unknown>;
const KINDS = built("core/kinds/index.js").KINDS as Record<string, Declaration>;
const FUNCTION_NAMES = built("native/functions.js").FUNCTION_NAMES as string[];

interface Property {
  type?: string;
  $ref?: string;
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  items?: Property;
  additionalProperties?: Property;
  oneOf?: Property[];
}
interface ObjectSpec {
  description?: string;
  properties: Record<string, Property>;
  required?: string[];
}
interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, Property>;
  requiredInputs: string[];
  aliases?: { type?: string }[];
}
interface Schema {
  name: string;
  version: string;
  pluginDownloadURL: string;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { description: string; inputs: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
  language: Record<string, Record<string, unknown>>;
}

const source = (path: string) => readFileSync(join(REPO, path), "utf8");

/** `text` with `from` replaced once, failing when `from` is not there (the test would prove nothing). */
function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

/** Every `$ref` of a property, at any depth. */
function refsOf(property: Property): string[] {
  return [
    ...(property.$ref ? [property.$ref] : []),
    ...[property.items, property.additionalProperties, ...(property.oneOf ?? [])].filter((p) => p !== undefined).flatMap(refsOf),
  ];
}

/** Pulumi's metaschema for package schemas, from the Go module the CLI build put in the module cache; undefined when absent. */
function metaschemaPath(): string | undefined {
  let cache: string;
  try {
    cache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
  const path = join(cache, "github.com/pulumi/pulumi/pkg/v3@v3.259.0/codegen/schema/pulumi.json");
  return existsSync(path) ? path : undefined;
}
const METASCHEMA = metaschemaPath();

describe("package schema (schema.json)", () => {
  let schema: Schema;
  beforeAll(() => {
    schema = generateSchema() as Schema;
  });

  it("is what the sources generate (else: npm run schema), two-space JSON with a trailing newline", () => {
    const differences = compareSchema(schema);
    expect(differences, differences.length ? describeSchemaDifferences(differences) : "").toEqual([]);
    expect(schemaText(schema)).toMatch(/^\{\n {2}"name": "semgrep",\n[\s\S]*\n\}\n$/);
  });

  it("names the package, its version, where the plugin downloads from, and each SDK's package", () => {
    const pkg = JSON.parse(source("package.json")) as { version: string; files: string[] };
    expect(schema.name).toBe("semgrep");
    expect(schema.version).toBe(pkg.version);
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-semgrep/pulumi-semgrep");
    expect(schema.language.nodejs!.packageName).toBe("@pulumi-semgrep/semgrep");
    expect(schema.language.python!.packageName).toBe("pulumi_semgrep");
    expect(schema.language.go).toMatchObject({
      importBasePath: "github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep",
      respectSchemaVersion: true,
    });
    expect(schema.language.csharp!.rootNamespace).toBe("PulumiSemgrep");
    // The plugin's GetSchema reads it from the installed package's root.
    expect(pkg.files).toContain(SCHEMA_FILE);
  });

  it("has semgrep:token (a secret) and semgrep:url as config and as the provider's inputs, with their environment fallbacks", () => {
    for (const properties of [schema.config.variables, schema.provider.inputProperties]) {
      expect(Object.keys(properties)).toEqual(["token", "url"]);
      expect(properties.token).toMatchObject({ type: "string", secret: true });
      expect(properties.token!.description).toMatch(/SEMGREP_APP_TOKEN`, then `SEMGREP_API_TOKEN/);
      expect(properties.url!.secret).toBeUndefined();
      expect(properties.url!.description).toMatch(/SEMGREP_APP_URL`, then `SEMGREP_URL/);
    }
  });

  it("has every kind as semgrep:index:<Kind>: every declared input and output with a description, replaceOnChanges exactly where the declaration replaces", () => {
    expect(Object.keys(schema.resources)).toEqual(Object.keys(KINDS).map((kind) => `semgrep:index:${kind}`));
    for (const [kind, declaration] of Object.entries(KINDS)) {
      const resource = schema.resources[`semgrep:index:${kind}`]!;
      const inputs = Object.keys(declaration.inputs);
      expect(Object.keys(resource.inputProperties), kind).toEqual(inputs);
      // An input not echoed in the outputs (a ProjectSettingsSet's `projects`) is no output.
      const echoed = inputs.filter((name) => declaration.inputs[name]!.echoed !== false);
      expect(Object.keys(resource.properties), kind).toEqual([...new Set([...echoed, ...Object.keys(declaration.outputs)])]);
      for (const [name, property] of [...Object.entries(resource.inputProperties), ...Object.entries(resource.properties)])
        expect(property.description, `${kind}.${name}`).toBeTruthy();
      const replacing = Object.entries(resource.inputProperties).filter(([, p]) => p.replaceOnChanges);
      expect(
        replacing.map(([name]) => name),
        kind,
      ).toEqual(inputs.filter((name) => declaration.inputs[name]!.replaces));
      expect(replacing.every(([, p]) => p.replaceOnChanges === true)).toBe(true);
      expect(Object.values(resource.properties).some((p) => p.replaceOnChanges)).toBe(false);
      expect(resource.requiredInputs.every((name) => inputs.includes(name))).toBe(true);
      for (const heading of ["## Id", "## What it does on the service", "- **Create**:", "- **Delete**:", "## Adoption"])
        expect(resource.description, kind).toContain(heading);
    }
  });

  it("gives every resource the type its TypeScript class registers as an alias: a stack moves to the SDK with none written", () => {
    // The dynamic classes' type: Pulumi's `pulumi-nodejs:dynamic/<module>:<name>` with the module the classes pass.
    const { TYPE_MODULE } = built("dynamic/shims/shim.js") as { TYPE_MODULE: string };
    for (const kind of Object.keys(KINDS))
      expect(schema.resources[`semgrep:index:${kind}`]!.aliases, kind).toEqual([{ type: `pulumi-nodejs:dynamic/${TYPE_MODULE}:${kind}` }]);
  });

  it("says what is required and what is always a secret, as declared (checked by hand for a few kinds)", () => {
    const resource = (kind: string) => schema.resources[`semgrep:index:${kind}`]!;
    expect(resource("PolicyRuleMode").requiredInputs).toEqual(["deploymentId", "policyId", "rulePath", "mode"]);
    expect(resource("PolicyRuleMode").required).toEqual(["deploymentId", "policyId", "rulePath", "mode", "ruleId"]);
    expect(resource("PolicyRuleMode").description).toContain("`<deploymentId>/<policyId>/<rulePath>`");
    expect(resource("ProjectTags").requiredInputs).toEqual(["deploymentSlug", "projectName", "tags"]);
    expect(resource("ProjectSettings").requiredInputs).toEqual(["deploymentSlug", "projectName"]);
    expect(resource("PolicyRuleModes").requiredInputs).toEqual(["deploymentId", "policyId"]);
    // A whole set other resources add to, which the resource does not declare: a secret in every state.
    const secrets = Object.entries(schema.resources).flatMap(([token, r]) =>
      Object.entries(r.properties)
        .filter(([, p]) => p.secret)
        .map(([name]) => `${token}.${name}`),
    );
    expect(secrets).toEqual([
      "semgrep:index:ProjectSettings.originalTags",
      "semgrep:index:ProjectTags.projectTags",
      // The members and projects of a team that other resources (TeamMembers, TeamProjects) declare, maybe as secrets.
      "semgrep:index:Team.otherMembers",
      "semgrep:index:Team.otherProjects",
    ]);
    // A closed set of strings is a string whose description names every value.
    const mode = resource("PolicyRuleModes").inputProperties.mode!;
    expect(mode.type).toBe("string");
    for (const value of ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"]) expect(mode.description).toContain(`\`${value}\``);
    expect(resource("PolicyRuleModes").inputProperties.modes).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
  });

  it("has every function the plugin serves as semgrep:index:<getX>, with its arguments and result fields described", () => {
    expect(Object.keys(schema.functions)).toEqual(FUNCTION_NAMES.map((name) => `semgrep:index:${name}`));
    for (const [token, fn] of Object.entries(schema.functions)) {
      expect(fn.description, token).toBeTruthy();
      expect(Object.keys(fn.inputs.properties), token).toContain(/getProjects?$/.test(token) ? "deploymentSlug" : "deploymentId");
      for (const [name, property] of [...Object.entries(fn.inputs.properties), ...Object.entries(fn.outputs.properties)])
        expect(property.description, `${token}: ${name}`).toBeTruthy();
    }
    // A result that is one object is that object's fields (GetPolicyResult = PolicyInfo).
    const getPolicy = schema.functions["semgrep:index:getPolicy"]!;
    expect(Object.keys(getPolicy.outputs.properties)).toEqual(["id", "name", "slug", "isDefault", "productType"]);
    expect(getPolicy.outputs.required).toEqual(["id", "name", "isDefault"]);
    expect(getPolicy.inputs.required).toEqual(["deploymentId"]);
  });

  it("defines every type it refers to, each property with a description", () => {
    const properties = [
      ...Object.values(schema.resources).flatMap((r) => [...Object.values(r.inputProperties), ...Object.values(r.properties)]),
      ...Object.values(schema.functions).flatMap((f) => [...Object.values(f.inputs.properties), ...Object.values(f.outputs.properties)]),
      ...Object.values(schema.types).flatMap((t) => Object.values(t.properties)),
    ];
    const refs = new Set(properties.flatMap(refsOf));
    expect([...refs].filter((ref) => !schema.types[ref.replace("#/types/", "")])).toEqual([]);
    expect(Object.keys(schema.types).filter((token) => !refs.has(`#/types/${token}`))).toEqual([]);
    for (const [token, type] of Object.entries(schema.types))
      for (const [name, property] of Object.entries(type.properties)) expect(property.description, `${token}.${name}`).toBeTruthy();
    expect(schema.types["semgrep:index:ScanToggle"]).toMatchObject({ properties: { enabled: { type: "boolean" } }, required: ["enabled"] });
  });

  it.skipIf(!METASCHEMA)(
    `is valid by Pulumi's metaschema (pkg/v3@v3.259.0 codegen/schema/pulumi.json in the Go module cache${METASCHEMA ? "" : ": absent, so this check did not run; npm run pulumi:cli puts it there"})`,
    () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      const validate = ajv.compile(JSON.parse(readFileSync(METASCHEMA!, "utf8")) as object);
      expect(validate(schema), JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true);
      // The check can fail: a property of an unknown type is refused.
      const broken = structuredClone(schema);
      broken.resources["semgrep:index:ProjectTags"]!.inputProperties.tags!.type = "list";
      expect(validate(broken)).toBe(false);
    },
  );

  it("goes stale when a doc comment changes: the check names the entries (a resource, a function), and writing fixes them", () => {
    const kind = "provider/core/kinds/project-tags.ts";
    const fn = "provider/functions/projects.ts";
    const regenerated = generateSchema({
      sources: {
        [kind]: replaced(
          source(kind),
          "/** Every tag of the project at the last read or write, system tags (`managed-scan`) included. */",
          "/** Every tag of the project, as last seen. */",
        ),
        [fn]: replaced(source(fn), "One project: its tags,", "A single project: its tags,"),
      },
    }) as Schema;
    expect(regenerated.resources["semgrep:index:ProjectTags"]!.properties.projectTags!.description).toBe(
      "Every tag of the project, as last seen.",
    );
    const differences = compareSchema(regenerated);
    expect(differences).toEqual(["resources.semgrep:index:ProjectTags", "functions.semgrep:index:getProject"]);
    const message = describeSchemaDifferences(differences);
    expect(message).toContain("resources.semgrep:index:ProjectTags");
    expect(message).toContain("Run `npm run schema`");

    const root = mkdtempSync(join(tmpdir(), "pulumi-semgrep-schema-"));
    try {
      expect(compareSchema(schema, root)).toEqual(["schema.json (missing)"]);
      writeSchema(regenerated, root);
      expect(compareSchema(schema, root)).toEqual(differences);
      writeFileSync(join(root, SCHEMA_FILE), JSON.stringify(schema));
      expect(compareSchema(schema, root)).toEqual(["schema.json (formatting)"]);
      writeSchema(schema, root);
      expect(compareSchema(schema, root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

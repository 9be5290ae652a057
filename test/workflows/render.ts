/**
 * One model of a program (model.ts), two renderings, one per front end: the `index.js` a user of
 * the package's dynamic classes writes (`pulumi.secret(...)`, `aliases: [{ name }]`), and the
 * `Pulumi.yaml` a user of the native plugin writes (`fn::secret`, an alias by the old URN, as a
 * YAML program names one). Every step runs the same model through either.
 */
import type { Program } from "./model";

/** The front ends a workflow runs through. */
export const FRONT_ENDS = ["dynamic", "native"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

/** The project and stack every workflow's program runs as (the YAML aliases name them in URNs). */
export const PROJECT = "e2e";
const STACK = "test";

const json = (value: unknown) => JSON.stringify(value);

/** The program as a runnable `index.js` (the packed package, `pulumi` and `semgrep` in scope). */
export function renderTypeScript(program: Program): string {
  const lines = program.map((decl) => {
    const props = Object.entries(decl.props).map(([key, value]) =>
      decl.secret.includes(key) ? `${key}: pulumi.secret(${json(value)})` : `${key}: ${json(value)}`,
    );
    const options = [
      ...(decl.alias ? [`aliases: [{ name: ${json(decl.alias)} }]`] : []),
      ...(decl.dependsOn ? [`dependsOn: [resources[${json(decl.dependsOn)}]]`] : []),
    ];
    const opts = options.length ? `, { ${options.join(", ")} }` : "";
    return `resources[${json(decl.name)}] = new semgrep.${decl.kind}(${json(decl.name)}, { ${props.join(", ")} }${opts});`;
  });
  return `const pulumi = require("@pulumi/pulumi");\nconst semgrep = require("pulumi-semgrep");\nconst resources = {};\n${lines.join("\n")}\n`;
}

/**
 * The program as a whole `Pulumi.yaml` of the plugin's resources (`semgrep:index:<Kind>`). Values
 * are JSON, which YAML reads as flow collections; a secret input is `{ fn::secret: value }`.
 */
export function renderYaml(program: Program): string {
  const resources = program.map((decl) => {
    const props = Object.fromEntries(
      Object.entries(decl.props).map(([key, value]) => [key, decl.secret.includes(key) ? { "fn::secret": value } : value]),
    );
    const options = {
      ...(decl.alias ? { aliases: [`urn:pulumi:${STACK}::${PROJECT}::semgrep:index:${decl.kind}::${decl.alias}`] } : {}),
      ...(decl.dependsOn ? { dependsOn: [`\${${decl.dependsOn}}`] } : {}),
    };
    return [
      `  ${json(decl.name)}:`,
      `    type: semgrep:index:${decl.kind}`,
      `    properties: ${json(props)}`,
      ...(Object.keys(options).length ? [`    options: ${json(options)}`] : []),
    ].join("\n");
  });
  return `name: ${PROJECT}\nruntime: yaml\nresources:${resources.length ? `\n${resources.join("\n")}` : " {}"}\n`;
}

/** The program file of a front end, and the program in it. */
export const programFile = (frontEnd: FrontEnd) => (frontEnd === "native" ? "Pulumi.yaml" : "index.js");
export const renderFor = (frontEnd: FrontEnd, program: Program) =>
  frontEnd === "native" ? renderYaml(program) : renderTypeScript(program);

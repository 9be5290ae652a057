/**
 * schema.json through the real CLI: the installed plugin serves it (`pulumi package get-schema
 * semgrep` prints the file the package ships), and a YAML program is checked against it before
 * any request: a misspelled input, a missing required input and a value of the wrong type are
 * refused at preview, naming the property, from the schema's inputProperties, requiredInputs
 * and types.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { installPlugin } from "../support/native-plugin";
import { type PulumiWorkspace, pulumiWorkspace } from "../support/pulumi";
import { REPO } from "../tools/docs.mjs";

/** A YAML program of one PolicyRuleMode with `properties` (YAML lines, indented by six spaces). */
const program = (properties: string) =>
  [
    "name: native-schema",
    "runtime: yaml",
    "resources:",
    "  rule:",
    "    type: semgrep:index:PolicyRuleMode",
    "    properties:",
    properties,
    "",
  ].join("\n");

const IDENTITY = [
  '      deploymentId: "1"',
  '      policyId: "10"',
  "      rulePath: python.lang.security.audit.eval-detected.eval-detected",
];

describe("schema.json through the Pulumi CLI and the installed plugin", () => {
  let workspace: PulumiWorkspace;
  beforeAll(async () => {
    // No emulator and no token: everything here must happen before any request.
    workspace = await pulumiWorkspace({ "Pulumi.yaml": program([...IDENTITY, "      mode: MODE_BLOCK"].join("\n")) });
    await installPlugin(workspace);
  }, 120_000);

  it("`pulumi package get-schema semgrep` prints the schema the package ships", async () => {
    const printed = JSON.parse((await workspace.run(["package", "get-schema", "semgrep"])).stdout) as unknown;
    expect(printed).toEqual(JSON.parse(readFileSync(join(REPO, "schema.json"), "utf8")));
  });

  it("previews a program the schema allows, ids written as numbers included", async () => {
    writeFileSync(
      join(workspace.dir, "Pulumi.yaml"),
      program(["      deploymentId: 1", "      policyId: 10", ...IDENTITY.slice(2), "      mode: MODE_BLOCK"].join("\n")),
    );
    const result = await workspace.run(["preview", "--non-interactive"], { allowFailure: true });
    expect(result.status).toBe(0);
  });

  it("refuses, at preview, a misspelled input, a missing required one and a wrong type, naming each", async () => {
    const cases: [string, string[], RegExp][] = [
      [
        "misspelled",
        [...IDENTITY, "      mode: MODE_BLOCK", "      restoreOnDelet: false"],
        /Property restoreOnDelet does not exist on 'semgrep:index:PolicyRuleMode'[\s\S]*Existing properties are: .*restoreOnDelete/,
      ],
      ["missing", IDENTITY, /mode: Missing required property 'mode'/],
      [
        "wrong type",
        [...IDENTITY, "      mode: MODE_BLOCK", "      restoreOnDelete: [no]"],
        /restoreOnDelete: Cannot assign 'List<string>' to 'boolean'/,
      ],
    ];
    for (const [what, properties, message] of cases) {
      writeFileSync(join(workspace.dir, "Pulumi.yaml"), program(properties.join("\n")));
      const result = await workspace.run(["preview", "--non-interactive"], { allowFailure: true });
      expect(result.status, what).not.toBe(0);
      expect(`${result.stdout}\n${result.stderr}`, what).toMatch(message);
    }
  });
});

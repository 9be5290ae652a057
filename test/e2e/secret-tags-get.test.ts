/**
 * Promise 4 through a `get`: a ProjectTags adds a secret tag to a project, and a ProjectSettings
 * `get` of that project (read, not managed) in the same stack exports the project's tags. The
 * project's `tags` output is a set other resources add to, so it is a secret unless the resource
 * declares `tags` (docs/resources/ProjectSettings.md, core/kinds `sharedSet`); a `get` declares
 * nothing. Found by trying issue 34 as a user: the dynamic classes return `tags` as a secret, but
 * the plugin counts the declaration a `get` reads by id (its import inputs, the whole live tag
 * list) as declared, so it returns `tags` in clear: the secret tag is printed by `up` and stored
 * unencrypted in the state (provider/native/server.ts `read`, the by-id branch passes the imported
 * inputs to `answered` as what the resource declares).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { program, programWorkspace } from "../support/program";
import type { PulumiWorkspace } from "../support/pulumi";
import { yamlWorkspace } from "../support/yaml-program";

const SECRET_TAG = "secret-tag-7f3a91";

const typescript = program(`
new semgrep.ProjectTags("secret-tags", { deploymentSlug: "acme", projectName: "acme/web-app", tags: pulumi.secret(["${SECRET_TAG}"]) });
const got = semgrep.ProjectSettings.get("got-web", "acme/acme/web-app");
exports.gotTags = got.tags;
`);

const yaml = `resources:
  secret-tags:
    type: semgrep:index:ProjectTags
    properties: { deploymentSlug: acme, projectName: acme/web-app, tags: { fn::secret: [${SECRET_TAG}] } }
  got-web:
    type: semgrep:index:ProjectSettings
    get: { id: acme/acme/web-app }
outputs:
  gotTags: \${got-web.tags}
`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ preset: "demo" });
});
afterAll(async () => emulator?.close());

const frontEnds: Array<[string, () => Promise<PulumiWorkspace>]> = [
  ["TypeScript (dynamic classes)", () => programWorkspace(emulator, typescript)],
  ["YAML (plugin)", () => yamlWorkspace(yaml, { config: { "semgrep:url": emulator.url }, secrets: { "semgrep:token": emulator.token } })],
];

describe.each(frontEnds)("a ProjectSettings `get` of a project a secret ProjectTags adds to, %s", (_name, open) => {
  it("keeps the secret tag out of every output and of the unencrypted state", async () => {
    const workspace = await open();
    // The first up adds the tag; the second one's `get` reads the project holding it.
    for (let run = 0; run < 2; run++) {
      const result = await workspace.run(["up", "--yes", "--skip-preview", "--non-interactive"]);
      expect(result.stdout + result.stderr, `up ${run + 1} prints the secret tag`).not.toContain(SECRET_TAG);
    }
    const outputs = await workspace.run(["stack", "output", "--json"]);
    expect(outputs.stdout).not.toContain(SECRET_TAG);
    const state = (await workspace.run(["stack", "export"])).stdout;
    expect(state).not.toContain(SECRET_TAG);
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
  });
});

/**
 * test/tools/openapi-files.mjs, which CI runs to fetch Semgrep's published OpenAPI for the
 * conformance tier: each file downloaded and written under the name the tier's variable points at,
 * refused when its SHA-256 is not the pinned one or the download fails (naming the address), and
 * the pinned hashes are those of the files this machine's CI passes in, when it does.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_V1_ENV, OPENAPI_V2_ENV } from "../support/openapi";
import { BASE, COMMIT, download, FILES } from "./openapi-files.mjs";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What the stub answers, by path. */
const served: Record<string, string> = {};
let server: Server;
let base: string;
let out: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = served[request.url ?? ""];
    response.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/semgrep-docs`;
  out = mkdtempSync(join(tmpdir(), "openapi-files-"));
});
afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const file = {
  path: "docs/public_v1.openapi.yaml",
  name: "semgrep-public-v1.openapi.yaml",
  env: "SEMGREP_OPENAPI_V1",
  sha256: sha256("openapi: 3.0.3\n"),
};

describe("the OpenAPI files CI passes to the conformance tier", () => {
  it("are written where the tier's variable points, when their SHA-256 is the pinned one", async () => {
    served["/semgrep-docs/docs/public_v1.openapi.yaml"] = "openapi: 3.0.3\n";
    const lines = await download({ out, base, files: [file] });
    expect(lines).toEqual([`SEMGREP_OPENAPI_V1=${join(out, "semgrep-public-v1.openapi.yaml")}`]);
    expect(readFileSync(join(out, "semgrep-public-v1.openapi.yaml"), "utf8")).toBe("openapi: 3.0.3\n");
  });

  it("are refused, naming the address and both hashes, when the content is another", async () => {
    served["/semgrep-docs/docs/public_v1.openapi.yaml"] = "openapi: 3.1.0\n";
    await expect(download({ out, base, files: [file] })).rejects.toThrow(
      `${base}/docs/public_v1.openapi.yaml has SHA-256 ${sha256("openapi: 3.1.0\n")}, not the pinned ${file.sha256}`,
    );
  });

  it("fail naming the address when the download does", async () => {
    await expect(download({ out, base, files: [{ ...file, path: "docs/gone.yaml" }] })).rejects.toThrow(
      `GET ${base}/docs/gone.yaml answered 404`,
    );
  });

  it("are semgrep-docs' v1 and v2 files at a pinned commit, by the variables the tier reads", () => {
    expect(BASE).toBe(`https://raw.githubusercontent.com/semgrep/semgrep-docs/${COMMIT}`);
    expect(COMMIT).toMatch(/^[0-9a-f]{40}$/);
    expect(FILES.map((f) => [f.path, f.env])).toEqual([
      ["docs/public_v1.openapi.yaml", OPENAPI_V1_ENV],
      ["docs/public_v2.openapi.yaml", OPENAPI_V2_ENV],
    ]);
  });

  // Under .ci/run the files CI passes in are the pinned ones: GitHub's CI checks against the same.
  for (const { env, sha256: pinned } of FILES) {
    it.skipIf(!process.env[env])(`are pinned at the SHA-256 of the file ${env} names (when it is set)`, () => {
      expect(createHash("sha256").update(readFileSync(process.env[env]!)).digest("hex")).toBe(pinned);
    });
  }
});

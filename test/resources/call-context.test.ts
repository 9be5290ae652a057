/**
 * The handlers' explicit call context (provider/core/runtime/call-context.ts): the dispatcher
 * tells each handler method who its resource is and which inputs are secrets, from the request
 * (the native front end) or from the dynamic classes' metadata, which it takes off the
 * properties the handler sees and puts back in what the call returns. And the core stays the
 * core: nothing in provider/core imports `@pulumi/pulumi` at run time, and no handler reads the
 * metadata itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CallContext } from "../../provider/core/runtime/call-context";
import { handlers, run } from "../../provider/core/runtime/dispatch";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";

type Props = Record<string, unknown>;

const EXPORT = {
  deploymentId: "1",
  repositoryId: "42",
  ref: "refs/heads/main",
  formatVersion: { cyclonedxVersion: "SBOM_CYCLONE_DX_VERSION_V1_5" },
};

/** Runs `work` with SbomExport's `check` recording what it was given (the checked inputs pass through). */
async function seenByCheck(work: () => Promise<unknown>) {
  const handler = handlers.SbomExport;
  const original = handler.check;
  const seen: { news?: Props; ctx?: CallContext } = {};
  handler.check = (olds, news, ctx) => {
    Object.assign(seen, { news, ctx });
    return original.call(handler, olds, news, ctx);
  };
  try {
    return { result: (await work()) as { inputs: Props; failures?: unknown[] }, ...seen };
  } finally {
    handler.check = original;
  }
}

describe("the call context", () => {
  afterEach(() => forgetProcessMemory());

  it("from the dynamic classes' metadata: the handler sees the kind's inputs only, and the metadata comes back checked", async () => {
    const meta = { resourceName: "nightly", resourceParent: "urn:pulumi:dev::p::acme:Group::g", secretInputs: ["ref"] };
    const { result, news, ctx } = await seenByCheck(() => run("SbomExport", "check", [{}, { ...EXPORT, ...meta }]));
    expect(news).toEqual(EXPORT);
    expect(ctx!.owner).toEqual({ kind: "SbomExport", name: "nightly", parent: meta.resourceParent });
    expect(ctx!.name).toBe('SbomExport "nightly" (child of acme:Group "g")');
    expect([ctx!.secret("ref"), ctx!.secret("repositoryId")]).toEqual([true, false]);
    expect(ctx!.shown("ref", "refs/heads/main")).toBe("[secret]");
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toMatchObject(meta);
  });

  it("from the native front end's request: nothing is added to what the call returns", async () => {
    const now = { name: "nightly", secretInputs: ["ref"] };
    const { result, news, ctx } = await seenByCheck(() => run("SbomExport", "check", [{}, EXPORT], { now }));
    expect(news).toEqual(EXPORT);
    expect(ctx!.name).toBe('SbomExport "nightly"');
    expect(ctx!.secret("ref")).toBe(true);
    expect(Object.keys(result.inputs)).not.toContain("resourceName");
    expect(Object.keys(result.inputs)).not.toContain("secretInputs");
  });

  it("a bad metadata value fails the check naming it, beside the handler's own failures", async () => {
    const { result } = await seenByCheck(() => run("SbomExport", "check", [{}, { ...EXPORT, ref: "", secretInputs: "ref" }]));
    expect(result.failures).toEqual(
      expect.arrayContaining([expect.objectContaining({ property: "secretInputs" }), expect.objectContaining({ property: "ref" })]),
    );
  });
});

describe("the core's boundaries", () => {
  const root = join(__dirname, "../../provider/core");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
    );

  it("imports nothing of @pulumi/pulumi at run time (a type-only import is erased)", () => {
    const offenders = files(root).filter((file) => /^import (?!type )[^;]*from "@pulumi\/pulumi[^"]*";/m.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("no handler reads the dynamic classes' metadata: each learns its resource from its call context", () => {
    // `ctx.secretInputs` is the context's own.
    const metadata = /(?<!ctx\.)\b(resourceName|resourceParent|secretInputs|secretInputsOf|ownerOf|refreshedMetaInputs)\b/;
    const offenders = files(join(root, "handlers")).filter((file) => metadata.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});

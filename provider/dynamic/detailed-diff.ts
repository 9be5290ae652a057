/**
 * The field-by-field diff of the dynamic front end: the same entries as the native plugin's
 * (native/detailed-diff.ts), so that `pulumi preview --diff` of a PolicyRuleModes shows the rules
 * it changes rather than its whole `modes` map (thousands of lines for a two-rule change).
 *
 * The engine's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) passes on only
 * `changes`, `replaces` and `deleteBeforeReplace` of a diff's result (pulumi/pulumi#3080). It
 * reads `result.changes` and, in the same synchronous step, calls `setChanges` on the response it
 * is building. So, in that process only: the result's `changes` is a getter that hands the
 * detailed diff to the next `setChanges`, which the host's DiffResponse calls with the patch below.
 * Nothing else can run between the two, so each response gets its own resource's diff. Anywhere
 * else (the native plugin, tests calling the handlers), the result is returned as it is.
 */
import { createRequire } from "node:module";
import type * as pulumi from "@pulumi/pulumi";
import { fieldRules, KINDS, type ResourceKind } from "../core/kinds";
import { changedFields } from "../core/runtime/diff";
import { secretInputsOf } from "../core/runtime/resource-meta";
import { handlers } from "../core/runtime/dispatch";
import { detailedDiff, type FieldDiff, pathOf, setDetailedDiff } from "../native/detailed-diff";

type Props = Record<string, unknown>;
type ProviderProto = typeof import("@pulumi/pulumi/proto/provider_pb");

/** The host's entry point, the process's main module. */
const HOST = /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/;

/** The detailed diff of the diff whose `changes` the host read last, for the response it sets them on. */
let handed: FieldDiff[] | undefined;
let patched: boolean | undefined;

/** Patches the host's DiffResponse once; false when this process is not the host. */
function patchHost(): boolean {
  if (patched !== undefined) return patched;
  const main = require.main?.filename;
  patched = !!main && HOST.test(main);
  if (!patched) return false;
  // The generated code the host itself loaded (its copy of @pulumi/pulumi, wherever npm put ours).
  const proto = createRequire(main!)("../../proto/provider_pb") as ProviderProto;
  const prototype = proto.DiffResponse.prototype;
  const setChanges = prototype.setChanges;
  prototype.setChanges = function (this: typeof prototype, value) {
    const fields = handed;
    handed = undefined;
    if (fields) setDetailedDiff(this, fields, proto);
    return setChanges.call(this, value);
  };
  return true;
}

/**
 * `result` (a handler's diff of `olds` to `news`) carrying its field-by-field diff to the host's
 * response: the declared inputs that change, each secret input as one entry.
 */
export function withDetailedDiff(
  kind: ResourceKind,
  olds: Props,
  news: Props,
  result: pulumi.dynamic.DiffResult,
): pulumi.dynamic.DiffResult {
  if (!result.changes || !patchHost()) return result;
  const secret = [...new Set([...secretInputsOf(olds), ...secretInputsOf(news)])];
  // The host gives a diff the old outputs, not the old inputs. Where an output of an input's name
  // holds the live value (a project's whole tag list, system tags included; both scan toggles),
  // a path-by-path comparison would show what the program never declared: such an input is one
  // entry, when the kind's own rules find it changed. The others (`modes`) are as declared.
  // An input the outputs do not echo (a set's `projects`) is absent from the old outputs: its
  // changed entries come from what the state keeps of it (the handler's changedEntries).
  const declared = KINDS[kind].inputs as Record<string, { echoed?: false }>;
  const inputs = Object.keys(declared).filter((input) => declared[input]!.echoed !== false);
  // A secret one is one entry, as any secret input: its keys (project names) are part of the secret.
  const changedEntries = handlers[kind].changedEntries?.(olds, news) ?? [];
  const entries = [
    ...changedEntries
      .filter(({ input }) => !secret.includes(input))
      .map(({ input, key, kind: change }) => ({ path: key === undefined ? input : pathOf(input, key), kind: change, replaces: false })),
    ...[...new Set(changedEntries.filter(({ input }) => secret.includes(input)).map(({ input }) => input))].map((input) => ({
      path: input,
      kind: "update" as const,
      replaces: false,
    })),
  ];
  const live = new Set(Object.keys(KINDS[kind].outputs));
  const changed = new Set(changedFields(olds, news, fieldRules(kind)).map((field) => field.name));
  const replaces = result.replaces ?? [];
  const fields = [
    ...detailedDiff(
      olds,
      news,
      inputs.filter((input) => !live.has(input)),
      replaces,
      secret,
    ),
    ...inputs
      .filter((input) => live.has(input) && changed.has(input))
      .map((input) => ({ path: input, kind: "update" as const, replaces: replaces.includes(input) })),
    ...entries,
  ];
  const changes = result.changes;
  return Object.defineProperty({ ...result }, "changes", {
    enumerable: true,
    get: () => {
      handed = fields;
      return changes;
    },
  });
}

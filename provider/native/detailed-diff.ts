/**
 * The field-by-field diff the engine prints in a preview: one entry per changed leaf of the
 * declared inputs, by property path (`modes["python.lang.security.x"]`, `tags[2]`), so that a
 * change of one rule among thousands shows as that rule. The handlers decide whether anything
 * changes (their `diff`); this only says where.
 */
type Props = Record<string, unknown>;

export type DiffKind = "add" | "delete" | "update";
export interface FieldDiff {
  path: string;
  kind: DiffKind;
  /** The top-level input whose change replaces the resource. */
  replaces: boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `base` extended by one key or index, in Pulumi's property path syntax. */
export function pathOf(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

const isRecord = (v: unknown): v is Props => !!v && typeof v === "object" && !Array.isArray(v);

function diffValues(path: string, before: unknown, after: unknown, out: Omit<FieldDiff, "replaces">[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) return void out.push({ path, kind: "add" });
  if (after === undefined) return void out.push({ path, kind: "delete" });
  if (isRecord(before) && isRecord(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort())
      diffValues(pathOf(path, key), before[key], after[key], out);
    return;
  }
  // A list whose length changes is shown whole: element paths would misname every shifted entry.
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => diffValues(pathOf(path, i), item, after[i], out));
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path, kind: "update" });
}

/**
 * Where `news` differs from `before` among `inputs` (the kind's declared inputs; an input the
 * program no longer declares is not managed any more and shows as dropped from the inputs only).
 * A secret input is one entry as a whole: the keys inside it (a secret map's rule paths) are its
 * text too, and the preview prints paths.
 */
export function detailedDiff(
  before: Props,
  news: Props,
  inputs: readonly string[],
  replaces: readonly string[],
  secret: readonly string[] = [],
): FieldDiff[] {
  const found: Omit<FieldDiff, "replaces">[] = [];
  for (const input of inputs) {
    if (!secret.includes(input)) diffValues(pathOf("", input), before[input], news[input], found);
    else if (JSON.stringify(before[input]) !== JSON.stringify(news[input]))
      found.push({ path: input, kind: before[input] === undefined ? "add" : news[input] === undefined ? "delete" : "update" });
  }
  return found.map((entry) => ({
    ...entry,
    replaces: replaces.some((r) => entry.path === r || entry.path.startsWith(`${r}.`) || entry.path.startsWith(`${r}[`)),
  }));
}

type ProviderProto = typeof import("@pulumi/pulumi/proto/provider_pb");

/**
 * Puts `fields` on a DiffResponse of the provider protocol, as the engine reads a detailed diff:
 * the changed top-level inputs (`diffs`) and one PropertyDiff per path, input diffs all. `proto`
 * is the generated code the response comes from: the plugin's own, or in the dynamic provider's
 * process the copy its host loaded (dynamic/detailed-diff.ts).
 */
export function setDetailedDiff(
  response: InstanceType<ProviderProto["DiffResponse"]>,
  fields: readonly FieldDiff[],
  proto: ProviderProto,
): void {
  response.setDiffsList([...new Set(fields.map((f) => f.path.split(/[.[]/)[0]!))]);
  if (!fields.length) return; // a change of the context only (an input became secret): the engine's own diff
  const kinds = proto.PropertyDiff.Kind;
  const kindFor = {
    add: [kinds.ADD, kinds.ADD_REPLACE],
    delete: [kinds.DELETE, kinds.DELETE_REPLACE],
    update: [kinds.UPDATE, kinds.UPDATE_REPLACE],
  };
  for (const field of fields)
    response
      .getDetaileddiffMap()
      .set(field.path, new proto.PropertyDiff().setKind(kindFor[field.kind][field.replaces ? 1 : 0]!).setInputdiff(true));
  response.setHasdetaileddiff(true);
}

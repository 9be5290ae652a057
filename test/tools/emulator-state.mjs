// The emulator's whole state as a program leaves it: a snapshot to take before a run, and the
// differences a later snapshot has from it, each named by where it is (`projects["acme/web-app"].tags`),
// so that "destroy put everything back" is one comparison whose failure says what was left.

/**
 * The emulator's whole state, as JSON (a copy: the emulator keeps changing its own).
 * @param {{ state(): object }} emulator
 */
export const snapshotOf = (emulator) => JSON.parse(JSON.stringify(emulator.state()));

/**
 * Rules set and put back keep the time and author of their last change: `after`'s are made
 * `before`'s, so that two snapshots compare whole (the modes themselves are compared).
 * @param {{ policies: Array<{ id: unknown, rules: Array<{ path: string, lastChangeAt?: string, lastChangeBy?: string }> }> }} after
 * @param {{ policies: Array<{ id: unknown, rules: Array<{ path: string, lastChangeAt?: string, lastChangeBy?: string }> }> }} before
 */
export function withoutAuditFields(after, before) {
  for (const policy of after.policies) {
    const was = before.policies.find((p) => p.id === policy.id);
    for (const rule of policy.rules) {
      const old = was?.rules.find((r) => r.path === rule.path);
      if (old && rule.lastChangeAt !== old.lastChangeAt)
        Object.assign(rule, { lastChangeAt: old.lastChangeAt, lastChangeBy: old.lastChangeBy });
    }
  }
}

/** The fields that name an element of a list of objects, in the order tried. */
const IDENTITIES = ["name", "path", "slug", "taskToken", "id"];

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The field naming every element of each list uniquely, if one does (lists of objects only). */
function identityOf(...lists) {
  return IDENTITIES.find((key) =>
    lists.every((list) => {
      const values = list.map((item) => (isObject(item) ? item[key] : undefined));
      return values.every((v) => typeof v === "string" || typeof v === "number") && new Set(values).size === values.length;
    }),
  );
}

const show = (value) => (value === undefined ? "(absent)" : JSON.stringify(value));

/**
 * Every difference of `after` from `before`, one line each: `where: before → after`. Lists of
 * objects are matched by the field that names their elements (a project by its name, a rule by
 * its path); other lists are compared whole, in order.
 * @param {unknown} before
 * @param {unknown} after
 * @param {string} [where]
 * @returns {string[]}
 */
export function differences(before, after, where = "") {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (Array.isArray(before) && Array.isArray(after)) {
    const key = identityOf(before, after);
    if (!key) return [`${where}: ${show(before)} → ${show(after)}`];
    const names = [...new Set([...before, ...after].map((item) => item[key]))];
    const find = (list, name) => list.find((item) => item[key] === name);
    return names.flatMap((name) => differences(find(before, name), find(after, name), `${where}[${JSON.stringify(name)}]`));
  }
  if (!isObject(before) || !isObject(after)) return [`${where}: ${show(before)} → ${show(after)}`];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => differences(before[key], after[key], where ? `${where}.${key}` : key));
}

/**
 * What `emulator` holds now that `before` (a snapshot) did not, audit fields aside: empty when
 * a run put everything back.
 * @param {{ state(): object }} emulator
 * @param {object} before
 */
export function changedSince(emulator, before) {
  const after = snapshotOf(emulator);
  withoutAuditFields(after, before);
  return differences(before, after);
}

/** The generator's choices within one edit, each drawn from the edit's seeded random numbers. */

export type Random = () => number;

export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

export const chance = (r: Random, p = 0.5) => r() < p;

/** A non-empty subset of `items`, in their order, of at most `max` items. */
export const subset = <T>(r: Random, items: readonly T[], max = 3): T[] => {
  const chosen = items.filter(() => chance(r, 0.35)).slice(0, max);
  return chosen.length ? chosen : [pick(r, items)];
};

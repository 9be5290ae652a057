/**
 * What the provider process remembers between calls: shared reads, and which resource declares
 * what. The engine starts one provider process per phase of a `pulumi` command (preview, update,
 * refresh, destroy), so nothing remembered here outlives the phase.
 */
const forgetters: Array<() => void> = [];

/** Registers how to forget one kind of memory. */
export function onForget(forget: () => void): void {
  forgetters.push(forget);
}

/** Forgets everything, as a new provider process would start (for tests). */
export function forgetProcessMemory(): void {
  for (const forget of forgetters) forget();
}

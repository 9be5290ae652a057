/**
 * Reads shared by every resource in this provider process: one in-flight read per key (single
 * flight), kept for a short while, or for the whole phase where this process's own writes keep
 * the value right (see process-memory.ts for how long a process lives).
 */
import { onForget } from "./process-memory";

/** How long a read is kept unless its cache says otherwise. */
const DEFAULT_TTL_MS = 60_000;

interface Entry<V> {
  value: Promise<V>;
  at: number;
}

export class SharedReads<V> {
  readonly #entries = new Map<string, Entry<V>>();

  /** @param ttlMs how long a value is kept; `Infinity` for the life of the process (one phase). */
  constructor(readonly ttlMs = DEFAULT_TTL_MS) {}

  /** The cached value of `key`, or the one `load` gives (loaded once, however many ask at once). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.peek(key);
    if (cached) return cached;
    const entry: Entry<V> = { value: load(), at: Date.now() };
    this.#entries.set(key, entry);
    // A failed read is not kept: the next one tries again.
    entry.value.catch(() => this.#entries.get(key) === entry && this.#entries.delete(key));
    return entry.value;
  }

  /** Records the value a write answered with. */
  set(key: string, value: V): void {
    this.#entries.set(key, { value: Promise.resolve(value), at: Date.now() });
  }

  /** The cached (possibly still loading) value of `key`, without loading it. */
  peek(key: string): Promise<V> | undefined {
    const cached = this.#entries.get(key);
    return cached && Date.now() - cached.at < this.ttlMs ? cached.value : undefined;
  }

  /** Forgets `key`: the next `get` loads it again. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** A new shared-read cache, forgotten with the rest of the process's memory. */
export function sharedReads<V>(options: { ttlMs?: number } = {}): SharedReads<V> {
  const reads = new SharedReads<V>(options.ttlMs);
  onForget(() => reads.clear());
  return reads;
}

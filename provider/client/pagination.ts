/**
 * Pagination as async iterators. Listings read one page at a time, only as far as the caller
 * iterates, and always end: on the service's end signal, on an empty page, or on a cursor seen
 * before (the end of scan and rule listings is not documented).
 */

/** One page as the iterator needs it: its items, the cursor of the next page if any, and the whole answer. */
export interface PageOf<TItem, TCursor, TAnswer = unknown> {
  items: TItem[];
  next: TCursor | undefined;
  answer: TAnswer;
}

/** A listing: iterate it for every item, or `.pages()` for the pages. */
export class Paginated<TItem, TCursor = string, TAnswer = unknown> implements AsyncIterable<TItem> {
  readonly #fetchPage: (cursor: TCursor | undefined) => Promise<PageOf<TItem, TCursor, TAnswer>>;

  constructor(fetchPage: (cursor: TCursor | undefined) => Promise<PageOf<TItem, TCursor, TAnswer>>) {
    this.#fetchPage = fetchPage;
  }

  /** Every page, in order, fetched lazily. */
  async *pages(): AsyncGenerator<PageOf<TItem, TCursor, TAnswer>> {
    const seen = new Set<TCursor>();
    let cursor: TCursor | undefined;
    for (;;) {
      const page = await this.#fetchPage(cursor);
      yield page;
      const next = page.next;
      if (page.items.length === 0 || next === undefined || next === "" || seen.has(next)) return;
      seen.add(next);
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TItem> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Collects the items, stopping (without reading further pages) once `max` are collected. */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<TItem[]> {
    const items: TItem[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/**
 * A listing read by cursor: `fetch(cursor)` reads one page (the first with no cursor), whose
 * answer holds the items under `key` and the next page's `cursor`; `isLast`, where given, ends
 * the listing on an answer that says it is the last whatever its cursor (`hasMore: false`).
 */
export function byCursor<K extends string, TItem, TCursor, TAnswer extends Record<K, TItem[]> & { cursor?: TCursor | null }>(
  fetch: (cursor: TCursor | undefined) => Promise<TAnswer>,
  key: K,
  isLast: (answer: TAnswer) => boolean = () => false,
): Paginated<TItem, TCursor, TAnswer> {
  return new Paginated(async (cursor) => {
    const answer = await fetch(cursor);
    return { items: answer[key], next: isLast(answer) ? undefined : (answer.cursor ?? undefined), answer };
  });
}

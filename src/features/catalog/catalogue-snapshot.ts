import type { BookDto } from './book.dto.ts';
import type { CatalogueWatch } from './catalogue-watch.ts';

export interface CatalogueSnapshot {
  version: number;
  /** In id order, frozen: every request shares them. */
  books: readonly BookDto[];
  byId: ReadonlyMap<number, BookDto>;
}

/**
 * The catalogue as shoppers see it, read once per catalogue version and then listed from
 * memory by every page and /api/books. The version is never older than a change this process
 * committed, and another process's arrives through Redis at once (catalogue-watch.ts): what is
 * shown is as fresh as the page cache. Decisions about stock (cart, checkout) read the table.
 */
export function catalogueSnapshots(watch: CatalogueWatch, load: () => Promise<BookDto[]>): () => Promise<CatalogueSnapshot> {
  let held: { version: number; snapshot: Promise<CatalogueSnapshot> } | undefined;
  return async () => {
    const version = await watch.current();
    if (held?.version !== version) {
      // Read after the version was: the rows hold at least every change it counts.
      const snapshot = load().then((books) => {
        const frozen = books.map((book) => Object.freeze(book));
        return { version, books: Object.freeze(frozen), byId: new Map(frozen.map((book) => [book.id, book])) };
      });
      held = { version, snapshot };
      snapshot.catch(() => {
        if (held?.snapshot === snapshot) held = undefined;
      });
    }
    return held.snapshot;
  };
}

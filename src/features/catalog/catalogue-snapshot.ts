import type { BookDto } from './book.dto.ts';
import type { CatalogueWatch } from './catalogue-watch.ts';

export interface CatalogueSnapshot {
  version: number;
  /** In id order, frozen: every request shares them. */
  books: readonly BookDto[];
  byId: ReadonlyMap<number, BookDto>;
}

/** How long the request that asked for a newer snapshot waits for it before taking the one before. */
export const SNAPSHOT_WAIT_MS = 250;

/**
 * The catalogue as shoppers see it, read once per catalogue version and then listed from
 * memory by every page and /api/books. The version is never older than a change this process
 * committed, and another process's arrives through Redis at once (catalogue-watch.ts).
 *
 * One read at a time: the request that first sees a new version reads the rows and waits for
 * them (at most SNAPSHOT_WAIT_MS, then it takes the snapshot before), and the requests that
 * come while it reads get the snapshot before at once. On a sale day the version moves many
 * times a second and the database is busy taking payments; the parents who are only browsing
 * must not queue behind it. Decisions about stock (cart, checkout) read the table.
 */
export function catalogueSnapshots<S extends CatalogueSnapshot>(
  watch: CatalogueWatch,
  load: () => Promise<BookDto[]>,
  build: (snapshot: CatalogueSnapshot) => S,
  { waitMs = SNAPSHOT_WAIT_MS } = {},
): () => Promise<S> {
  let settled: S | undefined;
  let reading: { version: number; snapshot: Promise<S> } | undefined;

  function read(version: number): Promise<S> {
    // Read after the version was: the rows hold at least every change it counts.
    const snapshot = load().then((books) => {
      const frozen = Object.freeze(books.map((book) => Object.freeze(book)));
      const made = build({ version, books: frozen, byId: new Map(frozen.map((book) => [book.id, book])) });
      if (!settled || settled.version < version) settled = made;
      return made;
    });
    reading = { version, snapshot };
    const done = () => {
      if (reading?.snapshot === snapshot) reading = undefined;
    };
    snapshot.then(done, done);
    return snapshot;
  }

  return async () => {
    const version = await watch.current();
    if (settled?.version === version) return settled;
    if (reading) return settled ?? reading.snapshot;
    const fresh = read(version);
    if (!settled) return fresh;
    const before = settled;
    return withFallback(fresh, before, waitMs);
  };
}

/** `work`'s value, or `fallback` if it takes longer than `ms` or fails. */
async function withFallback<T>(work: Promise<T>, fallback: T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

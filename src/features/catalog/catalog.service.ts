import { createHash } from 'node:crypto';
import type { Db } from '../../db.ts';
import { Book } from '../../models/Book.ts';
import { NotFound } from '../../web/errors.ts';
import { toBookDto, type BookDto } from './book.dto.ts';
import { inAgeBand, offeredAgeBands, sortBooks, type AgeBand } from './book-finder.rules.ts';
import { searchBookIds } from './book-search.ts';
import type { BookFinderQuery, BookListQuery } from './catalog.schemas.ts';
import { catalogueSnapshots, type CatalogueSnapshot } from './catalogue-snapshot.ts';
import { catalogueFingerprints, type CatalogueFingerprints } from './catalogue-visibility.ts';
import { toDay } from '../../lib/dates.ts';
import { isForthcoming, offerFor, type Offer } from './preorder.rules.ts';
import type { CatalogueWatch } from './catalogue-watch.ts';

export const RECOMMENDED_COUNT = 3;

type Snapshot = CatalogueSnapshot & CatalogueFingerprints;

export interface CatalogOptions {
  /** Today's date in UTC, as "2026-11-27": the recommendations change with it. */
  today?: () => string;
  /**
   * The shop's calendar day in SHOP_TIME_ZONE (services.shopDay): what a title offers turns
   * with it, at the shop's midnight. Unset: the UTC day.
   */
  shopDay?: () => string;
}

export function createCatalogService(
  db: Db,
  watch: CatalogueWatch,
  { today = () => toDay(new Date()), shopDay = () => toDay(new Date()) }: CatalogOptions = {},
) {
  const rankings = new WeakMap<readonly BookDto[], Map<string, BookDto[]>>();
  const snapshot = catalogueSnapshots(
    watch,
    async () => (await Book.onSale(db).orderBy('id')).map(toBookDto),
    (read): Snapshot => ({ ...read, ...catalogueFingerprints(read.version, read.books, (id) => recommended(read.books, id), shopDay) }),
  );

  /**
   * Three other books, chosen afresh each day but the same all day and in every process: a
   * book page stays cacheable and keeps its ETag through a day's sales.
   */
  function recommended(books: readonly BookDto[], id: number): BookDto[] {
    const day = today();
    // Asked on every kept book page's answer: ranked once per snapshot, day and book.
    const known = rankings.get(books)?.get(`${day}:${id}`);
    if (known) return known;
    const chosen = rankedFor(books, id, day);
    if (!rankings.has(books)) rankings.set(books, new Map());
    rankings.get(books)!.set(`${day}:${id}`, chosen);
    return chosen;
  }

  function rankedFor(books: readonly BookDto[], id: number, day: string): BookDto[] {
    const rank = (book: BookDto) => createHash('sha1').update(`${day}:${id}:${book.id}`).digest('hex');
    const ranked = books.filter((book) => book.id !== id).map((book) => ({ book, rank: rank(book) }));
    ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    return ranked.slice(0, RECOMMENDED_COUNT).map(({ book }) => book);
  }

  return {
    async listBooks({ exclude, limit, random }: BookListQuery = {}): Promise<BookDto[]> {
      const { books } = await snapshot();
      const listed = books.filter((book) => book.id !== exclude);
      if (random === 'true') shuffle(listed);
      return limit === undefined ? listed : listed.slice(0, limit);
    },

    /**
     * The books a parent asked /books for: the search through the full-text index, best match
     * first, then the age band, the forthcoming titles alone when asked, and the sort over the
     * snapshot (which holds no hidden book).
     */
    async findBooks({ q, age, show, sort }: BookFinderQuery): Promise<BookDto[]> {
      const { books, byId } = await snapshot();
      let found: BookDto[] = q ? (await searchBookIds(db, q)).flatMap((id) => byId.get(id) ?? []) : [...books];
      if (age) found = found.filter((book) => inAgeBand(book.ageRange, age));
      if (show === 'coming-soon') {
        const day = shopDay();
        found = found.filter((book) => isForthcoming(book.publishedOn, day));
      }
      return sort ? sortBooks(found, sort) : found;
    },

    /** The age menu's bands: each with a listed book, and the one chosen (book-finder.rules.ts). */
    async ageBands(chosen?: AgeBand): Promise<AgeBand[]> {
      return offeredAgeBands(
        (await snapshot()).books.map((book) => book.ageRange),
        chosen,
      );
    },

    async getBook(id: number): Promise<BookDto> {
      const book = (await snapshot()).byId.get(id);
      if (!book) throw new NotFound('Book not found');
      return book;
    },

    /** What the book page and a catalogue card offer for a book on the shop's day (preorder.rules.ts). */
    offerOf(book: BookDto): Offer {
      return offerFor(book, shopDay());
    },

    async recommendedFor(id: number): Promise<BookDto[]> {
      return recommended((await snapshot()).books, id);
    },

    /** What the catalogue pages show, as the page cache compares it (catalogue-visibility.ts). */
    async shown(): Promise<CatalogueFingerprints> {
      return snapshot();
    },

    async countBooks(): Promise<number> {
      return (await snapshot()).books.length;
    },
  };
}

/** Fisher-Yates, in place. */
function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

export type CatalogService = ReturnType<typeof createCatalogService>;

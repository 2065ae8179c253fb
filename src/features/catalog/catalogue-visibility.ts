import { createHash } from 'node:crypto';
import type { BookDto } from './book.dto.ts';
import { quantityChoices } from './per-title-limit.ts';
import { stockBadge } from './stock.ts';

// What a visitor can see of the catalogue, apart from what they cannot: a hold on a book with
// 500 copies changes its stock but not its badge, so no kept page needs to be made again. Each
// page names what it shows (below), and the page cache compares those names' fingerprints.

/** What a catalogue page can show, as the page cache is told it (`sendPage`'s `shows`). */
export const SHOWS = {
  /** Every book on sale, as a list or a card shows it: the catalogue grid, the home page. */
  list: 'list',
  /** The books on sale with their exact stock, as /api/books answers it. */
  exactStock: 'exact-stock',
  /** One book as its page shows it; "none" once it is off sale. */
  book: (id: number) => `book:${id}`,
  /** The books recommended beside one book today. */
  recommended: (id: number) => `recommended:${id}`,
};

/**
 * A book as a visitor sees it: every field the pages print, with its stock as the badge, the
 * quantity menu and the schema.org availability show it, not as the number of copies.
 */
export function visibleFacts(book: BookDto): string {
  const { inStock, ...shown } = book;
  return JSON.stringify([shown, stockBadge(inStock), quantityChoices(inStock).length, inStock > 0]);
}

const digest = (text: string) => createHash('sha1').update(text).digest('base64url');

export interface CatalogueFingerprints {
  /** One name for the state of everything `shows` lists; equal names, the same page. */
  fingerprint(shows: readonly string[]): string;
}

/**
 * The fingerprints of one snapshot of the catalogue. `recommendedFor` names the books shown
 * beside a book (they change with the day, so they are asked for, not kept).
 */
export function catalogueFingerprints(
  version: number,
  books: readonly BookDto[],
  recommendedFor: (id: number) => readonly BookDto[],
): CatalogueFingerprints {
  const byBook = new Map(books.map((book) => [book.id, digest(visibleFacts(book))]));
  const list = digest([...byBook].join(';'));
  const one = (id: number) => byBook.get(id) ?? 'none';
  const of = (name: string): string => {
    if (name === SHOWS.list) return list;
    if (name === SHOWS.exactStock) return `v${version}`;
    const [kind, id] = name.split(':');
    if (kind === 'book') return one(Number(id));
    if (kind === 'recommended')
      return recommendedFor(Number(id))
        .map((book) => `${book.id}=${one(book.id)}`)
        .join(',');
    throw new Error(`a page shows something the catalogue does not know: ${name}`);
  };
  return { fingerprint: (shows) => shows.map(of).join('|') };
}

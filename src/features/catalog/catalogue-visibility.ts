import { createHash } from 'node:crypto';
import type { BookDto } from './book.dto.ts';
import { isForthcoming, offerFor, preorderCopiesNote } from './preorder.rules.ts';
import { offerQuantityChoices } from './per-title-limit.ts';
import { offerBadge } from './stock.ts';

// What a visitor can see of the catalogue, apart from what they cannot: a hold on a book with
// 500 copies changes its stock but not its badge, so no kept page needs to be made again. Each
// page names what it shows (below), and the page cache compares those names' fingerprints.
// What a title offers turns with the shop's day (a publication day arrives at the shop's
// midnight, with no change to the catalogue), so the fingerprints are the day's.

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
 * A book as a visitor sees it on the shop's day `today`: every field the pages print, with its
 * copies as the offer, the badge, the quantity menu, the pre-order note and the schema.org
 * availability show them, not as the numbers of copies.
 */
export function visibleFacts(book: BookDto, today: string): string {
  const { inStock: _copies, preorderCopiesLeft: _preorderCopies, ...shown } = book;
  const offer = offerFor(book, today);
  return JSON.stringify([
    shown,
    offer.kind,
    offerBadge(offer),
    offerQuantityChoices(offer).length,
    preorderCopiesNote(offer),
    isForthcoming(book.publishedOn, today),
  ]);
}

const digest = (text: string) => createHash('sha1').update(text).digest('base64url');

export interface CatalogueFingerprints {
  /** One name for the state of everything `shows` lists on the shop's day; equal names, the same page. */
  fingerprint(shows: readonly string[]): string;
}

/**
 * The fingerprints of one snapshot of the catalogue. `recommendedFor` names the books shown
 * beside a book and `today` is the shop's day (both change with the day, so they are asked for,
 * not kept); each book's facts are digested once per snapshot and day.
 */
export function catalogueFingerprints(
  version: number,
  books: readonly BookDto[],
  recommendedFor: (id: number) => readonly BookDto[],
  today: () => string,
): CatalogueFingerprints {
  let facts: { day: string; byBook: Map<number, string>; list: string } | undefined;
  const factsOf = (day: string) => {
    if (facts?.day !== day) {
      const byBook = new Map(books.map((book) => [book.id, digest(visibleFacts(book, day))]));
      facts = { day, byBook, list: digest([...byBook].join(';')) };
    }
    return facts;
  };
  const of = (name: string, day: string): string => {
    const { byBook, list } = factsOf(day);
    const one = (id: number) => byBook.get(id) ?? 'none';
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
  return {
    fingerprint: (shows) => {
      const day = today();
      return shows.map((name) => of(name, day)).join('|');
    },
  };
}

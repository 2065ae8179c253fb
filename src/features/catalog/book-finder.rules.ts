import type { BookDto } from './book.dto.ts';

// The catalogue's age bands, its coming soon choice and its sorts, as /books offers them.

export const AGE_BANDS = ['0-2', '3-5', '6-9', '9-12'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** Which books: every one (no value), or only the forthcoming titles, published after the shop's day. */
export const SHOW_CHOICES = ['coming-soon'] as const;
export type BookShow = (typeof SHOW_CHOICES)[number];

export const SORTS = ['newest', 'price-asc', 'price-desc', 'title'] as const;
export type BookSort = (typeof SORTS)[number];

/** The ages in "3-5", or undefined for a book without a readable range. */
function agesOf(ageRange: string): [number, number] | undefined {
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(ageRange.trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** A book is in a band when its ages overlap the band's: a 9-11 book is in 6-9 and in 9-12. */
export function inAgeBand(ageRange: string, band: AgeBand): boolean {
  const ages = agesOf(ageRange);
  const [low, high] = agesOf(band)!;
  return ages !== undefined && ages[0] <= high && ages[1] >= low;
}

/**
 * The bands the age menu offers: those with a book listed in them, so no choice always finds
 * nothing (no book is for ages 0-2 yet). The band in the address stays, so an old link's menu
 * still says what it shows.
 */
export function offeredAgeBands(ageRanges: readonly string[], chosen?: AgeBand): AgeBand[] {
  return AGE_BANDS.filter((band) => band === chosen || ageRanges.some((ages) => inAgeBand(ages, band)));
}

const titleOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

const comparators: Record<BookSort, (a: BookDto, b: BookDto) => number> = {
  newest: (a, b) => (a.publishedOn < b.publishedOn ? 1 : a.publishedOn > b.publishedOn ? -1 : 0),
  'price-asc': (a, b) => a.priceCents - b.priceCents,
  'price-desc': (a, b) => b.priceCents - a.priceCents,
  title: (a, b) => titleOrder.compare(a.title, b.title),
};

/** A sorted copy; books that tie keep the order they came in (the catalogue's, or the search's ranking). */
export function sortBooks(books: readonly BookDto[], sort: BookSort): BookDto[] {
  return [...books].sort(comparators[sort]);
}

import { z } from 'zod';
import { recordId, wholeNumber } from '../../lib/schema-fields.ts';
import { AGE_BANDS, SHOW_CHOICES, SORTS } from './book-finder.rules.ts';

export const MAX_SEARCH_LENGTH = 200;

export const bookId = recordId('Book id');

export const bookListQuery = z.object({
  exclude: bookId.optional(),
  limit: wholeNumber('limit', (n) => n.min(1, 'limit must be at least 1').max(100, 'limit must be at most 100')).optional(),
  random: z.enum(['true', 'false'], { message: "random must be 'true' or 'false'" }).optional(),
});

export type BookListQuery = z.infer<typeof bookListQuery>;

const emptyIsNone = (value: unknown) => (value === '' ? undefined : value);

/** GET /books?q=&age=&show=&sort=: every field may be missing or empty (the form sends them all). */
export const bookFinderQuery = z.object({
  q: z
    .string({ error: 'Search for one title, author or word.' })
    .trim()
    .max(MAX_SEARCH_LENGTH, `Please search with at most ${MAX_SEARCH_LENGTH} characters.`)
    .default(''),
  age: z.preprocess(
    emptyIsNone,
    z.enum(AGE_BANDS, { error: `Choose an age band: ${AGE_BANDS.slice(0, -1).join(', ')} or ${AGE_BANDS.at(-1)}.` }).optional(),
  ),
  show: z.preprocess(emptyIsNone, z.enum(SHOW_CHOICES, { error: 'Show every book, or only the coming soon ones.' }).optional()),
  sort: z.preprocess(emptyIsNone, z.enum(SORTS, { error: `Sort by ${SORTS.slice(0, -1).join(', ')} or ${SORTS.at(-1)}.` }).optional()),
});

export type BookFinderQuery = z.infer<typeof bookFinderQuery>;

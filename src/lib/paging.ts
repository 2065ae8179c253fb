import { z } from 'zod';

/** Rows on one page of an admin list. */
export const PAGE_SIZE = 25;

// A page number from the query string: missing means the first; a page past the end is
// answered with the last one (see pageWindow), never an error.
export const pageParam = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be 1 or more.')
    .max(1_000_000, 'That page is too far.')
    .default(1),
);

export interface Page<T> {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
}

/** Clamps the page asked for to the pages there are (at least one, even when empty). */
export function pageWindow(requested: number, total: number): { page: number; pageCount: number; offset: number } {
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(requested, pageCount);
  return { page, pageCount, offset: (page - 1) * PAGE_SIZE };
}

/** A link to another page of the same list, keeping its filters. */
export function pageHref(path: string, filters: Record<string, string | undefined>, page: number): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A LIKE pattern matching `text` anywhere, with its own % and _ taken literally (escape character '!'). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

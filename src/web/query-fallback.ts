import type { z } from 'zod';
import { BadRequest } from './errors.ts';
import { summaryOf } from './validate.ts';

// A page's query string is typed by hand, kept in bookmarks and cut short by mail programs: a
// value the page cannot use gives the page anyway, with that value's default and a notice
// saying what was not understood, never an error page that leaves the page behind.

export interface QueryWithNotices<T> {
  data: T;
  /** One sentence per value replaced: what was wrong, and what the page shows instead. */
  notices: string[];
}

/**
 * Parses a query with `schema`; each field it refuses is dropped, so its default applies, and
 * told in a notice: the field's message, then "Showing <fallback> instead." (`fallbacks` names
 * what each default shows). A query that still fails (a field without a default) is a 400.
 */
export function queryWithFallback<S extends z.ZodObject>(
  schema: S,
  query: unknown,
  fallbacks: Partial<Record<keyof z.input<S> & string, string>> = {},
): QueryWithNotices<z.infer<S>> {
  const first = schema.safeParse(query);
  if (first.success) return { data: first.data, notices: [] };
  const given = typeof query === 'object' && query !== null ? { ...(query as Record<string, unknown>) } : {};
  const notices: string[] = [];
  const seen = new Set<string>();
  for (const issue of first.error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    if (field === undefined || seen.has(field)) continue;
    seen.add(field);
    delete given[field];
    const instead = fallbacks[field as keyof typeof fallbacks];
    notices.push(instead ? `${issue.message} Showing ${instead} instead.` : issue.message);
  }
  const second = schema.safeParse(given);
  if (!second.success) throw new BadRequest(summaryOf(second.error) ?? 'Invalid request');
  return { data: second.data, notices };
}

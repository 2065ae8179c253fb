import { z } from 'zod';
import { recordId, wholeNumber } from '../../lib/schema-fields.ts';

export const bookId = recordId('Book id');

export const bookListQuery = z.object({
  exclude: bookId.optional(),
  limit: wholeNumber('limit', (n) => n.min(1, 'limit must be at least 1').max(100, 'limit must be at most 100')).optional(),
  random: z.enum(['true', 'false'], { message: "random must be 'true' or 'false'" }).optional(),
});

export type BookListQuery = z.infer<typeof bookListQuery>;

import { z } from 'zod';
import { bookFormShape } from '../../catalog/book-fields.ts';
import { copies } from '../../catalog/book-field-rules.ts';
import { pageParam } from '../../../lib/paging.ts';

// The back office's book form and stock forms. The book form's fields and their rules are
// listed once, in catalog/book-fields.ts; each message is shown beside its field.

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Every field of the book form; the same for adding and editing. */
export const bookForm = z.object(bookFormShape());

export type BookInput = z.infer<typeof bookForm>;
export type BookField = keyof BookInput;

export const stockInput = z.object({ stock: copies });

export const bookListQuery = z.object({
  stock: z.preprocess(blankToUndefined, z.enum(['low'], { error: 'Choose all books or low stock.' }).optional()),
  page: pageParam,
});

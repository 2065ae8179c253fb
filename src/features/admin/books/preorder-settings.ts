import type { Book } from '../../../models/Book.ts';
import { isForthcoming } from '../../catalog/preorder.rules.ts';
import type { BookField, BookInput } from './books.schemas.ts';

// The book form's pre-order fields checked against the stored book and the shop's day. The
// limit is checked with the book's row locked (books.service.ts, update), so no pre-order can
// slip in between reading the copies pre-ordered and saving the new limit.

export const preorderMessages = {
  notForthcoming: "A forthcoming title's publication date must be after today.",
  belowPreordered: (n: number) => `${n} ${n === 1 ? 'copy is' : 'copies are'} already pre-ordered, so the limit cannot be lower.`,
};

export interface FieldProblem {
  field: BookField;
  message: string;
}

/**
 * Why the form's pre-order settings cannot be saved, or null. `stored` is the book as it stands
 * (null for a new one). Pre-orders are for a title not out yet on the shop's `today`: a new title,
 * a moved date or pre-orders switched on must look ahead; a title whose day simply came keeps
 * saving. A limit without pre-orders switched on is kept and does nothing.
 */
export function preorderProblem(
  input: Pick<BookInput, 'takesPreorders' | 'publishedOn' | 'preorderLimit'>,
  stored: Pick<Book, 'takesPreorders' | 'publishedOn' | 'preordered'> | null,
  today: string,
): FieldProblem | null {
  const asked = !stored || input.publishedOn !== stored.publishedOn || !stored.takesPreorders;
  if (input.takesPreorders && asked && !isForthcoming(input.publishedOn, today)) {
    return { field: 'publishedOn', message: preorderMessages.notForthcoming };
  }
  const preordered = stored?.preordered ?? 0;
  if (input.preorderLimit !== undefined && input.preorderLimit < preordered) {
    return { field: 'preorderLimit', message: preorderMessages.belowPreordered(preordered) };
  }
  return null;
}

import { z } from 'zod';
import { MAX_EMAIL_LENGTH } from '../../../lib/email.ts';
import { pageParam } from '../../../lib/paging.ts';

const MAX_ID = 2_147_483_647;

/** GET /admin/orders?status=&q=&book=&page= */
export const orderListQuery = z.object({
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['all', 'preorders', 'paid', 'shipped', 'delivered', 'canceled'], { error: 'Choose a status from the list.' }).default('all'),
  ),
  q: z.string({ error: 'Search for one order number or email.' }).trim().max(MAX_EMAIL_LENGTH, 'That search is too long.').default(''),
  /** Only orders with this title (the pre-orders view links a title's orders). */
  book: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'That is not a book from the list.' })
      .int('That is not a book from the list.')
      .min(1, 'That is not a book from the list.')
      .max(MAX_ID, 'That is not a book from the list.')
      .optional(),
  ),
  page: pageParam,
});

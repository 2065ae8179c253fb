import { z } from 'zod';
import { MAX_EMAIL_LENGTH } from '../../../lib/email.ts';
import { pageParam } from '../../../lib/paging.ts';

/** GET /admin/orders?status=&q=&page= */
export const orderListQuery = z.object({
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['all', 'paid', 'shipped', 'delivered', 'canceled'], { error: 'Choose a status from the list.' }).default('all'),
  ),
  q: z.string({ error: 'Search for one order number or email.' }).trim().max(MAX_EMAIL_LENGTH, 'That search is too long.').default(''),
  page: pageParam,
});

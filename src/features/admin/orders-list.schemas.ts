import { z } from 'zod';
import { pageParam } from './paging.ts';

/** GET /admin/orders?status=&q=&page= */
export const orderListQuery = z.object({
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['all', 'paid', 'shipped', 'delivered', 'canceled'], { error: 'Choose a status from the list.' }).default('all'),
  ),
  q: z.string({ error: 'Search for one order number or email.' }).trim().max(254, 'That search is too long.').default(''),
  page: pageParam,
});

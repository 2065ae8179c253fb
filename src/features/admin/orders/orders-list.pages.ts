import { Router } from 'express';
import { queryWithFallback } from '../../../web/query-fallback.ts';
import { operatorPages } from '../access/operator-access.ts';
import { orderListQuery } from './orders-list.schemas.ts';
import type { OrdersList } from './orders-list.service.ts';
import { pageHref } from '../../../lib/paging.ts';

const STATUS_CHOICES = [
  ['all', 'All orders'],
  ['preorders', 'Pre-orders'],
  ['paid', 'Paid'],
  ['shipped', 'Shipped'],
  ['delivered', 'Delivered'],
  ['canceled', 'Canceled'],
] as const;

// GET /admin/orders   every order, newest first: filter by status, search by number or email,
//                     narrow to one title (?book=, from the pre-orders view); a value it cannot
//                     use falls back to its default, with a notice
export function ordersListPages(orders: OrdersList): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/orders', async (req, res) => {
    const { data: query, notices } = queryWithFallback(orderListQuery, req.query, {
      status: 'all orders',
      q: 'every order',
      book: 'every title',
      page: 'the first page',
    });
    const bookTitle = query.book === undefined ? null : await orders.bookTitle(query.book);
    if (query.book !== undefined && bookTitle === null) notices.push('That book is not in the catalogue. Showing every title instead.');
    const bookId = bookTitle === null ? undefined : query.book;
    const result = await orders.list({ status: query.status, search: query.q, bookId, page: query.page });
    const filters = {
      status: query.status === 'all' ? undefined : query.status,
      q: query.q || undefined,
      book: bookId === undefined ? undefined : String(bookId),
    };
    res.render('admin/orders', {
      title: 'Orders',
      ...result,
      query,
      book: bookId === undefined ? null : { id: bookId, title: bookTitle },
      everyTitleHref: pageHref('/admin/orders', { ...filters, book: undefined }, 1),
      notices,
      statusChoices: STATUS_CHOICES,
      previousHref: result.page > 1 ? pageHref('/admin/orders', filters, result.page - 1) : null,
      nextHref: result.page < result.pageCount ? pageHref('/admin/orders', filters, result.page + 1) : null,
    });
  });

  return router;
}

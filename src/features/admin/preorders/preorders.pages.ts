import { Router } from 'express';
import { formatUsd } from '../../../lib/money.ts';
import { operatorPages } from '../access/operator-access.ts';
import type { PreorderTitles } from './preorder-titles.ts';

// GET /admin/preorders   every title that takes or has taken pre-orders: its publication date,
//                        limit, and the copies, parents and money of its waiting pre-orders,
//                        each linked to its list of orders; to size the print run
export function preordersPages(titles: PreorderTitles, shopDay: () => string): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/preorders', async (_req, res) => {
    const today = shopDay();
    const rows = await titles.list(today);
    res.render('admin/preorders', {
      title: 'Pre-orders',
      rows,
      totals: {
        copies: rows.reduce((n, row) => n + row.copies, 0),
        money: rows.reduce((n, row) => n + row.money, 0),
      },
      today,
      usd: formatUsd,
      ordersHref: (bookId: number) => `/admin/orders?status=preorders&book=${bookId}`,
    });
  });

  return router;
}

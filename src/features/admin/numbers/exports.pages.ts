import { Router, type Request, type Response } from 'express';
import { sendCsv } from '../../../web/csv.ts';
import { BOOK_COLUMNS, BOOK_HEADINGS, ORDER_COLUMNS, ORDER_HEADINGS, TAX_COLUMNS, TAX_HEADINGS, type Exports } from './exports.service.ts';
import { utcDay } from './numbers.rules.ts';
import { exportRange, type ExportName } from './numbers.schemas.ts';
import { operatorPages } from '../access/operator-access.ts';

// GET /admin/exports/orders.csv?from=&to=      every order placed in the range, one row per book
// GET /admin/exports/sales-tax.csv?from=&to=   sales tax collected per state and month
// GET /admin/exports/books.csv                  every book with every field of its form
// The forms that ask for them are on the /admin home (views/admin/_exports.eta). Dates it cannot
// use (reversed, not real days, too long a range) send the operator back to that form, filled in
// with the nearest range that works and a notice of what changed: a file is never half right.
export function exportsPages(exports: Exports): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/exports/orders.csv', async (req, res) => {
    const range = exportRange.safeParse(req.query);
    if (!range.success) return backToForm(req, res, 'orders');
    const { from, to } = range.data;
    await sendCsv(res, `orders-${from}-to-${to}.csv`, ORDER_COLUMNS, exports.orderLines(range.data), ORDER_HEADINGS);
  });

  router.get('/admin/exports/sales-tax.csv', async (req, res) => {
    const range = exportRange.safeParse(req.query);
    if (!range.success) return backToForm(req, res, 'sales-tax');
    const { from, to } = range.data;
    await sendCsv(res, `sales-tax-${from}-to-${to}.csv`, TAX_COLUMNS, await exports.salesTax(range.data), TAX_HEADINGS);
  });

  router.get('/admin/exports/books.csv', async (_req, res) => {
    await sendCsv(res, `books-${utcDay(new Date())}.csv`, BOOK_COLUMNS, exports.books(), BOOK_HEADINGS);
  });

  return router;
}

/** To the export's form on /admin, with the dates as asked: that page says what it made of them. */
function backToForm(req: Request, res: Response, name: ExportName): void {
  const query = new URLSearchParams({ export: name });
  for (const key of ['from', 'to'] as const) {
    const value = req.query[key];
    if (typeof value === 'string') query.set(key, value.slice(0, 40));
  }
  // No fragment: a page opened at one skips autofocus, and the notice takes the focus (and the screen) itself.
  res.redirect(303, `/admin?${query.toString()}`);
}

import { Router } from 'express';
import { sendCsv } from '../../web/csv.ts';
import { parse } from '../../web/validate.ts';
import { ORDER_COLUMNS, TAX_COLUMNS, type Exports } from './exports.service.ts';
import { exportRange } from './numbers.schemas.ts';
import { operatorPages } from './operator-access.ts';

// GET /admin/exports/orders.csv?from=&to=      every order placed in the range, one row per book
// GET /admin/exports/sales-tax.csv?from=&to=   sales tax collected per state and month
// The forms that ask for them are on the /admin home (views/admin/_exports.eta).
export function exportsPages(exports: Exports): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/exports/orders.csv', async (req, res) => {
    const range = parse(exportRange, req.query);
    await sendCsv(res, `orders-${range.from}-to-${range.to}.csv`, ORDER_COLUMNS, exports.orderLines(range));
  });

  router.get('/admin/exports/sales-tax.csv', async (req, res) => {
    const range = parse(exportRange, req.query);
    await sendCsv(res, `sales-tax-${range.from}-to-${range.to}.csv`, TAX_COLUMNS, await exports.salesTax(range));
  });

  return router;
}

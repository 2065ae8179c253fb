import { Router } from 'express';
import { shortDate } from '../../lib/dates.ts';
import { formatUsd } from '../../lib/money.ts';
import { parse } from '../../web/validate.ts';
import { SANDBOX_TEST_CARDS } from '../payments/index.ts';
import { dayChart } from './numbers-chart.ts';
import { PERIODS } from './numbers.rules.ts';
import { numbersQuery } from './numbers.schemas.ts';
import type { NumbersService } from './numbers.service.ts';
import { operatorPages } from './operator-access.ts';
import type { SystemStatus } from './system-status.ts';

// GET /admin   the shop's status (payment provider, database, email, and before launch the
//              checklist and test cards), then the numbers: ?days=30 (the default) or 90
export function statusPages(systemStatus: SystemStatus, numbers: NumbersService): Router {
  const router = Router();
  router.use('/admin', operatorPages);
  router.get('/admin', async (req, res) => {
    const { days } = parse(numbersQuery, req.query);
    const [report, figures] = await Promise.all([systemStatus.check(), numbers.summary(days, new Date())]);
    res.render('admin/status', {
      title: 'Shop status',
      report,
      testCards: SANDBOX_TEST_CARDS,
      numbers: figures,
      periods: PERIODS,
      charts: [dayChart(figures.days, 'revenue'), dayChart(figures.days, 'orders')],
      usd: formatUsd,
      shortDate,
    });
  });
  return router;
}

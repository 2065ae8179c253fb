import { Router } from 'express';
import { shortDate } from '../../../lib/dates.ts';
import { formatUsd } from '../../../lib/money.ts';
import { requestLogger } from '../../../web/request-log.ts';
import { queryWithFallback } from '../../../web/query-fallback.ts';
import { SANDBOX_TEST_CARDS } from '../../payments/index.ts';
import { dayChart } from '../numbers/numbers-chart.ts';
import { PERIODS } from '../numbers/numbers.rules.ts';
import { EXPORTS, exportQuery, numbersQuery, rangeFallback } from '../numbers/numbers.schemas.ts';
import type { NumbersService } from '../numbers/numbers.service.ts';
import { operatorPages } from '../access/operator-access.ts';
import { checklistFirst, type SystemStatus } from './system-status.ts';

// GET /admin   the shop's status (payment provider, database, email), the numbers (?days=30, the
//              default, or 90) and the pre-launch checklist: first while the shop is in test
//              mode or the list is not done, after the numbers once launched.
//              ?export=orders|sales-tax&from=&to=: an export refused its dates (exports.pages.ts);
//              its form shows the range it falls back to, and why.
export function statusPages(systemStatus: SystemStatus, numbers: NumbersService): Router {
  const router = Router();
  router.use('/admin', operatorPages);
  router.get('/admin', async (req, res) => {
    const {
      data: { days },
      notices,
    } = queryWithFallback(numbersQuery, req.query, { days: 'the last 30 days' });
    const asked = exportQuery.parse(req.query);
    const [report, figures] = await Promise.all([systemStatus.check(requestLogger(req)), numbers.summary(days, new Date())]);
    const period = { from: figures.first, to: figures.last, label: `the last ${days} days` };
    const exportForms = Object.fromEntries(
      EXPORTS.map((name) => [name, name === asked.export ? rangeFallback(asked, period) : { range: period, notice: null }]),
    );
    res.render('admin/status', {
      title: 'Shop status',
      report,
      checklistFirst: checklistFirst(report),
      notices,
      exportForms,
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

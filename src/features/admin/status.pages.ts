import { Router } from 'express';
import { SANDBOX_TEST_CARDS } from '../payments/index.ts';
import { operatorPages } from './operator-access.ts';
import type { SystemStatus } from './system-status.ts';

// GET /admin   the shop's status: payment provider, database, email, and before launch the checklist and test cards
export function statusPages(systemStatus: SystemStatus): Router {
  const router = Router();
  router.use('/admin', operatorPages);
  router.get('/admin', async (_req, res) => {
    const report = await systemStatus.check();
    res.render('admin/status', { title: 'Shop status', report, testCards: SANDBOX_TEST_CARDS });
  });
  return router;
}

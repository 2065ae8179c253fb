import { Router } from 'express';
import type { AccountsService } from '../../accounts/accounts.service.ts';
import { operatorApi } from '../access/operator-access.ts';
import { toStatusDto, type SystemStatus } from './system-status.ts';

// GET /api/system-status   stripe{configured,isLive,error}, database{bookCount,orderCount}, email{configured}
export function statusApi(systemStatus: SystemStatus, accounts: AccountsService): Router {
  const router = Router();
  router.get('/system-status', operatorApi(accounts), async (_req, res) => {
    res.json(toStatusDto(await systemStatus.check()));
  });
  return router;
}

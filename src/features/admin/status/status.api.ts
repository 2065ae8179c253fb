import { Router } from 'express';
import type { AccountsService } from '../../accounts/accounts.service.ts';
import { requestLogger } from '../../../web/request-log.ts';
import { operatorApi } from '../access/operator-access.ts';
import { toStatusDto, type SystemStatus } from './system-status.ts';

// GET /api/system-status   stripe{configured,isLive,error}, database{bookCount,orderCount}, email{configured}
export function statusApi(systemStatus: SystemStatus, accounts: AccountsService): Router {
  const router = Router();
  router.get('/system-status', operatorApi(accounts), async (req, res) => {
    res.json(toStatusDto(await systemStatus.check(requestLogger(req))));
  });
  return router;
}

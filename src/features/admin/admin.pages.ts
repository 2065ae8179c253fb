import { Router } from 'express';
import { operatorPages } from './operator-access.ts';

// GET /admin   the shop's status
// Every path below /admin is for operators past the second factor (operator-access.ts).
export function adminPages(): Router {
  const router = Router();
  router.use('/admin', operatorPages);
  router.get('/admin', (_req, res) => res.render('admin/status', { title: 'Shop status' }));
  return router;
}

import { Router } from 'express';
import { requireUser } from '../../web/auth.ts';
import type { OrdersService } from './orders.service.ts';

// GET /api/orders   the signed-in customer's orders, newest first
export function ordersApi(orders: OrdersService): Router {
  const router = Router();

  router.get('/orders', requireUser, async (req, res) => {
    res.json(await orders.listOrders(req.session.userId!));
  });

  return router;
}

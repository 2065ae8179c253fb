import { Router } from 'express';
import { z } from 'zod';
import { NotFound } from '../../../web/errors.ts';
import { operatorPages } from '../access/operator-access.ts';
import type { Packing } from './packing.service.ts';

const orderIdParam = z.coerce.number().int().min(1).max(2_147_483_647);

// GET /admin/to-pack                     paid orders not yet shipped, oldest first
// GET /admin/orders/:id/packing-slip     a printable slip for one order's box
// GET /admin/orders/:id/gift-slip        the same without the shop's thanks, with the parent's gift note
export function packingPages(packing: Packing): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/to-pack', async (_req, res) => {
    const orders = await packing.toPack();
    res.render('admin/to-pack', { title: 'To pack', orders });
  });

  router.get('/admin/orders/:id/packing-slip', async (req, res) => {
    const order = await packing.slip(slipOrderId(req.params.id));
    res.render('admin/packing-slip', { title: `Packing slip for order #${order.id}`, order });
  });

  router.get('/admin/orders/:id/gift-slip', async (req, res) => {
    const order = await packing.slip(slipOrderId(req.params.id));
    // Only an order with a note or a name is a gift; the order page links the slip only then.
    if (!order.giftNote && !order.giftRecipient) throw new NotFound('Page Not Found');
    res.render('admin/gift-slip', { title: `Gift packing slip for order #${order.id}`, order });
  });

  return router;
}

/** An id that cannot exist is simply an order that does not exist. */
function slipOrderId(param: unknown): number {
  const id = orderIdParam.safeParse(param);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}

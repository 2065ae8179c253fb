import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { formatUsd } from '../../lib/money.ts';
import { HttpError, isClientError, NotFound, Unavailable } from '../../web/errors.ts';
import { orderId as orderIdSchema } from '../orders/orders.schemas.ts';
import { CARRIERS } from '../orders/carriers.ts';
import type { Fulfilment } from './fulfilment.ts';
import type { OrderDetails } from './order-details.ts';
import type { OrderRefunds } from './order-refunds.ts';
import { cancelInput, refundInput, resumeInput, shipInput } from './order.schemas.ts';
import { operatorId, operatorPages } from './operator-access.ts';

// GET  /admin/orders/:id             the order: lines, customer, payment, timeline, and its forms
// POST /admin/orders/:id/ship        carrier, tracking number, estimated delivery
// POST /admin/orders/:id/delivered
// POST /admin/orders/:id/cancel      cancel and refund what is left (confirmed by a checkbox)
// POST /admin/orders/:id/refund      refund an amount, with a reason
// POST /admin/orders/:id/refunds/:refundId/resume   finish a refund left in progress
export function orderPages({
  details,
  fulfilment,
  refunds,
}: {
  details: OrderDetails;
  fulfilment: Fulfilment;
  refunds: OrderRefunds;
}): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/orders/:id', async (req, res) => {
    await renderOrder(res, idOf(req));
  });

  router.post('/admin/orders/:id/ship', (req, res) =>
    act(
      req,
      res,
      shipInput,
      (id, input) => fulfilment.ship(id, input, operatorId(req)),
      (input) => ({ title: 'Marked shipped', text: `The customer has been emailed the ${input.carrier} tracking number.` }),
    ),
  );

  router.post('/admin/orders/:id/delivered', (req, res) =>
    act(
      req,
      res,
      null,
      (id) => fulfilment.markDelivered(id, operatorId(req)),
      () => ({ title: 'Marked delivered', text: 'The order is complete.' }),
    ),
  );

  router.post('/admin/orders/:id/cancel', (req, res) =>
    act(
      req,
      res,
      cancelInput,
      (id, input) => refunds.cancel(id, operatorId(req), input.requestKey),
      () => ({ title: 'Order canceled', text: 'The payment was refunded, the books are back in stock and the customer has been emailed.' }),
    ),
  );

  router.post('/admin/orders/:id/refund', (req, res) =>
    act(
      req,
      res,
      refundInput,
      (id, input) => refunds.refund(id, { amountCents: input.amount, reason: input.reason }, operatorId(req), input.requestKey),
      (input) => ({ title: 'Refunded', text: `${formatUsd(input.amount)} is on its way back to the customer, who has been emailed.` }),
    ),
  );

  router.post('/admin/orders/:id/refunds/:refundId/resume', (req, res) =>
    act(
      req,
      res,
      resumeInput,
      (id, input) => refunds.resume(id, input.refundId, operatorId(req)),
      () => ({ title: 'Refund finished', text: 'The payment provider confirmed the refund.' }),
    ),
  );

  /** Parse, act, then 303 back to the order with a toast; a refusal re-renders the order with its message. */
  async function act<S extends z.ZodType | null>(
    req: Request,
    res: Response,
    schema: S,
    run: (id: number, input: S extends z.ZodType ? z.infer<S> : undefined) => Promise<void>,
    done: (input: S extends z.ZodType ? z.infer<S> : undefined) => { title: string; text: string },
  ): Promise<void> {
    const id = idOf(req);
    type Input = S extends z.ZodType ? z.infer<S> : undefined;
    let input: Input = undefined as Input;
    try {
      if (schema) {
        const parsed = schema.safeParse({ ...req.body, ...req.params });
        if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]!.message);
        input = parsed.data as Input;
      }
      await run(id, input);
    } catch (err) {
      // A provider out of reach leaves the refund in progress: the order page says so and offers to ask again.
      const shown = (isClientError(err) && err.status !== 404) || err instanceof Unavailable;
      if (!shown) throw err;
      return renderOrder(res.status(err.status), id, { title: 'Not done', text: err.message, variant: 'error' });
    }
    req.session.flash = { ...done(input), variant: 'success' };
    res.redirect(303, `/admin/orders/${id}`);
  }

  async function renderOrder(res: Response, id: number, flash?: { title: string; text: string; variant: string }): Promise<void> {
    const view = await details.load(id);
    res.render('admin/order', {
      title: `Order #${id}`,
      ...view,
      carriers: CARRIERS,
      // One-time keys for the money forms: a resubmission of this render carries the same key.
      cancelKey: randomBytes(16).toString('hex'),
      refundKey: randomBytes(16).toString('hex'),
      ...(flash ? { flash } : {}),
    });
  }

  return router;
}

function idOf(req: Request): number {
  const id = orderIdSchema.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}

import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { formatUsd } from '../../../lib/money.ts';
import { isClientError, NotFound, Unavailable } from '../../../web/errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem, type Refusal } from '../../../web/form-problems.ts';
import { requestLogger } from '../../../web/request-log.ts';
import { bodyFields } from '../../../web/validate.ts';
import { orderId as orderIdSchema } from '../../orders/orders.schemas.ts';
import { CARRIERS } from '../../orders/carriers.ts';
import type { Fulfilment } from './fulfilment.ts';
import type { OrderDetails } from './order-details.ts';
import type { OrderRefunds } from './order-refunds.ts';
import { cancelInput, refundInput, resumeInput, shipInput } from './order.schemas.ts';
import { operatorId, operatorPages } from '../access/operator-access.ts';

// GET  /admin/orders/:id             the order: lines, customer, payment, timeline, and its forms
// POST /admin/orders/:id/ship        carrier, tracking number, estimated delivery
// POST /admin/orders/:id/delivered
// POST /admin/orders/:id/cancel      cancel and refund what is left (confirmed by a checkbox)
// POST /admin/orders/:id/refund      refund an amount, with a reason
// POST /admin/orders/:id/refunds/:refundId/resume   finish a refund left in progress
// A refused action shows the order again (4xx) with the refusal in the form that was sent, as
// typed; a done one goes back to the order with a toast naming the order and what happened.

/** Each form's name on the page, what its refusal is headed, and its fields' input ids in the form's order. */
export const ORDER_FORMS = {
  ship: {
    title: 'The order was not marked as shipped',
    ids: { carrier: 'carrier', trackingNumber: 'trackingNumber', estimatedDelivery: 'estimatedDelivery' },
  },
  delivered: { title: 'The order was not marked as delivered', ids: {} },
  refund: { title: 'Nothing was refunded', ids: { amount: 'amount', reason: 'reason' } },
  cancel: { title: 'The order was not canceled', ids: { confirm: 'cancel-confirm' } },
  resume: { title: 'The refund is not finished', ids: {} },
} as const satisfies Record<string, { title: string; ids: Record<string, string> }>;

export type OrderForm = keyof typeof ORDER_FORMS;

/** The toast after a done action: the order's number and what happened to it. */
export const ORDER_DONE = {
  shipped: (id: number, carrier: string) => ({
    title: `Order #${id} marked as shipped`,
    text: `The customer has been emailed the ${carrier} tracking number.`,
  }),
  delivered: (id: number) => ({ title: `Order #${id} marked as delivered`, text: 'The order is complete.' }),
  canceled: (id: number) => ({
    title: `Order #${id} canceled and refunded`,
    text: 'The payment was refunded, the books are back in stock and the customer has been emailed.',
  }),
  refunded: (id: number, cents: number) => ({
    title: `Order #${id}: ${formatUsd(cents)} refunded`,
    text: `${formatUsd(cents)} is on its way back to the customer, who has been emailed.`,
  }),
  resumed: (id: number) => ({ title: `Order #${id}: refund finished`, text: 'The payment provider confirmed the refund.' }),
};

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
    act(req, res, 'ship', shipInput, async (id, input) => {
      await fulfilment.ship(id, input, operatorId(req));
      return ORDER_DONE.shipped(id, input.carrier);
    }),
  );

  router.post('/admin/orders/:id/delivered', (req, res) =>
    act(req, res, 'delivered', null, async (id) => {
      await fulfilment.markDelivered(id, operatorId(req));
      return ORDER_DONE.delivered(id);
    }),
  );

  router.post('/admin/orders/:id/cancel', (req, res) =>
    act(req, res, 'cancel', cancelInput, async (id, input) => {
      await refunds.cancel(id, operatorId(req), input.requestKey);
      return ORDER_DONE.canceled(id);
    }),
  );

  router.post('/admin/orders/:id/refund', (req, res) =>
    act(req, res, 'refund', refundInput, async (id, input) => {
      await refunds.refund(id, { amountCents: input.amount, reason: input.reason }, operatorId(req), input.requestKey);
      return ORDER_DONE.refunded(id, input.amount);
    }),
  );

  router.post('/admin/orders/:id/refunds/:refundId/resume', (req, res) =>
    act(req, res, 'resume', resumeInput, async (id, input) => {
      await refunds.resume(id, input.refundId, operatorId(req));
      return ORDER_DONE.resumed(id);
    }),
  );

  /** Parse, act, then 303 back to the order with a toast; a refusal shows the order again, in the form that was sent. */
  async function act<S extends z.ZodType | null>(
    req: Request,
    res: Response,
    form: OrderForm,
    schema: S,
    run: (id: number, input: S extends z.ZodType ? z.infer<S> : undefined) => Promise<{ title: string; text: string }>,
  ): Promise<void> {
    const id = idOf(req);
    type Input = S extends z.ZodType ? z.infer<S> : undefined;
    const refused = (status: number, problems: FieldProblem[]) =>
      renderOrder(res.status(status), id, {
        problems: refusal({ form: formName(form, req), title: ORDER_FORMS[form].title, problems, ids: ORDER_FORMS[form].ids }),
        values: bodyFields(req.body),
      });
    let input: Input = undefined as Input;
    if (schema) {
      const parsed = schema.safeParse({ ...req.body, ...req.params });
      if (!parsed.success) return refused(400, zodProblems(parsed.error));
      input = parsed.data as Input;
    }
    let done: { title: string; text: string };
    try {
      done = await run(id, input);
    } catch (err) {
      // A provider out of reach leaves the refund in progress: the order page says so and offers to ask again.
      const shown = (isClientError(err) && err.status !== 404) || err instanceof Unavailable;
      if (!shown) throw err;
      return refused(err.status, errorProblems(err));
    }
    req.session.flash = { ...done, variant: 'success' };
    res.redirect(303, `/admin/orders/${id}`);
  }

  async function renderOrder(res: Response, id: number, refused?: { problems: Refusal; values: Record<string, unknown> }): Promise<void> {
    const view = await details.load(id, requestLogger(res.req));
    res.render('admin/order', {
      title: `Order #${id}`,
      ...view,
      carriers: CARRIERS,
      // One-time keys for the money forms: a resubmission of this render carries the same key.
      cancelKey: randomBytes(16).toString('hex'),
      refundKey: randomBytes(16).toString('hex'),
      ...(refused ?? { values: {} }),
    });
  }

  return router;
}

/** A resume form is one per refund in progress: its name says which. */
function formName(form: OrderForm, req: Request): string {
  return form === 'resume' ? `resume-${String(req.params.refundId)}` : form;
}

function idOf(req: Request): number {
  const id = orderIdSchema.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}

import { Router } from 'express';
import { requireUser } from '../../web/auth.ts';
import { parse } from '../../web/validate.ts';
import { paymentIntentId } from '../payments/payment-intent-id.ts';
import { orderId } from './orders.schemas.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { displayStatus, statusLabel } from './order-status.ts';
import { dtoMoney } from './order.dto.ts';
import type { OrdersService } from './orders.service.ts';
import { requestLogger } from '../../web/request-log.ts';

// GET /api/orders                      the signed-in customer's orders, newest first
// GET /api/orders/:id                  one of them (anyone else's is a 404)
// GET /api/orders/:id/breakdown        subtotal, shipping, handling, tax, total
// GET /api/orders/:id/stripe-status    the payment provider's status of its payment
// GET /api/orders/by-payment-intent/:paymentIntentId   the order one of their payments made
export function ordersApi(orders: OrdersService, payments: PaymentProvider): Router {
  const router = Router();
  router.use('/orders', requireUser);

  router.get('/orders', async (req, res) => {
    res.json(await orders.listOrders(req.session.userId!));
  });

  router.get('/orders/:id', async (req, res) => {
    res.json(await orders.findOrder({ id: parse(orderId, req.params.id), userId: req.session.userId! }));
  });

  router.get('/orders/by-payment-intent/:paymentIntentId', async (req, res) => {
    res.json(
      await orders.findOrderByPayment({ paymentIntentId: parse(paymentIntentId, req.params.paymentIntentId), userId: req.session.userId! }),
    );
  });

  router.get('/orders/:id/breakdown', async (req, res) => {
    res.json(await orders.findBreakdown({ id: parse(orderId, req.params.id), userId: req.session.userId! }));
  });

  router.get('/orders/:id/stripe-status', async (req, res) => {
    const order = await orders.findOrder({ id: parse(orderId, req.params.id), userId: req.session.userId! });
    if (!order.stripePaymentIntentId)
      return void res.json({ stripeStatus: 'no_payment_intent', status: order.status, statusLabel: order.statusLabel });
    const stripeStatus = await payments
      .retrievePaymentIntent(order.stripePaymentIntentId)
      .then((intent) => intent.status as string)
      .catch((err: unknown) => {
        // Answered as the provider's status being unknown (displayStatus), and logged.
        requestLogger(req).error({ err, orderId: order.id }, 'could not ask the payment provider for an order’s status');
        return 'stripe_error';
      });
    // order.status is already the display status without the provider's word; this adds it.
    const status = displayStatus(order.status, stripeStatus);
    res.json({ stripeStatus, status, statusLabel: statusLabel(status, dtoMoney(order)) });
  });

  return router;
}

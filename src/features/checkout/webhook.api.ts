import express, { Router } from 'express';
import type { Logger } from '../../log.ts';
import { BadRequest } from '../../web/errors.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { CheckoutService } from './checkout.service.ts';

// POST /api/webhooks/stripe   Stripe's events, signature-verified against the raw body.
// Mounted before the JSON parser and the CSRF check: Stripe's signature is the proof.
export function webhookApi(payments: PaymentProvider, checkout: CheckoutService, log: Logger): Router {
  const router = Router();

  router.post('/api/webhooks/stripe', express.raw({ type: 'application/json', limit: '512kb' }), async (req, res) => {
    let event;
    try {
      event = payments.parseWebhook(req.body as Buffer, req.get('stripe-signature'));
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'refused a webhook');
      throw new BadRequest('Webhook signature verification failed.');
    }
    await checkout.handlePaymentEvent(event);
    res.json({ received: true });
  });

  return router;
}

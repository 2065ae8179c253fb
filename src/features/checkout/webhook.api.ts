import express, { Router } from 'express';
import type { Logger } from '../../log.ts';
import { BadRequest } from '../../web/errors.ts';
import { WebhookVerificationError, type PaymentProvider } from '../payments/provider.ts';
import type { CheckoutService } from './checkout.service.ts';

// POST /api/webhooks/stripe   Stripe's events, signature-verified against the raw body.
// Mounted before the JSON parser and the CSRF check: Stripe's signature is the proof.
export function webhookApi(payments: PaymentProvider, checkout: CheckoutService, log: Logger): Router {
  const router = Router();

  router.post('/api/webhooks/stripe', express.raw({ type: 'application/json', limit: '512kb' }), async (req, res) => {
    let event;
    try {
      event = payments.parseWebhook(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.get('stripe-signature'));
    } catch (err) {
      // A missing webhook secret is our fault: a 500 makes Stripe retry once it is set.
      if (!(err instanceof WebhookVerificationError)) throw err;
      log.warn({ err: err.message }, 'refused a webhook');
      throw new BadRequest('Webhook signature verification failed.');
    }
    await checkout.handlePaymentEvent(event);
    res.json({ received: true });
  });

  return router;
}

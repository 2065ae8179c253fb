import { Router } from 'express';
import { z } from 'zod';
import { Checkout } from '../../models/Checkout.ts';
import type { Db } from '../../db.ts';
import { requireUser } from '../../web/auth.ts';
import { NotFound } from '../../web/errors.ts';
import { parse } from '../../web/validate.ts';
import type { SandboxProvider } from '../payments/sandbox-provider.ts';
import type { PaymentIntent } from '../payments/provider.ts';
import type { CheckoutService } from './checkout.service.ts';

// The sandbox provider's stand-in for Stripe.js: the card island confirms here when no
// Stripe keys are configured. Each outcome is then handled like Stripe's webhook would be.
// POST /api/sandbox/confirm         {paymentIntentId, clientSecret, cardNumber, expiry, cvc}
// POST /api/sandbox/authenticate    {paymentIntentId, clientSecret, succeed}  (3D Secure)

const secretFields = { paymentIntentId: z.string().min(1).max(64), clientSecret: z.string().min(1).max(128) };
const confirmInput = z.object({
  ...secretFields,
  cardNumber: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(10).default(''),
});
const authenticateInput = z.object({ ...secretFields, succeed: z.boolean({ message: 'succeed must be true or false' }) });

export function sandboxApi(sandbox: SandboxProvider, checkout: CheckoutService, db: Db): Router {
  const router = Router();
  router.use('/sandbox', requireUser);

  async function ownIntent(userId: number, paymentIntentId: string): Promise<void> {
    if (!(await Checkout.query(db).findOne({ paymentIntentId, userId }))) throw new NotFound('This payment could not be found.');
  }

  async function answer(intent: PaymentIntent) {
    if (intent.status === 'succeeded') await checkout.handlePaymentEvent({ type: 'payment_intent.succeeded', paymentIntentId: intent.id });
    else if (intent.status === 'requires_payment_method' && intent.lastError) {
      await checkout.handlePaymentEvent({ type: 'payment_intent.payment_failed', paymentIntentId: intent.id, message: intent.lastError });
    }
    return { status: intent.status, error: intent.lastError };
  }

  router.post('/sandbox/confirm', async (req, res) => {
    const input = parse(confirmInput, req.body);
    await ownIntent(req.session.userId!, input.paymentIntentId);
    res.json(
      await answer(
        await sandbox.confirmCard({
          id: input.paymentIntentId,
          clientSecret: input.clientSecret,
          cardNumber: input.cardNumber,
          expiry: input.expiry,
          cvc: input.cvc,
        }),
      ),
    );
  });

  router.post('/sandbox/authenticate', async (req, res) => {
    const input = parse(authenticateInput, req.body);
    await ownIntent(req.session.userId!, input.paymentIntentId);
    res.json(
      await answer(
        await sandbox.completeAuthentication({ id: input.paymentIntentId, clientSecret: input.clientSecret, succeed: input.succeed }),
      ),
    );
  });

  return router;
}

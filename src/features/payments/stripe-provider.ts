import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { fromStripeError } from './stripe-errors.ts';
import {
  PaymentError,
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentIntent,
  type PaymentProvider,
  type PaymentStatus,
} from './provider.ts';

export type StripeProviderConfig = Pick<
  Config,
  'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_URL'
>;

/** Stripe's default: a signature older than five minutes is refused (replay protection). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The real Stripe API through the official SDK. */
export function createStripeProvider(config: StripeProviderConfig): PaymentProvider {
  const secretKey = config.STRIPE_SECRET_KEY;
  const publishableKey = config.STRIPE_PUBLISHABLE_KEY;
  if (!secretKey || !publishableKey) {
    throw new Error('The Stripe payment provider needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY');
  }
  const stripe = new Stripe(secretKey, sdkOptions(config.STRIPE_API_URL));
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET;

  return {
    name: 'stripe',
    isLive: /^(sk|rk)_live_/.test(secretKey),
    publishableKey,

    async createCustomer({ email, name, idempotencyKey }) {
      const customer = await call(() => stripe.customers.create({ email, name }, { idempotencyKey }));
      return { id: customer.id };
    },

    async forgetCustomer(id) {
      try {
        await call(() => stripe.customers.del(id));
      } catch (err) {
        // Already gone (deleted by hand, or an earlier try that was not answered): nothing left to forget.
        if (err instanceof PaymentError && err.status === 404) return;
        throw err;
      }
    },

    async createPaymentIntent({ amountCents, customerId, metadata, idempotencyKey }) {
      const intent = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: 'usd',
            ...(customerId ? { customer: customerId } : {}),
            metadata,
            // Cards only. stripe@23's API version (2026-10-28) removed payment_method_types
            // from PaymentIntent creation; allowed_payment_method_types replaces it.
            allowed_payment_method_types: ['card'],
          },
          { idempotencyKey },
        ),
      );
      return toPaymentIntent(intent);
    },

    async retrievePaymentIntent(id) {
      return toPaymentIntent(await call(() => stripe.paymentIntents.retrieve(id)));
    },

    async cancelPaymentIntent(id, idempotencyKey) {
      try {
        await stripe.paymentIntents.cancel(id, {}, { idempotencyKey });
      } catch (err) {
        // Cancelling twice (a retry with a fresh key) is not a failure: the intent is canceled.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'payment_intent_unexpected_state') {
          const current = await call(() => stripe.paymentIntents.retrieve(id));
          if (current.status === 'canceled') return;
        }
        throw fromStripeError(err);
      }
    },

    async refund({ paymentIntentId, idempotencyKey, amountCents }) {
      const params = { payment_intent: paymentIntentId, ...(amountCents === undefined ? {} : { amount: amountCents }) };
      const refund = await call(() => stripe.refunds.create(params, { idempotencyKey }));
      return { id: refund.id };
    },

    parseWebhook(rawBody, signature) {
      if (!webhookSecret) {
        // A configuration fault, not the sender's: let Stripe see a 5xx and retry later.
        throw new Error('STRIPE_WEBHOOK_SECRET is not set, so Stripe webhooks cannot be verified');
      }
      if (!signature) throw new WebhookVerificationError('Stripe webhook refused: no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new WebhookVerificationError(`Stripe webhook refused: ${reason}`, { cause: err });
      }
      return toPaymentEvent(event);
    },

    async check() {
      try {
        await stripe.paymentIntents.list({ limit: 1 });
        return { ok: true };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}

function sdkOptions(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return { maxNetworkRetries: 2 };
  // Tests point the SDK at a local stand-in; no retries so a failure shows at once.
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 0,
  };
}

function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { type: 'payment_intent.succeeded', paymentIntentId: event.data.object.id };
    case 'payment_intent.payment_failed':
      return {
        type: 'payment_intent.payment_failed',
        paymentIntentId: event.data.object.id,
        message: event.data.object.last_payment_error?.message ?? null,
      };
    default:
      return { type: 'ignored', eventType: event.type };
  }
}

function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  if (intent.currency !== 'usd') throw new Error(`Stripe payment intent ${intent.id} is in ${intent.currency}, not usd`);
  if (!intent.client_secret) throw new Error(`Stripe returned payment intent ${intent.id} without a client secret`);
  const customer = intent.customer;
  return {
    id: intent.id,
    status: intent.status as PaymentStatus,
    amountCents: intent.amount,
    currency: 'usd',
    customerId: typeof customer === 'string' ? customer : (customer?.id ?? null),
    clientSecret: intent.client_secret,
    lastError: intent.last_payment_error?.message ?? null,
    metadata: { ...intent.metadata },
  };
}

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw fromStripeError(err);
  }
}

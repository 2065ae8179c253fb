import Stripe from 'stripe';
import { Unavailable } from '../../web/errors.ts';
import { PaymentError } from './provider.ts';

/** How long a customer is asked to wait when Stripe cannot be reached. */
export const STRIPE_RETRY_AFTER_SECONDS = 30;

const OUT_OF_REACH = 'Card payments are not available right now. Please try again in a minute.';

/**
 * What a failed Stripe call becomes. Card and invalid-request errors carry a message meant
 * for people ("Your card was declined.", "No such payment_intent: 'pi_…'"): a 4xx with it.
 * Stripe out of reach, overloaded or failing on its side: a 503 the customer may retry.
 * A wrong API key, a permission or idempotency fault is the shop's own: it stays the SDK's
 * error, logged, and answered with a generic 500.
 */
export function fromStripeError(err: unknown): unknown {
  const { errors } = Stripe;
  if (err instanceof errors.StripeCardError) return new PaymentError(err.message, 402, { cause: err });
  if (err instanceof errors.StripeInvalidRequestError) {
    return new PaymentError(err.message, err.statusCode === 404 ? 404 : 400, { cause: err });
  }
  if (err instanceof errors.StripeConnectionError || err instanceof errors.StripeRateLimitError || err instanceof errors.StripeAPIError) {
    const unavailable = new Unavailable(OUT_OF_REACH, STRIPE_RETRY_AFTER_SECONDS);
    unavailable.cause = err;
    return unavailable;
  }
  return err;
}

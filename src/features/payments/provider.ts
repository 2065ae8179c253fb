// What the shop needs from a card payment provider. Two implementations: Stripe (real keys
// configured) and the built-in sandbox (the embedded default), which behaves like Stripe's
// test mode for the test cards listed on /admin.

import { HttpError } from '../../web/errors.ts';

/** Stripe's PaymentIntent statuses, which the sandbox uses too. */
export type PaymentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';

export interface PaymentIntent {
  id: string;
  status: PaymentStatus;
  amountCents: number;
  currency: 'usd';
  customerId: string | null;
  /** Handed to the browser to confirm the card; never logged. */
  clientSecret: string;
  /** The provider's message for the last failed attempt ("Your card was declined."). */
  lastError: string | null;
  metadata: Record<string, string>;
}

export interface CreateIntent {
  amountCents: number;
  customerId: string | null;
  metadata: Record<string, string>;
  /** Sent as the Idempotency-Key: a retried request makes no second intent. */
  idempotencyKey: string;
}

/** A verified webhook event the shop acts on. */
export type PaymentEvent =
  | { type: 'payment_intent.succeeded'; paymentIntentId: string }
  | { type: 'payment_intent.payment_failed'; paymentIntentId: string; message: string | null }
  | { type: 'ignored'; eventType: string };

export interface PaymentProvider {
  readonly name: 'stripe' | 'sandbox';
  /** True for live Stripe keys; the sandbox and Stripe test keys are test mode. */
  readonly isLive: boolean;
  /** What the browser's card island needs: Stripe's publishable key, or nothing for the sandbox. */
  readonly publishableKey: string | null;
  createCustomer(input: { email: string; name: string; idempotencyKey: string }): Promise<{ id: string }>;
  /** Deletes the customer's record (their name and email) once their account is erased; payments stay. */
  forgetCustomer(id: string): Promise<void>;
  createPaymentIntent(input: CreateIntent): Promise<PaymentIntent>;
  retrievePaymentIntent(id: string): Promise<PaymentIntent>;
  cancelPaymentIntent(id: string, idempotencyKey: string): Promise<void>;
  /** Gives money back: the whole payment, or amountCents of it (a partial refund). Refuses more than is left. */
  refund(input: { paymentIntentId: string; idempotencyKey: string; amountCents?: number }): Promise<{ id: string }>;
  /** Verifies a webhook's signature and reads it; throws on a forged or stale one. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
  /** For /admin: can the provider be reached with the configured keys? */
  check(): Promise<{ ok: true } | { ok: false; error: string }>;
}

/**
 * Raised by a provider call that failed for a reason the customer can be told: a declined
 * card (402, as Stripe answers), a payment that cannot be found (404) or is in the wrong
 * state (409), a request the provider refused (400). Answered with its status and message.
 */
export class PaymentError extends HttpError {
  constructor(message: string, status = 402, options?: { cause?: unknown }) {
    super(status, message);
    this.name = 'PaymentError';
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** Raised by parseWebhook for a request that is not a genuine, fresh event: answer it 400. */
export class WebhookVerificationError extends Error {}

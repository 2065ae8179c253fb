import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createPaymentProvider, isSandbox } from '../../../src/features/payments/index.ts';
import { PaymentError, WebhookVerificationError, type PaymentProvider } from '../../../src/features/payments/provider.ts';
import { createStripeProvider } from '../../../src/features/payments/stripe-provider.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';

let standIn: StripeStandIn;
let provider: PaymentProvider;
// Only for signing test webhooks, as Stripe would.
const signer = new Stripe('sk_test_signer_only');

function providerWith(overrides: Record<string, string> = {}): PaymentProvider {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
    ...overrides,
  });
  return createStripeProvider(config);
}

function requestsSince(start: number) {
  return standIn.requests.slice(start);
}

beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = providerWith();
});

afterAll(async () => {
  await standIn.close();
});

describe('Stripe provider against the stand-in API', () => {
  it('describes itself from the configuration', () => {
    expect(provider.name).toBe('stripe');
    expect(provider.isLive).toBe(false);
    expect(provider.publishableKey).toBe('pk_test_standin');
    expect(providerWith({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' }).isLive).toBe(true);
  });

  it('is what createPaymentProvider picks when both keys are set', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
      STRIPE_API_URL: standIn.url,
    });
    const chosen = createPaymentProvider({ config, db: undefined as never });
    expect(chosen.name).toBe('stripe');
    expect(isSandbox(chosen)).toBe(false);
  });

  it('creates a customer with an Idempotency-Key', async () => {
    const start = standIn.requests.length;
    const customer = await provider.createCustomer({ email: 'maya@example.com', name: 'Maya Reader', idempotencyKey: 'cust-1' });
    expect(customer.id).toMatch(/^cus_/);
    const [request] = requestsSince(start);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      idempotencyKey: 'cust-1',
      authorization: `Bearer ${standIn.secretKey}`,
      form: { email: 'maya@example.com', name: 'Maya Reader' },
    });
  });

  it('creates a card payment intent in cents and dollars, with customer, metadata and key', async () => {
    const customer = await provider.createCustomer({ email: 'leo@example.com', name: 'Leo', idempotencyKey: 'cust-2' });
    const start = standIn.requests.length;
    const intent = await provider.createPaymentIntent({
      amountCents: 2599,
      customerId: customer.id,
      metadata: { orderKey: 'ord_123', checkoutId: '7' },
      idempotencyKey: 'intent-1',
    });
    const [request] = requestsSince(start);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/payment_intents');
    expect(request?.idempotencyKey).toBe('intent-1');
    expect(request?.form).toEqual({
      amount: '2599',
      currency: 'usd',
      customer: customer.id,
      'metadata[orderKey]': 'ord_123',
      'metadata[checkoutId]': '7',
      'allowed_payment_method_types[0]': 'card',
    });
    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_/),
      status: 'requires_payment_method',
      amountCents: 2599,
      currency: 'usd',
      customerId: customer.id,
      clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_`)),
      lastError: null,
      metadata: { orderKey: 'ord_123', checkoutId: '7' },
    });
  });

  it('creates an intent without a customer (guest checkout)', async () => {
    const start = standIn.requests.length;
    const intent = await provider.createPaymentIntent({ amountCents: 1000, customerId: null, metadata: {}, idempotencyKey: 'guest-1' });
    expect(intent.customerId).toBeNull();
    expect(requestsSince(start)[0]?.form).not.toHaveProperty('customer');
  });

  it('a retried create with the same key makes one intent', async () => {
    const input = { amountCents: 1500, customerId: null, metadata: { orderKey: 'retry' }, idempotencyKey: 'intent-retry' };
    const before = standIn.intents.size;
    const first = await provider.createPaymentIntent(input);
    const second = await provider.createPaymentIntent(input);
    expect(second.id).toBe(first.id);
    expect(second.clientSecret).toBe(first.clientSecret);
    expect(standIn.intents.size).toBe(before + 1);
    const sent = standIn.requests.filter((r) => r.idempotencyKey === 'intent-retry');
    expect(sent.map((r) => r.replayed)).toEqual([false, true]);
  });

  it('retrieves an intent and maps status, amount and the last error', async () => {
    const created = await provider.createPaymentIntent({
      amountCents: 4200,
      customerId: null,
      metadata: { a: 'b' },
      idempotencyKey: 'intent-2',
    });
    expect(await provider.retrievePaymentIntent(created.id)).toMatchObject({ status: 'requires_payment_method', amountCents: 4200 });

    standIn.setStatus(created.id, 'requires_payment_method', 'Your card was declined.');
    expect(await provider.retrievePaymentIntent(created.id)).toMatchObject({ lastError: 'Your card was declined.' });

    standIn.setStatus(created.id, 'succeeded');
    const start = standIn.requests.length;
    expect(await provider.retrievePaymentIntent(created.id)).toMatchObject({
      id: created.id,
      status: 'succeeded',
      amountCents: 4200,
      currency: 'usd',
      lastError: null,
      metadata: { a: 'b' },
    });
    expect(requestsSince(start)[0]).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${created.id}` });
  });

  it('an unknown intent id raises PaymentError with Stripe’s message', async () => {
    const failure = provider.retrievePaymentIntent('pi_does_not_exist');
    await expect(failure).rejects.toBeInstanceOf(PaymentError);
    await expect(failure).rejects.toThrow("No such payment_intent: 'pi_does_not_exist'");
    await expect(provider.refund({ paymentIntentId: 'pi_nope', idempotencyKey: 'refund-nope' })).rejects.toBeInstanceOf(PaymentError);
  });

  it('refunds a succeeded intent with an Idempotency-Key, once', async () => {
    const intent = await provider.createPaymentIntent({ amountCents: 3000, customerId: null, metadata: {}, idempotencyKey: 'intent-3' });
    standIn.setStatus(intent.id, 'succeeded');
    const start = standIn.requests.length;
    const refund = await provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-1' });
    expect(refund.id).toMatch(/^re_/);
    expect(requestsSince(start)[0]).toMatchObject({
      method: 'POST',
      path: '/v1/refunds',
      idempotencyKey: 'refund-1',
      form: { payment_intent: intent.id },
    });
    // A retry with the same key is the same refund; a second refund with a new key is refused.
    expect(await provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-1' })).toEqual(refund);
    await expect(provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-2' })).rejects.toBeInstanceOf(PaymentError);
  });

  it('refunds part of a payment with amount, and refuses more than is left as Stripe does', async () => {
    const intent = await provider.createPaymentIntent({
      amountCents: 3000,
      customerId: null,
      metadata: {},
      idempotencyKey: 'intent-partial',
    });
    standIn.setStatus(intent.id, 'succeeded');
    const start = standIn.requests.length;
    await provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-partial-1', amountCents: 1000 });
    expect(requestsSince(start)[0]).toMatchObject({
      path: '/v1/refunds',
      idempotencyKey: 'refund-partial-1',
      form: { payment_intent: intent.id, amount: '1000' },
    });
    // The same key with the same amount is the same refund (the stand-in replays it).
    await provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-partial-1', amountCents: 1000 });
    expect(standIn.requests.at(-1)!.replayed).toBe(true);
    const tooMuch = provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-partial-2', amountCents: 2001 });
    await expect(tooMuch).rejects.toBeInstanceOf(PaymentError);
    await expect(tooMuch).rejects.toThrow('Refund amount ($20.01) is greater than unrefunded amount on charge ($20.00)');
    await provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-partial-3', amountCents: 2000 });
    await expect(provider.refund({ paymentIntentId: intent.id, idempotencyKey: 'refund-partial-4', amountCents: 1 })).rejects.toThrow(
      /already been refunded/,
    );
  });

  it('cancels with an Idempotency-Key; cancelling twice is fine; a succeeded intent is refused', async () => {
    const intent = await provider.createPaymentIntent({ amountCents: 999, customerId: null, metadata: {}, idempotencyKey: 'intent-4' });
    const start = standIn.requests.length;
    await provider.cancelPaymentIntent(intent.id, 'cancel-1');
    expect(requestsSince(start)[0]).toMatchObject({
      method: 'POST',
      path: `/v1/payment_intents/${intent.id}/cancel`,
      idempotencyKey: 'cancel-1',
    });
    expect((await provider.retrievePaymentIntent(intent.id)).status).toBe('canceled');
    await provider.cancelPaymentIntent(intent.id, 'cancel-2');

    const paid = await provider.createPaymentIntent({ amountCents: 999, customerId: null, metadata: {}, idempotencyKey: 'intent-5' });
    standIn.setStatus(paid.id, 'succeeded');
    await expect(provider.cancelPaymentIntent(paid.id, 'cancel-3')).rejects.toThrow(/status of succeeded/);
  });

  it('check() is ok with the right key and reports the error with a wrong one', async () => {
    expect(await provider.check()).toEqual({ ok: true });
    const wrong = providerWith({ STRIPE_SECRET_KEY: 'sk_test_wrong_key_123456' });
    const result = await wrong.check();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/Invalid API Key/);
    expect(standIn.requests.at(-1)?.status).toBe(401);
  });

  it('other calls with a wrong key fail with the SDK error, not a PaymentError', async () => {
    const wrong = providerWith({ STRIPE_SECRET_KEY: 'sk_test_wrong_key_123456' });
    const failure = wrong.retrievePaymentIntent('pi_x');
    await expect(failure).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(failure).rejects.not.toBeInstanceOf(PaymentError);
  });

  it('check() reports an unreachable API', async () => {
    const down = providerWith({ STRIPE_API_URL: 'http://127.0.0.1:1' });
    const result = await down.check();
    expect(result.ok).toBe(false);
  });
});

describe('Stripe webhooks', () => {
  function event(type: string, object: Record<string, unknown>): string {
    return JSON.stringify({ id: 'evt_1', object: 'event', type, api_version: '2026-10-28.endive', data: { object } });
  }

  function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
    return signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
  }

  it('reads a signed payment_intent.succeeded', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent', status: 'succeeded' });
    expect(provider.parseWebhook(Buffer.from(payload), sign(payload))).toEqual({
      type: 'payment_intent.succeeded',
      paymentIntentId: 'pi_123',
    });
  });

  it('reads a signed payment_intent.payment_failed with its message', () => {
    const payload = event('payment_intent.payment_failed', {
      id: 'pi_456',
      object: 'payment_intent',
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    expect(provider.parseWebhook(Buffer.from(payload), sign(payload))).toEqual({
      type: 'payment_intent.payment_failed',
      paymentIntentId: 'pi_456',
      message: 'Your card was declined.',
    });
    const bare = event('payment_intent.payment_failed', { id: 'pi_457', object: 'payment_intent', last_payment_error: null });
    expect(provider.parseWebhook(Buffer.from(bare), sign(bare))).toMatchObject({ message: null });
  });

  it('ignores other event types', () => {
    const payload = event('charge.refunded', { id: 'ch_1', object: 'charge' });
    expect(provider.parseWebhook(Buffer.from(payload), sign(payload))).toEqual({ type: 'ignored', eventType: 'charge.refunded' });
  });

  it('refuses a forged signature', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' });
    const timestamp = Math.floor(Date.now() / 1000);
    const forged = `t=${timestamp},v1=${'ab'.repeat(32)}`;
    expect(() => provider.parseWebhook(Buffer.from(payload), forged)).toThrow(WebhookVerificationError);
    expect(() => provider.parseWebhook(Buffer.from(payload), 'garbage')).toThrow(WebhookVerificationError);
    expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookVerificationError);
  });

  it('refuses a body changed after signing', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' });
    const tampered = payload.replace('pi_123', 'pi_999');
    expect(() => provider.parseWebhook(Buffer.from(tampered), sign(payload))).toThrow(WebhookVerificationError);
  });

  it('refuses a signature made with another secret', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' });
    const header = sign(payload, { secret: 'whsec_someone_else' });
    expect(() => provider.parseWebhook(Buffer.from(payload), header)).toThrow(WebhookVerificationError);
  });

  it('refuses a stale signature (10 minutes old) but takes one 2 minutes old', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' });
    const stale = sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(() => provider.parseWebhook(Buffer.from(payload), stale)).toThrow(/timestamp outside the tolerance/i);
    const recent = sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 120 });
    expect(provider.parseWebhook(Buffer.from(payload), recent).type).toBe('payment_intent.succeeded');
  });

  it('says clearly when the webhook secret is not configured', () => {
    const noSecret = createStripeProvider({
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
      STRIPE_WEBHOOK_SECRET: undefined,
      STRIPE_API_URL: standIn.url,
    });
    const payload = event('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' });
    expect(() => noSecret.parseWebhook(Buffer.from(payload), sign(payload))).toThrow(/STRIPE_WEBHOOK_SECRET is not set/);
  });
});

import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentError } from '../../../src/features/payments/provider.ts';
import { fromStripeError } from '../../../src/features/payments/stripe-errors.ts';
import { Unavailable } from '../../../src/web/errors.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';

// Stripe's errors reach the customer as a 4xx with Stripe's message, and Stripe being out of
// reach as a 503 with Retry-After; nothing is held for a payment that was never made.
let standIn: StripeStandIn;
let shop: TestShop;
beforeAll(async () => {
  standIn = await startStripeStandIn();
  shop = await buildTestShop({
    env: {
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_shop',
      STRIPE_WEBHOOK_SECRET: 'whsec_errors',
      STRIPE_API_URL: standIn.url,
    },
  });
});
afterAll(async () => {
  await shop.close();
  await standIn.close();
});

async function buyerReadyToPay() {
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(1);
  return buyer;
}

const held = async () => Number(((await shop.db('stock_holds').count({ n: '*' }).first()) as { n: number | string }).n);
const PAYMENT_INTENTS = '/v1/payment_intents';

describe('Stripe errors at checkout', () => {
  it('answers a card error with 402 and Stripe’s message', async () => {
    const buyer = await buyerReadyToPay();
    standIn.failNext({ status: 402, type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }, PAYMENT_INTENTS);
    const res = await buyer.startPayment({});
    expect(res.status).toBe(402);
    expect(res.body.message).toBe('Your card was declined.');
  });

  it('answers an invalid-request error with 400 and Stripe’s message', async () => {
    const buyer = await buyerReadyToPay();
    standIn.failNext(
      { status: 400, type: 'invalid_request_error', code: 'amount_too_large', message: 'Amount must be no more than $999,999.99' },
      PAYMENT_INTENTS,
    );
    const res = await buyer.startPayment({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Amount must be no more than $999,999.99');
  });

  it('answers Stripe out of reach with 503, Retry-After and a message, holding no copies', async () => {
    // The same database behind a shop whose Stripe address answers nothing.
    const offline = await buildTestShop({
      database: shop.database,
      seed: false,
      env: { STRIPE_SECRET_KEY: standIn.secretKey, STRIPE_PUBLISHABLE_KEY: 'pk_test_shop', STRIPE_API_URL: 'http://127.0.0.1:1' },
    });
    try {
      const buyer = new Buyer(offline);
      await buyer.signUp(buyer.parent);
      await buyer.add(1);
      const before = await held();
      const res = await buyer.startPayment({});
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.message).toMatch(/try again/i);
      expect(await held()).toBe(before);
    } finally {
      await offline.sessions.close();
      await offline.db.destroy();
    }
  });

  it('answers Stripe’s own server error with 503 and Retry-After', async () => {
    const buyer = await buyerReadyToPay();
    standIn.failNext({ status: 500, type: 'api_error', message: 'An unknown error occurred' }, PAYMENT_INTENTS);
    const res = await buyer.startPayment({});
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('Stripe errors, one by one', () => {
  const { errors } = Stripe;
  it.each([
    [new errors.StripeCardError({ message: 'Your card has insufficient funds.', type: 'card_error' }), 402],
    [
      new errors.StripeInvalidRequestError({ message: "No such payment_intent: 'pi_x'", type: 'invalid_request_error', statusCode: 404 }),
      404,
    ],
    [new errors.StripeInvalidRequestError({ message: 'Invalid integer: abc', type: 'invalid_request_error', statusCode: 400 }), 400],
  ])('%s becomes a PaymentError with its status and Stripe’s message', (err, status) => {
    const mapped = fromStripeError(err);
    expect(mapped).toBeInstanceOf(PaymentError);
    expect(mapped).toMatchObject({ status, message: err.message });
  });

  it.each([
    new errors.StripeConnectionError({ message: 'An error occurred with our connection to Stripe.' }),
    new errors.StripeRateLimitError({ message: 'Too many requests', type: 'rate_limit_error' }),
    new errors.StripeAPIError({ message: 'An unknown error occurred', type: 'api_error' }),
  ])('%s becomes a 503 with Retry-After', (err) => {
    const mapped = fromStripeError(err);
    expect(mapped).toBeInstanceOf(Unavailable);
    expect((mapped as Unavailable).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('leaves a wrong API key as the SDK’s error: the shop’s fault, not the customer’s', () => {
    const err = new errors.StripeAuthenticationError({ message: 'Invalid API Key provided', type: 'authentication_error' });
    expect(fromStripeError(err)).toBe(err);
  });
});

import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';

// The same checkout with real Stripe keys: the stripe SDK talks to a local stand-in of
// Stripe's API, and webhooks are signed with the SDK's own helper.
const WEBHOOK_SECRET = 'whsec_test_secret_for_the_shop';
let standIn: StripeStandIn;
let shop: TestShop;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  shop = await buildTestShop({
    env: {
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_shop',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    },
  });
});
afterAll(async () => {
  await shop.close();
  await standIn.close();
});

function webhook(type: string, intentId: string, { secret = WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify({
    id: `evt_${intentId}`,
    object: 'event',
    type,
    data: { object: { id: intentId, object: 'payment_intent', last_payment_error: null } },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  return shop.browser().post('/api/webhooks/stripe').set('content-type', 'application/json').set('stripe-signature', header).send(payload);
}

async function paidIntent() {
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(1);
  const started = await buyer.startPayment({});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  standIn.setStatus(buyer.intent!.paymentIntentId, 'succeeded');
  return buyer;
}

async function ordersFor(intentId: string) {
  return shop.db('orders').where({ stripePaymentIntentId: intentId });
}

describe('checkout on Stripe', () => {
  it('creates the customer and the intent through the Stripe API with idempotency keys and the server\u2019s amount', async () => {
    const buyer = await paidIntent();
    const creates = standIn.requests.filter((r) => r.method === 'POST' && (r.path === '/v1/payment_intents' || r.path === '/v1/customers'));
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const request of creates) expect(request.idempotencyKey).toBeTruthy();
    const intent = standIn.intents.get(buyer.intent!.paymentIntentId)!;
    expect(intent.amount).toBe(27_48);
    expect(intent.currency).toBe('usd');
  });

  it('completes the order from the webhook alone: the parent closed the tab', async () => {
    const buyer = await paidIntent();
    const res = await webhook('payment_intent.succeeded', buyer.intent!.paymentIntentId);
    expect(res.status).toBe(200);
    expect(await ordersFor(buyer.intent!.paymentIntentId)).toHaveLength(1);
    expect((await buyer.get('/api/orders')).body).toHaveLength(1);
  });

  it('makes one order when the browser and the webhook arrive at the same moment', async () => {
    const buyer = await paidIntent();
    const [browser, hook] = await Promise.all([buyer.complete(), webhook('payment_intent.succeeded', buyer.intent!.paymentIntentId)]);
    expect(browser.status).toBe(200);
    expect(hook.status).toBe(200);
    expect(await ordersFor(buyer.intent!.paymentIntentId)).toHaveLength(1);
  });

  it('makes one order and no refund when the webhook and the browser race for the last copy', async () => {
    for (let round = 0; round < 5; round++) {
      await shop.db('books').where({ id: 1 }).update({ inStock: 1 });
      const buyer = await paidIntent();
      const id = buyer.intent!.paymentIntentId;
      const answers = await Promise.all([buyer.complete(), webhook('payment_intent.succeeded', id), buyer.complete()]);
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await ordersFor(id)).toHaveLength(1);
      expect(standIn.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(0);
      expect(Number((await shop.db('books').where({ id: 1 }).first()).inStock)).toBe(0);
    }
    await shop.db('books').where({ id: 1 }).update({ inStock: 20 });
  });

  it('releases the held copies when Stripe reports a failed payment', async () => {
    const before = Number((await shop.db('books').where({ id: 1 }).first()).inStock);
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(1);
    await buyer.startPayment({});
    expect(Number((await shop.db('books').where({ id: 1 }).first()).inStock)).toBe(before - 1);
    expect((await webhook('payment_intent.payment_failed', buyer.intent!.paymentIntentId)).status).toBe(200);
    expect(Number((await shop.db('books').where({ id: 1 }).first()).inStock)).toBe(before);
  });

  it('refuses a forged, a wrongly signed and a stale webhook', async () => {
    const buyer = await paidIntent();
    const id = buyer.intent!.paymentIntentId;
    const forged = await shop
      .browser()
      .post('/api/webhooks/stripe')
      .set('content-type', 'application/json')
      .set('stripe-signature', 't=1,v1=deadbeef')
      .send('{}');
    expect(forged.status).toBe(400);
    expect((await webhook('payment_intent.succeeded', id, { secret: 'whsec_someone_else' })).status).toBe(400);
    expect((await webhook('payment_intent.succeeded', id, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(400);
    expect(await ordersFor(id)).toHaveLength(0);
  });

  it('refuses to complete an intent Stripe says has not succeeded', async () => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(1);
    await buyer.startPayment({});
    expect((await buyer.complete()).status).toBe(409);
  });

  it('allows Stripe.js on the checkout pages only, and hands the card island the publishable key', async () => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(1);
    const checkout = await buyer.get('/authcheckout').expect(200);
    const csp = checkout.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(checkout.text).toContain('"publishableKey":"pk_test_shop"');
    const books = await buyer.get('/books').expect(200);
    expect(books.headers['content-security-policy']).not.toContain('stripe');
  });
});

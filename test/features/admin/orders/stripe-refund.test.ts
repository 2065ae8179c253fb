import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '../../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { Buyer, setStock, stockOf } from '../../../helpers/checkout.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { orderForm, postForm } from '../../../helpers/orders.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../helpers/stripe-stand-in.ts';

// Cancel and refund through Stripe's API (a local stand-in): the refund carries an
// idempotency key and the amount, and a refund Stripe refuses shows Stripe's reason on the
// order page (a 4xx, never a 500) while the order's status and stock stay as they were.
let standIn: StripeStandIn;
let shop: TestShop;
let stripe: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  shop = await buildTestShop({
    env: { STRIPE_SECRET_KEY: standIn.secretKey, STRIPE_PUBLISHABLE_KEY: 'pk_test_shop', STRIPE_API_URL: standIn.url },
  });
  const url = new URL(standIn.url);
  stripe = new Stripe(standIn.secretKey, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(async () => {
  await shop.close();
  await standIn.close();
});

const BOOK = 3;

async function paidStripeOrder() {
  await setStock(shop, BOOK, 20);
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(BOOK, 2);
  expect((await buyer.startPayment({})).status).toBe(200);
  standIn.setStatus(buyer.intent!.paymentIntentId, 'succeeded');
  const completed = await buyer.complete();
  expect(completed.status).toBe(200);
  const orderId = completed.body.order.id as number;
  const order = await shop.db('orders').where({ id: orderId }).first();
  return { buyer, orderId, totalCents: toCents(order.totalAmount), paymentIntentId: order.stripePaymentIntentId as string };
}

describe('refunds through Stripe', () => {
  it('cancels with one refund request carrying the amount and the key refund-<refund row id>', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidStripeOrder();
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);
    expect(form.html).toContain('Provider status</dt><dd>Paid');
    const start = standIn.requests.length;
    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    expect(res.status).toBe(303);
    const refundRow = await shop.db('refunds').where({ orderId }).first();
    const calls = standIn.requests.slice(start).filter((r) => r.path === '/v1/refunds');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      idempotencyKey: `refund-${refundRow.id}`,
      form: { payment_intent: paymentIntentId, amount: String(totalCents) },
    });
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('canceled');
  });

  it('shows Stripe\u2019s reason when it refuses, and changes neither the status nor the stock', async () => {
    const { orderId, paymentIntentId } = await paidStripeOrder();
    // Refunded already on Stripe's dashboard: Stripe will refuse the shop's refund.
    await stripe.refunds.create({ payment_intent: paymentIntentId });
    const stockBefore = await stockOf(shop, BOOK);
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);

    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`The payment provider refused the refund: Charge for ${paymentIntentId} has already been refunded.`);

    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(order.status).toBe('succeeded');
    expect(toCents(order.refundedAmount)).toBe(0);
    expect(await stockOf(shop, BOOK)).toBe(stockBefore);
    expect(await shop.db('refunds').where({ orderId })).toMatchObject([
      { status: 'failed', error: `Charge for ${paymentIntentId} has already been refunded.` },
    ]);
    expect(await shop.db('outbox').where({ orderId }).where('subject', 'like', '%canceled%')).toHaveLength(0);

    // The same form again: the refusal is remembered, Stripe is not asked twice.
    const start = standIn.requests.length;
    const again = await postForm(agent, `/admin/orders/${orderId}/cancel`, {
      _csrf: form.csrf,
      requestKey: form.cancelKey,
      confirm: 'yes',
    });
    expect(again.status).toBe(409);
    expect(standIn.requests.slice(start).filter((r) => r.path === '/v1/refunds')).toHaveLength(0);

    const page = (await agent.get(`/admin/orders/${orderId}`)).text;
    expect(page).toContain('Refund refused by the payment provider');
    expect(page).toContain('Refunds the provider refused');
  });

  it('keeps a refund in progress when Stripe is out of reach, then finishes it once with the same key', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidStripeOrder();
    const stockBefore = await stockOf(shop, BOOK);
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);
    standIn.failNext({ status: 503, type: 'api_error', message: 'Stripe is having trouble' }, '/v1/refunds');
    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    expect(res.status).toBe(503);
    expect(res.text).toContain('Refunds in progress');
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('succeeded');
    expect(await stockOf(shop, BOOK)).toBe(stockBefore);

    const refund = await shop.db('refunds').where({ orderId }).first();
    expect(refund.status).toBe('pending');
    const { csrf } = await orderForm(agent, orderId);
    expect((await postForm(agent, `/admin/orders/${orderId}/refunds/${refund.id}/resume`, { _csrf: csrf })).status).toBe(303);
    const calls = standIn.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === paymentIntentId);
    expect(calls.map((c) => c.idempotencyKey)).toEqual([`refund-${refund.id}`, `refund-${refund.id}`]);
    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(order.status).toBe('canceled');
    expect(toCents(order.refundedAmount)).toBe(totalCents);
    expect(await stockOf(shop, BOOK)).toBe(stockBefore + 2);
  });

  it('says the provider status is unavailable when Stripe cannot be asked, and still shows the order', async () => {
    const { orderId } = await paidStripeOrder();
    const { agent } = await operatorBrowser(shop);
    standIn.failNext({ status: 500, type: 'api_error', message: 'Something went wrong on Stripe' }, '/v1/payment_intents/');
    const page = await agent.get(`/admin/orders/${orderId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Provider status</dt><dd>unavailable');
  });
});

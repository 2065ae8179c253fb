import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCartService } from '../../../src/features/cart/cart.service.ts';
import { createCheckoutService, type CheckoutService } from '../../../src/features/checkout/checkout.service.ts';
import { createPaymentProvider } from '../../../src/features/payments/index.ts';
import { createLogger } from '../../../src/log.ts';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { Buyer, setStock, stockOf } from '../../helpers/checkout.ts';

// The sweep each process runs every minute: what no door settled, it settles.
let shop: TestShop;
let checkout: CheckoutService;
beforeAll(async () => {
  shop = await buildTestShop();
  const payments = createPaymentProvider({ config: shop.config, db: shop.db });
  checkout = createCheckoutService({
    db: shop.db,
    carts: createCartService(shop.db, shop.services.shopDay),
    payments,
    mailer: shop.mailer,
    log: createLogger('silent'),
    publicUrl: shop.config.publicUrl,
    notifyEmail: undefined,
    shopDay: shop.services.shopDay,
  });
});
afterAll(() => shop.close());

const BOOK = 5;
beforeEach(async () => {
  // Each test starts with no checkout left open by the one before.
  await shop.db('stockHolds').delete();
  await shop.db('checkouts').whereIn('status', ['open', 'failed']).update({ status: 'canceled' });
  await setStock(shop, BOOK, 10);
});

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

async function startedCheckout(quantity = 2): Promise<Buyer> {
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(BOOK, quantity);
  const started = await buyer.startPayment({});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return buyer;
}

async function statusOf(buyer: Buyer) {
  const id = buyer.intent!.paymentIntentId;
  const row = await shop.db('checkouts').where({ paymentIntentId: id }).first();
  const intent = await shop.db('sandboxPaymentIntents').where({ id }).first();
  return { checkout: row.status as string, intent: intent.status as string };
}

describe('the checkout sweep', () => {
  it('leaves a checkout alone while its hold lasts', async () => {
    const buyer = await startedCheckout();
    await checkout.sweep(minutes(5));
    expect(await statusOf(buyer)).toEqual({ checkout: 'open', intent: 'requires_payment_method' });
    expect(await stockOf(shop, BOOK)).toBe(8);
  });

  it('returns an abandoned checkout\u2019s copies when its hold expires and cancels its payment', async () => {
    const buyer = await startedCheckout();
    expect(await stockOf(shop, BOOK)).toBe(8);
    await checkout.sweep(minutes(21));
    expect(await stockOf(shop, BOOK)).toBe(10);
    expect(await statusOf(buyer)).toEqual({ checkout: 'canceled', intent: 'canceled' });
    // A card confirmed afterwards cannot be charged.
    const late = await buyer.send('post', '/api/sandbox/confirm', {
      paymentIntentId: buyer.intent!.paymentIntentId,
      clientSecret: buyer.intent!.clientSecret,
      cardNumber: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
    expect(await shop.db('orders').where({ stripePaymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(0);
  });

  it('turns a paid payment that no door completed into its order, once, even when two processes sweep together', async () => {
    const buyer = await startedCheckout();
    // The card went through, but the browser, the confirm and the webhook were all lost.
    await shop.db('sandboxPaymentIntents').where({ id: buyer.intent!.paymentIntentId }).update({ status: 'succeeded' });
    await Promise.all([checkout.sweep(minutes(3)), checkout.sweep(minutes(3))]);
    expect(await shop.db('orders').where({ stripePaymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(1);
    expect(await statusOf(buyer)).toEqual({ checkout: 'completed', intent: 'succeeded' });
    expect(await stockOf(shop, BOOK)).toBe(8);
    await flushMail(shop);
    expect(await shop.db('outbox').where({ toAddress: buyer.parent.email }).where('subject', 'like', '%Order%')).toHaveLength(1);
    expect((await buyer.get('/api/orders')).body).toHaveLength(1);
  });

  it('completes a paid payment even after its hold expired, while the copies are there', async () => {
    const buyer = await startedCheckout();
    await shop.db('sandboxPaymentIntents').where({ id: buyer.intent!.paymentIntentId }).update({ status: 'succeeded' });
    await checkout.sweep(minutes(25));
    expect(await statusOf(buyer)).toEqual({ checkout: 'completed', intent: 'succeeded' });
    expect(await stockOf(shop, BOOK)).toBe(8);
  });

  it('never fills a paid payment whose amount is not its checkout\u2019s total', async () => {
    const buyer = await startedCheckout();
    const id = buyer.intent!.paymentIntentId;
    // Paid, but a dollar more than the checkout's total (an amount changed at the provider).
    await shop.db('sandboxPaymentIntents').where({ id }).update({ status: 'succeeded' });
    await shop.db('sandboxPaymentIntents').where({ id }).increment('amountCents', 100);
    await checkout.sweep(minutes(3));
    await checkout.sweep(minutes(25));
    expect(await shop.db('orders').where({ stripePaymentIntentId: id })).toHaveLength(0);
    expect((await statusOf(buyer)).checkout).toBe('open');
  });

  it('finishes a refund that was decided but did not go through', async () => {
    const buyer = await startedCheckout();
    const id = buyer.intent!.paymentIntentId;
    await shop.db('sandboxPaymentIntents').where({ id }).update({ status: 'succeeded' });
    await shop.db('checkouts').where({ paymentIntentId: id }).update({ status: 'refunding', soldOutTitle: 'Pip and the Moon Garden' });
    await checkout.sweep(minutes(3));
    expect(await shop.db('sandboxRefunds').where({ paymentIntentId: id })).toHaveLength(1);
    expect((await statusOf(buyer)).checkout).toBe('refunded');
    await checkout.sweep(minutes(4));
    expect(await shop.db('sandboxRefunds').where({ paymentIntentId: id })).toHaveLength(1);
    await flushMail(shop);
    expect(await shop.db('outbox').where({ toAddress: buyer.parent.email }).where('subject', 'like', '%refund%')).toHaveLength(1);
  });
});

describe('how much one customer can hold', () => {
  it('a customer\u2019s new checkout releases the copies of the earlier one and cancels its payment', async () => {
    const buyer = await startedCheckout(3);
    const first = buyer.intent!;
    expect(await stockOf(shop, BOOK)).toBe(7);
    const again = await buyer.startPayment({});
    expect(again.status).toBe(200);
    expect(again.body.paymentIntentId).not.toBe(first.paymentIntentId);
    expect(await stockOf(shop, BOOK)).toBe(7);
    expect((await shop.db('checkouts').where({ paymentIntentId: first.paymentIntentId }).first()).status).toBe('canceled');
    expect((await shop.db('sandboxPaymentIntents').where({ id: first.paymentIntentId }).first()).status).toBe('canceled');
    expect(await shop.db('stockHolds').where({ paymentIntentId: first.paymentIntentId })).toHaveLength(0);
  });

  it('refuses an order of more than 50 copies of one title, with a message', async () => {
    await setStock(shop, BOOK, 200);
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(BOOK, 1);
    await shop.db('cartItems').where({ bookId: BOOK }).update({ quantity: 51 });
    const res = await buyer.startPayment({});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/up to 50 copies of ".+" at a time/);
    expect(await stockOf(shop, BOOK)).toBe(200);
  });

  it('caps the checkouts holding copies from one address', async () => {
    const buyers: Buyer[] = [];
    for (let i = 0; i < 5; i++) buyers.push(await startedCheckout(1));
    const one = new Buyer(shop);
    await one.signUp(one.parent);
    await one.add(BOOK, 1);
    const refused = await one.startPayment({});
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'Too many checkouts are open from your network. Please finish one, or wait 20 minutes, and try again.',
    );
    // Once one of them is paid, there is room again.
    await buyers[0]!.confirm('4242 4242 4242 4242');
    expect((await one.startPayment({})).status).toBe(200);
  });
});

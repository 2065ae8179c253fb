import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS, SHIPPING, setStock, stockOf } from '../../helpers/checkout.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

// Book 1 costs 16.99. Portland, OR 97205: no sales tax; a 16.99 subtotal ships for 7.99.
const BOOK = 1;
beforeEach(async () => {
  await setStock(shop, BOOK, 20);
});

async function guestWithBook(quantity = 1) {
  const buyer = new Buyer(shop);
  await buyer.add(BOOK, quantity);
  const { stripeCustomerId } = await buyer.createAccount();
  return { buyer, stripeCustomerId };
}

async function ordersOf(userEmail: string) {
  const user = await shop.db('users').where({ email: userEmail }).first();
  return shop.db('orders').where({ userId: user.id });
}

describe('totals', () => {
  it('prices the session cart for the address: shipping, handling, tax, total', async () => {
    const buyer = new Buyer(shop);
    await buyer.add(BOOK, 2); // 33.98
    const res = await buyer.totals({ address: '1 Main St', city: 'Austin', zipCode: '78701' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ subtotal: '33.98', discount: '0.00', shipping: '4.99', handling: '2.50', tax: '2.79', total: '44.26' });
  });

  it('ignores a userId in the body and answers an empty cart with a clear message', async () => {
    const res = await new Buyer(shop).send('post', '/api/calculate-totals', { ...SHIPPING, userId: 1 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Your cart is empty. Add some books before checking out.');
  });

  it.each([
    [{ zipCode: '9720' }, 'ZIP code must be 5 digits'],
    [{ zipCode: 'abcde' }, 'ZIP code must be 5 digits'],
    [{ city: '' }, 'City is required'],
    [{ address: undefined }, 'Address is required'],
  ])('refuses %o with 400', async (change, message) => {
    const buyer = new Buyer(shop);
    await buyer.add(BOOK);
    const res = await buyer.totals({ ...SHIPPING, ...change } as typeof SHIPPING);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it('validates an address offline', async () => {
    const res = await new Buyer(shop).send('post', '/api/validate-address', SHIPPING);
    expect(res.body).toEqual({ isValid: true, confidence: 95, suggestions: ['214 Maple Street, Portland, OR 97205'] });
  });

  it('keeps a ZIP code that exists and offers its own city: Miami, 33139 is Miami Beach, FL 33139', async () => {
    const res = await new Buyer(shop).send('post', '/api/validate-address', { address: '12 Ocean Ave', city: 'Miami', zipCode: '33139' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isValid: false, confidence: 60, suggestions: ['12 Ocean Ave, Miami Beach, FL 33139'] });
  });

  it('answers a ZIP code that does not exist with no confidence and nothing to choose', async () => {
    const res = await new Buyer(shop).send('post', '/api/validate-address', { address: '12 Ocean Ave', city: 'Miami', zipCode: '00000' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isValid: false, confidence: 0, suggestions: [] });
  });
});

describe('guest checkout with the sandbox', () => {
  it('creates the account, takes the payment, makes one order, empties the cart and mails one confirmation', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook(2);
    expect(stripeCustomerId).toMatch(/^cus_/);
    expect((await buyer.get('/api/session')).body.isAuthenticated).toBe(true);

    const started = await buyer.startPayment({ stripeCustomerId, totalAmount: '41.47' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({
      clientSecret: expect.stringContaining('_secret_'),
      paymentIntentId: expect.stringMatching(/^pi_/),
      amount: 41_47,
    });
    expect(await stockOf(shop, BOOK)).toBe(18); // held

    expect(await buyer.confirm(CARDS.success)).toEqual({ status: 'succeeded', error: null });
    const completed = await buyer.complete();
    expect(completed.status).toBe(200);
    const { order } = completed.body;
    expect(order).toMatchObject({
      id: expect.any(Number),
      stripePaymentIntentId: started.body.paymentIntentId,
      status: 'succeeded',
      totalAmount: '41.47',
    });

    const again = await buyer.complete();
    expect(again.body.order.id).toBe(order.id);
    expect(await ordersOf(buyer.parent.email)).toHaveLength(1);
    expect(await stockOf(shop, BOOK)).toBe(18);
    expect((await buyer.get('/api/cart')).body).toEqual([]);

    const detail = await buyer.get(`/api/orders/${order.id}`).expect(200);
    expect(detail.body).toMatchObject({
      city: 'Portland',
      zipCode: '97205',
      shippingAddress: '214 Maple Street',
      items: [{ quantity: 2, price: '16.99', book: { title: expect.any(String) } }],
    });
    expect((await buyer.get(`/api/orders/${order.id}/breakdown`)).body).toEqual({
      subtotal: '33.98',
      discount: '0.00',
      shipping: '4.99',
      handling: '2.50',
      tax: '0.00',
      total: '41.47',
    });
    expect((await buyer.get(`/api/orders/${order.id}/stripe-status`)).body).toEqual({
      stripeStatus: 'succeeded',
      status: 'succeeded',
      statusLabel: 'Paid',
    });

    await flushMail(shop);
    const mails = await shop.db('outbox').where({ toAddress: buyer.parent.email }).select('subject', 'textBody', 'htmlBody');
    const confirmations = mails.filter((m) => m.subject.includes('is confirmed'));
    expect(confirmations.map((m) => m.subject)).toEqual([`Your order #${order.id} is confirmed`]);
    // The address line carries the state the ZIP code belongs to.
    expect(confirmations[0].textBody).toContain('Portland, OR 97205');
    expect(confirmations[0].htmlBody).toContain('Portland, OR 97205');
  });

  it('declined card: Payment Failed with the provider message, nothing charged or ordered, copies back', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook();
    await buyer.startPayment({ stripeCustomerId });
    expect(await stockOf(shop, BOOK)).toBe(19);
    expect(await buyer.confirm(CARDS.declined)).toEqual({ status: 'requires_payment_method', error: 'Your card was declined.' });
    const res = await buyer.complete();
    expect(res.status).toBe(409);
    expect(await ordersOf(buyer.parent.email)).toHaveLength(0);
    expect(await stockOf(shop, BOOK)).toBe(20);
    // The parent tries another card on the same payment.
    expect((await buyer.confirm(CARDS.success)).status).toBe('succeeded');
    expect((await buyer.complete()).status).toBe(200);
    expect(await stockOf(shop, BOOK)).toBe(19);
  });

  it('3D Secure passed: the order is made', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook();
    await buyer.startPayment({ stripeCustomerId });
    expect((await buyer.confirm(CARDS.threeDSecure)).status).toBe('requires_action');
    expect((await buyer.authenticate(true)).status).toBe('succeeded');
    expect((await buyer.complete()).status).toBe(200);
  });

  it('3D Secure failed: no order, the provider says why', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook();
    await buyer.startPayment({ stripeCustomerId });
    await buyer.confirm(CARDS.threeDSecure);
    const failed = await buyer.authenticate(false);
    expect(failed).toEqual({
      status: 'requires_payment_method',
      error: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    });
    expect((await buyer.complete()).status).toBe(409);
    expect(await ordersOf(buyer.parent.email)).toHaveLength(0);
  });

  it('refuses a registered email at account creation', async () => {
    const { buyer } = await guestWithBook();
    const other = new Buyer(shop);
    other.parent = { ...buyer.parent };
    await other.add(BOOK);
    const res = await other.send('post', '/api/create-user-and-customer', { ...other.parent, shippingInfo: SHIPPING });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This email is already registered. Please use a different email or sign in.');
  });
});

describe('signed-in checkout', () => {
  it('pays with the authenticated intent and sees the order in /api/orders', async () => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(BOOK);
    const started = await buyer.startPayment({ amount: 27_48 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.amount).toBe(27_48);
    await buyer.confirm(CARDS.success);
    const { order } = (await buyer.complete()).body;
    const list = await buyer.get('/api/orders').expect(200);
    expect(list.body.map((o: { id: number }) => o.id)).toEqual([order.id]);
  });

  it('needs a signed-in customer', async () => {
    const buyer = new Buyer(shop);
    await buyer.add(BOOK);
    expect((await buyer.startPayment({ amount: 100 })).status).toBe(401);
    expect((await buyer.complete('pi_whatever')).status).toBe(401);
  });
});

describe('amounts and ownership are the server\u2019s', () => {
  it('refuses a tampered total and creates nothing', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook();
    const res = await buyer.startPayment({ stripeCustomerId, totalAmount: '0.50' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The order total has changed. Please review your order and try again.');
    expect(await stockOf(shop, BOOK)).toBe(20);
    expect(
      await shop.db('checkouts').where({ userId: (await shop.db('users').where({ email: buyer.parent.email }).first()).id }),
    ).toHaveLength(0);
    const authed = await buyer.startPayment({ amount: 1 });
    expect(authed.status).toBe(409);
  });

  it("answers someone else's order with 404, on every order route and the confirmation page", async () => {
    const { buyer, stripeCustomerId } = await guestWithBook();
    await buyer.startPayment({ stripeCustomerId });
    await buyer.confirm(CARDS.success);
    const { order } = (await buyer.complete()).body;

    const stranger = new Buyer(shop);
    await stranger.signUp(stranger.parent);
    for (const path of [`/api/orders/${order.id}`, `/api/orders/${order.id}/breakdown`, `/api/orders/${order.id}/stripe-status`]) {
      expect((await stranger.get(path)).status, path).toBe(404);
    }
    expect((await stranger.complete(buyer.intent!.paymentIntentId)).status).toBe(404);
    const page = await stranger.get(`/order-confirmation?orderId=${order.id}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Order Not Found');
    const mine = await buyer.get(`/order-confirmation?orderId=${order.id}&paymentIntentId=${order.stripePaymentIntentId}`).expect(200);
    expect(mine.text).toContain('Order Confirmed!');
  });

  it('answers a malformed order id with 400', async () => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    expect((await buyer.get('/api/orders/abc')).status).toBe(400);
  });
});

describe('stock', () => {
  it('sells the last copy once when two parents pay at the same moment', async () => {
    await setStock(shop, BOOK, 1);
    const a = new Buyer(shop);
    const b = new Buyer(shop);
    for (const buyer of [a, b]) {
      await buyer.signUp(buyer.parent);
      await buyer.add(BOOK);
    }
    const results = await Promise.all([a.startPayment({ amount: 27_48 }), b.startPayment({ amount: 27_48 })]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.message).toMatch(/has just sold out/);
    const winner = results[0].status === 200 ? a : b;
    await winner.confirm(CARDS.success);
    expect((await winner.complete()).status).toBe(200);
    expect(await stockOf(shop, BOOK)).toBe(0);
    // The other parent got no payment to confirm: nothing can be charged.
    const loserBuyer = winner === a ? b : a;
    expect(loserBuyer.intent).toBeUndefined();
    // The provider is asked only while the copy is not plainly gone already; any payment it was asked for is canceled.
    const customerId = (await shop.db('users').where({ email: loserBuyer.parent.email }).first()).paymentCustomerId as string | null;
    const intents = customerId
      ? await shop.db('sandboxPaymentIntents').whereNot({ id: winner.intent!.paymentIntentId }).where({ customerId })
      : [];
    expect(intents.filter((i) => i.status !== 'canceled')).toEqual([]);
  });

  it('gives an expired hold its copies back', async () => {
    const { buyer, stripeCustomerId } = await guestWithBook(3);
    await buyer.startPayment({ stripeCustomerId });
    expect(await stockOf(shop, BOOK)).toBe(17);
    await shop
      .db('stockHolds')
      .where({ paymentIntentId: buyer.intent!.paymentIntentId })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    // The next payment anyone starts sweeps expired holds first.
    const other = new Buyer(shop);
    await other.signUp(other.parent);
    await other.add(2);
    await other.startPayment({});
    expect(await stockOf(shop, BOOK)).toBe(20);
    expect(await shop.db('stockHolds').where({ paymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(0);
  });

  it('refunds a paid order whose copies sold out after its hold expired, and says so', async () => {
    await setStock(shop, BOOK, 1);
    const rival = new Buyer(shop);
    await rival.signUp(rival.parent);
    await rival.add(BOOK);
    const { buyer, stripeCustomerId } = await guestWithBook();
    await buyer.startPayment({ stripeCustomerId });
    await shop
      .db('stockHolds')
      .where({ paymentIntentId: buyer.intent!.paymentIntentId })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await rival.startPayment({})).status).toBe(200); // sweeps the expired hold, takes the copy
    await buyer.confirm(CARDS.success);
    const res = await buyer.complete();
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/Your payment has been refunded in full/);
    expect(await shop.db('sandboxRefunds').where({ paymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(1);
    expect(await ordersOf(buyer.parent.email)).toHaveLength(0);
    expect(await stockOf(shop, BOOK)).toBe(0);
    await flushMail(shop);
    expect(
      (await shop.db('outbox').where({ toAddress: buyer.parent.email })).map((m) => m.subject).some((s: string) => s.includes('refunded')),
    ).toBe(true);
  });
});

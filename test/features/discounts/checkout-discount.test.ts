import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS } from '../../helpers/checkout.ts';
import { addCode, codeRow, priceBook } from '../../helpers/discounts.ts';
import { DISCOUNT_MESSAGES } from '../../../src/features/discounts/discount.rules.ts';
import { createCartService } from '../../../src/features/cart/cart.service.ts';
import { createCheckoutService } from '../../../src/features/checkout/checkout.service.ts';
import { createPaymentProvider } from '../../../src/features/payments/index.ts';
import { createLogger } from '../../../src/log.ts';

// A parent applies a code on the checkout page (a plain form); the server keeps it in the
// session and prices it into the totals the card form asks for, the payment and the order.
let shop: TestShop;
const BOOK = 1;
const CA = { address: '1 Market Street', city: 'San Francisco', zipCode: '94103' };

beforeAll(async () => {
  shop = await buildTestShop();
  await priceBook(shop, BOOK, '26.00');
  await addCode(shop, { code: 'TEN', kind: 'percentage', percent: 10 });
  await addCode(shop, { code: 'FIVE-OFF', kind: 'fixed', amount: 5_00 });
  await addCode(shop, { code: 'SHIPFREE', kind: 'free_shipping' });
  await addCode(shop, { code: 'HUGE', kind: 'fixed', amount: 500_00 });
  await addCode(shop, { code: 'LATER', kind: 'percentage', percent: 10, startsOn: '2999-01-01' });
  await addCode(shop, { code: 'OVER', kind: 'percentage', percent: 10, endsOn: '2020-12-31' });
  await addCode(shop, { code: 'GONE', kind: 'percentage', percent: 10, maxUses: 2, uses: 2 });
  await addCode(shop, { code: 'OFF', kind: 'percentage', percent: 10, active: false });
  await addCode(shop, { code: 'BIG-BASKET', kind: 'percentage', percent: 10, minimumSubtotal: 60_00 });
  await addCode(shop, { code: 'ONCE', kind: 'fixed', amount: 1_00, maxUses: 1 });
  await addCode(shop, { code: 'LAST-ONE', kind: 'fixed', amount: 1_00, maxUses: 1 });
});
afterAll(async () => {
  await shop.close();
});

/** A signed-in parent with `quantity` copies of the $26.00 book in the cart. */
async function parentWith(quantity: number): Promise<Buyer> {
  const buyer = new Buyer(shop);
  expect((await buyer.signUp(buyer.parent)).status).toBeLessThan(300);
  await buyer.add(BOOK, quantity);
  return buyer;
}
const apply = (buyer: Buyer, code: string) => buyer.send('post', '/checkout/discount', { code });

describe('applying a code on the checkout page', () => {
  it('in any case: back to the checkout, which shows the code and what it takes off', async () => {
    const buyer = await parentWith(2);
    const res = await apply(buyer, ' ten ');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/authcheckout');
    const page = await buyer.get('/authcheckout').expect(200);
    expect(page.text).toContain('Discount (TEN)');
    expect(page.text).toContain('-$5.20');
    expect(page.text).toContain('Code TEN applied');
  });

  it.each([
    ['NOPE', DISCOUNT_MESSAGES.unknown],
    ['LATER', 'That code can be used from January 1, 2999.'],
    ['OVER', DISCOUNT_MESSAGES.expired],
    ['GONE', DISCOUNT_MESSAGES.usedUp],
    ['OFF', DISCOUNT_MESSAGES.switchedOff],
    ['BIG-BASKET', 'That code needs a subtotal of $60.00 or more.'],
    ['no spaces!', 'A code has only letters, digits and hyphens.'],
  ])('%s is refused (400) with its reason beside the field, and nothing is applied', async (code, message) => {
    const buyer = await parentWith(2);
    const res = await apply(buyer, code);
    expect(res.status).toBe(400);
    expect(res.text).toContain(message.replace(/'/g, '&#39;'));
    expect(res.text).toContain('aria-invalid="true"');
    expect((await buyer.totals(CA)).body.discount).toBe('0.00');
  });

  it('can be removed', async () => {
    const buyer = await parentWith(2);
    await apply(buyer, 'TEN');
    expect((await buyer.send('post', '/checkout/discount/remove')).status).toBe(303);
    expect((await buyer.totals(CA)).body.discount).toBe('0.00');
  });
});

describe('the totals the card form asks for, with the code of the session', () => {
  it('10% off $52.00 brings it under $50: shipping $4.99, tax on $46.80', async () => {
    const buyer = await parentWith(2);
    await apply(buyer, 'TEN');
    // CA 8.75% of $46.80 is 409.5 cents: 410.
    expect((await buyer.totals(CA)).body).toEqual({
      subtotal: '52.00',
      discount: '5.20',
      shipping: '4.99',
      handling: '2.50',
      tax: '4.10',
      total: '58.39',
    });
  });

  it('$5.00 off $26.00 brings it under $25: shipping $7.99', async () => {
    const buyer = await parentWith(1);
    await apply(buyer, 'five-off');
    expect((await buyer.totals()).body).toMatchObject({ subtotal: '26.00', discount: '5.00', shipping: '7.99', total: '31.49' });
  });

  it('free shipping, and a fixed amount above the subtotal stops at zero', async () => {
    const free = await parentWith(1);
    await apply(free, 'SHIPFREE');
    expect((await free.totals()).body).toMatchObject({ discount: '0.00', shipping: '0.00', total: '28.50' });
    const huge = await parentWith(1);
    await apply(huge, 'HUGE');
    expect((await huge.totals()).body).toMatchObject({ discount: '26.00', shipping: '7.99', tax: '0.00', total: '10.49' });
  });
});

describe('paying with a code', () => {
  it('charges the discounted total, and the order, its API, its pages and its email carry the discount', async () => {
    const buyer = await parentWith(2);
    await apply(buyer, 'TEN');
    const started = await buyer.startPayment({ shippingInfo: CA });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.amount).toBe(58_39);
    expect(await codeRow(shop, 'TEN')).toMatchObject({ held: 1, uses: 0 });
    expect((await buyer.confirm(CARDS.success)).status).toBe('succeeded');
    const done = await buyer.complete();
    expect(done.status).toBe(200);
    const id = Number(done.body.order.id);
    expect(await codeRow(shop, 'TEN')).toMatchObject({ held: 0, uses: 1 });

    const order = (await buyer.get(`/api/orders/${id}`).expect(200)).body;
    expect(order).toMatchObject({ totalAmount: '58.39', discountCode: 'TEN', breakdown: { subtotal: '52.00', discount: '5.20' } });
    expect((await buyer.get(`/api/orders/${id}/breakdown`)).body).toMatchObject({ discount: '5.20', total: '58.39' });

    const confirmation = await buyer.get(`/order-confirmation?orderId=${id}`).expect(200);
    expect(confirmation.text).toContain('Discount (TEN)');
    expect(confirmation.text).toContain('-$5.20');
    const dashboard = await buyer.get('/dashboard').expect(200);
    expect(dashboard.text).toContain('Discount (TEN)');

    await flushMail(shop);
    const mail = await shop.db('outbox').where({ toAddress: buyer.parent.email }).andWhere('subject', 'like', '%is confirmed%').first();
    expect(mail.textBody).toContain('Discount (TEN): -$5.20');
    expect(mail.htmlBody).toContain('-$5.20');
  });

  it('a declined card gives the reserved use back; a code used up since it was applied is refused at payment', async () => {
    const first = await parentWith(1);
    await apply(first, 'ONCE');
    const second = await parentWith(1);
    await apply(second, 'ONCE');
    expect((await first.startPayment()).status).toBe(200);
    expect(await codeRow(shop, 'ONCE')).toMatchObject({ held: 1 });
    const refused = await second.startPayment();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(DISCOUNT_MESSAGES.usedUp);

    await first.confirm(CARDS.declined);
    expect(await codeRow(shop, 'ONCE')).toMatchObject({ held: 0, uses: 0 });
    expect((await second.startPayment()).status).toBe(200);
  });

  it('a code applied before signing up at the guest checkout stays applied', async () => {
    const guest = new Buyer(shop);
    await guest.add(BOOK, 2);
    await apply(guest, 'TEN');
    const { stripeCustomerId } = await guest.createAccount(CA);
    const started = await guest.startPayment({ stripeCustomerId, shippingInfo: CA });
    expect(started.body.amount).toBe(58_39);
  });

  it('a code applied before signing in, on the sign-in page or through the API, stays applied', async () => {
    for (const signIn of ['page', 'api'] as const) {
      const account = new Buyer(shop);
      expect((await account.signUp(account.parent)).status).toBeLessThan(300);
      const guest = new Buyer(shop);
      await guest.add(BOOK, 2);
      await apply(guest, 'TEN');
      const { email, password } = account.parent;
      const res = signIn === 'page' ? await guest.send('post', '/login', { email, password }) : await guest.signIn(email, password);
      expect(res.status, signIn).toBeLessThan(400);
      await guest.refreshToken(); // the page's sign-in answers with a redirect, not the new session's token
      const started = await guest.startPayment({ shippingInfo: CA });
      expect(started.status, signIn).toBe(200);
      expect(started.body.amount, signIn).toBe(58_39);
    }
  });

  it('the browser never sends an amount: a claimed total without the discount is refused', async () => {
    const buyer = await parentWith(2);
    await apply(buyer, 'TEN');
    const res = await buyer.startPayment({ amount: 52_00 + 2_50 + 4_55, shippingInfo: CA });
    expect(res.status).toBe(409);
  });

  it('a checkout left past its 20-minute hold gives its use back when the sweep ends it', async () => {
    const buyer = await parentWith(1);
    await apply(buyer, 'LAST-ONE');
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await codeRow(shop, 'LAST-ONE')).toMatchObject({ held: 1 });
    const checkout = createCheckoutService({
      db: shop.db,
      carts: createCartService(shop.db, shop.services.shopDay),
      payments: createPaymentProvider({ config: shop.config, db: shop.db }),
      mailer: shop.mailer,
      log: createLogger('silent'),
      publicUrl: shop.config.publicUrl,
      notifyEmail: undefined,
      shopDay: shop.services.shopDay,
    });
    await checkout.sweep(new Date(Date.now() + 21 * 60_000));
    expect(await codeRow(shop, 'LAST-ONE')).toMatchObject({ held: 0, uses: 0 });
  });
});

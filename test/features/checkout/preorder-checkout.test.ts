import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { longDate } from '../../../src/lib/dates.ts';
import { preorderedSentence, shipsTogetherSentence } from '../../../src/features/catalog/preorder.rules.ts';
import { CHECKOUT_MESSAGES } from '../../../src/features/checkout/checkout.service.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS, SHIPPING } from '../../helpers/checkout.ts';
import { countsOf, daysFromNow, makeForthcoming, OUT_ON } from '../../helpers/preorder-titles.ts';

// The money path of a pre-order: paid now like any order (the same shipping, handling and
// tax), its copies held against the title's pre-order limit rather than its stock, the limit
// given back when the payment does not happen, and a paid pre-order made an order that waits
// for its titles. On SQLite, and on MariaDB when DATABASE_URL is set.

const SHOP_ADDRESS = 'orders@littlelanternbooks.example';
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ env: { SHOP_NOTIFY_EMAIL: SHOP_ADDRESS } });
});
afterAll(() => shop.close());

/** Forthcoming, 16.99 like BOOK, 10 pre-order copies of 15 left. */
const PREORDER = 3;
/** Forthcoming later than PREORDER, without a limit. */
const LATER_TITLE = 4;
const LATER = daysFromNow(200);
/** On the shelf, 16.99. */
const BOOK = 1;

beforeEach(async () => {
  // Each test starts from the counts below: the checkouts earlier tests left open are ended
  // (one address may hold only a few), their holds with them.
  await shop.db('checkouts').where({ status: 'open' }).update({ status: 'canceled' });
  await shop.db('stockHolds').delete();
  await makeForthcoming(shop, PREORDER, { limit: 15, preordered: 5, price: '16.99' });
  await makeForthcoming(shop, LATER_TITLE, { limit: null, price: '16.99', publishedOn: LATER });
  await shop.db('books').where({ id: BOOK }).update({ inStock: 20, preordered: 0, price: '16.99' });
  await bumpCatalogueVersion(shop.db);
});

async function parentWith(lines: Array<[number, number]>): Promise<Buyer> {
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  for (const [bookId, quantity] of lines) await buyer.add(bookId, quantity);
  return buyer;
}

const userIdOf = async (buyer: Buyer) => (await shop.db('users').where({ email: buyer.parent.email }).first('id')).id as number;
const titleOf = async (id: number) => (await shop.db('books').where({ id }).first('title')).title as string;
const said = (text: string) => text.replace(/"/g, '&quot;');

async function expireHoldsOf(buyer: Buyer): Promise<void> {
  await shop
    .db('stockHolds')
    .where({ paymentIntentId: buyer.intent!.paymentIntentId })
    .update({ expiresAt: new Date(Date.now() - 1000) });
}

describe('the order summary before payment', () => {
  it.each(['/simple-checkout', '/authcheckout'])('%s marks the pre-order lines and says when everything ships', async (path) => {
    const buyer = new Buyer(shop);
    if (path === '/authcheckout') await buyer.signUp(buyer.parent);
    await buyer.add(PREORDER, 1);
    await buyer.add(LATER_TITLE, 1);
    await buyer.add(BOOK, 1);
    const html = (await buyer.get(path).expect(200)).text;
    const summary = html.slice(html.indexOf('Order Summary'));
    expect(summary).toContain(`Pre-order · out ${longDate(OUT_ON)}`);
    expect(summary).toContain(`Pre-order · out ${longDate(LATER)}`);
    expect(summary.match(/class="cart-line-preorder"/g)).toHaveLength(2);
    const sentence = said(shipsTogetherSentence(LATER));
    expect(summary).toContain(sentence);
    expect(summary).not.toContain('Orders ship within 1-2 business days.');
    // Said again where the parent pays, before the card.
    const form = html.slice(0, html.indexOf('Order Summary'));
    expect(form.indexOf(sentence)).toBeGreaterThan(form.indexOf('<legend>Payment</legend>'));
    expect(form.indexOf(sentence)).toBeLessThan(form.indexOf('data-island="card-form"'));
  });

  it('says nothing of pre-orders for an ordinary order', async () => {
    const buyer = await parentWith([[BOOK, 1]]);
    const html = (await buyer.get('/authcheckout').expect(200)).text;
    expect(html).not.toContain('Pre-order');
    expect(html).not.toContain('ships-together');
    expect(html).toContain('Orders ship within 1-2 business days.');
  });

  it('prices a pre-order as any order: shipping, handling and tax', async () => {
    const austin = { address: '1 Main St', city: 'Austin', zipCode: '78701' };
    const preorder = await (await parentWith([[PREORDER, 2]])).totals(austin);
    const ordinary = await (await parentWith([[BOOK, 2]])).totals(austin);
    expect(preorder.body).toEqual({ subtotal: '33.98', discount: '0.00', shipping: '4.99', handling: '2.50', tax: '2.79', total: '44.26' });
    expect(preorder.body).toEqual(ordinary.body);
  });
});

describe('holding a pre-order’s copies', () => {
  it('takes them from the pre-order limit, never from the shelf, and marks the hold and the line', async () => {
    const buyer = await parentWith([[PREORDER, 3]]);
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 8 });
    const hold = await shop.db('stockHolds').where({ paymentIntentId: buyer.intent!.paymentIntentId }).first();
    expect(hold).toMatchObject({ bookId: PREORDER, quantity: 3 });
    expect(Boolean(hold.preorder)).toBe(true);
    const checkout = await shop.db('checkouts').where({ paymentIntentId: buyer.intent!.paymentIntentId }).first();
    expect(JSON.parse(checkout.lines)).toEqual([expect.objectContaining({ bookId: PREORDER, quantity: 3, preorder: true })]);
  });

  it('copies on the shelf of a forthcoming title stay there', async () => {
    await makeForthcoming(shop, PREORDER, { limit: 15, preordered: 5, inStock: 40, price: '16.99' });
    const buyer = await parentWith([[PREORDER, 2]]);
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 40, preordered: 7 });
  });

  it('refuses the payment, in words about pre-orders, once the limit is gone, holding nothing', async () => {
    const buyer = await parentWith([[PREORDER, 2]]);
    await makeForthcoming(shop, PREORDER, { limit: 15, preordered: 14, price: '16.99' });
    const intents = (await shop.db('sandboxPaymentIntents')).length;
    const res = await buyer.startPayment();
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CHECKOUT_MESSAGES.preordersGone(await titleOf(PREORDER)));
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 14 });
    expect(await shop.db('stockHolds').where({ bookId: PREORDER })).toHaveLength(0);
    expect(await shop.db('checkouts').where({ userId: await userIdOf(buyer), status: 'open' })).toHaveLength(0);
    // Told before any payment was asked of the provider.
    expect(await shop.db('sandboxPaymentIntents')).toHaveLength(intents);
  });

  it('a parent pressing Pay again holds their own copies, the last ones included', async () => {
    await makeForthcoming(shop, PREORDER, { limit: 15, preordered: 12, price: '16.99' });
    const buyer = await parentWith([[PREORDER, 3]]);
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await countsOf(shop, PREORDER)).toMatchObject({ preordered: 15 });
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await countsOf(shop, PREORDER)).toMatchObject({ preordered: 15 });
  });

  it('refuses a pre-order once the title is out: the parent is told, nothing is held', async () => {
    const buyer = await parentWith([[PREORDER, 1]]);
    // The operator switched pre-orders off after the parent filled the cart.
    await shop.db('books').where({ id: PREORDER }).update({ takesPreorders: false });
    await bumpCatalogueVersion(shop.db);
    const res = await buyer.startPayment();
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CHECKOUT_MESSAGES.soldOut(await titleOf(PREORDER)));
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 5 });
  });

  it('gives the copies back to the limit when the card is declined', async () => {
    const buyer = await parentWith([[PREORDER, 3]]);
    await buyer.startPayment();
    expect(await countsOf(shop, PREORDER)).toMatchObject({ preordered: 8 });
    await buyer.confirm(CARDS.declined);
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 5 });
    expect(await shop.db('stockHolds').where({ paymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(0);
  });

  it('gives an expired hold’s copies back to the limit, not to the shelf', async () => {
    const buyer = await parentWith([[PREORDER, 3]]);
    await buyer.startPayment();
    await expireHoldsOf(buyer);
    await shop.services.checkout.sweep();
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 5 });
  });

  it('a parent starting again holds the copies once', async () => {
    const buyer = await parentWith([[PREORDER, 3]]);
    await buyer.startPayment();
    await buyer.startPayment();
    expect(await countsOf(shop, PREORDER)).toMatchObject({ preordered: 8 });
  });
});

describe('an ordinary sale and the copies owed to pre-orders', () => {
  it('cannot take copies still owed to pre-orders, even from a cart filled before they were', async () => {
    const buyer = await parentWith([[BOOK, 3]]);
    // Stock came in for a title with 18 copies still owed to its pre-orders.
    await shop.db('books').where({ id: BOOK }).update({ preordered: 18 });
    await bumpCatalogueVersion(shop.db);
    const res = await buyer.startPayment();
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CHECKOUT_MESSAGES.soldOut(await titleOf(BOOK)));
    expect(await countsOf(shop, BOOK)).toEqual({ inStock: 20, preordered: 18 });
  });

  it('takes the copies beyond them', async () => {
    const buyer = await parentWith([[BOOK, 2]]);
    await shop.db('books').where({ id: BOOK }).update({ preordered: 18 });
    await bumpCatalogueVersion(shop.db);
    expect((await buyer.startPayment()).status).toBe(200);
    expect(await countsOf(shop, BOOK)).toEqual({ inStock: 18, preordered: 18 });
  });
});

describe('a paid pre-order', () => {
  it('becomes an order that waits for its title: preordered, its line marked, no delivery date yet', async () => {
    const buyer = await parentWith([[PREORDER, 2]]);
    await buyer.startPayment();
    await buyer.confirm(CARDS.success);
    const completed = await buyer.complete();
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const orderId = completed.body.order.id as number;
    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'preordered', estimatedDelivery: null });
    const items = await shop.db('orderItems').where({ orderId });
    expect(items.map((i) => [i.bookId, i.quantity, Boolean(i.preorder)])).toEqual([[PREORDER, 2, true]]);
    // Still promised, now to a paid pre-order: nothing back, nothing from the shelf.
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 7 });
    expect(await shop.db('stockHolds').where({ paymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(0);
    expect((await buyer.get('/api/cart')).body).toEqual([]);

    await flushMail(shop);
    const confirmation = await shop.db('outbox').where({ toAddress: buyer.parent.email, orderId }).first('textBody', 'htmlBody');
    expect(confirmation.textBody).toContain(preorderedSentence(OUT_ON));
    expect(confirmation.textBody).not.toContain('ship within 1-2 business days');
    const notice = await shop.db('outbox').where({ toAddress: SHOP_ADDRESS, orderId }).first('subject', 'textBody');
    expect(notice.subject).toMatch(new RegExp(`^New pre-order #${orderId}:`));
    expect(notice.textBody).toContain(
      `A pre-order: do not pack it yet. It ships once the last of its books is out, on ${longDate(OUT_ON)}.`,
    );
  });

  it('with an ordinary book too: the book from the shelf, the pre-order from the limit, shipping on the latest date', async () => {
    const buyer = await parentWith([
      [BOOK, 1],
      [PREORDER, 1],
      [LATER_TITLE, 2],
    ]);
    await buyer.startPayment();
    await buyer.confirm(CARDS.success);
    const orderId = (await buyer.complete()).body.order.id as number;
    expect(await shop.db('orders').where({ id: orderId }).first()).toMatchObject({ status: 'preordered', estimatedDelivery: null });
    const items = await shop.db('orderItems').where({ orderId }).orderBy('bookId');
    expect(items.map((i) => [i.bookId, Boolean(i.preorder)])).toEqual([
      [BOOK, false],
      [PREORDER, true],
      [LATER_TITLE, true],
    ]);
    expect(await countsOf(shop, BOOK)).toEqual({ inStock: 19, preordered: 0 });
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 6 });
    expect(await countsOf(shop, LATER_TITLE)).toEqual({ inStock: 0, preordered: 2 });
    await flushMail(shop);
    const confirmation = await shop.db('outbox').where({ toAddress: buyer.parent.email, orderId }).first('textBody');
    expect(confirmation.textBody).toContain(preorderedSentence(LATER));
  });

  it('an ordinary order stays as it was: succeeded, a delivery date, no line marked', async () => {
    const buyer = await parentWith([[BOOK, 1]]);
    await buyer.startPayment();
    await buyer.confirm(CARDS.success);
    const orderId = (await buyer.complete()).body.order.id as number;
    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(order.status).toBe('succeeded');
    expect(order.estimatedDelivery).not.toBeNull();
    expect(Boolean((await shop.db('orderItems').where({ orderId }).first()).preorder)).toBe(false);
    await flushMail(shop);
    const notice = await shop.db('outbox').where({ toAddress: SHOP_ADDRESS, orderId }).first('subject', 'textBody');
    expect(notice.subject).toMatch(new RegExp(`^New order #${orderId}:`));
    expect(notice.textBody).not.toContain('pre-order');
  });

  it('whose hold expired takes its copies from the limit again while they are there', async () => {
    const buyer = await parentWith([[PREORDER, 2]]);
    await buyer.startPayment();
    await expireHoldsOf(buyer);
    await shop.services.checkout.sweep();
    expect(await countsOf(shop, PREORDER)).toMatchObject({ preordered: 5 });
    await buyer.confirm(CARDS.success);
    const completed = await buyer.complete();
    expect(completed.status).toBe(200);
    expect(completed.body.order.status).toBe('preordered');
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 7 });
  });

  it('whose hold expired and whose copies went to another parent is refunded in full, told why', async () => {
    await makeForthcoming(shop, PREORDER, { limit: 15, preordered: 13, price: '16.99' });
    const rival = await parentWith([[PREORDER, 2]]);
    const buyer = await parentWith([[PREORDER, 2]]);
    await buyer.startPayment();
    await expireHoldsOf(buyer);
    // The rival's start gives the expired hold back and takes the last two copies.
    expect((await rival.startPayment()).status).toBe(200);
    await buyer.confirm(CARDS.success);
    const res = await buyer.complete();
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CHECKOUT_MESSAGES.preorderRefunded(await titleOf(PREORDER)));
    expect(await shop.db('sandboxRefunds').where({ paymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(1);
    expect(await shop.db('orders').where({ userId: await userIdOf(buyer) })).toHaveLength(0);
    // Never past the limit.
    expect(await countsOf(shop, PREORDER)).toEqual({ inStock: 0, preordered: 15 });
    await flushMail(shop);
    const refunded = await shop.db('outbox').where({ toAddress: buyer.parent.email }).orderBy('id', 'desc').first('textBody');
    expect(refunded.textBody).toContain('pre-order copy');
  });
});

it('the shipping address is the parent’s, as for any order', async () => {
  const buyer = await parentWith([[PREORDER, 1]]);
  await buyer.startPayment();
  await buyer.confirm(CARDS.success);
  const orderId = (await buyer.complete()).body.order.id as number;
  expect(await shop.db('orders').where({ id: orderId }).first()).toMatchObject({
    shippingAddress: SHIPPING.address,
    city: SHIPPING.city,
    zipCode: SHIPPING.zipCode,
  });
});

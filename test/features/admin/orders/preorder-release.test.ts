// Publication day (src/features/admin/orders/preorder-release.ts): on the shop's day reaching a
// title's date, paid pre-orders move to To pack oldest first, each served from the shelf;
// an order the shelf cannot cover waits, and the queue behind it with it; stock the operator
// enters serves the waiting pre-orders first and only the rest goes on sale. The sweep runs it
// and logs a failure. On SQLite, and on MariaDB when DATABASE_URL is set.
import type supertest from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { backgroundSweep } from '../../../../src/serve.ts';
import { estimatedDelivery } from '../../../../src/features/checkout/order-completion.ts';
import { dayIn } from '../../../../src/lib/dates.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { textOf } from '../../../helpers/admin-fixtures.ts';
import { postAdminForm } from '../../../helpers/book-admin.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { countsOf, makeForthcoming } from '../../../helpers/preorder-titles.ts';
import { insertPreorder } from '../../../helpers/preorders.ts';
import { capturedLog } from '../../../helpers/log-capture.ts';

const { log, lines } = capturedLog('info');

/** The shop's day, moved by each test as the calendar would. */
let today = '2026-11-28';
let shop: TestShop;
let agent: supertest.Agent;

beforeAll(async () => {
  shop = await buildTestShop({ log, today: () => today });
  ({ agent } = await operatorBrowser(shop));
});
afterAll(() => shop.close());
beforeEach(async () => {
  today = '2026-11-28';
  lines.length = 0;
  vi.restoreAllMocks();
  // Each test's orders alone: earlier tests' waiting pre-orders are set aside.
  await shop.db('orders').where({ status: 'preordered' }).update({ status: 'canceled' });
});

const release = () => shop.services.preorderRelease.release();
const statusOf = async (orderId: number) => (await shop.db('orders').where({ id: orderId }).first('status')).status as string;
const statuses = (ids: number[]) => Promise.all(ids.map(statusOf));
/** Minutes apart, oldest first. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('on publication day', () => {
  it('waits until the shop’s day reaches the date, then moves the pre-order to To pack, served from the shelf', async () => {
    const book = 5;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 10 });
    const { orderId } = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 2 }] });

    today = '2026-11-30';
    expect(await release()).toBe(0);
    expect(await statusOf(orderId)).toBe('preordered');
    expect(await countsOf(shop, book)).toEqual({ inStock: 10, preordered: 2 });

    today = '2026-12-01';
    expect(await release()).toBe(1);
    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(order.status).toBe('succeeded');
    expect(await countsOf(shop, book)).toEqual({ inStock: 8, preordered: 0 });
    // Never twice: a second run finds nothing to do.
    expect(await release()).toBe(0);
    expect(await countsOf(shop, book)).toEqual({ inStock: 8, preordered: 0 });

    const audit = await shop.db('auditLog').where({ orderId, action: 'released' });
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBeNull();
    expect(JSON.parse(audit[0].afterJson)).toMatchObject({ status: 'succeeded', served: [{ bookId: book, quantity: 2 }] });

    const toPack = await agent.get('/admin/to-pack').expect(200);
    expect(toPack.text).toContain(`Order #${orderId}`);
    const page = textOf((await agent.get(`/admin/orders/${orderId}`).expect(200)).text);
    expect(page).toContain('Moved to To pack: its pre-ordered books are out');
    expect(page).toMatch(/Served from stock: 2 × [^.]+\. Estimated delivery/);
    expect(page).toContain('The shop');
  });

  it('sets the delivery estimate as a new order gets it', async () => {
    const book = 5;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 3 });
    const { orderId } = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 1 }] });
    today = '2026-12-01';
    const expected = estimatedDelivery(new Date());
    await release();
    const order = (await shop.services.orderDetails.load(orderId)).order;
    expect(order.estimatedDelivery).toBe(expected);
  });

  it('serves the oldest first; one the shelf cannot cover waits, and every later one for the title waits behind it', async () => {
    const book = 6;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 3 });
    const a = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 2 }], createdAt: minutesAgo(30) });
    const b = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 2 }], createdAt: minutesAgo(20) });
    // One copy would cover this one, but it does not jump the queue.
    const c = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 1 }], createdAt: minutesAgo(10) });
    today = '2026-12-01';
    expect(await release()).toBe(1);
    expect(await statuses([a.orderId, b.orderId, c.orderId])).toEqual(['succeeded', 'preordered', 'preordered']);
    expect(await countsOf(shop, book)).toEqual({ inStock: 1, preordered: 3 });
    // The copy left is owed to the waiting pre-orders: none is on sale.
    expect(await onSale(book)).toBe(0);
  });

  it('stock the operator enters serves the waiting pre-orders first, oldest first, and only the rest goes on sale', async () => {
    const book = 7;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 0 });
    const a = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 2 }], createdAt: minutesAgo(30) });
    const b = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 3 }], createdAt: minutesAgo(20) });
    today = '2026-12-01';
    expect(await release()).toBe(0);

    // The shelf takes the first order and not the second: it still waits.
    let res = await postAdminForm(agent, '/admin/books', `/admin/books/${book}/stock`, { stock: '4', back: '/admin/books' });
    expect(res.status).toBe(303);
    expect(await statuses([a.orderId, b.orderId])).toEqual(['succeeded', 'preordered']);
    expect(await countsOf(shop, book)).toEqual({ inStock: 2, preordered: 3 });
    expect(await onSale(book)).toBe(0);

    // More copies: the second is served, and the two left over are for sale.
    res = await postAdminForm(agent, '/admin/books', `/admin/books/${book}/stock`, { stock: '5', back: '/admin/books' });
    expect(res.status).toBe(303);
    expect(await statuses([a.orderId, b.orderId])).toEqual(['succeeded', 'succeeded']);
    expect(await countsOf(shop, book)).toEqual({ inStock: 2, preordered: 0 });
    expect(await onSale(book)).toBe(2);
  });

  it('stock entered before the day is kept for the pre-orders until the day comes', async () => {
    const book = 7;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-05', inStock: 0 });
    const a = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 2 }] });
    const res = await postAdminForm(agent, '/admin/books', `/admin/books/${book}/stock`, { stock: '10', back: '/admin/books' });
    expect(res.status).toBe(303);
    expect(await statusOf(a.orderId)).toBe('preordered');
    expect(await countsOf(shop, book)).toEqual({ inStock: 10, preordered: 2 });
    today = '2026-12-05';
    expect(await release()).toBe(1);
    expect(await countsOf(shop, book)).toEqual({ inStock: 8, preordered: 0 });
  });

  it('a payment in progress for a pre-order holds no copy on the shelf: the shelf may be entered below it', async () => {
    const book = 7;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-05', inStock: 0 });
    await shop.db('books').where({ id: book }).increment('preordered', 3);
    await shop.db('stockHolds').insert({
      paymentIntentId: 'pi_preorder_in_progress',
      bookId: book,
      quantity: 3,
      preorder: true,
      expiresAt: new Date(Date.now() + 600_000),
    });
    try {
      const res = await postAdminForm(agent, '/admin/books', `/admin/books/${book}/stock`, { stock: '1', back: '/admin/books' });
      expect(res.status).toBe(303);
      expect(await countsOf(shop, book)).toEqual({ inStock: 1, preordered: 3 });
      expect((await shop.services.bookAdmin.find(book)).held).toBe(0);
    } finally {
      await shop.db('stockHolds').where({ paymentIntentId: 'pi_preorder_in_progress' }).delete();
    }
  });

  it('an order with two titles waits for the later one, taking nothing from the first, and holds up no one', async () => {
    const [first, later] = [8, 9];
    await makeForthcoming(shop, first, { publishedOn: '2026-12-01', inStock: 5 });
    await makeForthcoming(shop, later, { publishedOn: '2027-01-15', inStock: 5 });
    const both = await insertPreorder(shop.db, {
      lines: [
        { bookId: first, quantity: 1 },
        { bookId: later, quantity: 2 },
      ],
      createdAt: minutesAgo(30),
    });
    const firstOnly = await insertPreorder(shop.db, { lines: [{ bookId: first, quantity: 1 }], createdAt: minutesAgo(10) });

    today = '2026-12-01';
    expect(await release()).toBe(1);
    expect(await statuses([both.orderId, firstOnly.orderId])).toEqual(['preordered', 'succeeded']);
    expect(await countsOf(shop, first)).toEqual({ inStock: 4, preordered: 1 });
    expect(await countsOf(shop, later)).toEqual({ inStock: 5, preordered: 2 });

    today = '2027-01-15';
    expect(await release()).toBe(1);
    expect(await statusOf(both.orderId)).toBe('succeeded');
    expect(await countsOf(shop, first)).toEqual({ inStock: 3, preordered: 0 });
    expect(await countsOf(shop, later)).toEqual({ inStock: 3, preordered: 0 });
    const served = JSON.parse((await shop.db('auditLog').where({ orderId: both.orderId, action: 'released' }).first()).afterJson);
    expect(served.served).toEqual([
      expect.objectContaining({ bookId: first, quantity: 1 }),
      expect.objectContaining({ bookId: later, quantity: 2 }),
    ]);
  });

  it('serves only the pre-ordered lines: a line bought from the shelf in the same order took its copies at the sale', async () => {
    const [forthcoming, onShelf] = [10, 11];
    await makeForthcoming(shop, forthcoming, { publishedOn: '2026-12-01', inStock: 4 });
    await shop.db('books').where({ id: onShelf }).update({ inStock: 9, preordered: 0 });
    const { orderId } = await insertPreorder(shop.db, {
      lines: [
        { bookId: forthcoming, quantity: 1 },
        { bookId: onShelf, quantity: 3, preorder: false },
      ],
    });
    today = '2026-12-01';
    expect(await release()).toBe(1);
    expect(await statusOf(orderId)).toBe('succeeded');
    expect(await countsOf(shop, forthcoming)).toEqual({ inStock: 3, preordered: 0 });
    expect(await countsOf(shop, onShelf)).toEqual({ inStock: 9, preordered: 0 });
  });

  it('leaves alone a pre-order whose cancel is under way with the payment provider', async () => {
    const book = 12;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 4 });
    const { orderId } = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 1 }] });
    await shop
      .db('refunds')
      .insert({ orderId, amount: '12.99', reason: 'Canceled', status: 'pending', requestKey: `cancel:test-${orderId}` });
    today = '2026-12-01';
    expect(await release()).toBe(0);
    expect(await statusOf(orderId)).toBe('preordered');
    expect(await countsOf(shop, book)).toEqual({ inStock: 4, preordered: 1 });
  });
});

describe('on the sweep', () => {
  const sweep = () => backgroundSweep(shop.services, log).sweep(new Date());

  it('moves the pre-orders whose books are out, and says so in the log', async () => {
    const book = 13;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 2 });
    const { orderId } = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 1 }] });
    today = '2026-12-01';
    await sweep();
    expect(await statusOf(orderId)).toBe('succeeded');
    expect(lines.find((l) => l.msg === 'pre-orders whose books are out moved to To pack')).toMatchObject({ level: 30, released: 1 });
  });

  it('logs at error when the release cannot run, and the checkout sweep and the refund resume still run', async () => {
    const checkoutSweep = vi.spyOn(shop.services.checkout, 'sweep');
    const resume = vi.spyOn(shop.services.refunds, 'resumeStale');
    vi.spyOn(shop.services.preorderRelease, 'release').mockRejectedValue(new Error('the database went away'));
    await expect(sweep()).resolves.toEqual({ settled: 0 });
    expect(checkoutSweep).toHaveBeenCalledTimes(1);
    expect(resume).toHaveBeenCalledTimes(1);
    expect(lines.find((l) => l.msg === 'could not move paid pre-orders to To pack; retrying on the next tick')).toMatchObject({
      level: 50,
      err: { message: 'the database went away' },
    });
  });

  it('a stock entry stands when the release after it fails: logged at error, the next sweep serves the order', async () => {
    const book = 14;
    await makeForthcoming(shop, book, { publishedOn: '2026-12-01', inStock: 0 });
    const { orderId } = await insertPreorder(shop.db, { lines: [{ bookId: book, quantity: 1 }] });
    today = '2026-12-01';
    vi.spyOn(shop.services.preorderRelease, 'release').mockRejectedValueOnce(new Error('the database went away'));
    const res = await postAdminForm(agent, '/admin/books', `/admin/books/${book}/stock`, { stock: '3', back: '/admin/books' });
    expect(res.status).toBe(303);
    expect(await countsOf(shop, book)).toEqual({ inStock: 3, preordered: 1 });
    expect(lines.find((l) => l.msg === 'could not serve pre-orders after a stock entry; the next sweep tries again')).toMatchObject({
      level: 50,
      bookId: book,
    });
    await sweep();
    expect(await statusOf(orderId)).toBe('succeeded');
  });
});

describe("the shop's day in its time zone (SHOP_TIME_ZONE)", () => {
  // Kiritimati is always a calendar day or more ahead of Pago Pago (UTC+14 and UTC-11): a title
  // out today in Kiritimati is out for a shop there and not yet for a shop in Pago Pago.
  it('moves a pre-order on the day its title is out where the shop is, not a day before', async () => {
    const outOn = dayIn('Pacific/Kiritimati');
    for (const [zone, expected] of [
      ['Pacific/Pago_Pago', 'preordered'],
      ['Pacific/Kiritimati', 'succeeded'],
    ] as const) {
      const zoned = await buildTestShop({ env: { SHOP_TIME_ZONE: zone } });
      try {
        await makeForthcoming(zoned, 5, { publishedOn: outOn, inStock: 2 });
        const { orderId } = await insertPreorder(zoned.db, { lines: [{ bookId: 5, quantity: 1 }] });
        await zoned.services.preorderRelease.release();
        expect((await zoned.db('orders').where({ id: orderId }).first('status')).status, zone).toBe(expected);
      } finally {
        await zoned.close();
      }
    }
  });
});

/** Copies of the book a parent may buy, as the catalogue answers. */
async function onSale(bookId: number): Promise<number> {
  const res = await shop.browser().get('/api/books').expect(200);
  const books = JSON.parse(res.text) as Array<{ id: number; inStock: number }>;
  return books.find((b) => b.id === bookId)!.inStock;
}
